/**
 * Closures of sidewalk and crosswalk stretches (scenario `closures`, src/sim/scenario.ts; after
 * UrbanGround's road closures that arrive with a one-time notice and invalidate plans).
 *
 * Geometry ({@link prepareClosures}), on the world's pedestrian navigation graph: a closure's area
 * is a convex polygon; every nav line that enters it gets a construction fence (blockers.ts
 * `fenceAt`: 0.15 m thick, 1 m high, across the whole walkable strip) just outside the point where
 * it crosses the area's boundary. The closed edges are the nav edges the area or its fences meet;
 * the closed segments (what the policy's notice lists) are the nav edges clipped to the area
 * (Cyrus–Beck clipping against a convex polygon).
 *
 * In an episode ({@link ClosureTracker}): a closure triggers at the start, at a time, or when the
 * robot's base centre comes within a radius of a point; from then on its fences are obstacles, the
 * notice waits for the next observation, and when the remaining reference route meets a closed
 * area or fence the route is re-planned: from the robot's projection on the route to the nearest nav
 * waypoint, then the shortest nav path around every closed edge. The new route starts there (so a
 * detour that doubles back does not overlap the way already driven) and carries the arc length
 * completed before it (`RouteTracker.before`), so route completion counts the progress made. Compliance: the robot *enters* a closed area when its base centre goes
 * from outside to inside an area in force (being inside when it closes is not an entry).
 */
import { pointInRing, type Ring, type Vec2 } from '../core/geometry2d';
import { navIndex, shortestNavPath } from '../world/nav-index';
import { segmentAllOk } from '../world/navgraph';
import { isWalkable } from '../world/queries';
import type { World } from '../world/world';
import type { Closure } from '../sim/scenario';
import type { ClosureNotice } from '../sim/episode-contracts';
import { RouteTracker } from '../robot/route-tracker';
import { worldToRobot, type RobotState } from '../robot/unicycle';
import { blockedEdges, FENCE_THICKNESS, fenceAt, segmentMeetsRing } from './blockers';

/** Notice text of a closure that gives none. */
export const DEFAULT_CLOSURE_NOTICE = 'Sidewalk closed ahead. Find another way.';
/** Gap between a fence and the area boundary it guards, metres. */
const FENCE_GAP = 0.1;
/** A nav waypoint farther than this from the robot is not a detour's start, metres. */
const DETOUR_START_RADIUS = 12;

/** A closure with its geometry resolved against the world (see the module comment). */
export interface PreparedClosure {
  /** Index in the scenario's `closures`. */
  index: number;
  trigger: Closure['trigger'];
  /** The closed area, CCW, world frame, metres. */
  area: Ring;
  /** Fences guarding the area's entries (CCW rings, world frame, metres; 1 m high). */
  fences: Ring[];
  /** Nav edges closed while it is in force (met by the area or a fence). */
  closedEdges: number[];
  /** Nav edges clipped to the area: the closed segments, world frame, metres. */
  segments: [Vec2, Vec2][];
  notice: string;
}

/**
 * The part of segment ab inside a convex CCW ring, as parameters [t0, t1] ⊂ [0, 1] along ab, or
 * null when they do not overlap (Cyrus–Beck, 1978: clip against each edge's inner half-plane).
 */
export function clipSegmentToConvex(a: Vec2, b: Vec2, ring: Ring): [number, number] | null {
  let t0 = 0, t1 = 1;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i], q = ring[(i + 1) % ring.length];
    // Inner normal of a CCW edge pq: (−(qy − py), qx − px). Inside: n·(x − p) ≥ 0.
    const nx = -(q[1] - p[1]), ny = q[0] - p[0];
    const num = nx * (a[0] - p[0]) + ny * (a[1] - p[1]);
    const den = nx * dx + ny * dy;
    if (Math.abs(den) < 1e-12) {
      if (num < 0) return null;
      continue;
    }
    const t = -num / den;
    if (den > 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return [t0, t1];
}

const lerp = (a: Vec2, b: Vec2, t: number): Vec2 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Fences across the walkable strips where nav lines enter `area` (a convex CCW ring): one just
 * outside each boundary crossing of a nav edge, skipping a crossing an earlier fence already covers.
 */
