/**
 * End-to-end test of the demo page (index.html, src/app/) in headless Chromium on SwiftShader:
 * the page loads and draws a non-blank street with pedestrians (image statistics of a screenshot
 * of the canvas), the HUD updates, a recorded episode replays through the URL hash to the same final
 * state, a dropped malformed file shows an error banner while the page keeps rendering, the example
 * ONNX policy (picked in the panel) drives the robot from its camera, a dropped model with a
 * manifest that does not match it is refused with the mismatch named, and a closure scenario's
 * closure triggers, is announced in the HUD and is detoured around, and the shipped real place
 * (Monaco from OpenStreetMap, `suite=monaco-casino`) opens and its unit scenario reaches the goal.
 * Tiny canvas (320×240) and a thinned splat background: SwiftShader rasterises on 2 CPU cores.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoHarness } from './demo-harness';
import { SHARED_DATA } from './shared-data';
import { parseScenarios } from '../src/sim/scenario';

const QUERY = 'w=320&h=240&maxSplats=25000&viewDistance=30';
type Demo = { frames: number; state: () => { hud: string; time: number; robot: { x: number; y: number; yaw: number } }; policy: () => string; selectPolicy: (k: string) => void; runToEnd: () => Promise<unknown>; recordingHash: () => string; pedestrianCount: () => number };
const demo = <T>(page: Page, f: (d: Demo) => T | Promise<T>) => page.evaluate(f as never) as Promise<T>;
const frames = (page: Page) => page.evaluate(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames);

let h: DemoHarness;
beforeAll(async () => {
  h = await startDemo();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('demo page', () => {
  it('draws a non-blank street with pedestrians and the HUD updates', async () => {
    const page = await h.open(`${QUERY}&suite=city&walkers=6&camera=orbit`);
    const hud0 = await demo(page, (_d) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.state().hud);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= 3, undefined, { timeout: 60_000 });
    const hud1 = await page.locator('#hud').textContent();
    expect(hud1).toMatch(/FPS \d/);
    expect(hud1).toMatch(/pedestrians 6/);
    expect(hud1, 'HUD text changes between frames').not.toBe(hud0);
    const png = PNG.sync.read(await page.locator('#canvas').screenshot());
    const n = png.width * png.height;
    const mean = [0, 0, 0], sq = [0, 0, 0];
    const colours = new Set<number>();
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) {
        const v = png.data[4 * i + c];
        mean[c] += v / n;
        sq[c] += (v * v) / n;
      }
      colours.add((png.data[4 * i] >> 3) | ((png.data[4 * i + 1] >> 3) << 5) | ((png.data[4 * i + 2] >> 3) << 10));
    }
    const std = mean.map((m, c) => Math.sqrt(sq[c] - m * m));
    console.log(`canvas ${png.width}×${png.height}: mean ${mean.map((v) => v.toFixed(0))}, std ${std.map((v) => v.toFixed(1))}, ${colours.size} colours`);
    expect(Math.min(...std), 'not a single colour').toBeGreaterThan(15);
    expect(colours.size).toBeGreaterThan(200);
    expect(await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.pedestrianCount())).toBe(6);
    await page.close();
  }, 90_000);

  it('replays a recorded episode from the URL hash to the same final state', async () => {
    const page = await h.open(`${QUERY}&suite=smoke&policy=expert&walkers=3&camera=follow&bodies=0`);
    // "Save scenario" downloads the scenario being shown as a file the bench reads.
    const download = page.waitForEvent('download');
    await page.click('#save-scenario');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^smoke_.*\.scenario\.json$/);
    const [shown] = parseScenarios(file.suggestedFilename(), readFileSync(await file.path(), 'utf8'));
    expect(shown.suite).toBe('smoke');
    const final = await demo(page, (_d) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.runToEnd());
    const hash = await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.recordingHash());
    await page.close();
    const replay = await h.open(`${QUERY}&bodies=0`, hash);
    const replayed = await demo(replay, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.runToEnd());
    expect(replayed).toEqual(final);
    expect((final as { end: string }).end).not.toBe('running');
    await replay.close();
  }, 90_000);

  it('runs a scenario with a triggered closure: the HUD shows it in force and the notice, the expert detours to the goal', async () => {
    const page = await h.open(`${QUERY}&suite=closure&scenario=closure/000&walkers=0&policy=expert&camera=orbit&bodies=0`);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= 1, undefined, { timeout: 60_000 });
    const hudBefore = await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.state().hud);
    expect(hudBefore).toContain('closures in force 0 / 1');
    expect(hudBefore).not.toContain('notice @');
    await demo(page, () => (window as unknown as { curbsideDemo: Demo & { stepUntil: (t: number) => Promise<number> } }).curbsideDemo.stepUntil(20));
    const at = await frames(page);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= n + 1, at, { timeout: 60_000 });
    const hud = await page.locator('#hud').textContent();
    expect(hud).toContain('closures in force 1 / 1');
    expect(hud).toMatch(/notice @ 17\.\d s: Crosswalk across \w+ \w+ closed ahead/);
    const final = (await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.runToEnd())) as { end: string; failures: number };
    expect(final).toMatchObject({ end: 'goal', failures: 0 });
    await page.close();
  }, 90_000);

  it('opens the real place: Monaco from OpenStreetMap, a unit scenario the expert drives to its goal', async () => {
    const page = await h.open(`${QUERY}&suite=monaco-casino&scenario=osm/monaco-casino/seed0/unit/straight/000&walkers=2&policy=expert&camera=follow&bodies=0`);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= 2, undefined, { timeout: 120_000 });
    const hud = await page.locator('#hud').textContent();
    expect(hud).toMatch(/pedestrians 2/);
    expect(await page.locator('#banner').isVisible().catch(() => false)).toBe(false);
    const shot = PNG.sync.read(await page.locator('canvas').first().screenshot());
    const lum: number[] = [];
    for (let i = 0; i < shot.data.length; i += 4) lum.push(0.299 * shot.data[i] + 0.587 * shot.data[i + 1] + 0.114 * shot.data[i + 2]);
    const mean = lum.reduce((a, b) => a + b, 0) / lum.length;
    expect(Math.sqrt(lum.reduce((a, b) => a + (b - mean) ** 2, 0) / lum.length), 'a street, not a blank canvas').toBeGreaterThan(10);
    const final = (await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.runToEnd())) as { end: string };
    expect(final.end).toBe('goal');
    await page.close();
  }, 180_000);

  it('shows an error for a dropped malformed file and keeps rendering', async () => {
    const page = await h.open(`${QUERY}&suite=city&walkers=2&bodies=0`);
    const dataTransfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['{"id": "broken", "robot": '], 'broken-scenario.json', { type: 'application/json' }));
      return dt;
    });
    await page.dispatchEvent('#view', 'drop', { dataTransfer });
    await page.waitForSelector('#banner:not([hidden])', { timeout: 10_000 });
    expect(await page.locator('#banner').textContent()).toMatch(/broken-scenario\.json: not valid JSON/);
    const before = await frames(page);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= n + 2, before, { timeout: 30_000 });
    const bad = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([112, 108, 121, 10, 0, 1, 2])], 'truncated.ply'));
      return dt;
    });
    await page.dispatchEvent('#view', 'drop', { dataTransfer: bad });
    await page.waitForFunction(() => /truncated\.ply/.test(document.getElementById('banner')!.textContent ?? ''), undefined, { timeout: 10_000 });
    await page.close();
  }, 90_000);

  it('shows a SOG capture dropped as its folder\'s files (meta.json and the WebP images)', async () => {
    const page = await h.open(`${QUERY}&suite=city&walkers=0&bodies=0`);
    const base = `/@fs${resolve(SHARED_DATA, 'splats/semarang-sog/5_9')}/`;
    const names = ['meta.json', 'means_l.webp', 'means_u.webp', 'quats.webp', 'scales.webp', 'sh0.webp', 'shN_centroids.webp', 'shN_labels.webp'];
    const dataTransfer = await page.evaluateHandle(async ([b, ns]) => {
      const dt = new DataTransfer();
      for (const n of ns) dt.items.add(new File([await (await fetch(b + n)).arrayBuffer()], n));
      return dt;
    }, [base, names] as const);
    await page.dispatchEvent('#view', 'drop', { dataTransfer });
    await page.waitForFunction(() => /meta\.json: 252,828 splats shown/.test(document.getElementById('banner')!.textContent ?? ''), undefined, { timeout: 60_000 });
    await page.close();
  }, 120_000);

  it('switches suite, behaviour and policy a moment apart without an error banner', async () => {
    // Before scene changes were serialised, the frame loop encoded splats while a new scene was still
    // uploading and the banner read "SplatRenderer.encode: no scene set".
    const page = await h.open(`${QUERY}&suite=city&walkers=2&bodies=0&camera=follow`);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= 2, undefined, { timeout: 60_000 });
    await page.selectOption('#suite', 'reactive');
    await page.waitForTimeout(1000);
    await page.selectOption('#behaviour', 'gesturing');
    await page.waitForTimeout(1000);
    await page.selectOption('#policy', 'expert');
    const f0 = await frames(page);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= n + 5, f0, { timeout: 60_000 });
    expect(await page.locator('#banner').textContent()).not.toMatch(/error|no scene set/i);
    expect(await page.locator('#banner').isHidden(), await page.locator('#banner').textContent() ?? '').toBe(true);
    await page.close();
  }, 120_000);

  for (const [kind, name] of [['onnx-example', 'example single-frame'], ['onnx-bc-gnm', 'bc-gnm']] as const) it(`drives the robot with the ONNX policy ${kind} picked in the panel`, async () => {
    const page = await h.open(`${QUERY}&suite=${kind === 'onnx-example' ? 'city' : 'smoke'}&walkers=2&bodies=0&camera=follow`);
    const start = await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.state().robot);
    await page.selectOption('#policy', kind);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.policy() === n, name, { timeout: 30_000 });
    await page.waitForFunction(
      (s0) => {
        const r = (window as unknown as { curbsideDemo: Demo }).curbsideDemo.state().robot;
        return Math.hypot(r.x - s0.x, r.y - s0.y) > 0.05;
      },
      start,
      { timeout: 30_000 },
    );
    expect(await page.locator('#banner').isHidden()).toBe(true);
    await page.close();
  }, 90_000);

  it('refuses a dropped ONNX model whose manifest does not match it and keeps rendering', async () => {
    const dir = resolve(import.meta.dirname, '../assets/policies/single-frame');
    const model = [...readFileSync(resolve(dir, 'model.onnx'))];
    const manifest = JSON.parse(readFileSync(resolve(dir, 'model.json'), 'utf8'));
    const wrong = JSON.stringify({ ...manifest, image: { width: 40, height: 24 } });
    const page = await h.open(`${QUERY}&suite=city&walkers=0&bodies=0`);
    const dataTransfer = await page.evaluateHandle(
      ([bytes, json]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'model.onnx'));
        dt.items.add(new File([json], 'model.json', { type: 'application/json' }));
        return dt;
      },
      [model, wrong] as const,
    );
    await page.dispatchEvent('#view', 'drop', { dataTransfer });
    await page.waitForSelector('#banner:not([hidden])', { timeout: 30_000 });
    const text = await page.locator('#banner').textContent();
    expect(text).toMatch(/model\.onnx: input 'obs' \(manifest inputs\.observation\)/);
    expect(text).toMatch(/40/);
    expect(await demo(page, () => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.policy())).toBe('teleop');
    const before = await frames(page);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= n + 2, before, { timeout: 30_000 });
    // The manifest first, then the model: the pair loads and drives.
    const drop = async (name: string, content: number[] | string) => {
      const dt = await page.evaluateHandle(([n, c]) => {
        const d = new DataTransfer();
        d.items.add(new File([typeof c === 'string' ? c : new Uint8Array(c)], n));
        return d;
      }, [name, content] as const);
      await page.dispatchEvent('#view', 'drop', { dataTransfer: dt });
    };
    await drop('model.json', JSON.stringify(manifest));
    await page.waitForFunction(() => /now drop its \.onnx/.test(document.getElementById('policy-info')!.textContent ?? ''), undefined, { timeout: 10_000 });
    await drop('model.onnx', model);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.policy() === 'example single-frame', undefined, { timeout: 30_000 });
    expect(await page.locator('#policy').inputValue()).toBe('onnx-dropped');
    await page.close();
  }, 90_000);
});
