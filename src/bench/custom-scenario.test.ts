import { describe, expect, it } from 'vitest';
import { pointRingDistance, type Vec2 } from '../core/geometry2d';
import { UserError } from '../core/user-error';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { gridRoute, isClearGround, nearestClearPoint } from '../world/grid-route';
import { densify, polylineLength } from '../world/polyline';
import { isWalkable } from '../world/queries';
import { sceneWorld } from '../world/bake/scene-file';
import type { Scenario } from '../sim/scenario';
import { CUSTOM_ROUTE_CLEARANCE, customScenario } from './custom-scenario';
import { runEpisode } from './episode';
import { loadScenarioWorldNode, readScannedScenes } from './scanned-scenes-node';
import { suiteWorld } from './suites';

/** The expert's episode of a scenario without pedestrians. */
async function expertEpisode(scenario: Scenario) {
  const world = await loadScenarioWorldNode(scenario);
  return runEpisode(scenario, 0, scenario.seed, { world, pedestrians: new ScenarioPedestrians([], world.obstacles, scenario.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
}

const world1 = suiteWorld(1);
const procedural = { world: world1, worldRef: { kind: 'procedural', seed: 1 } as const };
const fruit = readScannedScenes().find((s) => s.path === 'scenes/fruit-drops.json')!;
const fruitWorld = sceneWorld(fruit.scene);
const scene = { world: fruitWorld, worldRef: { kind: 'scene', path: fruit.path } as const };

describe('customScenario on a procedural world (navigation graph)', () => {
  it('snaps a goal inside a building to the nearest walkable ground, with a note, and routes on walkable ground only', () => {
    expect(isWalkable(world1, 30, 40)).toBe(false);
    const { scenario, notes } = customScenario({ ...procedural, from: [0, 0], to: [30, 40] });
    const route = scenario.robot.route as Vec2[];
    expect(route[0]).toEqual([0, 0]);
    const goal = scenario.robot.goal as Vec2;
    expect(isWalkable(world1, goal[0], goal[1])).toBe(true);
    expect(Math.hypot(goal[0] - 30, goal[1] - 40)).toBeLessThan(10);
    expect(route[route.length - 1]).toEqual(goal);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^--to \(30\.00, 40\.00\) is on building, not walkable: moved \d+\.\d\d m to/);
    expect(densify(route, 0.1).every(([x, y]) => isWalkable(world1, x, y))).toBe(true);
    // The route is not much longer than the straight line (no detour at its ends).
    expect(polylineLength(route)).toBeLessThan(1.6 * Math.hypot(goal[0], goal[1]));
    expect(scenario.suite).toBe('custom');
    expect(scenario.timeLimit).toBe(Math.max(60, Math.ceil(polylineLength(route) / 0.5)));
  });

  it('is deterministic, and the seed changes the placement only', () => {
    const a = customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'obstructing', at: 25, seed: 3 });
    const b = customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'obstructing', at: 25, seed: 3 });
    const c = customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'obstructing', at: 25, seed: 4 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(c.scenario.robot.route).toEqual(a.scenario.robot.route);
    expect(c.scenario.pedestrians).not.toEqual(a.scenario.pedestrians);
  });

  it('places a behaviour by the suite rules on a straight stretch: spawns and walking paths on walkable ground, gesturing judged by stopping', () => {
    for (const behaviour of ['obstructing', 'conversing', 'queuing', 'frontal', 'lateral', 'overtaking', 'gesturing'] as const) {
      const { scenario, notes } = customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour });
      expect(notes, behaviour).toEqual([]);
      expect(scenario.pedestrians.length, behaviour).toBeGreaterThan(0);
      for (const p of scenario.pedestrians) {
        expect(isWalkable(world1, p.spawn[0], p.spawn[1]), behaviour).toBe(true);
        for (const [x, y] of densify((p.route ?? []) as Vec2[], 0.25)) expect(isWalkable(world1, x, y), behaviour).toBe(true);
      }
      expect(scenario.category).toBe(behaviour);
    }
    expect(customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'gesturing' }).scenario.success).toEqual({ kind: 'stop-before', pedestrian: 0, maxDistance: 3 });
  });

  it('refuses a walker whose straight path would leave the walkable area (a route that turns)', () => {
    expect(() => customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'overtaking' })).toThrow(/^scenario: pedestrian 0 \(overtaking\) would walk off the walkable area at \(/);
  });

  it('gives every different request its own default id (the bench resumes runs by id)', () => {
    const ids = [
      customScenario({ ...procedural, from: [13, 2], to: [20, 31] }),
      customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'obstructing' }),
      customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'obstructing', at: 12 }),
      customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'obstructing', at: 12, seed: 2 }),
    ].map((r) => r.scenario.id);
    expect(ids).toEqual(['custom/route/13,2_20,31', 'custom/obstructing/13,2_20,31', 'custom/obstructing/13,2_20,31/at12', 'custom/obstructing/13,2_20,31/at12/seed2']);
  });

  it('notes an --at it clamps or ignores, and hands notes out before a later refusal', () => {
    const { notes } = customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'obstructing', at: 29 });
    expect(notes).toContain('--at 29 is within 4 m of the goal: the pedestrians stand at 25.9 m');
    expect(customScenario({ ...procedural, from: [13, 2], to: [20, 31], behaviour: 'static', at: 5 }).notes).toEqual(['--at is ignored for static (no pedestrians)']);
    const early: string[] = [];
    expect(() => customScenario({ ...procedural, from: [30, 40], to: [30, 40] }, early)).toThrow(/less than 2 m apart/);
    expect(early).toHaveLength(2);
    expect(early[0]).toMatch(/^--from \(30\.00, 40\.00\) is on building, not walkable: moved/);
  });

  it('notes a behaviour placed on a turn, and refuses --at outside the route', () => {
    const { notes } = customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'gesturing', at: 11 });
    expect(notes.some((n) => /^the route turns \d+° within 5 m of where the gesturing pedestrians stand \(11\.0 m\)/.test(n))).toBe(true);
    expect(() => customScenario({ ...procedural, from: [0, 0], to: [30, 40], behaviour: 'gesturing', at: 500 })).toThrow(/--at 500 is outside the route \(0–\d+\.\d m\)/);
  });

  it('the expert reaches the goal of a custom route', async () => {
    const { scenario } = customScenario({ ...procedural, from: [0, 0], to: [30, 40] });
    const r = await expertEpisode(scenario);
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('goal');
  });
});

