/**
 * The reactive suite's standing groups as they play out: every Queuing and Conversing scenario of
 * `scenes/suites/reactive.json` run on the CPU reference crowd (the world's obstacles, the robot
 * driving its route at 1 m/s without stopping) for 45 s. No two members may ever overlap, every
 * queue must be served head first in order, and every scripted line must keep clear of the world's
 * obstacles (the generator's line planning, src/bench/suites.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { arcLengths, sampleAt } from '../world/polyline';
import { parseScenarios, type Scenario } from '../sim/scenario';
import { pedestrianObstacles, scenarioWorld } from './scenario-world';
import { lineClearOfObstacles } from '../world/queries';
import { SCRIPTED_LINE_CLEARANCE, scriptedLine } from './suites';

const path = resolve(import.meta.dirname, '../../scenes/suites/reactive.json');
const reactive = parseScenarios(path, readFileSync(path, 'utf8'));

/** Plays scenario `s` for `seconds` with the robot driving its route at 1 m/s (stopping at the goal). */
function play(s: Scenario, seconds: number) {
  const route = s.robot.route as Vec2[];
  const lengths = arcLengths(route);
  const sim = new ScenarioPedestrians(s.pedestrians, pedestrianObstacles(s), s.seed);
  const dt = 0.1;
  let minGap = Infinity;
  const servedAt = s.pedestrians.map(() => -1);
  for (let k = 1; k <= seconds / dt; k++) {
    const along = Math.min(k * dt, lengths[lengths.length - 1]);
    const { p, t } = sampleAt(route, along, lengths);
    sim.step(dt, { x: p[0], y: p[1], yaw: Math.atan2(t[1], t[0]), v: along < lengths[lengths.length - 1] ? 1 : 0, w: 0 });
    const d = sim.discs();
    for (let i = 0; i < d.length; i++) {
      if (servedAt[i] < 0 && sim.triggered(i)) servedAt[i] = k;
      for (let j = i + 1; j < d.length; j++) minGap = Math.min(minGap, Math.hypot(d[i].x - d[j].x, d[i].y - d[j].y));
    }
  }
  return { minGap, servedAt };
}

describe('reactive suite standing groups', () => {
  it('no two Queuing or Conversing members ever overlap; queues are served head first, in order', () => {
    const groups = reactive.filter((s) => s.category === 'queuing' || s.category === 'conversing');
    expect(groups.length).toBe(200);
    let worst = Infinity;
    let served = 0;
    for (const s of groups) {
      const { minGap, servedAt } = play(s, 45);
      worst = Math.min(worst, minGap);
      expect(minGap, `${s.id}: closest pair of members`).toBeGreaterThan(0.6 - 0.01);
      if (s.category === 'queuing') {
        const byOrder = s.pedestrians.map((p, i) => ({ order: Number(p.params?.order), at: servedAt[i] })).sort((a, b) => a.order - b.order);
        const done = byOrder.filter((m) => m.at > 0);
        expect(done.length, `${s.id}: someone was served in 45 s`).toBeGreaterThan(0);
        // Served in order: the served are a prefix of the line, at strictly increasing steps.
        done.forEach((m, k) => expect(m.order, `${s.id}: served out of order`).toBe(k));
        for (let k = 1; k < done.length; k++) expect(done[k].at, `${s.id}: two served at once`).toBeGreaterThan(done[k - 1].at);
        served += done.length;
      }
    }
    console.log(`200 standing groups, 45 s each: closest pair ${worst.toFixed(3)} m, ${served} queue members served`);
  }, 120_000);

  it('every scripted line of the reactive suite keeps 0.35 m from the world obstacles', () => {
    for (const s of reactive) {
      const world = scenarioWorld(s).world;
      const head = s.pedestrians.find((p) => p.behaviour === 'queuing' && Number(p.params?.order) === 0)?.spawn as Vec2 | undefined;
      for (const p of s.pedestrians) expect(lineClearOfObstacles(world, scriptedLine(p, head), SCRIPTED_LINE_CLEARANCE), `${s.id}: ${p.behaviour} line`).toBe(true);
    }
  }, 120_000);
});
