import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ring } from '../core/geometry2d';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { CORRIDOR_HALF_WIDTH, blockedEdges, checkSinglePath, corridorClearance, routeNodes } from './blockers';
import { episodeBackdrop } from './backdrop';
import { runEpisode } from './episode';
import { parseScenarios, ScenarioError, type Scenario } from '../sim/scenario';
import { pedestrianObstacles, scenarioWorld } from './scenario-world';
import { suiteWorld } from './suites';

const load = (name: string): Scenario[] => {
  const path = resolve(import.meta.dirname, `../../scenes/suites/${name}.json`);
  return parseScenarios(path, readFileSync(path, 'utf8'));
};
const base = {
  id: 't/1', suite: 'long', category: 'long', world: { kind: 'procedural', seed: 1 },
  robot: { start: [0, 0, 0], goal: [10, 0], route: [[0, 0], [10, 0]] }, timeLimit: 60, success: { kind: 'reach-goal' }, seed: 1,
};
const parse = (blockers: unknown) => parseScenarios('b.json', JSON.stringify({ ...base, blockers }));
const rings = (s: Scenario): Ring[] => (s.blockers ?? []).map((b) => b.polygon as Ring);

describe('scenario blockers', () => {
  it('accepts convex counter-clockwise polygons with a height; they are optional', () => {
    const s = parse([{ polygon: [[1, -2], [1.15, -2], [1.15, 2], [1, 2]], height: 1 }]);
    expect(s[0].blockers).toEqual([{ polygon: [[1, -2], [1.15, -2], [1.15, 2], [1, 2]], height: 1 }]);
    expect(parseScenarios('b.json', JSON.stringify(base))[0].blockers).toBeUndefined();
  });

  it('rejects bad blockers naming the field', () => {
    expect(() => parse([{ polygon: [[1, 2], [1.15, 2], [1.15, -2], [1, -2]], height: 1 }])).toThrow(/b\.json: blockers\.0\.polygon: polygon must be counter-clockwise/);
    expect(() => parse([{ polygon: [[0, 0], [2, 0], [1, 0.2], [1, 1]], height: 1 }])).toThrow(/blockers\.0\.polygon: polygon must be convex/);
    expect(() => parse([{ polygon: [[0, 0], [1, 0]], height: 1 }])).toThrow(/blockers\.0\.polygon: a blocker polygon needs at least 3 vertices/);
    expect(() => parse([{ polygon: [[0, 0], [1, 0], [1, 1]], height: 0 }])).toThrow(/blockers\.0\.height/);
    expect(() => parse([{ polygon: [[0, 0], [1, 0], [1, 1]] }])).toThrow(ScenarioError);
    expect(() => parse([{ polygon: [[0, 0], [1, 0], [1, 1]], height: 1, colour: 'red' }])).toThrow(/blockers\.0/);
  });
});

describe('long-horizon scenarios with their alternatives fenced', () => {
  const long = load('long');

  it('every long scenario has fences, none within the route corridor', () => {
    for (const s of long) {
      expect(s.blockers?.length, s.id).toBeGreaterThan(0);
      expect(corridorClearance(s.robot.route, rings(s)), s.id).toBeGreaterThanOrEqual(CORRIDOR_HALF_WIDTH);
    }
  });

  it('the route is the only path from start to goal (re-checked on the stored scenarios), and each fence is needed or harmless', () => {
    // long[97]: an 850 m route on the 2 km world.
    for (const s of [long[0], long[37], long[97], load('smoke').find((x) => x.category === 'long')!]) {
      if (s.world.kind !== 'procedural') throw new Error('procedural expected');
      const world = suiteWorld(s.world.seed, s.world.size);
      const nodes = routeNodes(world, s.robot.route);
      expect(nodes, s.id).not.toBeNull();
      expect(checkSinglePath(world, nodes!, rings(s)), s.id).toBeNull();
      // Without the fences the route is not the only path: the check fails.
      expect(checkSinglePath(world, nodes!, []), s.id).not.toBeNull();
      // Every fence cuts some nav edge.
      for (const r of rings(s)) expect(blockedEdges(world, [r]).size, s.id).toBeGreaterThan(0);
    }
  }, 120_000);

  it('the scenario world has the fences as obstacles; the expert still reaches the goal without a failure', async () => {
    const s = load('smoke').find((x) => x.category === 'long')!;
    const world = scenarioWorld(s);
    expect(world.blockers).toHaveLength(s.blockers!.length);
    expect(world.obstacles.slice(-world.blockers.length)).toEqual(world.blockers);
    expect(world.obstacles.length).toBe(world.world.obstacles.length + world.blockers.length);
    // A scenario of the same world without blockers gets the plain world (cached apart).
    expect(scenarioWorld({ ...s, blockers: undefined }).obstacles.length).toBe(world.world.obstacles.length);
    const r = await runEpisode(s, 0, s.seed, { world, pedestrians: new ScenarioPedestrians(s.pedestrians, pedestrianObstacles(s, world), s.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('goal');
    // The report's trajectory picture draws the fences near the route with the obstacles.
    const backdrop = episodeBackdrop(s, r);
    for (const f of world.blockers) expect(backdrop.obstacles).toContainEqual(f);
  }, 60_000);
});
