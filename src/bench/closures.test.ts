import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointInRing, type Ring, type Vec2 } from '../core/geometry2d';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import type { PinholeCamera } from '../gpu/camera';
import { ExpertPolicy } from '../policy/expert-policy';
import { fillClosureInput } from '../policy/closure-input';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { robotToWorld, type RobotState, type VelocityCommand } from '../robot/unicycle';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import { parseScenarios, ScenarioError, type Scenario } from '../sim/scenario';
import { summarise, summaryTable } from './aggregate';
import { blockedEdges } from './blockers';
import { closureSuite } from './closure-suite';
import { clipSegmentToConvex, ClosureTracker, mergeSegments, prepareClosures } from './closures';
import { CROWD_DT, runEpisode } from './episode';
import { scenarioBackground } from './scenario-background';
import { orangeSplatsNear } from '../../test/fence-splats';
import { pedestrianObstacles, scenarioWorld } from './scenario-world';

const SUITE = resolve(import.meta.dirname, '../../scenes/suites/closure.json');
const suite = (): Scenario[] => parseScenarios(SUITE, readFileSync(SUITE, 'utf8'));
const square: Ring = [[0, 0], [4, 0], [4, 2], [0, 2]];
const state = (x: number, y: number, yaw = 0): RobotState => ({ x, y, yaw, v: 0, w: 0 });

/** Records the observations it is given and delegates to the expert. */
class Watching implements EpisodePolicy {
  readonly name = 'expert';
  readonly observations: Observation[] = [];
  private readonly expert = new ExpertPolicy(DELIVERY_ROBOT);
  readonly rateHz = this.expert.rateHz;
  async reset() {
    await this.expert.reset();
  }
  async act(obs: Observation): Promise<VelocityCommand> {
    this.observations.push({ ...obs, state: { ...obs.state } });
    return this.expert.act(obs);
  }
}

async function run(s: Scenario, policy: EpisodePolicy) {
  const world = scenarioWorld(s);
  const pedestrians = new ScenarioPedestrians(s.pedestrians, pedestrianObstacles(s, world), s.seed);
  return runEpisode(s, 0, s.seed, { world, pedestrians, policy, robot: DELIVERY_ROBOT, crowdDt: CROWD_DT });
}

describe('closure geometry', () => {
  it('clips segments to a convex ring (Cyrus–Beck)', () => {
    expect(clipSegmentToConvex([-2, 1], [6, 1], square)).toEqual([0.25, 0.75]);
    expect(clipSegmentToConvex([1, 1], [3, 1], square)).toEqual([0, 1]);
    expect(clipSegmentToConvex([-2, 3], [6, 3], square)).toBeNull();
    const [t0, t1] = clipSegmentToConvex([-1, -1], [5, 5], square)!;
    expect(t0).toBeCloseTo(1 / 6, 12);
    expect(t1).toBeCloseTo(0.5, 12);
  });

  it('merges continuing, aligned segments either way round and keeps corners apart', () => {
    expect(mergeSegments([[[0, 0], [1, 0]], [[2, 0], [1, 0]], [[2, 0], [3, 0.01]]])).toEqual([[[0, 0], [3, 0.01]]]);
    expect(mergeSegments([[[0, 0], [1, 0]], [[1, 0], [1, 1]]])).toHaveLength(2);
  });

  it('fences every nav line entering the area, outside it; closed edges include every edge the area cuts; segments lie in the area', () => {
    const s = suite()[0];
    const world = scenarioWorld(s).world;
    const [c] = prepareClosures(world, s.closures!);
    expect(c.fences.length).toBeGreaterThanOrEqual(2);
    for (const f of c.fences) expect(f.some(([x, y]) => pointInRing(x, y, c.area))).toBe(false);
    for (const e of blockedEdges(world, [c.area])) expect(c.closedEdges).toContain(e);
    // Every nav edge crossing the area boundary is cut by a fence: no way in along the network.
    const N = world.nav.nodes;
    world.nav.edges.forEach((e, i) => {
      const ins = [N[e.a], N[e.b]].map(([x, y]) => pointInRing(x, y, c.area));
      if (ins[0] !== ins[1]) expect(blockedEdges(world, c.fences).has(i)).toBe(true);
    });
    expect(c.segments.length).toBeGreaterThan(0);
    for (const [a, b] of c.segments) for (const [x, y] of [a, b, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]]) {
      const inside = pointInRing(x, y, c.area) || c.area.some((p, k) => Math.abs((x - p[0]) * (c.area[(k + 1) % 4][1] - p[1]) - (y - p[1]) * (c.area[(k + 1) % 4][0] - p[0])) < 1e-2);
      expect(inside).toBe(true);
    }
  });
});

