/**
 * The suite of one annotated scanned scene (`npm run suites -- --scene scenes/NAME.json`): the
 * scenarios SidewalkBench defines for a scanned block (seeds/002 §3.3), deterministic in the seed:
 *
 * - unit: `perKind` straight, turn and crossing routes of 10–20 m (src/bench/scanned-suites.ts);
 * - reactive: `perBehaviour` of each behaviour the scene can hold, on its straight unit routes
 *   (10–20 m; the procedural suites use 15–22 m), pedestrians placed by the suite rules and checked as
 *   custom scenarios are (src/bench/custom-scenario.ts); Ped-Crossing needs a generated crosswalk
 *   (procedural worlds) and is left out on scans;
 * - long: routes over 100 m between clear walkable points at least 70 m apart (A* over clear
 *   ground), when the scene's walkable area allows them; none otherwise. Unlike the procedural long
 *   suite, alternatives are not fenced off (a scan has no navigation graph to enumerate them).
 *
 * What could not be made is reported as notes (one line each), never silently.
 */
import { createRng, type Rng } from '../core/random';
import type { Vec2 } from '../core/geometry2d';
import { UserError } from '../core/user-error';
import { gridRoute, isClearGround } from '../world/grid-route';
import { polylineLength } from '../world/polyline';
import { sceneWorld } from '../world/bake/scene-file';
import { BEHAVIOURS, type Behaviour, type Scenario } from '../sim/scenario';
import { CUSTOM_ROUTE_CLEARANCE, customScenario } from './custom-scenario';
import { scannedUnitScenarios, SCANNED_KINDS, type ScannedScene } from './scanned-suites';

/** Options of {@link sceneSuite}. */
export interface SceneSuiteOptions {
  seed?: number;
  /** Unit scenarios per kind (default 10, as SidewalkBench per block type). */
  perKind?: number;
  /** Reactive scenarios per behaviour (default 10). */
  perBehaviour?: number;
  /** Long-horizon routes (default 5, SidewalkBench's number for its scanned scenes). */
  longCount?: number;
}

/** Reactive behaviours placed on a scan's straight stretches (Ped-Crossing needs a procedural crosswalk). */
export const SCENE_BEHAVIOURS: readonly Behaviour[] = BEHAVIOURS.filter((b) => b !== 'ped-crossing');

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Makes the scene's suite; `notes` says what was left out and why.
 *
 * @throws UserError naming the scene when it gives no unit route at all (no sidewalk rectangle of
 *   10 m, or none clear of its obstacles).
 */
