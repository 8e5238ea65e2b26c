/**
 * Unit-test scenarios on annotated scanned scenes (SidewalkBench §3.3: 10 per block type in the real
 * scanned scenes). A scene's annotation (src/world/bake/scene-file.ts) has no navigation graph, so
 * routes are built from its walkable rectangles:
 *
 * - `straight`: along a sidewalk rectangle's long axis, both directions, at a lateral offset;
 * - `turn` (the curve analogue): along a sidewalk, then a 90° turn onto a crosswalk rectangle that
 *   touches it, ending on the crosswalk at least 1.5 m in;
 * - `crossing`: from the far end of such a crosswalk across it onto the sidewalk, then along it.
 *
 * Every route is 10–20 m (a straight one is also at most the sidewalk's length less 0.8 m at each
 * end), keeps {@link SCANNED_CLEARANCE} of walkable ground around it and of distance to the
 * annotated obstacles, and passes within {@link PASS_DISTANCE} of an obstacle when the scene has any
 * (the captured object is what a policy sees). Deterministic in the rng. Walkable polygons that are
 * not rectangles are not used.
 */
import type { Rng } from '../core/random';
import { pointRingDistance, pointSegmentDistance, type Ring, type Vec2 } from '../core/geometry2d';
import { sceneWorld, type SceneFile } from '../world/bake/scene-file';
import { densify } from '../world/polyline';
import { isClearGround } from '../world/grid-route';
import type { World } from '../world/world';
import type { Scenario } from '../sim/scenario';

/** An annotated scanned scene: its repository-relative path (the scenarios' `world.path`) and parsed file. */
export interface ScannedScene {
  path: string;
  scene: SceneFile;
}

export const SCANNED_KINDS = ['straight', 'turn', 'crossing'] as const;
export type ScannedKind = (typeof SCANNED_KINDS)[number];

/** Walkable ground kept around every route point, and distance kept from obstacles, metres. */
export const SCANNED_CLEARANCE = 0.6;
/** A route passes within this distance of an annotated obstacle (when the scene has one), metres. */
export const PASS_DISTANCE = 3;
/** Lateral margin from a rectangle's long sides for route lines, metres. */
const MARGIN = 0.8;

/** An oriented rectangle: centre, unit long axis `a` and short axis `b`, half sizes. */
interface Rect { ring: Ring; c: Vec2; a: Vec2; b: Vec2; halfLong: number; halfShort: number }

function rectOf(ring: Ring): Rect | null {
  if (ring.length !== 4) return null;
  const e = ring.map((p, i): Vec2 => [ring[(i + 1) % 4][0] - p[0], ring[(i + 1) % 4][1] - p[1]]);
  for (let i = 0; i < 4; i++) {
    const [u, v] = [e[i], e[(i + 1) % 4]];
    if (Math.abs(u[0] * v[0] + u[1] * v[1]) > 1e-6 * Math.hypot(...u) * Math.hypot(...v)) return null;
  }
  const [l0, l1] = [Math.hypot(...e[0]), Math.hypot(...e[1])];
  const long = l0 >= l1 ? e[0] : e[1], ll = Math.max(l0, l1);
  const a: Vec2 = [long[0] / ll, long[1] / ll];
  const c: Vec2 = [ring.reduce((s, p) => s + p[0], 0) / 4, ring.reduce((s, p) => s + p[1], 0) / 4];
  return { ring, c, a, b: [-a[1], a[0]], halfLong: ll / 2, halfShort: Math.min(l0, l1) / 2 };
}

const at = (p: Vec2, v: Vec2, k: number): Vec2 => [p[0] + v[0] * k, p[1] + v[1] * k];
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const lengthOf = (pts: readonly Vec2[]) => pts.slice(1).reduce((s, p, i) => s + Math.hypot(p[0] - pts[i][0], p[1] - pts[i][1]), 0);

/** A crosswalk touching a sidewalk: the touching edge's midpoint and unit direction, the unit direction into the crosswalk, its length that way and half-width. */
interface Junction { mid: Vec2; along: Vec2; into: Vec2; length: number; halfWidth: number }

function junctionOf(side: Rect, cross: Rect): Junction | null {
  for (let i = 0; i < 4; i++) {
    const p = cross.ring[i], q = cross.ring[(i + 1) % 4];
    const mid: Vec2 = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    if (pointRingDistance(mid[0], mid[1], side.ring) > 0.05) continue;
    const half = Math.hypot(q[0] - p[0], q[1] - p[1]) / 2;
    const to: Vec2 = [cross.c[0] - mid[0], cross.c[1] - mid[1]];
    const d = Math.hypot(...to);
    return { mid, along: [(q[0] - p[0]) / (2 * half), (q[1] - p[1]) / (2 * half)], into: [to[0] / d, to[1] / d], length: 2 * d, halfWidth: half };
  }
  return null;
}

/** Whether every point of the route (every 0.25 m) has clear walkable ground around it and is clear of obstacles. */
function routeClear(world: World, route: Vec2[]): boolean {
  return densify(route, 0.25).every((p) => isClearGround(world, p, SCANNED_CLEARANCE));
}

