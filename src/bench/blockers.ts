/**
 * Closing the alternatives of a long-horizon route (SidewalkBench §3.3: "ensure there is only a
 * single path from the start to the goal by blocking the other routes with obstacles").
 *
 * Definition, on the world's pedestrian navigation graph G (src/world/navgraph.ts): a blocker *cuts*
 * every nav edge whose segment meets its polygon (E_b). Take G − E_b − (the route's own edges),
 * drop the route waypoints and prune dead ends (off-route waypoints with at most one open edge,
 * repeatedly: the stubs that end at a fence go). What is left of each component touches the route
 * at its waypoints; the route is the *only path* when every such component (and every other edge
 * between two route waypoints) touches the route within {@link LOCAL_SPAN} metres of route length
 * and stays within {@link LOCAL_DIST} of it. So every way off the route either ends at a fence or a
 * dead end, or is a local detour around a junction corner (the nav lines of a junction cross in
 * small triangles inside the same paved area; they cannot be fenced without closing the route).
 * {@link checkSinglePath} verifies this, that no route edge is cut, and that a shortest-path
 * search on G − E_b still finds a path of exactly the route's length.
 *
 * Placement ({@link blockAlternatives}): every nav line leaving a route waypoint that is not a dead
 * end or a local detour gets a construction-fence-like thin box (0.15 m thick, 1 m high) across the
 * walkable strip it runs in (sidewalk or crosswalk, its whole width plus 0.2 m beyond each side, at
 * most 8 m + 0.4 m long), at the first point along the line (followed through waypoints, branching
 * into every branch, up to 12 m) where the box stays at least {@link CORRIDOR_HALF_WIDTH} from the
 * route polyline, so the robot's corridor along the route stays clear. A route where some line
 * cannot be fenced that way is rejected (the generator samples another).
 */
import { boxOf, pointInRing, pointSegmentDistance, segmentsIntersect, type Ring, type Vec2 } from '../core/geometry2d';
import { arcLengths, sampleAt } from '../world/polyline';
import { isWalkable } from '../world/queries';
import type { World } from '../world/world';
import { navIndex, shortestNavPath } from '../world/nav-index';
import type { Blocker } from '../sim/scenario';

/** Fence thickness (along the blocked line), metres. */
export const FENCE_THICKNESS = 0.15;
/** Fence height above the ground, metres. */
export const FENCE_HEIGHT = 1;
/** How far a fence reaches beyond the walkable edge on each side, metres. */
export const FENCE_OVERHANG = 0.2;
/** Least distance from a fence to the route polyline, metres: the robot's corridor stays clear. */
export const CORRIDOR_HALF_WIDTH = 0.9;
/** Widest half-span of a fence (walkable probe on each side of the blocked line), metres. */
const MAX_HALF_SPAN = 4;
/** A detour may rejoin the route within this arc length of where it left, metres (a local detour). */
export const LOCAL_SPAN = 6;
/** A local detour stays within this distance of the route, metres. */
export const LOCAL_DIST = 2.5;
/** How far along a leaving line a fence may be placed, metres. */
const CHAIN_MAX = 12;
const PROBE_STEP = 0.05;
/** Branching waypoints a leaving line may be followed through to find fence places. */
const MAX_DEPTH = 5;
/** Waypoints searched beyond a leaving edge before it counts as leading somewhere (not a dead end). */
const DEAD_END_SEARCH = 200;

/**
 * The nav waypoints of a route's points (each within `tol` metres of a waypoint, e.g. the
 * millimetre-rounded points of a scenario file), or null when a point is not a waypoint.
 */
export function routeNodes(world: World, points: readonly Vec2[], tol = 0.002): number[] | null {
  const index = navIndex(world.nav);
  const out: number[] = [];
  for (const p of points) {
    const near = index.nodesNear(p, tol);
    if (near.length === 0) return null;
    out.push(near[0]);
  }
  return out;
}

/** Whether segment ab meets ring (crosses or touches an edge, or lies inside). */
export function segmentMeetsRing(a: Vec2, b: Vec2, ring: Ring): boolean {
  if (pointInRing(a[0], a[1], ring)) return true;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) if (segmentsIntersect(a, b, ring[j], ring[i])) return true;
  return false;
}

