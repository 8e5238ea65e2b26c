import { describe, expect, it } from 'vitest';
import type { Ring, Vec2 } from '../core/geometry2d';
import { ExpertPolicy } from '../policy/expert-policy';
import type { PedestrianDisc } from '../robot/failure-monitor';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import type { VelocityCommand } from '../robot/unicycle';
import { runEpisode } from './episode';
import type { EpisodePolicy, PedestrianSim, PedestrianGesture } from '../sim/episode-contracts';
import { ScenarioSchema, type Scenario } from '../sim/scenario';

/** A straight sidewalk 40 m long, 3 m wide, along +x, with optional posts. */
function sidewalk(obstacles: Ring[] = []) {
  return { isWalkable: (x: number, y: number) => x >= -2 && x <= 40 && Math.abs(y) <= 1.5, obstacles };
}

/** Pedestrians that stand still (the 'Obstructing' end state). */
class Standing implements PedestrianSim {
  constructor(private readonly at: Vec2[]) {}
  step(): void {}
  discs(): PedestrianDisc[] {
    return this.at.map(([x, y]) => ({ x, y, radius: 0.3 }));
  }
  velocities(): Vec2[] {
    return this.at.map(() => [0, 0]);
  }
  gestures(): PedestrianGesture[] {
    return this.at.map(() => 'none');
  }
}

/** Drives straight at a fixed command (a blind policy). */
class Constant implements EpisodePolicy {
  readonly name = 'constant';
  readonly rateHz = 5;
  constructor(private readonly cmd: VelocityCommand) {}
  async reset() {}
  async act() {
    return this.cmd;
  }
}

function scenario(over: Partial<Scenario> = {}): Scenario {
  return ScenarioSchema.parse({
    id: 'test/straight', suite: 'unit', category: 'straight', world: { kind: 'procedural', seed: 0 },
    robot: { start: [0, 0, 0], goal: [15, 0], route: [[0, 0], [15, 0]] }, timeLimit: 60, success: { kind: 'reach-goal' }, seed: 1,
    ...over,
  });
}

const env = (policy: EpisodePolicy, world = sidewalk(), peds: PedestrianSim = new Standing([])) => ({ world, pedestrians: peds, policy, robot: DELIVERY_ROBOT, crowdDt: 0.1 });

