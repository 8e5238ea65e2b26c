/**
 * The demo's scenario catalogue: the suites in `scenes/suites/*.json` (loaded on demand), the
 * default city's free roam, and ambient walkers added to any scenario. No DOM.
 *
 * Ambient walkers are 'walk' pedestrians (ORCA, cooperative) on seeded random walks over the
 * world's pedestrian navigation graph near a centre point, so the same seed gives the same crowd.
 */
import type { Vec2 } from '../core/geometry2d';
import { createRng } from '../core/random';
import { parseScenarios, type PedestrianSpec, type Scenario } from '../sim/scenario';
import { suiteWorld } from '../bench/suites';
import { defaultWorldCamera } from '../world/bake/default-camera';
import type { World } from '../world/world';
import { navIndex } from '../world/nav-index';
import { findRoute } from '../world/routes';
import { osmWorldKey, registeredOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';
import { pageRealPlace } from './real-places';

/** Suite files shipped in `scenes/suites/` (`monaco-casino`: a real place from OpenStreetMap, src/app/real-places.ts). */
export const SUITE_NAMES = ['smoke', 'unit', 'reactive', 'long', 'closure', 'monaco-casino'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

/** World seed of the default city (as `npm run render -- --world 1`). */
export const DEFAULT_CITY_SEED = 1;
/** Id of the free-roam scenario. */
export const FREE_ROAM_ID = 'city/free-roam';

const loaders: Record<SuiteName, () => Promise<unknown>> = {
  smoke: () => import('../../scenes/suites/smoke.json'),
  unit: () => import('../../scenes/suites/unit.json'),
  reactive: () => import('../../scenes/suites/reactive.json'),
  long: () => import('../../scenes/suites/long.json'),
  closure: () => import('../../scenes/suites/closure.json'),
  'monaco-casino': () => import('../../scenes/suites/monaco-casino.json'),
};
const suiteCache = new Map<SuiteName, Scenario[]>();

/**
 * The scenarios of a shipped suite (validated with the scenario schema); the real places its
 * scenarios name are fetched and built first (src/app/real-places.ts).
 *
 * @param status shown while a real place is built (seconds).
 * @throws ScenarioError when the file does not validate; Error naming the file when the page lacks a real place it names.
 */
export async function loadSuite(name: SuiteName, status?: (line: string) => void): Promise<Scenario[]> {
  let list = suiteCache.get(name);
  if (!list) {
    const path = `scenes/suites/${name}.json`;
    const mod = (await loaders[name]()) as { default: unknown };
    list = parseScenarios(path, JSON.stringify(mod.default));
    const places = new Map<string, OsmWorldRef>();
    for (const s of list) if (s.world.kind === 'osm') places.set(osmWorldKey(s.world), s.world);
    for (const ref of places.values()) await pageRealPlace(ref, path, status);
    suiteCache.set(name, list);
  }
  return list;
}

/** Ambient walkers spawn no closer than this to the robot's start, metres (clear of its footprint and their 0.3 m cylinder). */
export const WALKER_START_CLEARANCE = 2;

/**
 * `count` ambient walkers near `centre`: each starts at a random navigation node within `radius`
 * metres (and at least `clearOf.radius` from `clearOf.point`, e.g. the robot's start) and walks a
 * random walk of `steps` edges (no immediate backtracking) at 1.1–1.65 m/s.
 *
 * @throws RangeError when count is negative or no navigation node lies within the radius.
 */
export function ambientWalkers(world: World, centre: Vec2, count: number, seed: number, radius = 35, steps = 40, clearOf?: { point: Vec2; radius: number }): PedestrianSpec[] {
  if (!(Number.isInteger(count) && count >= 0)) throw new RangeError(`ambientWalkers: count ${count} is not a non-negative integer`);
  if (count === 0) return [];
  const nodes = world.nav.nodes;
  const { adj } = navIndex(world.nav);
  const clear = (i: number) => !clearOf || Math.hypot(nodes[i][0] - clearOf.point[0], nodes[i][1] - clearOf.point[1]) >= clearOf.radius;
  const near = nodes.map((_, i) => i).filter((i) => adj[i].length > 0 && Math.hypot(nodes[i][0] - centre[0], nodes[i][1] - centre[1]) <= radius && clear(i));
  if (near.length === 0) throw new RangeError(`ambientWalkers: no navigation node within ${radius} m of (${centre.join(', ')})`);
  const rng = createRng(seed).fork('ambient-walkers');
  const out: PedestrianSpec[] = [];
  for (let k = 0; k < count; k++) {
    let cur = near[rng.int(0, near.length - 1)];
    let prev = -1;
    const route: Vec2[] = [[nodes[cur][0], nodes[cur][1]]];
    for (let s = 0; s < steps; s++) {
      const options = adj[cur].map((e) => e.to).filter((n) => n !== prev);
      const next = options.length > 0 ? options[rng.int(0, options.length - 1)] : prev;
      if (next < 0) break;
      prev = cur;
      cur = next;
      route.push([nodes[cur][0], nodes[cur][1]]);
    }
    const heading = route.length > 1 ? Math.atan2(route[1][1] - route[0][1], route[1][0] - route[0][0]) : 0;
    out.push({ behaviour: 'walk', spawn: route[0], heading, speed: rng.range(1.1, 1.65), route });
  }
  return out;
}

/** Length range of the free roam's route, metres. */
export const FREE_ROAM_ROUTE_LENGTH: readonly [number, number] = [50, 70];
/** The free roam's goal is at least this far from where any walker ends its walk and stands, metres. */
export const FREE_ROAM_GOAL_CLEARANCE = 3;

/**
 * The default city's free roam: the robot on the default sidewalk camera's spot facing along its
 * route (as SidewalkBench spawns its robot); the route is the shortest walkable route to a seeded
 * navigation-graph node whose route length lies in {@link FREE_ROAM_ROUTE_LENGTH}, away from where
 * the walkers end their walks ({@link FREE_ROAM_GOAL_CLEARANCE}); a 10-minute
 * limit, reset-to-waypoint on failure, and `walkers` ambient walkers.
 */
export function freeRoamScenario(walkers: number, seed = 1): Scenario {
  const world = suiteWorld(DEFAULT_CITY_SEED);
  const cam = defaultWorldCamera(world, { widthPx: 64, heightPx: 48 });
  const start: Vec2 = [cam.eye[0], cam.eye[1]];
  const [lo, hi] = FREE_ROAM_ROUTE_LENGTH;
  const rng = createRng(seed).fork('free-roam-goal');
  const crowd = ambientWalkers(world, start, walkers, seed, 35, 40, { point: start, radius: WALKER_START_CLEARANCE });
  // Not where a walker ends its walk and stands.
  const ends = crowd.map((p) => p.route?.[p.route.length - 1] ?? p.spawn);
  const nodes = world.nav.nodes.filter(([x, y]) => {
    const d = Math.hypot(x - start[0], y - start[1]);
    return d > lo / 2 && d < hi && ends.every((e) => Math.hypot(e[0] - x, e[1] - y) >= FREE_ROAM_GOAL_CLEARANCE);
  });
  let route: Vec2[] = [start, [cam.target[0], cam.target[1]]];
  for (let k = 0; k < 50 && nodes.length > 0; k++) {
    const r = findRoute(world, start, nodes.splice(rng.int(0, nodes.length - 1), 1)[0]);
    if (r && r.length >= lo && r.length <= hi) {
      route = r.points.filter((p, i) => i === 0 || Math.hypot(p[0] - r.points[i - 1][0], p[1] - r.points[i - 1][1]) > 1e-6);
      break;
    }
  }
  const yaw = Math.atan2(route[1][1] - start[1], route[1][0] - start[0]);
  return {
    id: FREE_ROAM_ID, suite: 'custom', category: 'free-roam', world: { kind: 'procedural', seed: DEFAULT_CITY_SEED },
    robot: { start: [start[0], start[1], yaw], goal: route[route.length - 1], route },
    timeLimit: 600, pedestrians: crowd, success: { kind: 'reach-goal', goalRadius: 1 },
    onFailure: 'reset-to-waypoint', seed,
  };
}

/** A copy of `scenario` with `walkers` ambient walkers added around its route's midpoint (none spawning on the robot); procedural worlds and real places loaded by {@link loadSuite}. */
export function withAmbientWalkers(scenario: Scenario, walkers: number): Scenario {
  if (walkers === 0) return scenario;
  const w = scenario.world;
  const world = w.kind === 'procedural' ? suiteWorld(w.seed, w.size) : w.kind === 'osm' ? registeredOsmWorld(w) : undefined;
  if (!world) return scenario;
  const r = scenario.robot.route;
  const mid = r[Math.floor(r.length / 2)];
  const start: Vec2 = [scenario.robot.start[0], scenario.robot.start[1]];
  const extra = ambientWalkers(world, [mid[0], mid[1]], walkers, scenario.seed, 30, 40, { point: start, radius: WALKER_START_CLEARANCE });
  return { ...scenario, id: `${scenario.id}+${walkers}walkers`, pedestrians: [...scenario.pedestrians, ...extra] };
}
