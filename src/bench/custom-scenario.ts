/**
 * A custom scenario from two points (`npm run scenario`): the route comes from the walkable network
 * (the navigation graph of a procedural world, A* over clear walkable ground on an annotated
 * scanned scene), start and goal are snapped to the walkable area when they are off it, and
 * pedestrians of one behaviour are placed by the suite generator's rules (src/bench/suites.ts).
 * The result is validated as the suites are: the route stays on walkable ground, every pedestrian
 * spawns on it, a triggered behaviour's trigger is reachable from the route, and the scenario parses.
 *
 * Frames: world right-handed, Z up, metres (scenario.ts).
 */
import { createRng } from '../core/random';
import { pointInRing, type Vec2 } from '../core/geometry2d';
import { UserError } from '../core/user-error';
import { gridRoute, isClearGround, nearestClearPoint } from '../world/grid-route';
import { arcLengths, densify, polylineLength, sampleAt } from '../world/polyline';
import { isWalkable, zoneAt } from '../world/queries';
import { segmentAllOk } from '../world/navgraph';
import { findRoute } from '../world/routes';
import { stepsLabel, stepsOnRoute } from '../world/osm/steps';
import type { World } from '../world/world';
import { parseScenarios, type Behaviour, type Scenario } from '../sim/scenario';
import { crossingPedestrians, placeBehaviour } from './suites';

/** What {@link customScenario} needs. */
export interface CustomScenarioRequest {
  /** The world the points are in, and how the scenario names it. */
  world: World;
  worldRef: Scenario['world'];
  from: Vec2;
  to: Vec2;
  behaviour?: Behaviour;
  /** Where along the route the behaviour's pedestrians stand, metres (default: the suites' 8–11 m). */
  at?: number;
  /** Seeds the placement and the episode (default 0). */
  seed?: number;
  id?: string;
  /** Seconds (default: 60, or the route at 0.5 m/s when that is longer). */
  timeLimit?: number;
}

/** A scenario as a file's text: indented JSON with each point and pose on one line, final newline (`npm run scenario`, the editor). */
export function scenarioFileText(scenario: Scenario): string {
  return `${JSON.stringify(scenario, null, 2).replace(/\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g, (_, inner: string) => `[${inner.split(/,\s+/).join(', ')}]`)}\n`;
}

/** Clearance a custom route keeps from edges and obstacles on scenes, metres (the robot's radius and a margin). */
export const CUSTOM_ROUTE_CLEARANCE = 0.4;

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const fmt = (p: Vec2) => `(${p[0].toFixed(2)}, ${p[1].toFixed(2)})`;
/** Where a point is, in words: `on building`, `outside the world`. */
const where = (world: World, p: Vec2) => {
  const zone = zoneAt(world, p[0], p[1]);
  return zone === 'outside' ? 'outside the world' : `on ${zone}`;
};

/**
 * A point on walkable ground: `p`, or the nearest clear one with a note saying how far it moved (on
 * scenes, clear means CUSTOM_ROUTE_CLEARANCE from edges and obstacles too: the grid route needs it).
 */
function snap(world: World, name: string, p: Vec2, notes: string[], onGraph: boolean): Vec2 {
  if (onGraph ? isWalkable(world, p[0], p[1]) : isClearGround(world, p, CUSTOM_ROUTE_CLEARANCE)) return p;
  // A millimetre more than needed, so the point rounded to millimetres is still clear.
  const q = nearestClearPoint(world, p, CUSTOM_ROUTE_CLEARANCE + 0.002);
  if (!q) throw new UserError(`scenario: --${name} ${fmt(p)} is ${where(world, p)} and no walkable ground is within 25 m`);
  const snapped: Vec2 = [r3(q[0]), r3(q[1])];
  const why = isWalkable(world, p[0], p[1]) ? `within ${CUSTOM_ROUTE_CLEARANCE} m of the walkable area's edge or an obstacle` : `${where(world, p)}, not walkable`;
  notes.push(`--${name} ${fmt(p)} is ${why}: moved ${Math.hypot(q[0] - p[0], q[1] - p[1]).toFixed(2)} m to ${fmt(snapped)}`);
  return snapped;
}

