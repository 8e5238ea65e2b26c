/**
 * Route queries on a world's pedestrian navigation graph: shortest walkable routes (A*, Euclidean
 * heuristic) and sampling of start/goal pairs with a given route length on a given block type
 * (SidewalkBench unit-test scenarios: 10–20 m on straight, curve and crosswalk blocks).
 */
import TinyQueue from 'tinyqueue';
import type { Rng } from '../core/random';
import { BLOCK_TYPES, type Block, type BlockType } from './blocks';
import { pointInRing, type Vec2 } from './geometry';
import { segmentAllOk, type NavEdgeKind } from './navgraph';
import { navIndex, shortestNavPath } from './nav-index';
import { isWalkable, zoneAt } from './queries';
import type { World } from './world';

/** A walkable route: a polyline from start to goal, metres. */
export interface Route {
  /** Polyline vertices from start to goal (world frame, metres). */
  points: Vec2[];
  /** Length of the polyline, metres. */
  length: number;
  /** Navigation-graph waypoints it passes, in order. */
  nodes: number[];
}

/** A sampled start/goal pair with its shortest route. */
export interface SampledRoute extends Route {
  start: Vec2;
  goal: Vec2;
  /** What it was sampled on: a block type or `crosswalk`. */
  kind: BlockType | 'crosswalk';
  /** Block id (block types) or crosswalk id (`crosswalk`). */
  sourceId: number;
}

/**
 * The waypoint nearest to p that can be reached from p in a straight walkable line (searching up to
 * `maxRadius` metres), or −1.
 */
export function nearestWaypoint(world: World, p: Vec2, maxRadius = 30): number {
  for (const n of navIndex(world.nav).nodesNear(p, maxRadius)) if (segmentAllOk(p, world.nav.nodes[n], (x, y) => isWalkable(world, x, y))) return n;
  return -1;
}

function routeOf(world: World, nodes: number[], start?: Vec2, goal?: Vec2): Route {
  const points: Vec2[] = [];
  if (start) points.push(start);
  for (const n of nodes) points.push(world.nav.nodes[n]);
  if (goal) points.push(goal);
  const dedup = points.filter((p, i) => i === 0 || p[0] !== points[i - 1][0] || p[1] !== points[i - 1][1]);
  let length = 0;
  for (let i = 1; i < dedup.length; i++) length += Math.hypot(dedup[i][0] - dedup[i - 1][0], dedup[i][1] - dedup[i - 1][1]);
  return { points: dedup, length, nodes };
}

/**
 * Shortest walkable route between two ground points (A* on the navigation graph, joined to each
 * point by a straight walkable leg). Returns null when either point has no waypoint within 30 m in
 * walkable line of sight.
 *
 * @throws RangeError when `from` or `to` is not on walkable ground (sidewalk or crosswalk).
 */
export function findRoute(world: World, from: Vec2, to: Vec2): Route | null {
  for (const [name, p] of [['from', from], ['to', to]] as const) {
    if (!isWalkable(world, p[0], p[1])) throw new RangeError(`findRoute: ${name} (${p[0].toFixed(2)}, ${p[1].toFixed(2)}) is on ${zoneAt(world, p[0], p[1])}, not on a sidewalk or crosswalk`);
  }
  const s = nearestWaypoint(world, from), t = nearestWaypoint(world, to);
  if (s < 0 || t < 0) return null;
  const path = shortestNavPath(world.nav, s, t)?.nodes ?? null;
  return path ? routeOf(world, path, from, to) : null;
}

/** Options of {@link sampleRoute}. */
export interface SampleRouteOptions {
  /** Block type to sample on, or `crosswalk` (routes that cross one crosswalk). */
  kind: BlockType | 'crosswalk';
  /** Route length range, metres (SidewalkBench unit tests: 10–20). */
  minLength: number;
  maxLength: number;
  /** Tries before giving up (default 50). */
  attempts?: number;
}

/**
 * Samples a start/goal pair whose shortest walkable route length lies in [minLength, maxLength]:
 * on a street block (straight, curve, narrowing, fork) the route stays on one sidewalk inside the
 * block; on a junction block it stays inside the junction's area; for `crosswalk` it crosses one
 * crosswalk from one side of the street to the other and ends on the far side, off the crosswalk. Start and goal are waypoints. Returns null when no pair is found in `attempts` tries.
 *
 * @throws RangeError when the world has no block of that kind (or no crosswalk), or the range is empty.
 */