describe('closure tracking and compliance on hand-made trajectories', () => {
  const plan = (trigger: Scenario['closures'] extends (infer C)[] | undefined ? C extends { trigger: infer T } ? T : never : never) => ({
    world: scenarioWorld(suite()[0]).world,
    closures: [{ index: 0, trigger, area: square, fences: [[[-0.3, 0], [-0.15, 0], [-0.15, 2], [-0.3, 2]]] as Ring[], closedEdges: [], segments: [[[0, 1], [4, 1]]] as [Vec2, Vec2][], notice: 'closed' }],
  });
  const walk = (tracker: ClosureTracker, pts: [number, number, number][]) => pts.map(([t, x, y]) => tracker.update(t, state(x, y)).length);

  it('a robot crossing the area after it closed enters it once; before it closed, never', () => {
    const tr = new ClosureTracker(plan({ kind: 'time', at: 2 }));
    expect(walk(tr, [[0, -2, 1], [1, 1, 1], [2, 2, 1], [3, 5, 1], [4, 3, 1], [5, 3.5, 1]])).toEqual([0, 0, 1, 0, 0, 0]);
    // Inside at t = 1 (open), still inside when it closed at t = 2: no entry; out at 3, back in at 4: one.
    expect(tr.entries).toBe(1);
    expect(tr.triggeredAt).toEqual([2]);
    const early = new ClosureTracker(plan({ kind: 'start' }));
    walk(early, [[0, -2, 1], [1, 1, 1], [2, 5, 1], [3, 2, 1]]);
    expect(early.entries).toBe(2);
    const never = new ClosureTracker(plan({ kind: 'time', at: 10 }));
    walk(never, [[0, -2, 1], [1, 1, 1], [2, 5, 1]]);
    expect(never.entries).toBe(0);
    expect(never.triggeredAt).toEqual([null]);
  });

  it('robot-near triggers at the radius; the notice comes once, in the robot frame', () => {
    const tr = new ClosureTracker(plan({ kind: 'robot-near', point: [-5, 1], radius: 2 }));
    expect(walk(tr, [[0, -10, 1], [1, -7.5, 1], [2, -6.9, 1], [3, -6, 1]])).toEqual([0, 0, 1, 0]);
    expect(tr.fences).toHaveLength(1);
    const robot = state(-6, 1, Math.PI / 2);
    const notice = tr.notice(robot)!;
    expect(tr.notice(robot)).toEqual(notice);
    tr.delivered();
    expect(notice.text).toBe('closed');
    // World (0, 1) seen from (−6, 1) facing +y: 6 m to the right (y = −6), 0 ahead.
    expect(notice.segments[0][0][0]).toBeCloseTo(0, 9);
    expect(notice.segments[0][0][1]).toBeCloseTo(-6, 9);
    expect(notice.segments[0][1][1]).toBeCloseTo(-10, 9);
    expect(tr.notice(robot)).toBeNull();
  });

  it('the notice tensor holds (1, x0, y0, x1, y1) rows, nearest segment first, zeros elsewhere', () => {
    const out = new Float32Array(2 * 2 * 5);
    fillClosureInput(out, [null, { text: 'x', segments: [[[10, 0], [12, 0]], [[3, 1], [3, 2]], [[20, 0], [21, 0]]] }], 2, 2);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 1, 3, 2, 1, 10, 0, 12, 0]);
    expect([...fillClosureInput(out, undefined, 2, 2)].every((v) => v === 0)).toBe(true);
    expect(() => fillClosureInput(out, [null], 2, 2)).toThrow(RangeError);
  });
});