describe('customScenario on an annotated scene (grid route)', () => {
  it('routes around the scene’s obstacles with clearance, ending exactly at the points', () => {
    const { scenario, notes } = customScenario({ ...scene, from: [7.4, 10.2], to: [-1.1, 2] });
    expect(notes).toEqual([]);
    const route = scenario.robot.route as Vec2[];
    expect(route[0]).toEqual([7.4, 10.2]);
    expect(route[route.length - 1]).toEqual([-1.1, 2]);
    expect(scenario.world).toEqual({ kind: 'scene', path: 'scenes/fruit-drops.json' });
    for (const p of densify(route, 0.05)) {
      expect(isClearGround(fruitWorld, p, CUSTOM_ROUTE_CLEARANCE - 1e-3)).toBe(true);
      for (const o of fruitWorld.obstacles) expect(pointRingDistance(p[0], p[1], o.footprint)).toBeGreaterThanOrEqual(CUSTOM_ROUTE_CLEARANCE - 1e-3);
    }
    // String pulling leaves a few vertices, not one per grid cell.
    expect(route.length).toBeLessThan(8);
  });

  it('the expert reaches the goal of a scene route', async () => {
    const { scenario } = customScenario({ ...scene, from: [7.4, 10.2], to: [-1.1, 2] });
    const r = await expertEpisode(scenario);
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('goal');
  });

  it('one clear line for bad requests', () => {
    expect(() => customScenario({ ...scene, from: [50, 50], to: [-1.1, 2] })).toThrow(new UserError('scenario: --from (50.00, 50.00) is outside the world and no walkable ground is within 25 m'));
    expect(() => customScenario({ ...scene, from: [7.4, 10.2], to: [7.4, 11] })).toThrow(/are less than 2 m apart/);
    expect(() => customScenario({ ...scene, from: [7.4, 10.2], to: [-1.1, 2], behaviour: 'ped-crossing' })).toThrow('scenario: --behaviour ped-crossing needs a generated crosswalk (procedural worlds); an annotated scene has none');
    // A point on the sidewalk but within the clearance of its edge is moved inside, and still routes.
    const near = customScenario({ ...scene, from: [20, 2], to: [0, 2] });
    expect(near.notes[0]).toMatch(/^--from \(20\.00, 2\.00\) is (outside the world|on \w+), not walkable: moved/);
    expect(near.scenario.robot.route.length).toBeGreaterThanOrEqual(2);
    const edge = customScenario({ ...scene, from: [9.8, 2], to: [0, 2] });
    expect(edge.notes[0]).toMatch(/^--from \(9\.80, 2\.00\) is within 0\.4 m of the walkable area's edge or an obstacle: moved 0\.2\d m/);
  });
});

describe('gridRoute and nearestClearPoint', () => {
  it('nearestClearPoint returns the point itself when clear and a clear point otherwise', () => {
    expect(nearestClearPoint(fruitWorld, [7.4, 10.2])).toEqual([7.4, 10.2]);
    const q = nearestClearPoint(fruitWorld, [7.4, 20])!;
    expect(isClearGround(fruitWorld, q)).toBe(true);
    expect(nearestClearPoint(fruitWorld, [500, 500])).toBeNull();
  });

  it('refuses endpoints that are not clear ground, and returns null when they are not connected', () => {
    expect(() => gridRoute(fruitWorld, [500, 500], [7.4, 10.2])).toThrow(RangeError);
    // A wall across the whole scene between the two points.
    const wall: Vec2[] = [[-30, 6], [30, 6], [30, 7], [-30, 7]];
    const walled = { ...fruitWorld, obstacles: [...fruitWorld.obstacles, { ...fruitWorld.obstacles[0], id: fruitWorld.obstacles.length, footprint: wall, centre: [0, 6.5] as Vec2, radius: 31 }] };
    expect(gridRoute(fruitWorld, [7.4, 10.2], [-1.1, 2])).not.toBeNull();
    expect(gridRoute(walled, [7.4, 10.2], [-1.1, 2])).toBeNull();
    expect(() => customScenario({ world: walled, worldRef: scene.worldRef, from: [7.4, 10.2], to: [-1.1, 2] })).toThrow('scenario: no walkable route from (7.40, 10.20) to (-1.10, 2.00) (no path 0.4 m clear of edges and obstacles)');
  });
});
