/**
 * Makes `scenes/street-corner.json` with the scene editor, as a user would, in headless Chromium:
 * `npx tsx test/make-street-scene.ts`. The capture is a baked corner of world 1 (150 m), regenerated
 * by `npm run bake -- --world 1 --size 150 --sh-degree 0 --crop=-75,-62,-38,-18 --out
 * scenes/captures/street-corner.ply` (56 k splats, 3 MB; not committed: the scene's `source.bake`
 * says how, and every Node reader bakes it when missing). The script opens it in the editor with the
 * +z up axis, lets the ground fit level it, draws the sidewalks, the crosswalk and the road along
 * the zones of world 1 (given here in the capture's frame, mapped through the editor's levelling,
 * snapped to a 0.1 m grid), names a start and a goal, takes the obstacles from the scan, and saves;
 * the saved file gets its `source` and is written to scenes/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { applyTransform } from '../src/app/editor/levelling';
import type { DraftTransform } from '../src/app/editor/scene-draft';
import { ensureSceneCapture, REPO_ROOT } from '../src/bench/scanned-scenes-node';
import { startViteServer } from '../src/tools/browser-harness';
import { CHROMIUM_PATH, SWIFTSHADER_FLAGS } from '../src/tools/chromium-flags';
import { parseSceneFile, type SceneFile } from '../src/world/bake/scene-file';

const SOURCE: NonNullable<SceneFile['source']> = { bake: { world: 1, size: 150, shDegree: 0, crop: [-75, -62, -38, -18] } };
const CAPTURE = 'captures/street-corner.ply';
const OUT = resolve(REPO_ROOT, 'scenes/street-corner.json');

// World 1's zones around its south-west crossing (capture frame = world frame of the bake), as rectangles.
const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
const SIDEWALKS = [rect(-45, -51, -42.3, -31), rect(-46.5, -55, -42.3, -51), rect(-59.9, -51, -56.6, -32), rect(-62, -55, -55.2, -51)];
const CROSSWALK = rect(-55.2, -55, -46.5, -51);
const ROAD = rect(-54.2, -51, -47.4, -24);
const POINTS: [string, 'start' | 'goal', [number, number]][] = [['east sidewalk, north', 'start', [-43.7, -33]], ['west corner', 'goal', [-58, -53]]];

const capturePath = ensureSceneCapture('scenes/street-corner.json', { capture: CAPTURE, source: SOURCE } as SceneFile);
const { server, origin } = await startViteServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: SWIFTSHADER_FLAGS });
type Handle = { ready: boolean; renders: number; status: string; draft: () => { transform: DraftTransform }; clientPoint: (x: number, y: number) => [number, number] };
const handle = <T>(page: Page, f: string) => page.evaluate(`(${f})(window.curbsideEditor)`) as Promise<T>;
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${origin}/editor.html`);
  await page.waitForFunction(() => (window as unknown as { curbsideEditor: Handle }).curbsideEditor.ready, undefined, { timeout: 60_000 });
  await page.selectOption('#up-axis', '+z');
  await page.setInputFiles('#open-capture', resolve(REPO_ROOT, capturePath));
  await page.waitForFunction(() => (window as unknown as { curbsideEditor: Handle }).curbsideEditor.renders >= 1, undefined, { timeout: 120_000 });
  console.log(await handle<string>(page, 'h => h.status'));
  const t = await handle<DraftTransform>(page, 'h => h.draft().transform');
  const toEditor = (p: [number, number]) => applyTransform(t, [p[0], p[1], 0]).slice(0, 2) as [number, number];
  const click = async (p: [number, number]) => {
    const [x, y] = toEditor(p);
    const [cx, cy] = await page.evaluate(([a, b]) => (window as unknown as { curbsideEditor: Handle }).curbsideEditor.clientPoint(a, b), [x, y]);
    await page.mouse.click(cx, cy);
  };
  const draw = async (tool: string, ring: [number, number][]) => {
    await page.check(`input[name=tool][value=${tool}]`);
    for (const p of ring) await click(p);
    await click(ring[0]);
  };
  await page.fill('#grid', '0.1');
  for (const s of SIDEWALKS) await draw('sidewalk', s);
  await draw('crosswalk', CROSSWALK);
  await draw('road', ROAD);
  await page.check('input[name=tool][value=point]');
  for (const [name, kind, p] of POINTS) {
    await page.selectOption('#point-kind', kind);
    await page.fill('#point-name', name);
    await click(p);
  }
  await page.click('#scan-obstacles');
  console.log(await handle<string>(page, 'h => h.status'));
  await page.fill('#scene-name', 'street-corner');
  await page.fill('#capture-path', CAPTURE);
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.click('#save');
  const saved = readFileSync(await (await download).path(), 'utf8');
  const scene = { ...JSON.parse(saved), source: SOURCE };
  const text = `${JSON.stringify(scene, null, 2)}\n`;
  parseSceneFile(text, OUT);
  writeFileSync(OUT, text);
  await page.screenshot({ path: resolve(REPO_ROOT, 'docs/editor-street-corner.jpg'), quality: 80 });
  console.log(`wrote ${OUT} (${scene.walkable.sidewalk.length} sidewalks, ${scene.walkable.crosswalk.length} crosswalk, ${scene.obstacles.length} obstacles, ${scene.points.length} points) and docs/editor-street-corner.jpg`);
} finally {
  await browser.close();
  await server.close();
}