export function closureFences(world: World, area: Ring): Ring[] {
  const N = world.nav.nodes;
  const fences: Ring[] = [];
  const cut = [...blockedEdges(world, [area])].sort((p, q) => p - q);
  for (const e of cut) {
    const a = N[world.nav.edges[e].a], b = N[world.nav.edges[e].b];
    const span = clipSegmentToConvex(a, b, area);
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (!span || len === 0) continue;
    const t: Vec2 = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    const off = (FENCE_THICKNESS / 2 + FENCE_GAP) / len;
    const crossings: number[] = [];
    if (span[0] > 1e-9) crossings.push(span[0] - off);
    if (span[1] < 1 - 1e-9) crossings.push(span[1] + off);
    for (const s of crossings) {
      const p = lerp(a, b, s);
      if (fences.some((f) => pointInRing(p[0], p[1], f) || segmentMeetsRing(lerp(a, b, s - off), lerp(a, b, s + off), f))) continue;
      const f = fenceAt(world, p, t, true);
      if (f) fences.push(f);
    }
  }
  return fences;
}

/**
 * Joins segments that continue one another (an end within 1 mm of the other's start, either way
 * round) in nearly the same direction (within 10°) into one segment; order of first appearance.
 */
export function mergeSegments(segments: readonly [Vec2, Vec2][]): [Vec2, Vec2][] {
  const out: [Vec2, Vec2][] = [];
  const dir = ([a, b]: [Vec2, Vec2]) => Math.atan2(b[1] - a[1], b[0] - a[0]);
  const same = (p: Vec2, q: Vec2) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-3;
  const aligned = (u: [Vec2, Vec2], v: [Vec2, Vec2]) => Math.abs(Math.atan2(Math.sin(dir(u) - dir(v)), Math.cos(dir(u) - dir(v)))) < (10 * Math.PI) / 180;
  let pending = segments.map(([a, b]) => [a, b] as [Vec2, Vec2]);
  while (pending.length > 0) {
    let cur = pending.shift()!;
    for (let grown = true; grown; ) {
      grown = false;
      pending = pending.filter((seg) => {
        for (const s of [seg, [seg[1], seg[0]] as [Vec2, Vec2]]) {
          if (same(cur[1], s[0]) && aligned(cur, s)) cur = [cur[0], s[1]];
          else if (same(s[1], cur[0]) && aligned(s, cur)) cur = [s[0], cur[1]];
          else continue;
          grown = true;
          return false;
        }
        return true;
      });
    }
    out.push(cur);
  }
  return out;
}

/**
 * Resolves a scenario's closures against its world (see the module comment).
 *
 * @param world the scenario's world (its nav graph and walkable area).
 */
export function prepareClosures(world: World, closures: readonly Closure[]): PreparedClosure[] {
  const N = world.nav.nodes;
  return closures.map((c, index) => {
    const area = c.area.map(([x, y]) => [x, y] as Vec2);
    const fences = closureFences(world, area);
    const closedEdges = [...blockedEdges(world, [area, ...fences])].sort((p, q) => p - q);
    const segments: [Vec2, Vec2][] = [];
    for (const e of blockedEdges(world, [area])) {
      const a = N[world.nav.edges[e].a], b = N[world.nav.edges[e].b];
      const span = clipSegmentToConvex(a, b, area);
      if (span && span[1] - span[0] > 1e-6) segments.push([lerp(a, b, span[0]).map(r3) as Vec2, lerp(a, b, span[1]).map(r3) as Vec2]);
    }
    return { index, trigger: c.trigger, area, fences, closedEdges, segments: mergeSegments(segments), notice: c.notice ?? DEFAULT_CLOSURE_NOTICE };
  });
}

/**
 * The route from `from` to `goal` around the `removed` nav edges: from the nearest waypoint (within
 * 12 m, joined to `from` by a straight walkable line that meets none of `rings`) that reaches the
 * goal's nearest waypoint, along the shortest nav path, ending at `goal`. Null when no waypoint
 * near `from` reaches the goal.
 */
export function detourRoute(world: World, from: Vec2, goal: Vec2, removed: ReadonlySet<number>, rings: readonly Ring[] = []): Vec2[] | null {
  const index = navIndex(world.nav);
  const target = index.nodesNear(goal, DETOUR_START_RADIUS)[0];
  if (target === undefined) return null;
  for (const s of index.nodesNear(from, DETOUR_START_RADIUS)) {
    if (index.adj[s].every((n) => removed.has(n.edge))) continue;
    const p = world.nav.nodes[s];
    if (rings.some((r) => segmentMeetsRing(from, p, r)) || !segmentAllOk(from, p, (x, y) => isWalkable(world, x, y))) continue;
    const path = shortestNavPath(world.nav, s, target, { removed });
    if (!path) continue;
    const pts = path.nodes.map((i) => world.nav.nodes[i]);
    const last = pts[pts.length - 1];
    if (Math.hypot(last[0] - goal[0], last[1] - goal[1]) > 1e-3) pts.push([goal[0], goal[1]]);
    return pts;
  }
  return null;
}

