/**
 * Queries of the pedestrian network the arena's generator and oracle share: distances from one
 * waypoint to all (Dijkstra), the path to any of them, and the decision points of a path (where the
 * walker stops at a branch and a choice is made). World frame, metres.
 */
import TinyQueue from 'tinyqueue';
import type { Vec2 } from '../world/geometry';
import type { NavGraph } from '../world/navgraph';
import { navIndex } from '../world/nav-index';

/** Shortest walking distances from one waypoint to every other, with the tree to rebuild paths. */
export interface NavDistances {
  source: number;
  /** Metres; Infinity where unreachable. */
  dist: Float64Array;
  /** Previous waypoint on the shortest path, −1 at the source and where unreachable. */
  prev: Int32Array;
}

/** Dijkstra from `source` over the whole graph (ties by waypoint index: deterministic). */
export function navDistances(nav: NavGraph, source: number): NavDistances {
  const { adj } = navIndex(nav);
  const dist = new Float64Array(nav.nodes.length).fill(Infinity);
  const prev = new Int32Array(nav.nodes.length).fill(-1);
  dist[source] = 0;
  const q = new TinyQueue<[number, number]>([[0, source]], (a, b) => a[0] - b[0] || a[1] - b[1]);
  while (q.length > 0) {
    const [d, u] = q.pop()!;
    if (d > dist[u]) continue;
    for (const e of adj[u]) {
      const nd = d + e.length;
      if (nd < dist[e.to]) {
        dist[e.to] = nd;
        prev[e.to] = u;
        q.push([nd, e.to]);
      }
    }
  }
  return { source, dist, prev };
}

/** The waypoints from the source of `d` to `target`, or null when unreachable. */
export function pathTo(d: NavDistances, target: number): number[] | null {
  if (!Number.isFinite(d.dist[target])) return null;
  const path: number[] = [];
  for (let n = target; n !== -1; n = d.prev[n]) path.push(n);
  return path.reverse();
}

/** Whether waypoint n is a branch (three or more edges: the walker stops there). */
export function isBranch(nav: NavGraph, n: number): boolean {
  return navIndex(nav).adj[n].length >= 3;
}

/** Branch waypoints closer than this along a path count as one decision point, metres (a corner's crosswalk ends). */
export const DECISION_MERGE = 8;

/**
 * Decision points of a path: its inner branch waypoints, those within {@link DECISION_MERGE} metres
 * of the previous one along the path merged (the branch waypoints of one street corner are one
 * decision, as 360CityArena counts the junctions of its pose graph).
 */
export function decisionPoints(nav: NavGraph, path: readonly number[]): number {
  let count = 0;
  let last = -Infinity;
  let s = 0;
  for (let i = 1; i < path.length - 1; i++) {
    const [a, b] = [nav.nodes[path[i - 1]], nav.nodes[path[i]]];
    s += Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (isBranch(nav, path[i])) {
      if (s - last > DECISION_MERGE) count++;
      last = s;
    }
  }
  return count;
}

/** The polyline of a path of waypoints, metres. */
export function pathPoints(nav: NavGraph, path: readonly number[]): Vec2[] {
  return path.map((n) => nav.nodes[n]);
}
