/**
 * The one owner of a navigation graph's derived structures: adjacency lists, the edge between two
 * waypoints, a spatial grid of the waypoints and the shortest-path search (Dijkstra, or A* with
 * the straight-line heuristic, on tinyqueue). Built once per `NavGraph` and shared by route
 * sampling (routes.ts), the blockers of long-horizon scenarios (src/bench/blockers.ts) and the
 * demo's ambient walkers.
 */
import TinyQueue from 'tinyqueue';
import type { Vec2 } from './geometry';
import type { NavEdgeKind, NavGraph } from './navgraph';

/** One neighbour of a waypoint: the waypoint reached, the edge's index, length (metres) and kind. */
export interface NavNeighbour {
  to: number;
  edge: number;
  length: number;
  kind: NavEdgeKind;
}

/** Side of the waypoint grid's cells, metres. */
export const NAV_GRID_CELL = 5;

/** Derived structures of a navigation graph (see {@link navIndex}). */
export interface NavIndex {
  /** `adj[n]`: the neighbours of waypoint n, in edge order (edge i adds b to a's list and a to b's). */
  readonly adj: readonly NavNeighbour[][];
  /** Index of the edge joining waypoints a and b (either order), or undefined. */
  edgeBetween(a: number, b: number): number | undefined;
  /** Waypoints within `radius` metres of p, nearest first (ties by index). */
  nodesNear(p: Vec2, radius: number): number[];
}

const indices = new WeakMap<NavGraph, NavIndex>();

/** The index of `nav`, built on first use and cached for the graph's lifetime. */
export function navIndex(nav: NavGraph): NavIndex {
  let index = indices.get(nav);
  if (index) return index;
  const adj: NavNeighbour[][] = nav.nodes.map(() => []);
  const byPair = new Map<number, number>();
  const n = nav.nodes.length;
  nav.edges.forEach((e, i) => {
    adj[e.a].push({ to: e.b, edge: i, length: e.length, kind: e.kind });
    adj[e.b].push({ to: e.a, edge: i, length: e.length, kind: e.kind });
    byPair.set(Math.min(e.a, e.b) * n + Math.max(e.a, e.b), i);
  });
  const grid = new Map<string, number[]>();
  const cellKey = (i: number, j: number) => `${i},${j}`;
  nav.nodes.forEach(([x, y], i) => {
    const k = cellKey(Math.floor(x / NAV_GRID_CELL), Math.floor(y / NAV_GRID_CELL));
    const cell = grid.get(k);
    if (cell) cell.push(i);
    else grid.set(k, [i]);
  });
  index = {
    adj,
    edgeBetween: (a, b) => byPair.get(Math.min(a, b) * n + Math.max(a, b)),
    nodesNear: (p, radius) => {
      const found: [number, number][] = [];
      const [i0, i1] = [Math.floor((p[0] - radius) / NAV_GRID_CELL), Math.floor((p[0] + radius) / NAV_GRID_CELL)];
      const [j0, j1] = [Math.floor((p[1] - radius) / NAV_GRID_CELL), Math.floor((p[1] + radius) / NAV_GRID_CELL)];
      for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) {
        for (const k of grid.get(cellKey(i, j)) ?? []) {
          const d = Math.hypot(nav.nodes[k][0] - p[0], nav.nodes[k][1] - p[1]);
          if (d <= radius) found.push([d, k]);
        }
      }
      return found.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, k]) => k);
    },
  };
  indices.set(nav, index);
  return index;
}

/** Options of {@link shortestNavPath}. */
export interface NavPathOptions {
  /** Edge indices the path may not use. */
  removed?: ReadonlySet<number>;
  /** A* with the straight-line distance to t (admissible: edges are straight segments); default true. */
  heuristic?: boolean;
}

/**
 * Shortest path from waypoint s to t (Dijkstra; A* with the straight-line heuristic unless
 * `heuristic: false`), ties in the queue broken by waypoint index so results never depend on the
 * queue's internals. Returns the waypoints from s to t and the length in metres, or null when t is
 * unreachable.
 */
export function shortestNavPath(nav: NavGraph, s: number, t: number, options: NavPathOptions = {}): { nodes: number[]; length: number } | null {
  const { adj } = navIndex(nav);
  const N = nav.nodes;
  const removed = options.removed;
  const h = options.heuristic === false ? () => 0 : (i: number) => Math.hypot(N[i][0] - N[t][0], N[i][1] - N[t][1]);
  const dist = new Float64Array(N.length).fill(Infinity);
  const prev = new Int32Array(N.length).fill(-1);
  dist[s] = 0;
  const q = new TinyQueue<[number, number]>([[h(s), s]], (a, b) => a[0] - b[0] || a[1] - b[1]);
  while (q.length > 0) {
    const [f, u] = q.pop()!;
    if (u === t) break;
    if (f - h(u) > dist[u] + 1e-9) continue;
    for (const e of adj[u]) {
      if (removed?.has(e.edge)) continue;
      const nd = dist[u] + e.length;
      if (nd < dist[e.to] - 1e-12) {
        dist[e.to] = nd;
        prev[e.to] = u;
        q.push([nd + h(e.to), e.to]);
      }
    }
  }
  if (!Number.isFinite(dist[t])) return null;
  const nodes = [t];
  while (nodes[nodes.length - 1] !== s) nodes.push(prev[nodes[nodes.length - 1]]);
  return { nodes: nodes.reverse(), length: dist[t] };
}