/**
 * A graph route without the detours at its ends: the leg from the start to its nearest waypoint may
 * point backwards, so each end joins the farthest of the next (previous) three vertices it sees in a
 * straight walkable line.
 */
function trimEnds(world: World, route: Vec2[]): Vec2[] {
  const ok = (x: number, y: number) => isWalkable(world, x, y);
  const head = (pts: Vec2[]) => {
    for (let j = Math.min(3, pts.length - 1); j > 1; j--) if (segmentAllOk(pts[0], pts[j], ok)) return [pts[0], ...pts.slice(j)];
    return pts;
  };
  return head(head(route).reverse()).reverse();
}

/** `custom/BEHAVIOUR|route/x,y_x,y[/atS][/seedK]`: distinct for every request that makes a different scenario. */
function defaultId(behaviour: Behaviour | undefined, route: Vec2[], at: number | undefined, seed: number): string {
  const end = route[route.length - 1];
  return `custom/${behaviour ?? 'route'}/${route[0].join(',')}_${end.join(',')}${at === undefined ? '' : `/at${at}`}${seed ? `/seed${seed}` : ''}`;
}

/** Unsigned angle between two directions, radians. */
function angleBetween(a: readonly number[], b: readonly number[]): number {
  return Math.acos(Math.max(-1, Math.min(1, (a[0] * b[0] + a[1] * b[1]) / (Math.hypot(a[0], a[1]) * Math.hypot(b[0], b[1]) || 1))));
}

/** The id of a crosswalk the route passes through, or null. */
function crosswalkOnRoute(world: World, route: Vec2[]): number | null {
  const pts = densify(route, 0.25);
  return world.crosswalks.find((c) => pts.some((p) => pointInRing(p[0], p[1], c.rect)))?.id ?? null;
}

/**
 * Builds, validates and returns the scenario, with notes for the user (snapped points, a clamped
 * or ignored `at`, a behaviour on a turn), also pushed to `notes` as they arise (so a caller can show
 * them when a later check throws).
 *
 * @throws UserError naming what is wrong: no walkable ground near a point, no route between them,
 *   a route over a real place's steps (scenarios are driven by wheeled robots), a behaviour that cannot be placed on this route (too short, too narrow, no crosswalk for
 *   ped-crossing), a trigger the robot never comes near.
 */
