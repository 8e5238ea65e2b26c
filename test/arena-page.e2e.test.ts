/**
 * End-to-end test of the arena page (arena.html, src/app/arena/) in headless Chromium on
 * SwiftShader, played as a person would with Playwright's keyboard: pick a localization task of the
 * checked-in cityarena suite, turn right (D: the camera's yaw drops by 30° and the first-person view
 * changes), walk (W: the step counter moves), type the true grid cell and press Enter: the episode is
 * answered and scores 1, and "Download record" gives the `episodes.jsonl` record of the run (agent
 * `human`, every action). The page shows the task's grid map and no coordinates. Renders happen only
 * after an action (a 640×480 SwiftShader frame takes a few seconds on 2 cores).
 * `CURBSIDE_ARENA_SCREENSHOT=FILE` also saves a screenshot of the page.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTaskFile } from '../src/arena/task';
import type { ArenaHandle, ArenaPageState } from '../src/app/arena/arena-main';
import { startViteServer } from '../src/tools/browser-harness';
import { CHROMIUM_PATH, SWIFTSHADER_FLAGS } from '../src/tools/chromium-flags';

const TASK_ID = 'localization-01';
const suite = parseTaskFile('cityarena.json', readFileSync(resolve(import.meta.dirname, '../scenes/arena/cityarena.json'), 'utf8'));
const task = suite.tasks.find((t) => t.id === TASK_ID)!;

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

const arena = (page: Page) => page.evaluate(() => (window as unknown as { curbsideArena: ArenaHandle }).curbsideArena.state()) as Promise<ArenaPageState>;
const idle = (page: Page) => page.evaluate(() => (window as unknown as { curbsideArena: ArenaHandle }).curbsideArena.idle());
const viewPixels = async (page: Page) => PNG.sync.read(await page.locator('#view').screenshot()).data;

describe('arena page', () => {
  it('plays a localization task with the keyboard, answers it and downloads the scored record', { timeout: 150_000 }, async () => {
    if (task.truth.scoring !== 'exact_match') throw new Error(`${TASK_ID} should be scored by exact_match`);
    const t0 = performance.now();
    const lap = (what: string) => console.log(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const page = await browser.newPage({ viewport: { width: 1320, height: 820 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/arena.html?task=${TASK_ID}`);
    await page.evaluate(() => (window as unknown as { curbsideArena: ArenaHandle }).curbsideArena.ready);
    lap('loaded (suite, world, first view)');
    let s = await arena(page);
    expect(s).toMatchObject({ taskId: TASK_ID, step: 0, stepsLeft: task.stepLimit, status: null, score: null, viewYawDeg: 0 });
    expect(s.renders).toBe(1);
    expect(await page.locator('#instruction').textContent()).toBe(task.instruction);
    expect(await page.locator('#reference-figure').isVisible(), 'the grid map is the reference image').toBe(true);
    expect(await page.locator('#map-figure').isVisible(), 'no current-location map without location').toBe(false);
    const text = (await page.locator('#panel').textContent()) ?? '';
    expect(text, 'no coordinates in the text').not.toMatch(/\d+\.\d{2,}/);
    const before = await viewPixels(page);

    await page.keyboard.press('d');
    await idle(page);
    lap('D rendered');
    s = await arena(page);
    expect(s.viewYawDeg).toBe(-30);
    expect(s.step).toBe(1);
    expect(s.renders).toBe(2);
    const after = await viewPixels(page);
    let changed = 0;
    for (let i = 0; i < before.length; i += 4) if (Math.abs(before[i] - after[i]) + Math.abs(before[i + 1] - after[i + 1]) + Math.abs(before[i + 2] - after[i + 2]) > 30) changed++;
    expect(changed / (before.length / 4), 'the view turned').toBeGreaterThan(0.05);

    await page.keyboard.press('w');
    expect((await arena(page)).step).toBe(2);
    expect(await page.locator('#observation').textContent()).toMatch(/Step 3 of 50/);
    await idle(page);
    lap('W rendered');

    // The answer box takes the keys: typing "w" there does not walk.
    await page.locator('#answer').fill(`x:${task.truth.cell.x} y:${task.truth.cell.y}`);
    await page.locator('#answer').press('Enter');
    s = await arena(page);
    expect(s).toMatchObject({ step: 3, status: 'answered', score: 1 });
    expect(await page.locator('#result').textContent()).toMatch(/Ended: answered\nScore: 1\.00/);

    const download = page.waitForEvent('download');
    await page.click('#download');
    const d = await download;
    expect(d.suggestedFilename()).toBe(`cityarena-${TASK_ID}-human.json`);
    const record = JSON.parse(readFileSync(await d.path(), 'utf8'));
    expect(record).toMatchObject({ task: TASK_ID, family: 'localization', agent: 'human', status: 'answered', score: 1, steps: 3, answer: `x:${task.truth.cell.x} y:${task.truth.cell.y}`, tokens: 0, parseErrors: 0, run: 0 });
    expect(record.actions.map((a: { action: string }) => a.action)).toEqual(['D SMALL', 'W SMALL', `ANSWER x:${task.truth.cell.x} y:${task.truth.cell.y}`]);
    expect(record.actions[1].moved).toBeGreaterThan(0.5);

    // Keys after the end do nothing.
    await page.keyboard.press('w');
    expect((await arena(page)).step).toBe(3);
    const shot = process.env.CURBSIDE_ARENA_SCREENSHOT;
    if (shot) await page.screenshot({ path: shot });
    expect(errors).toEqual([]);
    lap('done');
    await page.close();
  });

  it('opens the real place: ?suite=monaco-casino builds Monaco from its extract and shows a real shop task with the ODbL credit', { timeout: 150_000 }, async () => {
    const monaco = parseTaskFile('monaco-casino.json', readFileSync(resolve(import.meta.dirname, '../scenes/arena/monaco-casino.json'), 'utf8'));
    const t = monaco.tasks.find((x) => x.family === 'landmark-language')!;
    const page = await browser.newPage({ viewport: { width: 1320, height: 820 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/arena.html?suite=monaco-casino&task=${t.id}`);
    await page.evaluate(() => (window as unknown as { curbsideArena: ArenaHandle }).curbsideArena.ready);
    expect(await arena(page)).toMatchObject({ taskId: t.id, step: 0, renders: 1 });
    expect(await page.locator('#instruction').textContent()).toBe(t.instruction);
    expect(t.instruction).toMatch(/Your task is to go to .+, the [a-z ]+ on /);
    expect(await page.locator('#suite').inputValue()).toBe('monaco-casino');
    expect(await page.locator('#status').textContent()).toMatch(/cityarena-monaco-casino: 150 tasks in scenes\/cities\/monaco-casino\.json \(centre 43\.7396,7\.4278 size 800\).*OpenStreetMap contributors/);
    const view = await viewPixels(page);
    let lit = 0;
    for (let i = 0; i < view.length; i += 4) if (view[i] + view[i + 1] + view[i + 2] > 60) lit++;
    expect(lit / (view.length / 4), 'a drawn street, not a black view').toBeGreaterThan(0.5);
    const shot = process.env.CURBSIDE_ARENA_MONACO_SCREENSHOT;
    if (shot) await page.screenshot({ path: shot });
    expect(errors).toEqual([]);
    await page.close();
  });
});