/** Distance between segment ab and a ring (0 when they meet), metres. */
function segmentRingDistance(a: Vec2, b: Vec2, ring: Ring): number {
  if (segmentMeetsRing(a, b, ring)) return 0;
  let d = Infinity;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    d = Math.min(d, pointSegmentDistance(ring[i][0], ring[i][1], a, b), pointSegmentDistance(a[0], a[1], ring[j], ring[i]), pointSegmentDistance(b[0], b[1], ring[j], ring[i]));
  }
  return d;
}

/** Least distance from any ring to the polyline `route`, metres (0 when one touches it). */
export function corridorClearance(route: readonly Vec2[], rings: readonly Ring[]): number {
  let d = Infinity;
  for (const ring of rings) {
    const [x0, y0, x1, y1] = boxOf(ring);
    for (let i = 0; i + 1 < route.length; i++) {
      const a = route[i], b = route[i + 1];
      // Cheap reject: the boxes are farther apart than the best distance so far.
      const gx = Math.max(x0 - Math.max(a[0], b[0]), Math.min(a[0], b[0]) - x1, 0);
      const gy = Math.max(y0 - Math.max(a[1], b[1]), Math.min(a[1], b[1]) - y1, 0);
      if (Math.hypot(gx, gy) >= d) continue;
      d = Math.min(d, segmentRingDistance(a, b, ring));
    }
  }
  return d;
}

/** Indices of the nav edges that some ring cuts (meets). */
export function blockedEdges(world: World, rings: readonly Ring[]): Set<number> {
  const boxes = rings.map(boxOf);
  const out = new Set<number>();
  const N = world.nav.nodes;
  world.nav.edges.forEach((e, i) => {
    const a = N[e.a], b = N[e.b];
    rings.forEach((ring, k) => {
      const [x0, y0, x1, y1] = boxes[k];
      if (Math.max(a[0], b[0]) < x0 || Math.min(a[0], b[0]) > x1 || Math.max(a[1], b[1]) < y0 || Math.min(a[1], b[1]) > y1) return;
      if (segmentMeetsRing(a, b, ring)) out.add(i);
    });
  });
  return out;
}

/** Distance from a point to a polyline, metres. */
function polylineDistance(p: Vec2, line: readonly Vec2[]): number {
  let d = Infinity;
  for (let i = 0; i + 1 < line.length; i++) d = Math.min(d, pointSegmentDistance(p[0], p[1], line[i], line[i + 1]));
  return d;
}

/** Arc length along the route at each of its waypoints, by node index. */
function routeArcs(world: World, nodes: readonly number[]): Map<number, number> {
  const N = world.nav.nodes;
  const arc = new Map<number, number>();
  let s = 0;
  nodes.forEach((n, i) => {
    if (i > 0) s += Math.hypot(N[n][0] - N[nodes[i - 1]][0], N[n][1] - N[nodes[i - 1]][1]);
    arc.set(n, s);
  });
  return arc;
}

/**
 * Checks that `nodes` (a route as nav waypoints, start first) is the only path from its start to
 * its goal, up to local detours, once the blockers' cut edges are removed (see the module comment);
 * that no route edge is cut; and that a shortest-path search on the blocked graph finds a path of
 * the route's length.
 *
 * @returns null when all holds, else what fails.
 */