export function sampleRoute(world: World, rng: Rng, opts: SampleRouteOptions): SampledRoute | null {
  const { kind, minLength, maxLength } = opts;
  if (!(minLength >= 0 && maxLength >= minLength)) throw new RangeError(`sampleRoute: bad length range [${minLength}, ${maxLength}]`);
  const { adj } = navIndex(world.nav);
  const N = world.nav.nodes;
  const blocks: Block[] = kind === 'crosswalk' ? [] : world.blocks.filter((b) => b.type === kind);
  if (kind === 'crosswalk' ? world.crosswalks.length === 0 : blocks.length === 0) {
    throw new RangeError(`sampleRoute: the world has no ${kind === 'crosswalk' ? 'crosswalk' : `${kind} block`} (types: ${BLOCK_TYPES.filter((t) => world.blocks.some((b) => b.type === t)).join(', ')})`);
  }
  for (let attempt = 0; attempt < (opts.attempts ?? 50); attempt++) {
    let inside: (i: number) => boolean;
    let edgeOk: (kind: NavEdgeKind) => boolean = () => true;
    let marks: ((u: number, v: number) => boolean) | null = null;
    let goalOk: (i: number) => boolean = () => true;
    let sourceId: number;
    if (kind === 'crosswalk') {
      const c = rng.pick(world.crosswalks);
      sourceId = c.id;
      const rad = maxLength + 5;
      inside = (i) => Math.hypot(N[i][0] - c.centre[0], N[i][1] - c.centre[1]) <= rad;
      // Crossing = an edge from one side of the street centreline to the other, within the crosswalk.
      const lat = (i: number): number => (N[i][0] - c.centre[0]) * c.across[0] + (N[i][1] - c.centre[1]) * c.across[1];
      const lon = (i: number): number => (N[i][0] - c.centre[0]) * c.along[0] + (N[i][1] - c.centre[1]) * c.along[1];
      marks = (u, v) => lat(u) * lat(v) <= 0 && lat(u) !== lat(v) && Math.abs(lon(u)) <= c.width / 2 && Math.abs(lon(v)) <= c.width / 2;
      goalOk = (i) => !pointInRing(N[i][0], N[i][1], c.rect);
    } else {
      const b = rng.pick(blocks);
      sourceId = b.id;
      inside = (i) => pointInRing(N[i][0], N[i][1], b.region);
      if (b.streetId >= 0) edgeOk = (k) => k === 'sidewalk';
    }
    const starts: number[] = [];
    for (let i = 0; i < N.length; i++) if (inside(i)) starts.push(i);
    if (starts.length === 0) continue;
    const s = rng.pick(starts);
    // Bounded Dijkstra restricted to the block.
    const dist = new Map<number, number>([[s, 0]]);
    const prev = new Map<number, number>();
    const crossed = new Map<number, boolean>([[s, false]]);
    const q = new TinyQueue<[number, number]>([[0, s]], (a, b) => a[0] - b[0] || a[1] - b[1]);
    const goals: number[] = [];
    while (q.length > 0) {
      const [d, u] = q.pop()!;
      if (d > dist.get(u)! + 1e-9) continue;
      if (d >= minLength && (!marks || crossed.get(u)) && goalOk(u)) goals.push(u);
      for (const e of adj[u]) {
        const nd = d + e.length;
        if (nd > maxLength || !edgeOk(e.kind) || !inside(e.to)) continue;
        if (nd < (dist.get(e.to) ?? Infinity) - 1e-12) {
          dist.set(e.to, nd);
          prev.set(e.to, u);
          crossed.set(e.to, crossed.get(u)! || (marks ? marks(u, e.to) : false));
          q.push([nd, e.to]);
        }
      }
    }
    if (goals.length === 0) continue;
    const t = rng.pick(goals.sort((a, b) => a - b));
    const path = [t];
    while (path[path.length - 1] !== s) path.push(prev.get(path[path.length - 1])!);
    path.reverse();
    return { ...routeOf(world, path), start: N[s], goal: N[t], kind, sourceId };
  }
  return null;
}
