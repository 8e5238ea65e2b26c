/**
 * End-to-end test of the scene editor (editor.html, src/app/editor/) in headless Chromium on
 * SwiftShader, driven as a user would with Playwright: open the real fruit_drops capture, see it
 * levelled and rendered top-down, draw a sidewalk, a crosswalk and an obstacle, name two points,
 * undo a mistake, save; reload the page, open the saved scene and its capture, save again: the
 * same JSON. Obstacles proposed from the scan are saved with the occupancy grid's parameters; a
 * scenario saved between a named start and goal routes over the drawn sidewalks; a capture with no
 * detectable ground is named in the banner; a bowtie is refused with the problem named.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViteServer } from '../src/tools/browser-harness';
import { CHROMIUM_PATH, SWIFTSHADER_FLAGS } from '../src/tools/chromium-flags';
import { writePly } from '../src/splats/formats/ply-writer';
import { allocateSplatCloud } from '../src/splats/splat-cloud';
import { parseSceneFile } from '../src/world/bake/scene-file';
import { ensureSceneCapture } from '../src/bench/scanned-scenes-node';
import { parseScenarios } from '../src/sim/scenario';
import { SHARED_DATA } from './shared-data';

const CAPTURE = resolve(SHARED_DATA, 'splats/fruit_drops_minimal.ply');
type Handle = { ready: boolean; error: string | null; renders: number; status: string; saved: string | null; draft: () => { transform: { rotation: number[] }; polygons: unknown[]; points: unknown[] }; problems: () => { where: string; message: string; severity: string }[]; clientPoint: (x: number, y: number) => [number, number] };
const ed = <T>(page: Page, f: (h: Handle) => T) => page.evaluate(`(${f.toString()})(window.curbsideEditor)`) as Promise<T>;

let server: ViteDevServer;
let origin: string;
let browser: Browser;
beforeAll(async () => {
  ({ server, origin } = await startViteServer());
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: SWIFTSHADER_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.close().catch(() => undefined);
});

async function openEditor(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 640 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${origin}/editor.html`);
  await page.waitForFunction(() => (window as unknown as { curbsideEditor?: Handle }).curbsideEditor?.ready || (window as unknown as { curbsideEditor?: Handle }).curbsideEditor?.error, undefined, { timeout: 60_000 });
  expect(await ed(page, (h) => h.error)).toBeNull();
  expect(errors).toEqual([]);
  return page;
}

/** Waits until the editor has rendered at least `n` top-down frames in total. */
const rendered = (page: Page, n: number) => page.waitForFunction((k) => (window as unknown as { curbsideEditor: Handle }).curbsideEditor.renders >= k, n, { timeout: 60_000 });

async function clickAt(page: Page, x: number, y: number, options: { dbl?: boolean } = {}): Promise<void> {
  const [cx, cy] = await page.evaluate(([a, b]) => (window as unknown as { curbsideEditor: Handle }).curbsideEditor.clientPoint(a, b), [x, y]);
  if (options.dbl) await page.mouse.dblclick(cx, cy);
  else await page.mouse.click(cx, cy);
}

async function drawRing(page: Page, tool: string, ring: [number, number][]): Promise<void> {
  await page.check(`input[name=tool][value=${tool}]`);
  for (const [x, y] of ring) await clickAt(page, x, y);
  await clickAt(page, ring[0][0], ring[0][1]); // close on the first vertex
}

async function save(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.click('#save');
  const d = await download;
  expect(d.suggestedFilename()).toBe('my-table.json');
  return readFileSync(await d.path(), 'utf8');
}

