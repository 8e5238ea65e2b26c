/**
 * The expert policy driving whole episodes through the benchmark's episode loop (reactive
 * behaviours on a straight sidewalk): yields, passes and waits as SidewalkBench's reactive
 * scenarios require, and is deterministic.
 */
import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { runEpisode } from './episode';
import { ScenarioSchema, type PedestrianSpec, type Scenario } from '../sim/scenario';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { ExpertPolicy } from '../policy/expert-policy';

/** A straight sidewalk along +x from −2 to 40 m, `width` metres wide, centred on y = 0, with its boundary edges. */
function sidewalk(width: number) {
  const h = width / 2;
  const corners: Vec2[] = [[-2, -h], [40, -h], [40, h], [-2, h]];
  const walkableEdges = corners.map((a, i) => [a, corners[(i + 1) % 4]] as [Vec2, Vec2]);
  return { isWalkable: (x: number, y: number) => x >= -2 && x <= 40 && Math.abs(y) <= h, obstacles: [], walkableEdges };
}

function scenario(category: Scenario['category'], pedestrians: PedestrianSpec[], timeLimit = 40): Scenario {
  return ScenarioSchema.parse({
    id: `test/${category}`, suite: 'reactive', category, world: { kind: 'procedural', seed: 0 },
    robot: { start: [0, 0, 0], goal: [18, 0], route: [[0, 0], [18, 0]] }, timeLimit, pedestrians, success: { kind: 'reach-goal' }, seed: 3,
  });
}

const run = (s: Scenario, width: number, seed = 11) =>
  runEpisode(s, 0, seed, { world: sidewalk(width), pedestrians: new ScenarioPedestrians(s.pedestrians, [], seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });

/** A queue of `n` people standing along +x from x0 at lateral y, 0.9 m apart, not served during the test. */
const queue = (n: number, x0: number, y: number): PedestrianSpec[] =>
  Array.from({ length: n }, (_, i) => ({ behaviour: 'queuing', spawn: [x0 + 0.9 * i, y], heading: 0, speed: 0, group: 0, params: { order: i, wait: 100 } }) as PedestrianSpec);

describe('ExpertPolicy', () => {
  it('Frontal: yields to a non-yielding pedestrian walking head-on along its line on a 3 m sidewalk', async () => {
    for (const [speed, seed] of [[1.1, 1], [1.4, 2], [1.65, 3]] as const) {
      const s = scenario('frontal', [{ behaviour: 'frontal', spawn: [15, 0], heading: Math.PI, speed, triggerDistance: 12, route: [[15, 0], [0, 0]] }]);
      const r = await run(s, 3, seed);
      expect(r.failures).toEqual([]);
      expect(r.end).toBe('goal');
      expect(r.success).toBe(true);
      // It passed beside the pedestrian, its footprint clear of the 0.3 m cylinder.
      expect(r.minPedestrianDistance!).toBeGreaterThan(0.3 + DELIVERY_ROBOT.width / 2);
    }
  });

  it('Frontal: also on a 2.6 m sidewalk, the narrowest the reactive suite generates', async () => {
    const s = scenario('frontal', [{ behaviour: 'frontal', spawn: [15, 0], heading: Math.PI, speed: 1.5, triggerDistance: 12, route: [[15, 0], [0, 0]] }]);
    const r = await run(s, 2.6);
    expect(r.failures).toEqual([]);
    expect(r.success).toBe(true);
  });

  it('Queuing: passes around a queue standing along one side of the path, never between its members', async () => {
    const s = scenario('queuing', queue(4, 7, 0.6));
    const r = await run(s, 3);
    expect(r.failures).toEqual([]);
    expect(r.success).toBe(true);
    // Beside the queue (x within its extent) the robot is on the free side, clear of the members.
    const beside = r.trajectory.filter(([, x]) => x > 7 - 0.6 && x < 7 + 2.7 + 0.6);
    expect(beside.length).toBeGreaterThan(0);
    for (const [, , y] of beside) expect(y).toBeLessThan(0.6 - 0.3 - DELIVERY_ROBOT.width / 2);
  });

  it('Queuing: waits short of a queue that blocks the whole sidewalk, without touching it', async () => {
    const across: PedestrianSpec[] = [-1.1, -0.4, 0.3, 1.0].map((y, i) => ({ behaviour: 'queuing', spawn: [8, y], heading: Math.PI / 2, speed: 0, group: 0, params: { order: i, wait: 100 } }));
    const r = await run(scenario('queuing', across, 9), 3);
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('timeout');
    const [, x] = r.trajectory[r.trajectory.length - 1];
    expect(x).toBeLessThan(8 - 0.3 - DELIVERY_ROBOT.length / 2);
    expect(x).toBeGreaterThan(4);
  });

  it('is deterministic: the same scenario and seed give identical records', async () => {
    const s = scenario('frontal', [{ behaviour: 'frontal', spawn: [15, 0.1], heading: Math.PI, speed: 1.4, triggerDistance: 12, route: [[15, 0.1], [0, 0.1]] }]);
    const a = await run(s, 3);
    const b = await run(s, 3);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
