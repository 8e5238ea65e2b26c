/**
 * Deterministic generation of SidewalkBench's scenario suites (seeds/002 §3.3):
 *
 * - unit (330: 100 straight, 100 curve, 100 crosswalk on procedural worlds, start–goal route
 *   10–20 m, 60 s, a failure ends the episode; plus 30 on the annotated scanned scenes given —
 *   10 straight, 10 turn, 10 crossing, see src/bench/scanned-suites.ts; `npm run suites` passes every
 *   scene file in `scenes/`, today `scenes/fruit-drops.json` and `scenes/street-corner.json`, alternating),
 * - reactive (100 per behaviour: Static, Obstructing, Conversing, Queuing, Frontal, Lateral,
 *   Overtaking, Ped-Crossing (on crosswalks), Gesturing; straight blocks except crossing; procedural
 *   worlds only, as in the paper),
 * - long (105 in the paper: here 100 procedural routes, 95 of 100–400 m on the 400 m worlds and 5
 *   of 400–1000 m on a 2 km world ({@link LARGE_WORLD_LONG}), every alternative fenced off so the
 *   route is the only path (src/bench/blockers.ts); on failure reset to the closest route waypoint. The 5 scanned-scene ones come when a scene is large enough: no annotated scene has a
 *   route over 100 m — fruit-drops is a 20 m × 3 m sidewalk and a 7 m crosswalk, street-corner a 25 m
 *   crossing of world 1),
 * - smoke (a few of every kind, short, for the default run and CI).
 *
 * Worlds are shared: scenario k uses world seed WORLD_SEEDS[k mod 8] (400 m worlds), so a suite
 * needs only a few world generations. Everything derives from `SUITE_SEED` through src/core/random.
 */
import { createRng, type Rng } from '../core/random';
import { arcLengths, sampleAt } from '../world/polyline';
import { isWalkable, lineClearOfObstacles, walkableExtent } from '../world/queries';
import { BEHAVIOUR_CONSTANTS } from '../crowd/scenario-pedestrians';
import { findRoute, sampleRoute, type SampledRoute } from '../world/routes';
import { generateWorld, type World } from '../world/world';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { footprintCorners } from '../robot/unicycle';
import { blockAlternatives } from './blockers';
import { stepsOnRoute } from '../world/osm/steps';
import { SCANNED_KINDS, scannedUnitScenarios, type ScannedKind, type ScannedScene } from './scanned-suites';
import type { Behaviour, PedestrianSpec, Scenario } from '../sim/scenario';

export const SUITE_SEED = 20261129;
export const WORLD_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

type Vec2 = [number, number];
const worldCache = new Map<string, World>();

/** The procedural world of a seed and size (cached; default the suites' 400 m). */
export function suiteWorld(seed: number, size?: number): World {
  const key = `${seed}/${size ?? 'default'}`;
  let w = worldCache.get(key);
  if (!w) {
    w = generateWorld(size === undefined ? { seed } : { seed, size });
    worldCache.set(key, w);
  }
  return w;
}

/**
 * A world the suites draw routes from: the scenario's reference to it and the world (built on first
 * use). The procedural suites use {@link PROCEDURAL_SUITE_WORLDS}; a real place's suite its one OSM
 * world (src/bench/osm-suite.ts).
 */
export interface SuiteWorld {
  ref: Scenario['world'];
  world(): World;
}

/** The procedural suites' worlds: WORLD_SEEDS at 400 m. */
export const PROCEDURAL_SUITE_WORLDS: readonly SuiteWorld[] = WORLD_SEEDS.map((seed) => ({ ref: { kind: 'procedural', seed }, world: () => suiteWorld(seed) }));

/**
 * Where a suite draws from, and what it does when it cannot place a scenario: without `notes` it
 * throws (the procedural suites must be complete), with `notes` it writes one line per shortfall
 * there and goes on (a real place may have no curve or crosswalk of the right length).
 */
