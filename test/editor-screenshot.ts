/**
 * Screenshot of the scene editor with a capture open and a few annotations (for looking at it and
 * for README): `npx tsx test/editor-screenshot.ts [capture] [out.png] [scene.json] [up axis] [--scan]`. Draws the annotations of
 * scenes/fruit-drops.json when the capture is fruit_drops_minimal.ply (opened as that scene).
 */
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startViteServer } from '../src/tools/browser-harness';
import { CHROMIUM_PATH, SWIFTSHADER_FLAGS } from '../src/tools/chromium-flags';
const SHARED_DATA = resolve(import.meta.dirname, process.env.CURBSIDE_SHARED_DATA ?? '../../shared/data');

const capture = process.argv[2] || resolve(SHARED_DATA, 'splats/fruit_drops_minimal.ply');
const out = process.argv[3] ?? 'out/editor.png';
const scene = process.argv[4];
const up = process.argv[5]; // the capture's up axis for the ground fit (default −y)
const { server, origin } = await startViteServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: SWIFTSHADER_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${origin}/editor.html`);
  await page.waitForFunction(() => (window as unknown as { curbsideEditor: { ready: boolean } }).curbsideEditor.ready, undefined, { timeout: 60_000 });
  if (scene) await page.setInputFiles('#open-scene', scene);
  if (up) await page.selectOption('#up-axis', up);
  const t0 = Date.now();
  await page.setInputFiles('#open-capture', capture);
  await page.waitForFunction(() => (window as unknown as { curbsideEditor: { renders: number } }).curbsideEditor.renders >= 1, undefined, { timeout: 600_000 });
  const status = () => page.evaluate(() => (window as unknown as { curbsideEditor: { status: string } }).curbsideEditor.status);
  console.log(`opened and rendered in ${Date.now() - t0} ms:`, await status());
  if (process.argv.includes('--scan')) {
    const t1 = Date.now();
    await page.click('#scan-obstacles');
    console.log(`obstacles from the scan in ${Date.now() - t1} ms:`, await status());
  }
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