export function sceneSuite(scene: ScannedScene, options: SceneSuiteOptions = {}): { scenarios: Scenario[]; notes: string[] } {
  const seed = options.seed ?? 0;
  const perKind = options.perKind ?? 10;
  const perBehaviour = options.perBehaviour ?? 10;
  const longCount = options.longCount ?? 5;
  const notes: string[] = [];
  const world = sceneWorld(scene.scene);
  const worldRef: Scenario['world'] = { kind: 'scene', path: scene.path };
  const rng = createRng(seed).fork(`scene-suite/${scene.path}`);

  const unit: Scenario[] = [];
  for (const kind of SCANNED_KINDS) {
    try {
      unit.push(...scannedUnitScenarios([scene], rng.fork(`unit-${kind}`), perKind, 'unit', [kind]));
    } catch (e) {
      notes.push(`${scene.path}: no ${kind} unit scenarios (${(e as Error).message})`);
    }
  }
  if (unit.length === 0) throw new UserError(`${scene.path}: no unit route of 10–20 m fits the scene (no sidewalk rectangle of 10 m clear of its obstacles)`);

  // Reactive: pedestrians on the straight unit routes.
  const straights = unit.filter((s) => s.id.includes('/straight/')).map((s) => s.robot.route as Vec2[]);
  const reactive: Scenario[] = [];
  if (straights.length === 0) notes.push(`${scene.path}: no straight route for the reactive scenarios`);
  else {
    notes.push(`${scene.path}: ped-crossing left out (its pedestrians need a generated crosswalk; scans have none)`);
    for (const behaviour of SCENE_BEHAVIOURS) {
      const brng = rng.fork(`reactive-${behaviour}`);
      let made = 0;
      for (let attempt = 0; made < perBehaviour && attempt < perBehaviour * 20; attempt++) {
        const route = straights[attempt % straights.length];
        try {
          const { scenario } = customScenario({ world, worldRef, from: route[0], to: route[route.length - 1], behaviour, seed: brng.int(0, 2 ** 31 - 1), id: `reactive/scanned/${scene.scene.name}/${behaviour}/${String(made).padStart(3, '0')}`, timeLimit: 60 });
          reactive.push({ ...scenario, suite: 'reactive' });
          made++;
        } catch (e) {
          if (!(e instanceof UserError)) throw e;
        }
      }
      if (made < perBehaviour) notes.push(`${scene.path}: ${made} of ${perBehaviour} ${behaviour} scenarios placed (the rest leave no passing gap or stand off the walkable area)`);
    }
  }

  const long = longRoutes(scene, world, worldRef, rng.fork('long'), longCount);
  if (long.length < longCount) notes.push(`${scene.path}: ${long.length} of ${longCount} long-horizon routes (the walkable network has ${long.length === 0 ? 'no route' : 'too few routes'} over 100 m)`);
  // Ids name the scene and seed: distinct from the checked-in suites' (the bench resumes by id).
  const scenarios = [...unit, ...reactive, ...long].map((s) => ({ ...s, id: `scene/${scene.scene.name}/seed${seed}/${s.id}` }));
  return { scenarios, notes };
}

/** Clear walkable points of the scene on a 1 m grid (the long routes' candidate ends). */
function clearPoints(world: ReturnType<typeof sceneWorld>): Vec2[] {
  const [x0, y0, x1, y1] = world.bounds;
  const out: Vec2[] = [];
  for (let y = Math.ceil(y0); y <= y1; y++) for (let x = Math.ceil(x0); x <= x1; x++) if (isClearGround(world, [x, y], CUSTOM_ROUTE_CLEARANCE)) out.push([x, y]);
  return out;
}

/** Up to `count` routes over 100 m between clear points at least 70 m apart (A* over clear ground). */
function longRoutes(scene: ScannedScene, world: ReturnType<typeof sceneWorld>, worldRef: Scenario['world'], rng: Rng, count: number): Scenario[] {
  const [x0, y0, x1, y1] = world.bounds;
  if (Math.hypot(x1 - x0, y1 - y0) < 100) return [];
  const points = clearPoints(world);
  const out: Scenario[] = [];
  for (let attempt = 0; out.length < count && attempt < count * 40 && points.length > 1; attempt++) {
    const a = points[rng.int(0, points.length - 1)], b = points[rng.int(0, points.length - 1)];
    if (Math.hypot(a[0] - b[0], a[1] - b[1]) < 70) continue;
    const route = gridRoute(world, a, b, { clearance: CUSTOM_ROUTE_CLEARANCE, margin: 10 });
    if (!route || polylineLength(route) < 100) continue;
    const pts = route.map(([x, y]): Vec2 => [r3(x), r3(y)]);
    out.push({
      id: `long/scanned/${scene.scene.name}/long/${String(out.length).padStart(3, '0')}`,
      suite: 'long',
      category: 'long',
      world: worldRef,
      robot: { start: [pts[0][0], pts[0][1], r3(Math.atan2(pts[1][1] - pts[0][1], pts[1][0] - pts[0][0]))], goal: pts[pts.length - 1], route: pts },
      timeLimit: Math.ceil(polylineLength(pts) / 0.5),
      pedestrians: [],
      success: { kind: 'reach-goal', goalRadius: 1 },
      onFailure: 'reset-to-waypoint',
      seed: rng.int(0, 2 ** 31 - 1),
    });
  }
  return out;
}