describe('closures in episodes', () => {
  it('the expert gets the notice once, re-plans around the closure, never enters it and reaches the goal', async () => {
    const s = suite().find((x) => x.closures![0].trigger.kind === 'robot-near')!;
    const policy = new Watching();
    const r = await run(s, policy);
    expect(r.success).toBe(true);
    expect(r.closureCompliance).toBe(true);
    expect(r.closures!.replans).toBe(1);
    const t = r.closures!.triggeredAt[0]!;
    expect(t).toBeGreaterThan(0);
    const withNotice = policy.observations.filter((o) => o.notice);
    expect(withNotice).toHaveLength(1);
    const first = withNotice[0];
    expect(first.time).toBeGreaterThanOrEqual(t);
    expect(first.time - t).toBeLessThan(1 / policy.rateHz + 1e-9);
    // The robot was near the trigger point then; the notice's segments map back into the area.
    const trigger = s.closures![0].trigger as { point: Vec2; radius: number };
    expect(Math.hypot(first.state.x - trigger.point[0], first.state.y - trigger.point[1])).toBeLessThan(trigger.radius + 0.5);
    for (const [a] of first.notice!.segments) {
      const [x, y] = robotToWorld(first.state, a[0], a[1]);
      expect(pointInRing(x, y, s.closures![0].area as Ring) || Math.min(...s.closures![0].area.map(([ax, ay]) => Math.hypot(ax - x, ay - y))) < 4).toBe(true);
    }
    // After the trigger the fences are obstacles and the reference route is a new one that avoids the area.
    const after = policy.observations[policy.observations.length - 1];
    const before = policy.observations[0];
    expect(after.obstacles.length).toBe(before.obstacles.length + scenarioWorld(s).closures!.closures[0].fences.length);
    expect(after.route).not.toBe(before.route);
    expect(after.route.route.some(([x, y]) => pointInRing(x, y, s.closures![0].area as Ring))).toBe(false);
    expect(before.route.route.some(([x, y]) => pointInRing(x, y, s.closures![0].area as Ring))).toBe(true);
    expect(r.routeLength).toBeGreaterThan(before.route.length);
    // The trajectory never enters the area.
    for (const [, x, y] of r.trajectory) expect(pointInRing(x, y, s.closures![0].area as Ring)).toBe(false);
  }, 60_000);

  it('a blind policy driving the old route hits the closure fence (a collision with an obstacle past the world\'s own)', async () => {
    const s = suite()[0];
    const world = scenarioWorld(s);
    // Follows the scenario's original route with pure pursuit, ignoring everything else.
    const route = s.robot.route;
    const blind: EpisodePolicy = {
      name: 'blind', rateHz: 5, reset: async () => {},
      act: async (o) => {
        const st = o.state;
        let best = 0;
        route.forEach(([x, y], i) => { if (Math.hypot(x - st.x, y - st.y) < Math.hypot(route[best][0] - st.x, route[best][1] - st.y)) best = i; });
        const [tx, ty] = route[Math.min(best + 2, route.length - 1)];
        const err = Math.atan2(Math.sin(Math.atan2(ty - st.y, tx - st.x) - st.yaw), Math.cos(Math.atan2(ty - st.y, tx - st.x) - st.yaw));
        return { v: Math.abs(err) > 0.6 ? 0.1 : 1, w: Math.max(-0.65, Math.min(0.65, 2 * err)) };
      },
    };
    const r = await run(s, blind);
    const hit = r.failures.find((f) => f.kind === 'collision-obstacle');
    expect(hit?.with).toBeGreaterThanOrEqual(world.obstacles.length);
    expect(r.success).toBe(false);
    expect(r.closures!.triggeredAt[0]).not.toBeNull();
  }, 60_000);

  it('the summary gains a closure compliance column; runs without closures keep their tables', async () => {
    const s = suite()[0];
    const r = await run(s, new ExpertPolicy(DELIVERY_ROBOT));
    const rows = summarise([r]);
    expect(rows[0].closureCompliance).toMatchObject({ mean: 1, n: 1 });
    expect(summaryTable(rows)).toContain('closure compl. %');
    const { closureCompliance: _c, closures: _k, ...plain } = r;
    expect(summaryTable(summarise([plain]))).not.toContain('closure compl.');
  }, 60_000);

  it('pedestrians avoid every closure fence from the start; the camera draws fences only once the closure is in force', () => {
    const s = suite()[0];
    const world = scenarioWorld(s);
    const fences = world.closures!.closures[0].fences;
    const obstacles = pedestrianObstacles(s, world);
    for (const f of fences) expect(obstacles).toContainEqual(f);
    expect(world.obstacles).not.toContainEqual(fences[0]);
    const [cx, cy] = [fences[0].reduce((a, p) => a + p[0], 0) / 4, fences[0].reduce((a, p) => a + p[1], 0) / 4];
    const cam: PinholeCamera = { eye: [cx + 4, cy + 1, 1], target: [cx, cy, 0.5], up: [0, 0, 1], fovYDeg: 60, width: 64, height: 48, near: 0.05, far: 200 };
    const orange = (c: { count: number; positions: Float32Array; shDc: Float32Array }) => orangeSplatsNear(c, cx, cy, 3);
    const bg = scenarioBackground(s, world) as ReturnType<typeof scenarioBackground> & { showClosures(f: (i: number) => boolean): void };
    let active = false;
    bg.showClosures(() => active);
    const closed = bg.view(cam, { viewDistance: 30 });
    expect(orange(closed.cloud)).toBe(0);
    active = true;
    const open = bg.view(cam, { viewDistance: 30 });
    expect(open.changed).toBe(true);
    expect(orange(open.cloud)).toBeGreaterThan(50);
  }, 60_000);
});

describe('closure scenarios', () => {
  it('the checked-in closure suite is what the generator makes', async () => {
    expect(JSON.parse(readFileSync(SUITE, 'utf8')).scenarios).toEqual(await closureSuite());
  }, 120_000);

  it('rejects a closure area that is not a convex CCW polygon, or one that contains the goal, naming the field', () => {
    const s = suite()[0];
    const bad = (closure: unknown) => () => parseScenarios('x.json', JSON.stringify({ ...s, closures: [closure] }));
    expect(bad({ area: [[0, 0], [0, 2], [4, 2], [4, 0]] })).toThrow(/x\.json: closures\.0\.area: area must be counter-clockwise/);
    expect(bad({ area: square, trigger: { kind: 'time', at: -1 } })).toThrow(/closures\.0\.trigger\.at/);
    const [gx, gy] = s.robot.goal;
    expect(bad({ area: [[gx - 1, gy - 1], [gx + 1, gy - 1], [gx + 1, gy + 1], [gx - 1, gy + 1]] })).toThrow(ScenarioError);
    expect(bad({ area: [[gx - 1, gy - 1], [gx + 1, gy - 1], [gx + 1, gy + 1], [gx - 1, gy + 1]] })).toThrow(/closures\.0\.area contains the goal/);
  });
});