export interface SuiteDraw {
  worlds: readonly SuiteWorld[];
  notes?: string[];
  /** Place Lateral pedestrians inside narrow sidewalks ({@link placeBehaviour}'s `narrow`). */
  narrow?: boolean;
  /**
   * Redraw a route whose start pose puts the delivery robot's footprint (the largest embodiment's,
   * grown by {@link START_MARGIN}) off the walkable area: a real place's network has nodes near the
   * kerb (where a footway or crosswalk joins), and an episode starting out of lane fails at t = 0.
   */
  clearStart?: boolean;
}

/** Margin around the robot's footprint at a route's start for {@link SuiteDraw.clearStart}, metres. */
export const START_MARGIN = 0.1;

/** Whether the grown footprint of the delivery robot at a route's start pose (heading along its first leg) is on walkable ground. */
export function startFootprintClear(world: World, route: readonly Vec2[]): boolean {
  const [a, b] = route;
  const state = { x: a[0], y: a[1], yaw: Math.atan2(b[1] - a[1], b[0] - a[0]), v: 0, w: 0 };
  const grown = { ...DELIVERY_ROBOT, length: DELIVERY_ROBOT.length + 2 * START_MARGIN, width: DELIVERY_ROBOT.width + 2 * START_MARGIN };
  const c = footprintCorners(state, grown);
  const samples = c.flatMap((p, i) => {
    const q = c[(i + 1) % 4];
    return [p, [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]];
  });
  return samples.every(([x, y]) => isWalkable(world, x, y));
}

const PROCEDURAL_DRAW: SuiteDraw = { worlds: PROCEDURAL_SUITE_WORLDS };

function shortfall(draw: SuiteDraw, message: string): void {
  if (!draw.notes) throw new Error(message);
  draw.notes.push(message);
}