describe('runEpisode', () => {
  it('the expert reaches the goal of a clear straight sidewalk', async () => {
    const r = await runEpisode(scenario(), 0, 1, env(new ExpertPolicy(DELIVERY_ROBOT)));
    expect(r.end).toBe('goal');
    expect(r.success).toBe(true);
    expect(r.routeCompletion).toBe(1);
    expect(r.failures).toEqual([]);
    // 14 m to the goal circle at ≤ 1.2 m/s cruise, with acceleration: 11.7–16 s.
    expect(r.timeToGoal!).toBeGreaterThan(11.6);
    expect(r.timeToGoal!).toBeLessThan(16);
    expect(r.averageVelocity).toBeGreaterThan(0.8);
    expect(r.networkAdherence).toBe(1);
    expect(r.conditions, 'no conditions field in the scenario: none in the record').toBeUndefined();
  });

  it('records the scenario\'s conditions (time of day, weather), defaults filled in', async () => {
    const r = await runEpisode(scenario({ conditions: { weather: 'fog' } } as never), 0, 1, env(new ExpertPolicy(DELIVERY_ROBOT)));
    expect(r.conditions).toEqual({ time: '13:00', weather: 'fog' });
    expect(() => scenario({ conditions: { time: '7:30' } } as never)).toThrow(/expected a time HH:MM/);
    expect(() => scenario({ conditions: { weather: 'snow' } } as never)).toThrow(/clear.*fog.*rain/);
  });

  it('the expert passes a pedestrian standing in its path without a collision', async () => {
    const r = await runEpisode(scenario(), 0, 1, env(new ExpertPolicy(DELIVERY_ROBOT), sidewalk(), new Standing([[7, 0.2]])));
    expect(r.failures).toEqual([]);
    expect(r.success).toBe(true);
    expect(r.minPedestrianDistance!).toBeGreaterThan(0.3 + DELIVERY_ROBOT.width / 2);
    expect(r.minPedestrianDistance!).toBeLessThan(1.5);
  });

  it('the expert goes around a lamp post on its route', async () => {
    const post: Ring = [[7, -0.15], [7.3, -0.15], [7.3, 0.15], [7, 0.15]];
    const r = await runEpisode(scenario(), 0, 1, env(new ExpertPolicy(DELIVERY_ROBOT), sidewalk([post])));
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('goal');
  });

  it('a blind policy hits the post and the episode ends in a collision at the post', async () => {
    const post: Ring = [[7, -0.15], [7.3, -0.15], [7.3, 0.15], [7, 0.15]];
    const r = await runEpisode(scenario(), 0, 1, env(new Constant({ v: 1, w: 0 }), sidewalk([post])));
    expect(r.end).toBe('failure');
    expect(r.success).toBe(false);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0].kind).toBe('collision-obstacle');
    expect(r.failures[0].x + DELIVERY_ROBOT.length / 2).toBeCloseTo(7, 1);
    expect(r.routeCompletion).toBeCloseTo(r.failures[0].x / 15, 2);
  });

  it('a policy turning off the sidewalk records out-of-lane; long-horizon resets and keeps counting', async () => {
    const out = await runEpisode(scenario(), 0, 1, env(new Constant({ v: 1, w: 0.3 })));
    expect(out.failures.map((f) => f.kind)).toEqual(['out-of-lane']);
    const long = await runEpisode(scenario({ onFailure: 'reset-to-waypoint', timeLimit: 30 }), 0, 1, env(new Constant({ v: 1, w: 0.3 })));
    expect(long.end).toBe('timeout');
    expect(long.failures.length).toBeGreaterThan(2);
    expect(long.failures.every((f) => f.kind === 'out-of-lane')).toBe(true);
  });

  it('a policy that never moves records freezing and times out', async () => {
    const r = await runEpisode(scenario({ timeLimit: 12, onFailure: 'reset-to-waypoint' }), 0, 1, env(new Constant({ v: 0, w: 0 })));
    expect(r.end).toBe('timeout');
    expect(r.failures.map((f) => f.kind)).toEqual(['freezing']);
    // Detected at the first physics sub-step (5 ms) at or after 10 s.
    expect(Math.abs(r.failures[0].time - 10)).toBeLessThanOrEqual(DELIVERY_ROBOT.physicsDt + 1e-9);
  });

  it('Gesturing: stopping within 3 m in front of the pedestrian succeeds', async () => {
    // A policy that drives until 2 m from the pedestrian at x = 6, then stops.
    const stopper: EpisodePolicy = { name: 'stopper', rateHz: 10, reset: async () => {}, act: async (o) => ({ v: o.state.x < 6 - 2.5 ? 1 : 0, w: 0 }) };
    const s = scenario({ pedestrians: [{ behaviour: 'gesturing', spawn: [6, 0], heading: Math.PI, speed: 0 }], success: { kind: 'stop-before', pedestrian: 0, maxDistance: 3 } });
    const r = await runEpisode(s, 0, 1, env(stopper, sidewalk(), new Standing([[6, 0]])));
    expect(r.end).toBe('stopped');
    expect(r.success).toBe(true);
  });

  it('is deterministic: the same scenario, seed and actions give identical records', async () => {
    const a = await runEpisode(scenario(), 0, 7, env(new ExpertPolicy(DELIVERY_ROBOT), sidewalk(), new Standing([[7, 0.2]])));
    const b = await runEpisode(scenario(), 0, 7, env(new ExpertPolicy(DELIVERY_ROBOT), sidewalk(), new Standing([[7, 0.2]])));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