/** What a scenario world carries for its closures: the nav world and the resolved closures. */
export interface ClosurePlan {
  world: World;
  closures: readonly PreparedClosure[];
}

/** The closures of one episode as they trigger (see the module comment). */
export class ClosureTracker {
  /** Episode time each closure triggered at, s (null: not yet). */
  readonly triggeredAt: (number | null)[];
  /** Entries into a closed area so far. */
  entries = 0;
  /** Re-plans of the reference route so far. */
  replans = 0;
  /** The fences of the closures in force (a new array whenever one triggers). */
  fences: Ring[] = [];
  private inside = false;
  private pending: PreparedClosure[] = [];
  /** How many of `pending` the last notice showed. */
  private shown = 0;

  constructor(private readonly plan: ClosurePlan) {
    this.triggeredAt = plan.closures.map(() => null);
  }

  /** Whether closure i is in force. */
  active(i: number): boolean {
    return this.triggeredAt[i] !== null;
  }

  /**
   * Triggers the closures due at `time` with the robot at `state`, then counts an entry when the
   * robot's base centre moved into an area in force. Returns the closures that triggered now.
   */
  update(time: number, state: Readonly<RobotState>): PreparedClosure[] {
    const now: PreparedClosure[] = [];
    for (const c of this.plan.closures) {
      if (this.triggeredAt[c.index] !== null) continue;
      const t = c.trigger;
      const due = t.kind === 'start' || (t.kind === 'time' && time >= t.at - 1e-9) || (t.kind === 'robot-near' && Math.hypot(state.x - t.point[0], state.y - t.point[1]) <= t.radius);
      if (!due) continue;
      this.triggeredAt[c.index] = time;
      now.push(c);
    }
    const insideNow = this.plan.closures.some((c) => this.triggeredAt[c.index] !== null && pointInRing(state.x, state.y, c.area));
    // Inside already when a closure triggers is not an entry: only an outside → inside move is.
    if (insideNow && !this.inside && now.every((c) => !pointInRing(state.x, state.y, c.area))) this.entries++;
    this.inside = insideNow;
    if (now.length > 0) {
      this.fences = [...this.fences, ...now.flatMap((c) => c.fences)];
      this.pending.push(...now);
    }
    return now;
  }

  /**
   * The notice of the closures triggered and not yet delivered, in the frame of `state`; null when
   * none. Asking again before {@link delivered} gives the same closures.
   */
  notice(state: Readonly<RobotState>): ClosureNotice | null {
    this.shown = this.pending.length;
    if (this.pending.length === 0) return null;
    const list = this.pending;
    const robot = (p: Vec2): Vec2 => worldToRobot(state, p[0], p[1]).map(r3) as Vec2;
    return { text: list.map((c) => c.notice).join('\n'), segments: list.flatMap((c) => c.segments.map(([a, b]) => [robot(a), robot(b)] as [Vec2, Vec2])) };
  }

  /** Marks the closures of the last {@link notice} delivered (the policy acted on them): they are not noticed again. */
  delivered(): void {
    this.pending = this.pending.slice(this.shown);
    this.shown = 0;
  }

  /**
   * The reference route re-planned around every closed edge when its remaining part (from the
   * robot's projection on it) meets an area or fence in force; null when it does not, or when no
   * detour exists (the route is then kept).
   */
  replan(route: RouteTracker, goal: Vec2): RouteTracker | null {
    const active = this.plan.closures.filter((c) => this.triggeredAt[c.index] !== null);
    const rings = active.flatMap((c) => [c.area, ...c.fences]);
    const s = route.progress;
    let i = 0;
    while (i + 2 < route.route.length && route.cumulative[i + 1] <= s) i++;
    const here = route.pointAt(s);
    const rest: Vec2[] = [here, ...route.route.slice(i + 1)];
    let blocked = false;
    for (let k = 0; k + 1 < rest.length && !blocked; k++) blocked = rings.some((r) => segmentMeetsRing(rest[k], rest[k + 1], r));
    if (!blocked) return null;
    const detour = detourRoute(this.plan.world, here, goal, new Set(active.flatMap((c) => c.closedEdges)), rings);
    if (!detour) return null;
    const points = [here, ...detour.filter((p) => Math.hypot(p[0] - here[0], p[1] - here[1]) > 1e-6)];
    if (points.length < 2) return null;
    this.replans++;
    return new RouteTracker(points, undefined, route.before + s);
  }
}