describe('scene editor', () => {
  let first = '';

  it('opens a capture, levels and renders it top-down, draws, names points, undoes and saves a valid scene', { timeout: 180_000 }, async () => {
    const page = await openEditor();
    await page.setInputFiles('#open-capture', CAPTURE);
    await rendered(page, 1);
    expect(await ed(page, (h) => h.status)).toMatch(/^ground fit: normal/);
    // Levelled: the draft's transform is no longer the identity.
    expect(await ed(page, (h) => h.draft().transform.rotation[0])).toBeLessThan(0.999);
    // The top-down render shows the capture: many distinct colours, not a black frame.
    const png = PNG.sync.read(await page.locator('#map').screenshot());
    const colours = new Set<number>();
    let lit = 0;
    for (let i = 0; i < png.width * png.height; i++) {
      const [r, g, b] = [png.data[4 * i], png.data[4 * i + 1], png.data[4 * i + 2]];
      if (r + g + b > 60) lit++;
      colours.add((r >> 4) | ((g >> 4) << 4) | ((b >> 4) << 8));
    }
    expect(lit / (png.width * png.height)).toBeGreaterThan(0.05);
    expect(colours.size).toBeGreaterThan(50);

    await page.fill('#scene-name', 'my-table');
    await drawRing(page, 'sidewalk', [[-0.6, -0.3], [0.6, -0.3], [0.6, 0], [-0.6, 0]]);
    // The crosswalk shares the sidewalk's corner (snapped) and is closed by a double click.
    await page.check('input[name=tool][value=crosswalk]');
    for (const [x, y] of [[0.3, 0.002], [0.3, 0.4], [0.55, 0.4]] as const) await clickAt(page, x, y);
    await clickAt(page, 0.6, 0.0, { dbl: true });
    await page.fill('#obstacle-height', '0.4');
    await drawRing(page, 'obstacle', [[-0.4, 0.1], [-0.2, 0.1], [-0.2, 0.25], [-0.4, 0.25]]);
    await page.check('input[name=tool][value=point]');
    await page.fill('#point-name', 'west');
    await clickAt(page, -0.5, -0.15);
    await page.selectOption('#point-kind', 'goal');
    await page.fill('#point-name', 'east');
    await clickAt(page, 0.5, -0.15);
    // A mistake, undone with the button.
    await page.fill('#point-name', 'oops');
    await clickAt(page, 0, 0.3);
    expect(await ed(page, (h) => h.draft().points.length)).toBe(3);
    await page.click('#undo');
    expect(await ed(page, (h) => h.draft().points.length)).toBe(2);
    expect(await ed(page, (h) => h.problems().filter((p) => p.severity === 'error'))).toEqual([]);

    first = await save(page);
    const scene = parseSceneFile(first, 'my-table.json');
    expect(scene.version).toBe(2);
    expect(scene.capture).toBe('fruit_drops_minimal.ply');
    expect(scene.walkable.sidewalk).toHaveLength(1);
    expect(scene.walkable.crosswalk).toHaveLength(1);
    expect(scene.walkable.crosswalk[0].outer).toContainEqual([0.6, 0]); // snapped onto the sidewalk corner
    expect(scene.obstacles[0].height).toBe(0.4);
    expect(scene.points.map((p) => `${p.kind} ${p.name}`)).toEqual(['start west', 'goal east']);
    await page.close();
  });

  it('reloads the saved scene with its capture and saves the same JSON', { timeout: 120_000 }, async () => {
    expect(first).not.toBe('');
    const page = await openEditor();
    const file = resolve(server.config.cacheDir, 'my-table.json');
    writeFileSync(file, first);
    await page.setInputFiles('#open-scene', file);
    await page.waitForFunction(() => /now open its capture fruit_drops_minimal\.ply/.test((window as unknown as { curbsideEditor: Handle }).curbsideEditor.status), undefined, { timeout: 30_000 });
    await page.setInputFiles('#open-capture', CAPTURE);
    await rendered(page, 1);
    expect(await save(page)).toBe(first);
    await page.close();
  });

  it('proposes obstacles from the scan and records the occupancy grid in the saved file', { timeout: 120_000 }, async () => {
    // The checked-in fruit-drops scene (scaled × 4 to metres): its sign stands 1.1 m tall.
    const page = await openEditor();
    await page.setInputFiles('#open-scene', resolve(import.meta.dirname, '../scenes/fruit-drops.json'));
    await page.waitForFunction(() => /now open its capture/.test((window as unknown as { curbsideEditor: Handle }).curbsideEditor.status), undefined, { timeout: 30_000 });
    await page.setInputFiles('#open-capture', CAPTURE);
    await rendered(page, 1);
    await page.fill('#scene-name', 'my-table');
    await page.click('#scan-obstacles');
    expect(await ed(page, (h) => h.status)).toMatch(/^\d+ obstacles from the scan \(0\.25 m cells/);
    const scene = parseSceneFile(await save(page), 'my-table.json');
    const fromScan = scene.obstacles.filter((o) => o.label === 'from the scan');
    expect(fromScan.length).toBeGreaterThan(0);
    expect(fromScan.every((o) => o.height > 0.3)).toBe(true);
    expect(scene.obstacles.filter((o) => o.label !== 'from the scan')).toHaveLength(1); // the hand-drawn sign stays
    expect(scene.occupancy).toEqual({ cell: 0.25, minHeight: 0.3, maxHeight: 2, minOpacity: 0.5, minSplats: 3 });
    await page.close();
  });

  it('saves a scenario between a named start and goal of the street-corner scene', { timeout: 120_000 }, async () => {
    const scenePath = resolve(import.meta.dirname, '../scenes/street-corner.json');
    const scene = parseSceneFile(readFileSync(scenePath, 'utf8'), 'scenes/street-corner.json');
    const capture = resolve(import.meta.dirname, '..', ensureSceneCapture('scenes/street-corner.json', scene));
    const page = await openEditor();
    await page.setInputFiles('#open-scene', scenePath);
    await page.waitForFunction(() => /now open its capture/.test((window as unknown as { curbsideEditor: Handle }).curbsideEditor.status), undefined, { timeout: 30_000 });
    await page.setInputFiles('#open-capture', capture);
    await rendered(page, 1);
    await page.selectOption('#scenario-behaviour', 'obstructing');
    const download = page.waitForEvent('download');
    await page.click('#save-scenario');
    const d = await download;
    expect(d.suggestedFilename()).toBe('street-corner-east-sidewalk-north-west-corner.json');
    const [scenario] = parseScenarios('s.json', readFileSync(await d.path(), 'utf8'));
    expect(scenario.world).toEqual({ kind: 'scene', path: 'scenes/street-corner.json' });
    expect(scenario.robot.start.slice(0, 2)).toEqual(scene.points[0].position);
    const end = scenario.robot.route[scenario.robot.route.length - 1];
    expect(Math.hypot(end[0] - scene.points[1].position[0], end[1] - scene.points[1].position[1])).toBeLessThan(0.01);
    expect(scenario.pedestrians.length).toBeGreaterThan(0);
    await page.close();
  });

  it('says which capture has no detectable ground and keeps it open', { timeout: 120_000 }, async () => {
    const haze = allocateSplatCloud(500, 0);
    for (let i = 0; i < 500; i++) {
      haze.positions.set([(i % 25) * 0.1, Math.floor(i / 25) * 0.1, 0], 3 * i);
      haze.scales.set([0.05, 0.05, 0.05], 3 * i);
      haze.rotations.set([1, 0, 0, 0], 4 * i);
      haze.opacities[i] = 0.2;
    }
    const chunks: Uint8Array[] = [];
    writePly(haze, (b) => void chunks.push(b.slice()));
    const file = resolve(server.config.cacheDir, 'haze.ply');
    writeFileSync(file, Buffer.concat(chunks));
    const page = await openEditor();
    await page.setInputFiles('#open-capture', file);
    await rendered(page, 1);
    expect(await page.locator('#banner').textContent()).toMatch(/haze\.ply: ground fit: only 0 of 500 splats are opaque .*pick another up axis or level it with the 3-point tool/);
    await page.close();
  });

  it('adds a vertex with a double click on an edge and deletes it with Delete', { timeout: 120_000 }, async () => {
    const page = await openEditor();
    await page.setInputFiles('#open-capture', CAPTURE);
    await rendered(page, 1);
    await drawRing(page, 'road', [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.4], [-0.5, 0.4]]);
    const vertices = () => ed(page, (h) => (h.draft().polygons[0] as { outer: unknown[] }).outer.length);
    expect(await vertices()).toBe(4);
    await page.check('input[name=tool][value=select]');
    await clickAt(page, 0, -0.5, { dbl: true });
    expect(await vertices()).toBe(5);
    await page.keyboard.press('Delete');
    expect(await vertices()).toBe(4);
    await page.close();
  });

  it('refuses to save a self-intersecting polygon and names it', { timeout: 120_000 }, async () => {
    const page = await openEditor();
    await page.setInputFiles('#open-capture', CAPTURE);
    await rendered(page, 1);
    await drawRing(page, 'road', [[-0.5, -0.5], [0.5, 0.5], [0.5, -0.5], [-0.5, 0.4]]);
    await page.click('#save');
    expect(await ed(page, (h) => h.status)).toMatch(/^not saved: 1 problem/);
    expect(await page.locator('#problems li.error').first().textContent()).toMatch(/^road 1: edges \d and \d intersect/);
    expect(await ed(page, (h) => h.saved)).toBeNull();
    await page.close();
  });
});
