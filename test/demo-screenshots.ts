/**
 * Takes screenshots of the demo page in a few states (for looking at it): `npx tsx test/demo-screenshots.ts [outDir]`.
 */
import { mkdirSync } from 'node:fs';
import { startDemo } from './demo-harness';

const out = process.argv[2] ?? 'out/demo';
mkdirSync(out, { recursive: true });
const only = process.argv[3];
/** States that first run the episode to a time, s (e.g. past a closure's trigger). */
const stepTo: Record<string, number> = { 'closure-follow': 17.5, 'closure-orbit': 17.5 };
const all: [string, string][] = [
  ['closure-follow', 'w=480&h=360&suite=closure&scenario=closure/000&walkers=0&policy=expert&camera=follow&maxSplats=60000&viewDistance=35'],
  ['closure-orbit', 'w=480&h=360&suite=closure&scenario=closure/000&walkers=0&policy=expert&camera=orbit&maxSplats=60000&viewDistance=35'],
  ['city-orbit', 'w=480&h=360&suite=city&walkers=8&camera=orbit&maxSplats=60000&viewDistance=35'],
  ['reactive-follow', 'w=480&h=360&suite=smoke&policy=expert&walkers=4&camera=follow&maxSplats=60000&viewDistance=35'],
  ['robot-eye-dusk', 'w=480&h=360&suite=city&walkers=8&camera=robot-eye&hour=19.5&maxSplats=60000&viewDistance=35'],
  ['robot-eye-fog', 'w=480&h=360&suite=city&walkers=8&camera=robot-eye&weather=fog&maxSplats=60000&viewDistance=35'],
  ['follow-rain-night', 'w=480&h=360&suite=city&walkers=8&camera=follow&weather=rain&hour=22&maxSplats=60000&viewDistance=35'],
  ['top-down', 'w=480&h=360&suite=city&walkers=8&camera=top-down&maxSplats=60000&viewDistance=35'],
];
const states = only ? all.filter(([n]) => n === only) : all;
const h = await startDemo();
try {
  for (const [name, query] of states) {
    const t0 = Date.now();
    const page = await h.open(query);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: { frames: number } }).curbsideDemo.frames >= 1, undefined, { timeout: 120_000 });
    if (stepTo[name]) await page.evaluate((t) => (window as unknown as { curbsideDemo: { stepUntil: (t: number) => Promise<number> } }).curbsideDemo.stepUntil(t), stepTo[name]);
    if (name === 'closure-orbit') {
      // Turn the orbit camera to look past the robot at the closed crosswalk, and pull back a little.
      await page.mouse.move(600, 400);
      await page.mouse.down();
      await page.mouse.move(480, 430, { steps: 5 });
      await page.mouse.up();
      await page.mouse.wheel(0, 300);
    }
    const at = await page.evaluate(() => (window as unknown as { curbsideDemo: { frames: number } }).curbsideDemo.frames);
    await page.waitForFunction((n) => (window as unknown as { curbsideDemo: { frames: number } }).curbsideDemo.frames >= n + 2, at, { timeout: 120_000 });
    await page.screenshot({ path: `${out}/${name}.png` });
    console.log(`${name}: ${Date.now() - t0} ms`, await page.evaluate(() => (window as unknown as { curbsideDemo: { state: () => { hud: string } } }).curbsideDemo.state().hud));
    await page.close();
  }
} finally {
  await h.close();
}