export function checkSinglePath(world: World, nodes: readonly number[], rings: readonly Ring[]): string | null {
  const index = navIndex(world.nav);
  const N = world.nav.nodes;
  const cut = blockedEdges(world, rings);
  const routeEdges = new Set<number>();
  let length = 0;
  for (let i = 0; i + 1 < nodes.length; i++) {
    const e = index.edgeBetween(nodes[i], nodes[i + 1]);
    if (e === undefined) return `route step ${i} (${nodes[i]} → ${nodes[i + 1]}) is not a nav edge`;
    if (cut.has(e)) return `a blocker cuts route step ${i}`;
    routeEdges.add(e);
    length += world.nav.edges[e].length;
  }
  const arc = routeArcs(world, nodes);
  if (arc.size !== nodes.length) return 'the route visits a waypoint twice';
  const routePts = nodes.map((i) => N[i]);
  // Off-route waypoints in G − cut − route edges, without dead ends (leaves pruned repeatedly, so
  // a stub up to a fence goes): what is left either touches the route at one waypoint or is a detour.
  const open = world.nav.edges.filter((_, i) => !cut.has(i) && !routeEdges.has(i));
  const adjOpen: number[][] = N.map(() => []);
  for (const e of open) {
    adjOpen[e.a].push(e.b);
    adjOpen[e.b].push(e.a);
  }
  const degree = adjOpen.map((a) => a.length);
  const pruned = new Uint8Array(N.length);
  const leaves = N.map((_, i) => i).filter((i) => !arc.has(i) && degree[i] <= 1);
  while (leaves.length > 0) {
    const x = leaves.pop()!;
    pruned[x] = 1;
    for (const y of adjOpen[x]) if (!pruned[y] && !arc.has(y) && --degree[y] <= 1 && !leaves.includes(y)) leaves.push(y);
  }
  const parent = N.map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const e of open) if (!arc.has(e.a) && !arc.has(e.b) && !pruned[e.a] && !pruned[e.b]) parent[find(e.a)] = find(e.b);
  const touches = new Map<number, number[]>();
  for (const e of open) {
    const [on, off] = arc.has(e.a) ? [e.a, e.b] : [e.b, e.a];
    if (!arc.has(on) || pruned[off]) continue;
    if (arc.has(off)) {
      if (Math.abs(arc.get(on)! - arc.get(off)!) > LOCAL_SPAN) return `a nav edge joins route waypoints ${nodes.indexOf(on)} and ${nodes.indexOf(off)} (${Math.abs(arc.get(on)! - arc.get(off)!).toFixed(1)} m apart)`;
      continue;
    }
    const r = find(off);
    if (!touches.has(r)) touches.set(r, []);
    touches.get(r)!.push(arc.get(on)!);
  }
  const joining = new Set<number>();
  for (const [r, at] of touches) {
    const span = Math.max(...at) - Math.min(...at);
    if (span > LOCAL_SPAN) return `a detour rejoins the route ${span.toFixed(1)} m further on`;
    if (span > 0) joining.add(r);
  }
  for (let i = 0; i < N.length; i++) {
    if (!arc.has(i) && !pruned[i] && joining.has(find(i)) && polylineDistance(N[i], routePts) > LOCAL_DIST) return `a local detour strays ${polylineDistance(N[i], routePts).toFixed(1)} m from the route`;
  }
  const best = shortestNavPath(world.nav, nodes[0], nodes[nodes.length - 1], { removed: cut, heuristic: false });
  if (!best) return 'no path from start to goal on the blocked graph';
  if (Math.abs(best.length - length) > 1e-6) return `the shortest blocked path (${best.length.toFixed(3)} m) is not the route's length (${length.toFixed(3)} m)`;
  return null;
}

