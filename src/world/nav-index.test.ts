import { describe, expect, it } from 'vitest';
import { createRng } from '../core/random';
import type { NavGraph } from './navgraph';
import { navIndex, shortestNavPath } from './nav-index';
import { generateWorld } from './world';

/** A 6×6 lattice of waypoints 2 m apart, each joined to its right and upper neighbour; row 2's upward edges are crosswalks. */
function lattice(): NavGraph {
  const nodes: [number, number][] = [];
  const edges: NavGraph['edges'] = [];
  for (let j = 0; j < 6; j++) for (let i = 0; i < 6; i++) nodes.push([2 * i, 2 * j]);
  for (let j = 0; j < 6; j++) for (let i = 0; i < 6; i++) {
    const n = j * 6 + i;
    if (i < 5) edges.push({ a: n, b: n + 1, length: 2, kind: 'sidewalk' });
    if (j < 5) edges.push({ a: n, b: n + 6, length: 2, kind: j === 2 ? 'crosswalk' : 'sidewalk' });
  }
  return { nodes, edges };
}

/** Dijkstra by brute force (O(V²)): the lengths of the shortest paths from s. */
function bruteDistances(nav: NavGraph, s: number, removed = new Set<number>()): number[] {
  const dist = nav.nodes.map(() => Infinity);
  const done = nav.nodes.map(() => false);
  dist[s] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < dist.length; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return dist;
    done[u] = true;
    nav.edges.forEach((e, k) => {
      if (removed.has(k) || (e.a !== u && e.b !== u)) return;
      const v = e.a === u ? e.b : e.a;
      dist[v] = Math.min(dist[v], dist[u] + e.length);
    });
  }
}

describe('navIndex', () => {
  it('lists each waypoint’s neighbours in edge order and finds the edge between two waypoints', () => {
    const nav = lattice();
    const { adj, edgeBetween } = navIndex(nav);
    expect(adj[0].map((e) => e.to)).toEqual([1, 6]);
    expect(adj[7].map((e) => e.to)).toEqual([1, 6, 8, 13]);
    expect(adj[12 + 1].find((e) => e.to === 19)?.kind).toBe('crosswalk');
    for (const [k, e] of nav.edges.entries()) {
      expect(edgeBetween(e.a, e.b)).toBe(k);
      expect(edgeBetween(e.b, e.a)).toBe(k);
    }
    expect(edgeBetween(0, 7)).toBeUndefined();
    expect(navIndex(nav)).toBe(navIndex(nav)); // built once per graph
  });

  it('nodesNear returns exactly the waypoints within the radius, nearest first, on a real world', () => {
    const world = generateWorld({ seed: 2, size: 400 });
    const { nodesNear } = navIndex(world.nav);
    const rng = createRng(5);
    let found = 0;
    for (let k = 0; k < 20; k++) {
      const p: [number, number] = [rng.range(-150, 150), rng.range(-150, 150)];
      const r = rng.range(0.5, 40);
      const want = world.nav.nodes
        .map((q, i) => [Math.hypot(q[0] - p[0], q[1] - p[1]), i] as const)
        .filter(([d]) => d <= r)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map(([, i]) => i);
      expect(nodesNear(p, r)).toEqual(want);
      found += want.length;
    }
    expect(found).toBeGreaterThan(20);
  });
});

describe('shortestNavPath', () => {
  it('A* and Dijkstra find paths of the brute-force shortest length, along real edges, with and without removed edges', () => {
    const world = generateWorld({ seed: 2, size: 400 });
    const nav = world.nav;
    const { edgeBetween } = navIndex(nav);
    const rng = createRng(9);
    const removed = new Set(Array.from({ length: 200 }, () => rng.int(0, nav.edges.length - 1)));
    for (let k = 0; k < 5; k++) {
      const s = rng.int(0, nav.nodes.length - 1);
      for (const cut of [new Set<number>(), removed]) {
        const dist = bruteDistances(nav, s, cut);
        for (let m = 0; m < 5; m++) {
          const t = rng.int(0, nav.nodes.length - 1);
          for (const heuristic of [true, false]) {
            const p = shortestNavPath(nav, s, t, { removed: cut, heuristic });
            if (!Number.isFinite(dist[t])) {
              expect(p).toBeNull();
              continue;
            }
            expect(p!.length).toBeCloseTo(dist[t], 9);
            expect(p!.nodes[0]).toBe(s);
            expect(p!.nodes.at(-1)).toBe(t);
            let sum = 0;
            for (let i = 0; i + 1 < p!.nodes.length; i++) {
              const e = edgeBetween(p!.nodes[i], p!.nodes[i + 1]);
              expect(e, `step ${i} is an edge`).toBeDefined();
              expect(cut.has(e!)).toBe(false);
              sum += nav.edges[e!].length;
            }
            expect(sum).toBeCloseTo(p!.length, 9);
          }
        }
      }
    }
  }, 60_000);

  it('returns null when the goal is cut off, and the single waypoint path from a waypoint to itself', () => {
    const nav = lattice();
    // Cut every edge into the corner waypoint 35.
    const cut = new Set(nav.edges.flatMap((e, k) => (e.a === 35 || e.b === 35 ? [k] : [])));
    expect(shortestNavPath(nav, 0, 35, { removed: cut })).toBeNull();
    expect(shortestNavPath(nav, 0, 35)?.length).toBe(20);
    expect(shortestNavPath(nav, 4, 4)).toEqual({ nodes: [4], length: 0 });
  });
});