function baseScenario(id: string, suite: Scenario['suite'], category: string, worldRef: Scenario['world'], route: Vec2[], seed: number, timeLimit: number): Scenario {
  const [a, b] = route;
  return {
    id,
    suite,
    category,
    world: worldRef,
    robot: { start: [a[0], a[1], Math.atan2(b[1] - a[1], b[0] - a[0])], goal: route[route.length - 1], route },
    timeLimit,
    pedestrians: [],
    success: { kind: 'reach-goal', goalRadius: 1 },
    onFailure: 'terminate',
    seed,
  };
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const roundRoute = (pts: Vec2[]): Vec2[] => pts.map(([x, y]) => [r3(x), r3(y)]);

/** Samples a route of `kind` on world k mod n, retrying across worlds (never one over a real place's steps: suites are driven by wheeled robots); throws when none is found. */
function routeFor(rng: Rng, k: number, kind: SampledRoute['kind'], min: number, max: number, worlds: readonly SuiteWorld[], clearStart = false): { entry: SuiteWorld; world: World; route: SampledRoute } {
  for (let t = 0; t < worlds.length; t++) {
    const entry = worlds[(k + t) % worlds.length];
    const world = entry.world();
    try {
      for (let redraw = 0; redraw < (clearStart ? 20 : 1); redraw++) {
        const route = sampleRoute(world, rng, { kind, minLength: min, maxLength: max, attempts: 80 });
        if (route && (!clearStart || startFootprintClear(world, roundRoute(route.points))) && !stepsOnRoute(world, route.points)) return { entry, world, route };
      }
    } catch {
      // This world has no block of that kind: try the next one.
    }
  }
  throw new Error(`suites: no ${kind} route of ${min}–${max} m in any suite world`);
}

/** The point and unit tangent at arc length s along a route, and its left normal. */
function frameAt(route: Vec2[], s: number): { p: Vec2; t: Vec2; n: Vec2 } {
  const { p, t } = sampleAt(route, s, arcLengths(route));
  return { p: p as Vec2, t: t as Vec2, n: [-t[1], t[0]] };
}

const add = (p: Vec2, v: Vec2, k: number): Vec2 => [r3(p[0] + v[0] * k), r3(p[1] + v[1] * k)];

/** Clear width the robot needs beside a pedestrian or group to pass without leaving the sidewalk, metres. */
export const PASSING_GAP = 1.0;

/**
 * Lateral offset (along the left normal) for a body of half-width `half` standing in the path so that
 * a gap of at least PASSING_GAP stays on one side: 0 when the path is wide enough, else shifted
 * toward the side drawn by `side`; null when even at the kerb no gap remains.
 */
function passableOffset(ext: { left: number; right: number }, half: number, side: number): number | null {
  const gapLeft = (o: number) => ext.left - (o + half);
  const gapRight = (o: number) => ext.right + (o - half);
  if (Math.max(gapLeft(0), gapRight(0)) >= PASSING_GAP) return 0;
  // Shift toward `side` so the opposite side opens up.
  const o = side > 0 ? ext.left - half - 0.05 : -(ext.right - half - 0.05);
  return (side > 0 ? gapRight(o) : gapLeft(o)) >= PASSING_GAP ? r3(o) : null;
}

/** How far from the path a Lateral pedestrian starts and exits, metres (see {@link placeBehaviour}'s `narrow`). */
const LATERAL_REACH = 1.4;

/** Clearance a scripted pedestrian's line keeps from every static obstacle: its 0.3 m cylinder plus 5 cm, metres. */
export const SCRIPTED_LINE_CLEARANCE = 0.35;

const { QUEUE_SERVED_WALK, QUEUE_SERVED_SPACING, QUEUE_STEP_ASIDE, QUEUE_STEP_AHEAD } = BEHAVIOUR_CONSTANTS;

/**
 * The points a scripted pedestrian walks through or stands at (world frame, metres), in order: its
 * spawn, then its route, its obstructing target, its lateral crossing and exit, or (queuing) the
 * head's place, the step aside and the end of the served walk (as ScenarioPedestrians computes
 * them from the spec).
 *
 * @param head The spawn of the queue's head (order 0), for queue members.
 */
export function scriptedLine(spec: PedestrianSpec, head?: Vec2): Vec2[] {
  const pt = (v: unknown): Vec2 => [(v as number[])[0], (v as number[])[1]];
  const line: Vec2[] = [pt(spec.spawn)];
  if (spec.route) line.push(...spec.route.slice(1).map(pt));
  if (spec.behaviour === 'obstructing') line.push(pt(spec.params?.target));
  if (spec.behaviour === 'lateral') line.push(pt(spec.params?.crossPoint), pt(spec.params?.exit));
  if (spec.behaviour === 'queuing') {
    const front = head ?? line[0];
    const order = Number(spec.params?.order ?? 0);
    const side = Number(spec.params?.exitSide ?? 1) < 0 ? -1 : 1;
    const [c, sn] = [Math.cos(spec.heading), Math.sin(spec.heading)];
    const aside: Vec2 = [front[0] + QUEUE_STEP_AHEAD * c - side * QUEUE_STEP_ASIDE * sn, front[1] + QUEUE_STEP_AHEAD * sn + side * QUEUE_STEP_ASIDE * c];
    const walk = QUEUE_SERVED_WALK - QUEUE_SERVED_SPACING * order;
    line.push(front, aside, [aside[0] + walk * c, aside[1] + walk * sn]);
  }
  return line;
}

/** The line's first point (the spawn) walkable and the whole line clear of obstacles (see {@link lineClearOfObstacles}). */
function scriptedLineOk(world: World, line: readonly Vec2[]): boolean {
  return isWalkable(world, line[0][0], line[0][1]) && lineClearOfObstacles(world, line, SCRIPTED_LINE_CLEARANCE);
}

/**
 * Pedestrians for one reactive behaviour placed along `route` (world `world`), with trigger
 * parameters, around arc length `at` (metres along the route; default 8–11 m drawn from `rng`,
 * at most `length` − 4); null when the placement would leave the walkable area or a scripted line
 * ({@link scriptedLine}) would pass within {@link SCRIPTED_LINE_CLEARANCE} of a static obstacle (the
 * caller resamples): scripted pedestrians keep their timing because nothing stands on their line.
 * With `narrow` (real places, whose sidewalks are often 2 m wide where the procedural worlds' are
 * wider), a Lateral pedestrian that would spawn or exit off the sidewalk at 1.4 m from the path starts
 * and ends 0.4 m inside its edges instead (at least 0.6 m out), so it still crosses the robot's path.
 *
 * @throws Error for `ped-crossing` (placed on a crosswalk by {@link crossingPedestrians}).
 */
export function placeBehaviour(behaviour: Behaviour, route: Vec2[], length: number, world: World, rng: Rng, at?: number, narrow = false): PedestrianSpec[] | null {
  const speed = () => r3(rng.range(1.1, 1.65));
  const drawn = rng.range(8, 11);
  const s = Math.min(length - 4, at ?? drawn);
  const f = frameAt(route, s);
  const side = rng.next() < 0.5 ? 1 : -1;
  const heading = (v: Vec2) => r3(Math.atan2(v[1], v[0]));
  const ext = walkableExtent(world, f.p, f.n, 6);
  let peds: PedestrianSpec[];
  switch (behaviour) {
    case 'static':
      return [];
    case 'obstructing': {
      // Waits beside the path, steps into it when the robot is within the trigger distance, stands
      // (leaving a passing gap on one side).
      const o = passableOffset(ext, 0.3, side);
      if (o === null) return null;
      const target = add(f.p, f.n, o);
      const wait = side * Math.min(0.9, side > 0 ? ext.left - 0.35 : ext.right - 0.35);
      peds = [{ behaviour, spawn: add(f.p, f.n, wait), heading: heading([-f.n[0] * side, -f.n[1] * side]), speed: speed(), triggerDistance: r3(rng.range(4, 6)), params: { target } }];
      break;
    }
    case 'conversing': {
      // 2–4 members on a circle around a centre in the path, facing it, 0.7–1.7 m apart; the robot
      // must pass around the whole group.
      const n = rng.int(2, 4);
      const radius = rng.range(0.45, 0.85);
      const o = passableOffset(ext, radius + 0.3, side);
      if (o === null) return null;
      const centre = add(f.p, f.n, o);
      const phase = rng.range(0, Math.PI);
      peds = Array.from({ length: n }, (_, i) => {
        const a = phase + (2 * Math.PI * i) / n;
        const pos = add(add(centre, f.t, radius * Math.cos(a)), f.n, radius * Math.sin(a));
        return { behaviour, spawn: pos, heading: r3(Math.atan2(centre[1] - pos[1], centre[0] - pos[0])), speed: 0, group: 0, params: { centre } };
      });
      break;
    }
    case 'queuing': {
      // 3–5 people in a line along the path (0.2–0.8 m gaps between 0.6 m bodies) facing the
      // robot's direction of travel, the head (order 0) in front; the head is served after its
      // wait, steps aside to `exitSide` (whichever side has room, the passing gap's first) and walks
      // on; followers close up, each waiting its own time from arrival.
      const n = rng.int(3, 5);
      const o = passableOffset(ext, 0.3, side);
      if (o === null) return null;
      const alongs = [0];
      for (let i = 1; i < n; i++) alongs.push(alongs[i - 1] + 0.6 + rng.range(0.2, 0.8));
      const waits = alongs.map(() => r3(rng.range(5, 15)));
      const total = alongs[n - 1];
      const members = (exitSide: number): PedestrianSpec[] =>
        alongs.map((along, i) => {
          const g = frameAt(route, s + total - along);
          return { behaviour, spawn: add(g.p, g.n, o), heading: heading(f.t), speed: 0, group: 0, params: { order: i, wait: waits[i], exitSide } };
        });
      const gapSide = o > 0 ? -1 : o < 0 ? 1 : side;
      // The first side whose lines are clear and whose step aside lands on walkable ground; else the first clear one.
      const options = [gapSide, -gapSide].map(members).filter((line) => line.every((m) => scriptedLineOk(world, scriptedLine(m, line[0].spawn as Vec2))));
      const aside = (line: PedestrianSpec[]) => scriptedLine(line[0])[2];
      peds = options.find((line) => isWalkable(world, aside(line)[0], aside(line)[1])) ?? options[0] ?? [];
      if (peds.length === 0) return null;
      break;
    }
    case 'frontal': {
      // Walks toward the robot along the path, not giving way (triggered when within 12 m), on a
      // line that leaves the robot a passing gap.
      const g = frameAt(route, Math.min(length - 1, s + 6));
      const o = passableOffset(walkableExtent(world, g.p, g.n, 6), 0.3, side);
      if (o === null) return null;
      const start = add(g.p, g.n, o);
      peds = [{ behaviour, spawn: start, heading: heading([-g.t[0], -g.t[1]]), speed: speed(), triggerDistance: 12, route: [start, add(route[0], frameAt(route, 0.01).n, o)] }];
      break;
    }
    case 'lateral': {
      // Crosses the path perpendicular to the robot's heading at a speed that would collide if the
      // robot kept its velocity (the episode sets the speed at trigger time from the geometry).
      // Triggered early; the pedestrian then times its start (see ScenarioPedestrians).
      const reach = (sd: number) => (narrow ? Math.min(LATERAL_REACH, r3((sd > 0 ? ext.left : ext.right) - 0.4)) : LATERAL_REACH);
      const from = reach(side), to = reach(-side);
      if (from < 0.6 || to < 0.6) return null;
      peds = [{ behaviour, spawn: add(f.p, f.n, side * from), heading: heading([-f.n[0] * side, -f.n[1] * side]), speed: speed(), triggerDistance: r3(rng.range(8, 10)), params: { crossPoint: f.p, exit: add(f.p, f.n, -side * to) } }];
      break;
    }
    case 'overtaking': {
      // Starts behind the robot and passes it along the path, faster than it.
      // Its route ends 4 m past the robot's goal (where walkable), so it does not stand on the goal.
      const b = frameAt(route, 0.01);
      const lengths = arcLengths(route);
      const e = frameAt(route, lengths[lengths.length - 1]);
      const beyond = add(e.p, e.t, 4);
      const end = isWalkable(world, beyond[0], beyond[1]) ? beyond : route[route.length - 1];
      peds = [{ behaviour, spawn: add(b.p, b.t, -3), heading: heading(b.t), speed: r3(rng.range(1.5, 1.65)), triggerDistance: 10, route: [add(b.p, b.t, -3), end] }];
      break;
    }
    case 'gesturing':
      // Stands in the path facing the robot and raises a hand when it is within the trigger distance.
      peds = [{ behaviour, spawn: f.p, heading: heading([-f.t[0], -f.t[1]]), speed: 0, triggerDistance: r3(rng.range(6, 8)) }];
      break;
    case 'ped-crossing':
      throw new Error('placeBehaviour: ped-crossing is placed on crosswalks by crossingPedestrians');
  }
  const head = peds[0]?.spawn as Vec2 | undefined;
  return peds.every((p) => scriptedLineOk(world, scriptedLine(p, head))) ? peds : null;
}

/**
 * Pedestrians crossing the crosswalk `route.sourceId` (the one the route crosses), both directions
 * (Ped-Crossing); null when one would spawn within 2.5 m of the route's start or off the walkable area.
 */
export function crossingPedestrians(route: Pick<SampledRoute, 'sourceId' | 'points'>, world: World, rng: Rng): PedestrianSpec[] | null {
  const c = world.crosswalks.find((x) => x.id === route.sourceId);
  if (!c) return null;
  const n = rng.int(2, 4);
  const peds: PedestrianSpec[] = [];
  for (let i = 0; i < n; i++) {
    const dir = i % 2 === 0 ? 1 : -1;
    const lateral = (dir > 0 ? -c.reachRight : c.reachLeft) * 0.9;
    const offset = rng.range(-c.width / 3, c.width / 3);
    const start: Vec2 = [r3(c.centre[0] + c.across[0] * lateral + c.along[0] * offset), r3(c.centre[1] + c.across[1] * lateral + c.along[1] * offset)];
    const end: Vec2 = [r3(c.centre[0] - c.across[0] * lateral + c.along[0] * offset), r3(c.centre[1] - c.across[1] * lateral + c.along[1] * offset)];
    // After crossing, walk on along the far sidewalk (when walkable) instead of standing at the kerb.
    const sign = rng.next() < 0.5 ? 1 : -1;
    const onward = [sign, -sign].map((k): Vec2 => [r3(end[0] + c.along[0] * k * 5 - c.across[0] * Math.sign(lateral) * 0.8), r3(end[1] + c.along[1] * k * 5 - c.across[1] * Math.sign(lateral) * 0.8)]).find((q) => isWalkable(world, q[0], q[1]));
    peds.push({ behaviour: 'ped-crossing', spawn: start, heading: r3(Math.atan2(end[1] - start[1], end[0] - start[0])), speed: r3(rng.range(1.1, 1.65)), triggerDistance: r3(rng.range(6, 10)), route: onward ? [start, end, onward] : [start, end] });
  }
  const start = route.points[0];
  const clear = peds.every((p) => Math.hypot(p.spawn[0] - start[0], p.spawn[1] - start[1]) > 2.5);
  return clear && peds.every((p) => isWalkable(world, p.spawn[0], p.spawn[1]) && lineClearOfObstacles(world, scriptedLine(p), SCRIPTED_LINE_CLEARANCE)) ? peds : null;
}

/**
 * The unit-test suite: `perCategory` scenarios each of straight, curve and crosswalk on procedural
 * worlds, then `perScannedKind` each of straight, turn and crossing on the scanned scenes
 * (src/bench/scanned-suites.ts; none when `scanned` is empty).
 *
 * @param draw the worlds to draw from and what to do on a shortfall (default the procedural worlds, throwing).
 * @param seed the suite seed the random streams fork from (default {@link SUITE_SEED}).
 */
export function unitSuite(perCategory = 100, suite: Scenario['suite'] = 'unit', scanned: readonly ScannedScene[] = [], perScannedKind = 10, scannedKinds: readonly ScannedKind[] = SCANNED_KINDS, draw: SuiteDraw = PROCEDURAL_DRAW, seed = SUITE_SEED): Scenario[] {
  const rng = createRng(seed).fork(suite === 'unit' ? 'unit' : `${suite}-unit`);
  const out: Scenario[] = [];
  for (const category of ['straight', 'curve', 'crosswalk'] as const) {
    for (let k = 0; k < perCategory; k++) {
      let drawn: ReturnType<typeof routeFor>;
      try {
        drawn = routeFor(rng, k, category, 10, 20, draw.worlds, draw.clearStart);
      } catch (e) {
        shortfall(draw, `${(e as Error).message}: ${k} of ${perCategory} ${category} unit scenarios made`);
        break;
      }
      out.push(baseScenario(`${suite}/${category}/${String(k).padStart(3, '0')}`, suite, category, drawn.entry.ref, roundRoute(drawn.route.points), rng.int(0, 2 ** 31 - 1), 60));
    }
  }
  const scannedRng = createRng(seed).fork(suite === 'unit' ? 'unit-scanned' : `${suite}-unit-scanned`);
  out.push(...scannedUnitScenarios(scanned, scannedRng, perScannedKind, suite, scannedKinds));
  return out;
}

/** The pedestrian-reactive suite: `perBehaviour` scenarios for each behaviour and the Static reference; `draw` and `seed` as for {@link unitSuite}. */
export function reactiveSuite(perBehaviour = 100, suite: Scenario['suite'] = 'reactive', behaviours: readonly Behaviour[] = ['static', 'obstructing', 'conversing', 'queuing', 'frontal', 'lateral', 'overtaking', 'ped-crossing', 'gesturing'], draw: SuiteDraw = PROCEDURAL_DRAW, seed = SUITE_SEED): Scenario[] {
  const rng = createRng(seed).fork(suite === 'reactive' ? 'reactive' : `${suite}-reactive`);
  const out: Scenario[] = [];
  for (const behaviour of behaviours) {
    let k = 0;
    for (let attempt = 0; k < perBehaviour; attempt++) {
      if (attempt > perBehaviour * 20) {
        shortfall(draw, `suites: could not place ${behaviour} pedestrians in ${perBehaviour * 20} tries (no stretch left the robot a ${PASSING_GAP} m passing gap with every scripted line clear of obstacles): ${k} of ${perBehaviour} ${behaviour} scenarios made`);
        break;
      }
      const kind = behaviour === 'ped-crossing' ? 'crosswalk' : 'straight';
      let drawn: ReturnType<typeof routeFor>;
      try {
        drawn = routeFor(rng, attempt, kind, 15, 22, draw.worlds, draw.clearStart);
      } catch (e) {
        shortfall(draw, `${(e as Error).message}: ${k} of ${perBehaviour} ${behaviour} scenarios made`);
        break;
      }
      const { world, route } = drawn;
      const points = roundRoute(route.points);
      const peds = behaviour === 'ped-crossing' ? crossingPedestrians(route, world, rng) : placeBehaviour(behaviour, points, route.length, world, rng, undefined, draw.narrow);
      if (!peds) continue;
      const s = baseScenario(`${suite}/${behaviour}/${String(k).padStart(3, '0')}`, suite, behaviour, drawn.entry.ref, points, rng.int(0, 2 ** 31 - 1), 60);
      s.pedestrians = peds;
      if (behaviour === 'gesturing') s.success = { kind: 'stop-before', pedestrian: 0, maxDistance: 3 };
      out.push(s);
      k++;
    }
  }
  return out;
}

/**
 * The long-horizon suite: routes between distant waypoints longer than `minLength` metres, with
 * every alternative closed by fences (src/bench/blockers.ts) so the route is the only path from start
 * to goal (checked at generation); routes whose alternatives cannot be fenced clear of the route are
 * resampled.
 */
/** Long-horizon routes drawn from a 2 km world (SidewalkBench's world size) in the long suite. */
export const LARGE_WORLD_LONG = { seed: 9, size: 2000, count: 5, minLength: 400, maxLength: 1000 } as const;

export function longSuite(count = 100, minLength = 100, suite: Scenario['suite'] = 'long', maxLength = 400, minSpeed = 0.5, large: typeof LARGE_WORLD_LONG | null = suite === 'long' ? LARGE_WORLD_LONG : null, worlds: SuiteDraw = PROCEDURAL_DRAW, seed = SUITE_SEED): Scenario[] {
  const rng = createRng(seed).fork(suite === 'long' ? 'long' : `${suite}-long`);
  const out: Scenario[] = [];
  const draw = (k: number, r: Rng, world: World, worldRef: Scenario['world'], min: number, max: number): Scenario | null => {
    const nodes = world.nav.nodes;
    const a = nodes[r.int(0, nodes.length - 1)];
    const b = nodes[r.int(0, nodes.length - 1)];
    if (Math.hypot(a[0] - b[0], a[1] - b[1]) < min * 0.7) return null;
    const route = findRoute(world, a, b);
    if (!route || route.length < min || route.length > max) return null;
    if (worlds.clearStart && !startFootprintClear(world, roundRoute(route.points))) return null;
    if (stepsOnRoute(world, route.points)) return null;
    const blockers = blockAlternatives(world, route.nodes);
    if (!blockers) return null;
    // Time limit: the route at `minSpeed` m/s.
    const s = baseScenario(`${suite}/long/${String(k).padStart(3, '0')}`, suite, 'long', worldRef, roundRoute(route.points), r.int(0, 2 ** 31 - 1), Math.ceil(route.length / minSpeed));
    s.onFailure = 'reset-to-waypoint';
    s.blockers = blockers;
    return s;
  };
  const regular = count - (large?.count ?? 0);
  for (let k = 0, attempt = 0; k < regular; attempt++) {
    if (attempt > count * 50) {
      shortfall(worlds, `suites: could not sample long routes of ${minLength}–${maxLength} m with every alternative fenced: ${k} of ${regular} made`);
      break;
    }
    const entry = worlds.worlds[attempt % worlds.worlds.length];
    const s = draw(k, rng, entry.world(), entry.ref, minLength, maxLength);
    if (s) {
      out.push(s);
      k++;
    }
  }
  if (large) {
    const lr = createRng(seed).fork(`${suite}-long-${large.size}m`);
    const world = suiteWorld(large.seed, large.size);
    for (let k = regular, attempt = 0; k < count; attempt++) {
      if (attempt > large.count * 200) throw new Error(`suites: could not sample ${large.count} long routes of ${large.minLength}–${large.maxLength} m in world ${large.seed} (${large.size} m)`);
      const s = draw(k, lr, world, { kind: 'procedural', seed: large.seed, size: large.size }, large.minLength, large.maxLength);
      if (s) {
        out.push(s);
        k++;
      }
    }
  }
  return out;
}

/**
 * The smoke suite: one scenario of every unit category, one scanned-scene turn (when `scanned` has
 * a scene), one of every behaviour, and one short (40–60 m, limit at 0.8 m/s) long-horizon route
 * with its alternatives fenced, so the default run with a camera-fed policy stays within minutes
 * on a machine without a GPU.
 */
export function smokeSuite(scanned: readonly ScannedScene[] = []): Scenario[] {
  return [...unitSuite(1, 'smoke', scanned, 1, ['turn']), ...reactiveSuite(1, 'smoke'), ...longSuite(1, 40, 'smoke', 60, 0.8)];
}

/**
 * The training suite: scenarios to record expert data from (`npm run dataset`), drawn like the unit
 * and reactive ones (40 of each procedural unit category, 10 scanned of each kind, 10 of each
 * behaviour and Static) but from their own random streams (`train-unit`, `train-unit-scanned`,
 * `train-reactive`), so that a policy trained on them is evaluated on scenarios it never saw. Route
 * ends come from a finite set of sidewalk points, so a draw can repeat an evaluation route: those
 * whose start and goal both lie within 1 m of a scenario's of `evaluation` in the same world are left out. Ids
 * `train/CATEGORY/NNN` and `train/scanned/SCENE/KIND/NNN` (numbers of left-out draws are skipped).
 */
export function trainSuite(scanned: readonly ScannedScene[] = [], evaluation: readonly Scenario[] = [...unitSuite(100, 'unit', scanned), ...reactiveSuite()]): Scenario[] {
  const worldKey = (s: Scenario) => JSON.stringify(s.world);
  const ends = new Map<string, Scenario['robot'][]>();
  for (const s of evaluation) ends.set(worldKey(s), [...(ends.get(worldKey(s)) ?? []), s.robot]);
  const near = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1]) < 1;
  const seen = (s: Scenario) => (ends.get(worldKey(s)) ?? []).some((r) => near(r.start, s.robot.start) && near(r.goal, s.robot.goal));
  return [...unitSuite(40, 'train', scanned, 10), ...reactiveSuite(10, 'train')].filter((s) => !seen(s));
}
