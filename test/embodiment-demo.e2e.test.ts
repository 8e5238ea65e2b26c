/**
 * End to end: the demo page's embodiment (`?robot=`, src/app/main.ts): a humanoid drives a smoke
 * scenario with the expert (the panel and the HUD name it, the episode ends at the goal within the
 * humanoid's speed limit), and an unknown value shows one banner naming the accepted values while the
 * wheeled robot drives. Tiny canvas and thinned splats, as in demo.e2e.test.ts.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoHarness } from './demo-harness';

const QUERY = 'w=320&h=240&maxSplats=25000&viewDistance=30&suite=smoke&policy=expert&walkers=0&bodies=0';
type Demo = { frames: number; embodiment: string; state: () => { hud: string; end: string; robot: { v: number } }; runToEnd: () => Promise<unknown> };
const demo = <T>(page: Page, f: (d: Demo) => T | Promise<T>) => page.evaluate(`(${f.toString()})(window.curbsideDemo)`) as Promise<T>;

let h: DemoHarness;
beforeAll(async () => {
  h = await startDemo();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('demo embodiments', () => {
  it('?robot=humanoid: the panel and HUD name it and the expert reaches the goal', async () => {
    const page = await h.open(`${QUERY}&robot=humanoid&camera=robot-eye`);
    await page.waitForFunction(() => (window as unknown as { curbsideDemo: Demo }).curbsideDemo.frames >= 2, undefined, { timeout: 60_000 });
    expect(await demo(page, (d) => d.embodiment)).toBe('humanoid');
    expect(await page.locator('#robot').inputValue()).toBe('humanoid');
    expect(await page.locator('#banner').isHidden()).toBe(true);
    expect(await page.locator('#hud').textContent()).toMatch(/seed \d+ {2}· humanoid/);
    await demo(page, (d) => d.runToEnd());
    const state = await demo(page, (d) => d.state());
    expect(state.end).toBe('goal');
    expect(state.robot.v).toBeLessThanOrEqual(1.2 + 1e-9);
    await page.close();
  }, 180_000);

  it('?robot=tank: one banner naming the accepted values; the wheeled robot drives', async () => {
    const page = await h.open(`${QUERY}&robot=tank`);
    await page.waitForSelector('#banner:not([hidden])', { timeout: 30_000 });
    expect(await page.locator('#banner').textContent()).toMatch(/\?robot=: unknown robot 'tank': expected one of wheeled, dog, humanoid; showing the wheeled robot/);
    expect(await demo(page, (d) => d.embodiment)).toBe('wheeled');
    expect(await page.locator('#robot').inputValue()).toBe('wheeled');
    await page.close();
  }, 120_000);
});