export function customScenario(req: CustomScenarioRequest, notes: string[] = []): { scenario: Scenario; notes: string[] } {
  const { world } = req;
  const onGraph = world.nav.nodes.length > 0;
  const from = snap(world, 'from', req.from, notes, onGraph);
  const to = snap(world, 'to', req.to, notes, onGraph);
  if (Math.hypot(to[0] - from[0], to[1] - from[1]) < 2) throw new UserError(`scenario: --from ${fmt(from)} and --to ${fmt(to)} are less than 2 m apart`);
  const raw = onGraph ? findRoute(world, from, to)?.points ?? null : gridRoute(world, from, to, { clearance: CUSTOM_ROUTE_CLEARANCE });
  if (!raw) throw new UserError(`scenario: no walkable route from ${fmt(from)} to ${fmt(to)} (${onGraph ? 'the navigation graph does not connect them' : `no path ${CUSTOM_ROUTE_CLEARANCE} m clear of edges and obstacles`})`);
  const route = (onGraph ? trimEnds(world, raw) : raw).map(([x, y]): Vec2 => [r3(x), r3(y)]);
  const off = densify(route, 0.25).find((p) => !isWalkable(world, p[0], p[1]));
  if (off) throw new UserError(`scenario: the route leaves the walkable area at ${fmt(off)} (${where(world, off)})`);
  const steps = stepsOnRoute(world, route);
  if (steps) throw new UserError(`scenario: the route from ${fmt(from)} to ${fmt(to)} climbs ${stepsLabel(steps)}, which a wheeled robot cannot: choose other --from/--to`);
  const length = polylineLength(route);
  const rng = createRng(req.seed ?? 0).fork('custom-scenario');
  const behaviour = req.behaviour;
  let pedestrians: Scenario['pedestrians'] = [];
  if (behaviour && behaviour !== 'static') {
    if (req.at !== undefined && !(req.at >= 0 && req.at <= length)) throw new UserError(`scenario: --at ${req.at} is outside the route (0–${length.toFixed(1)} m)`);
    if (behaviour === 'ped-crossing') {
      if (!onGraph) throw new UserError('scenario: --behaviour ped-crossing needs a generated crosswalk (procedural worlds); an annotated scene has none');
      if (req.at !== undefined) notes.push('--at is ignored for ped-crossing (its pedestrians cross the crosswalk the route crosses)');
      const sourceId = crosswalkOnRoute(world, route);
      if (sourceId === null) throw new UserError('scenario: --behaviour ped-crossing needs a route over a crosswalk; this one crosses none');
      pedestrians = crossingPedestrians({ sourceId, points: route }, world, rng) ?? [];
    } else {
      if (length < 8) throw new UserError(`scenario: the route is ${length.toFixed(1)} m; --behaviour ${behaviour} needs at least 8 m`);
      if (req.at !== undefined && req.at > length - 4) notes.push(`--at ${req.at} is within 4 m of the goal: the pedestrians stand at ${(length - 4).toFixed(1)} m`);
      pedestrians = placeBehaviour(behaviour, route, length, world, rng, req.at) ?? [];
    }
    if (behaviour !== 'ped-crossing') {
      const s0 = Math.min(length - 4, req.at ?? 9.5);
      const cum = arcLengths(route);
      const turn = Math.abs(angleBetween(sampleAt(route, Math.max(0, s0 - 5), cum).t, sampleAt(route, Math.min(length, s0 + 5), cum).t));
      if (turn > Math.PI / 9) notes.push(`the route turns ${((turn * 180) / Math.PI).toFixed(0)}° within 5 m of where the ${behaviour} pedestrians stand (${req.at === undefined ? 'about ' : ''}${s0.toFixed(1)} m); the suites place behaviours on straight stretches (choose another --at or other points)`);
    }
    if (pedestrians.length === 0) throw new UserError(`scenario: --behaviour ${behaviour} cannot be placed on this route (it would stand off the walkable area or leave no passing gap)${req.at === undefined ? '' : ` at ${req.at} m`}`);
  }
  if (behaviour === 'static' && req.at !== undefined) notes.push('--at is ignored for static (no pedestrians)');
  const samples = densify(route, 0.25);
  for (const [k, p] of pedestrians.entries()) {
    // Walkers follow straight legs between their points (the suites draw them on straight blocks).
    const offPath = p.route ? densify(p.route as Vec2[], 0.25).find(([x, y]) => !isWalkable(world, x, y)) : undefined;
    if (offPath) throw new UserError(`scenario: pedestrian ${k} (${behaviour}) would walk off the walkable area at ${fmt(offPath)} (${where(world, offPath)}); its path is straight, so place it on a straight stretch (other --from/--to or --at)`);
    if (p.triggerDistance === undefined) continue;
    const nearest = Math.min(...samples.map((q) => Math.hypot(q[0] - p.spawn[0], q[1] - p.spawn[1])));
    if (nearest > p.triggerDistance) throw new UserError(`scenario: pedestrian ${k} (${behaviour}) is triggered within ${p.triggerDistance} m of the robot, but the route passes ${nearest.toFixed(1)} m from it`);
  }
  const [a, b] = route;
  const scenario: Scenario = {
    id: req.id ?? defaultId(behaviour, route, req.at, req.seed ?? 0),
    suite: 'custom',
    category: behaviour ?? 'route',
    world: req.worldRef,
    robot: { start: [a[0], a[1], r3(Math.atan2(b[1] - a[1], b[0] - a[0]))], goal: route[route.length - 1], route },
    timeLimit: req.timeLimit ?? Math.max(60, Math.ceil(length / 0.5)),
    pedestrians,
    success: behaviour === 'gesturing' ? { kind: 'stop-before', pedestrian: 0, maxDistance: 3 } : { kind: 'reach-goal', goalRadius: 1 },
    onFailure: 'terminate',
    seed: rng.int(0, 2 ** 31 - 1),
  };
  // The schema's own checks (the file the user gets must load in the bench).
  parseScenarios('scenario', JSON.stringify(scenario));
  return { scenario, notes };
}