/** Whether the route passes within PASS_DISTANCE of an obstacle (true when there is none). */
function passesObstacle(obstacles: Ring[], route: Vec2[]): boolean {
  if (obstacles.length === 0) return true;
  return obstacles.some((o) => o.some((v) => route.slice(1).some((p, i) => pointSegmentDistance(v[0], v[1], route[i], p) <= PASS_DISTANCE)));
}

/** One route of `kind` on the scene, or null when this draw does not fit (the caller draws again). */
function drawRoute(kind: ScannedKind, sidewalks: Rect[], junctions: { side: Rect; j: Junction }[], rng: Rng): Vec2[] | null {
  if (kind === 'straight') {
    const s = rng.pick(sidewalks);
    const span = s.halfLong - MARGIN;
    if (!(2 * span >= 10)) return null;
    const len = rng.range(10, Math.min(20, 2 * span));
    const u0 = rng.range(-span, span - len);
    const o = rng.range(-(s.halfShort - MARGIN), s.halfShort - MARGIN);
    const dir = rng.next() < 0.5 ? 1 : -1;
    const p0 = at(at(s.c, s.b, o), s.a, dir * u0), p1 = at(p0, s.a, dir * len);
    return [p0, p1];
  }
  if (junctions.length === 0) return null;
  const { side, j } = rng.pick(junctions);
  // The corner: on the crosswalk's line (jittered across it), inside the sidewalk.
  const jitter = rng.range(-(j.halfWidth - MARGIN), j.halfWidth - MARGIN);
  const depth = rng.range(MARGIN, 2 * side.halfShort - MARGIN);
  const corner = at(at(j.mid, j.along, jitter), j.into, -depth);
  const dirS: Vec2 = rng.next() < 0.5 ? j.along : [-j.along[0], -j.along[1]];
  if (kind === 'turn') {
    const onto = rng.range(depth + 1.5, depth + j.length - MARGIN);
    const before = rng.range(3, 20 - onto);
    return [at(corner, dirS, -before), corner, at(corner, j.into, onto)];
  }
  const far = depth + j.length - MARGIN;
  const after = rng.range(Math.max(2, 10 - far), 20 - far);
  return [at(corner, j.into, far), corner, at(corner, dirS, after)];
}

/**
 * `perKind` scenarios of each kind in `kinds` on the scanned scenes (scene k mod n for the k-th of
 * a kind), ids `SUITE/scanned/NAME/KIND/NNN`, category `scanned`, 60 s, a failure ends the episode.
 *
 * @throws Error when a scene cannot give a route of a kind in 2,000 draws.
 */
export function scannedUnitScenarios(scenes: readonly ScannedScene[], rng: Rng, perKind = 10, suite: Scenario['suite'] = 'unit', kinds: readonly ScannedKind[] = SCANNED_KINDS): Scenario[] {
  const out: Scenario[] = [];
  const prepared = scenes.map(({ path, scene }) => {
    const world = sceneWorld(scene);
    const sidewalks = world.zones.sidewalk.map((p) => rectOf(p.outer)).filter((r): r is Rect => r !== null);
    const crosswalks = world.zones.crosswalk.map((p) => rectOf(p.outer)).filter((r): r is Rect => r !== null);
    const junctions = sidewalks.flatMap((side) => crosswalks.map((c) => ({ side, j: junctionOf(side, c) })).filter((x): x is { side: Rect; j: Junction } => x.j !== null));
    return { path, scene, world, sidewalks, junctions, obstacles: world.obstacles.map((o) => o.footprint) };
  });
  if (prepared.length === 0) return out;
  for (const kind of kinds) {
    for (let k = 0; k < perKind; k++) {
      const p = prepared[k % prepared.length];
      let route: Vec2[] | null = null;
      for (let draw = 0; !route; draw++) {
        if (draw >= 2000) throw new Error(`suites: no ${kind} route of 10–20 m on scanned scene ${p.path}`);
        const r = p.sidewalks.length ? drawRoute(kind, p.sidewalks, p.junctions, rng) : null;
        if (!r) continue;
        const pts = densify(r, 2).map(([x, y]): Vec2 => [r3(x), r3(y)]);
        const len = lengthOf(pts);
        if (len >= 10 && len <= 20 && routeClear(p.world, pts) && passesObstacle(p.obstacles, pts)) route = pts;
      }
      const [a, b] = route;
      out.push({
        id: `${suite}/scanned/${p.scene.name}/${kind}/${String(k).padStart(3, '0')}`,
        suite,
        category: 'scanned',
        world: { kind: 'scene', path: p.path },
        robot: { start: [a[0], a[1], r3(Math.atan2(b[1] - a[1], b[0] - a[0]))], goal: route[route.length - 1], route },
        timeLimit: 60,
        pedestrians: [],
        success: { kind: 'reach-goal', goalRadius: 1 },
        onFailure: 'terminate',
        seed: rng.int(0, 2 ** 31 - 1),
      });
    }
  }
  return out;
}