/** Walkable extent from p along unit n, metres (probed every 5 cm, up to `max`). */
function extent(world: World, p: Vec2, n: Vec2, max: number): number {
  let d = 0;
  while (d < max && isWalkable(world, p[0] + n[0] * (d + PROBE_STEP), p[1] + n[1] * (d + PROBE_STEP))) d += PROBE_STEP;
  return d;
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * A fence ({@link FENCE_THICKNESS} thick, CCW ring) across the walkable strip at p, perpendicular to
 * the unit line tangent t, reaching {@link FENCE_OVERHANG} beyond the walkable edge on each side.
 * Where the strip reaches {@link MAX_HALF_SPAN} metres or more on a side: null, or with `clamp`, a
 * fence cut off at that half-span.
 */
export function fenceAt(world: World, p: Vec2, t: Vec2, clamp = false): Ring | null {
  const n: Vec2 = [-t[1], t[0]];
  const left = extent(world, p, n, MAX_HALF_SPAN), right = extent(world, p, [-n[0], -n[1]], MAX_HALF_SPAN);
  if (!clamp && (left >= MAX_HALF_SPAN || right >= MAX_HALF_SPAN)) return null;
  const h = FENCE_THICKNESS / 2, l = left + FENCE_OVERHANG, r = -(right + FENCE_OVERHANG);
  const at = (a: number, b: number): Vec2 => [r3(p[0] + t[0] * a + n[0] * b), r3(p[1] + t[1] * a + n[1] * b)];
  // (t, n) is right-handed, so this order is counter-clockwise.
  return [at(-h, r), at(h, r), at(h, l), at(-h, l)];
}

/**
 * Fences closing every alternative of a route given as nav waypoints (start first), each a
 * {@link FENCE_HEIGHT} m blocker; null when some leaving line cannot be fenced clear of the route's
 * corridor or the result fails {@link checkSinglePath}. `why` hears the reason for a null.
 */
export function blockAlternatives(world: World, nodes: readonly number[], why?: (m: string) => void): Blocker[] | null {
  const { adj, edgeBetween } = navIndex(world.nav);
  const N = world.nav.nodes;
  const onRoute = new Set(nodes);
  const routePts = nodes.map((i) => N[i]);
  const routeEdge = new Set<number>();
  for (let i = 0; i + 1 < nodes.length; i++) {
    const e = edgeBetween(nodes[i], nodes[i + 1]);
    if (e !== undefined) routeEdge.add(e);
  }
  const fences: Ring[] = [];
  /** Whether the line from `from` into `to` is a dead end: what lies beyond `to` (not through `from`) reaches no route waypoint. */
  const deadEnd = (from: number, to: number): boolean => {
    if (onRoute.has(to)) return false;
    const seen = new Set([from, to]);
    const stack = [to];
    while (stack.length > 0) {
      if (seen.size > DEAD_END_SEARCH) return false;
      for (const { to: x } of adj[stack.pop()!]) {
        if (seen.has(x)) continue;
        if (onRoute.has(x)) return false;
        seen.add(x);
        stack.push(x);
      }
    }
    return true;
  };
  const arc = routeArcs(world, nodes);
  /**
   * Fences the line leaving `from` into `to` (that left the route at `origin`) within `budget`
   * metres: on its first stretch (through waypoints with one other neighbour) where a fence fits,
   * else on every branch beyond the branching waypoint that ends the stretch.
   */
  const fenceLine = (origin: number, from: number, to: number, budget: number, depth: number): boolean => {
    if (deadEnd(from, to)) return true;
    const chain: number[] = [from, to];
    let length = Math.hypot(N[to][0] - N[from][0], N[to][1] - N[from][1]);
    while (length < budget && !onRoute.has(chain[chain.length - 1]) && adj[chain[chain.length - 1]].length === 2) {
      const cur = chain[chain.length - 1], prev = chain[chain.length - 2];
      const next = adj[cur].find((x) => x.to !== prev)!.to;
      if (chain.includes(next)) break;
      chain.push(next);
      length += Math.hypot(N[next][0] - N[cur][0], N[next][1] - N[cur][1]);
    }
    const pts = chain.map((i) => N[i]);
    const end = chain[chain.length - 1], before = chain[chain.length - 2];
    // A local detour: back on the route close by, never far from it.
    if (onRoute.has(end) && Math.abs(arc.get(end)! - arc.get(origin)!) <= LOCAL_SPAN && pts.every((p) => polylineDistance(p, routePts) <= LOCAL_DIST)) return true;
    // Already cut by a fence placed for another line (a loop, or a shared branch).
    for (let i = 0; i + 1 < pts.length; i++) if (fences.some((f) => segmentMeetsRing(pts[i], pts[i + 1], f))) return true;
    const cum = arcLengths(pts);
    for (let s = depth === 0 ? 0.5 : 0.05; s <= Math.min(cum[cum.length - 1] - 0.05, budget); s += 0.25) {
      const { p, t } = sampleAt(pts, s, cum);
      const f = fenceAt(world, p as Vec2, t as Vec2);
      if (f && corridorClearance(routePts, [f]) >= CORRIDOR_HALF_WIDTH) {
        fences.push(f);
        return true;
      }
    }
    if (onRoute.has(end) || depth >= MAX_DEPTH || length >= budget) {
      why?.(`no fence on the line ${from} → ${to} (${length.toFixed(1)} m, ends at ${end}${onRoute.has(end) ? ' on the route' : ''}, depth ${depth})`);
      return false;
    }
    return adj[end].every(({ to: x }) => x === before || fenceLine(origin, end, x, budget - length, depth + 1));
  };
  for (const u of nodes) {
    for (const { to: w, edge } of adj[u]) {
      if (routeEdge.has(edge)) continue;
      if (!fenceLine(u, u, w, CHAIN_MAX, 0)) return null;
    }
  }
  const problem = checkSinglePath(world, nodes, fences);
  if (problem !== null) {
    why?.(problem);
    return null;
  }
  return fences.map((polygon) => ({ polygon, height: FENCE_HEIGHT }));
}
