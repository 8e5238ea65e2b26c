/**
 * Invariants of the procedural world on many seeds (issue "The sidewalk world"): valid CCW polygons,
 * a connected walkable map, graph edges on walkable ground, obstacles off the clear path and apart,
 * routes of the requested length on each block type, byte-for-byte determinism, zone queries
 * consistent with the polygons.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../core/random';
import { BLOCK_TYPES } from './blocks';
import { intersection, union } from './clipping';
import { multiPolygonArea, pointInMultiPolygon, polygonProblem, ringProblem, signedArea, orient, type MultiPolygon } from './geometry';
import { segmentAllOk } from './navgraph';
import { ZONE_WIDTH_RANGES } from './profile';
import { groundHeight, isWalkable, zoneAt } from './queries';
import { findRoute, sampleRoute } from './routes';
import { generateWorld, type World } from './world';
import { ZONE_KINDS } from './zones';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const worlds = new Map<number, World>();

beforeAll(() => {
  for (const s of SEEDS) worlds.set(s, generateWorld({ seed: s }));
}, 180_000);

const each = (fn: (w: World, seed: number) => void) => () => {
  for (const s of SEEDS) fn(worlds.get(s)!, s);
};

describe('procedural world invariants (20 seeds, 400 m)', () => {
  it('every zone polygon, obstacle, crosswalk and block region is valid and CCW', each((w, seed) => {
    for (const k of ZONE_KINDS) {
      expect(w.zones[k].length, `seed ${seed} ${k}`).toBeGreaterThan(0);
      for (const p of w.zones[k]) expect(polygonProblem(p), `seed ${seed} ${k}`).toBeNull();
    }
    for (const o of w.obstacles) {
      expect(ringProblem(o.footprint), `seed ${seed} obstacle ${o.id}`).toBeNull();
      expect(signedArea(o.footprint)).toBeGreaterThan(0);
      // Convex: every turn is a left turn.
      const f = o.footprint;
      for (let i = 0; i < f.length; i++) expect(orient(f[i], f[(i + 1) % f.length], f[(i + 2) % f.length])).toBeGreaterThan(0);
    }
    for (const c of w.crosswalks) expect(signedArea(c.rect)).toBeGreaterThan(0);
    for (const b of w.blocks) {
      expect(ringProblem(b.region), `seed ${seed} block ${b.id}`).toBeNull();
      expect(signedArea(b.region)).toBeGreaterThan(0);
    }
  }), 120_000);

  it('zones are disjoint and sidewalk widths are within the documented ranges', each((w, seed) => {
    const sum = ZONE_KINDS.reduce((s, k) => s + multiPolygonArea(w.zones[k]), 0);
    const all = multiPolygonArea(union(...ZONE_KINDS.map((k) => w.zones[k])));
    expect(Math.abs(sum - all) / all, `seed ${seed}`).toBeLessThan(1e-6);
    expect(all).toBeLessThan(w.size * w.size);
    for (const st of w.network.streets) {
      for (const side of [st.profile.left, st.profile.right]) {
        if (st.kind === 'ring') continue;
        expect(side.sidewalk).toBeGreaterThanOrEqual(ZONE_WIDTH_RANGES.sidewalk[0]);
        expect(side.sidewalk).toBeLessThanOrEqual(ZONE_WIDTH_RANGES.sidewalk[1]);
        expect(side.curb).toBeGreaterThanOrEqual(ZONE_WIDTH_RANGES.curb[0]);
      }
      if (st.profile.narrowing) expect(st.profile.narrowing.pinch).toBeGreaterThanOrEqual(1.2);
    }
  }), 120_000);

  it('the walkable map is connected: one graph component reaching every sidewalk/crosswalk region', each((w, seed) => {
    const { nodes, edges } = w.nav;
    expect(nodes.length).toBeGreaterThan(500);
    const adj: number[][] = nodes.map(() => []);
    for (const e of edges) {
      adj[e.a].push(e.b);
      adj[e.b].push(e.a);
    }
    const seen = new Uint8Array(nodes.length);
    const stack = [0];
    seen[0] = 1;
    while (stack.length) {
      for (const v of adj[stack.pop()!]) {
        if (seen[v]) continue;
        seen[v] = 1;
        stack.push(v);
      }
    }
    expect(seen.every((x) => x === 1), `seed ${seed}: graph not connected`).toBe(true);
    const pieces = union(w.zones.sidewalk, w.zones.crosswalk);
    for (const p of pieces) expect(nodes.some(([x, y]) => pointInMultiPolygon(x, y, [p])), `seed ${seed}: walkable piece without waypoint`).toBe(true);
    expect(edges.some((e) => e.kind === 'crosswalk')).toBe(true);
  }), 120_000);

  it('every graph edge lies on walkable ground (sampled every 0.2 m)', each((w, seed) => {
    for (const e of w.nav.edges) {
      const ok = segmentAllOk(w.nav.nodes[e.a], w.nav.nodes[e.b], (x, y) => isWalkable(w, x, y), 0.2);
      expect(ok, `seed ${seed} edge ${e.a}-${e.b}`).toBe(true);
      expect(e.length).toBeCloseTo(Math.hypot(w.nav.nodes[e.b][0] - w.nav.nodes[e.a][0], w.nav.nodes[e.b][1] - w.nav.nodes[e.a][1]), 9);
    }
  }), 120_000);

  it('obstacles stay off the walkable map, furniture inside the verge, and no two overlap', each((w, seed) => {
    const fps: MultiPolygon = w.obstacles.map((o) => ({ outer: o.footprint, holes: [] }));
    const walk = union(w.zones.sidewalk, w.zones.crosswalk);
    const all = union(...fps.map((p) => [p]));
    expect(multiPolygonArea(intersection(all, walk)), `seed ${seed}`).toBeLessThan(1e-6);
    const sumArea = fps.reduce((s, p) => s + signedArea(p.outer), 0);
    // Relative tolerance 1e-4: clipping snaps vertices to 0.1 mm, which moves small footprints' areas by ~1e-6 relative.
    expect(Math.abs(multiPolygonArea(all) - sumArea) / sumArea, `seed ${seed}: overlapping obstacles`).toBeLessThan(1e-4);
    const furniture = fps.filter((_, i) => w.obstacles[i].kind !== 'building');
    const fa = furniture.reduce((s, p) => s + signedArea(p.outer), 0);
    expect(Math.abs(multiPolygonArea(intersection(union(...furniture.map((p) => [p])), w.zones.verge)) - fa) / fa).toBeLessThan(1e-4);
    const land = union(...ZONE_KINDS.map((k) => w.zones[k]));
    const buildings = fps.filter((_, i) => w.obstacles[i].kind === 'building');
    expect(multiPolygonArea(intersection(union(...buildings.map((p) => [p])), land))).toBeLessThan(1e-6);
    const kinds = new Set(w.obstacles.map((o) => o.kind));
    for (const k of ['lampPost', 'tree', 'building', 'bench', 'bin']) expect(kinds.has(k as never), `seed ${seed} lacks ${k}`).toBe(true);
  }), 180_000);

  it('has all seven block types and samples 10–20 m routes on each', () => {
    for (const s of SEEDS) {
      const w = worlds.get(s)!;
      const types = new Set(w.blocks.map((b) => b.type));
      for (const t of ['straight', 'curve', 'intersection', 'tJunction', 'narrowing'] as const) expect(types.has(t), `seed ${s} lacks ${t}`).toBe(true);
      const rng = createRng(s).fork('test-routes');
      for (const kind of [...BLOCK_TYPES.filter((t) => types.has(t)), 'crosswalk' as const]) {
        const r = sampleRoute(w, rng, { kind, minLength: 10, maxLength: 20 });
        expect(r, `seed ${s}: no route on ${kind}`).not.toBeNull();
        expect(r!.length).toBeGreaterThanOrEqual(10);
        expect(r!.length).toBeLessThanOrEqual(20 + 1e-9);
        expect(r!.start).toEqual(r!.points[0]);
        expect(r!.goal).toEqual(r!.points[r!.points.length - 1]);
        for (let i = 1; i < r!.points.length; i++) expect(segmentAllOk(r!.points[i - 1], r!.points[i], (x, y) => isWalkable(w, x, y))).toBe(true);
        if (kind === 'straight' || kind === 'curve') {
          expect(r!.points.every(([x, y]) => zoneAt(w, x, y) === 'sidewalk'), `seed ${s} ${kind} route leaves the sidewalk`).toBe(true);
        }
        if (kind === 'crosswalk') {
          const c = w.crosswalks[r!.sourceId];
          const lat = (p: number[]): number => (p[0] - c.centre[0]) * c.across[0] + (p[1] - c.centre[1]) * c.across[1];
          expect(r!.points.some(([x, y]) => zoneAt(w, x, y) === 'crosswalk')).toBe(true);
          expect(Math.sign(lat(r!.start)) * Math.sign(lat(r!.goal)), `seed ${s}: crosswalk route does not cross`).toBe(-1);
          expect(zoneAt(w, r!.goal[0], r!.goal[1])).toBe('sidewalk');
        }
      }
    }
    const counts = Object.fromEntries(BLOCK_TYPES.map((t) => [t, SEEDS.filter((s) => worlds.get(s)!.blocks.some((b) => b.type === t)).length]));
    expect(counts.roundabout).toBeGreaterThanOrEqual(SEEDS.length * 0.8);
    expect(counts.fork).toBeGreaterThanOrEqual(SEEDS.length * 0.8);
  }, 120_000);

  it('findRoute joins two far-apart waypoints through the graph', each((w, seed) => {
    const n = w.nav.nodes;
    const a = n[0], b = n[n.length - 1];
    const r = findRoute(w, a, b);
    expect(r, `seed ${seed}`).not.toBeNull();
    expect(r!.length).toBeGreaterThanOrEqual(Math.hypot(b[0] - a[0], b[1] - a[1]) - 1e-9);
    expect(r!.points[0]).toEqual(a);
    expect(r!.points[r!.points.length - 1]).toEqual(b);
    for (let i = 1; i < r!.points.length; i++) expect(segmentAllOk(r!.points[i - 1], r!.points[i], (x, y) => isWalkable(w, x, y))).toBe(true);
  }), 120_000);

  it('zoneAt agrees with the polygons, ground heights follow the zones', each((w, seed) => {
    const rng = createRng(seed).fork('test-zones');
    const hits: Record<string, number> = {};
    for (let i = 0; i < 400; i++) {
      const x = rng.range(w.bounds[0], w.bounds[2]), y = rng.range(w.bounds[1], w.bounds[3]);
      const z = zoneAt(w, x, y);
      hits[z] = (hits[z] ?? 0) + 1;
      for (const k of ZONE_KINDS) expect(pointInMultiPolygon(x, y, w.zones[k]), `seed ${seed} (${x}, ${y}) is ${z}`).toBe(z === k);
      if (z === 'road') expect(groundHeight(w, x, y)).toBe(0);
      if (z === 'sidewalk' || z === 'verge' || z === 'frontage' || z === 'lot') expect(groundHeight(w, x, y)).toBe(0.15);
    }
    expect(hits.road).toBeGreaterThan(0);
    expect(hits.sidewalk).toBeGreaterThan(0);
    expect(zoneAt(w, w.bounds[2] + 1, 0)).toBe('outside');
    const b = w.obstacles.find((o) => o.kind === 'building')!;
    expect(zoneAt(w, b.centre[0], b.centre[1])).toBe('building');
    for (const r of w.curbRamps.slice(0, 10)) {
      const mid = [r.low[0] + r.dir[0] * r.run * 0.5, r.low[1] + r.dir[1] * r.run * 0.5];
      expect(groundHeight(w, mid[0], mid[1])).toBeCloseTo(0.075, 6);
    }
  }), 120_000);
});

describe('determinism', () => {
  it('the same seed gives the same world byte for byte; another seed does not', () => {
    const a = JSON.stringify(generateWorld({ seed: 42, size: 300 }));
    const b = JSON.stringify(generateWorld({ seed: 42, size: 300 }));
    expect(a.length).toBeGreaterThan(100_000);
    expect(a === b).toBe(true);
    expect(JSON.stringify(generateWorld({ seed: 43, size: 300 })) === a).toBe(false);
    expect(JSON.parse(a).seed).toBe(42);
  }, 60_000);

  it('rejects bad input with RangeError', () => {
    expect(() => generateWorld({ seed: 1.5 })).toThrow(RangeError);
    expect(() => generateWorld({ seed: 1, size: 100 })).toThrow(/size must be in \[150, 2000\]/);
    const w = worlds.get(1)!;
    const road = w.network.streets.find((s) => s.kind === 'straight')!.centreline[0];
    const p = w.network.streets.find((s) => s.kind === 'straight')!.centreline;
    const mid: [number, number] = [(p[0][0] + p[p.length - 1][0]) / 2, (p[0][1] + p[p.length - 1][1]) / 2];
    expect(zoneAt(w, mid[0], mid[1])).toBe('road');
    expect(() => findRoute(w, mid, w.nav.nodes[0])).toThrow(/is on road, not on a sidewalk/);
    expect(road).toBeDefined();
    expect(() => sampleRoute(w, createRng(1), { kind: 'straight', minLength: 5, maxLength: 2 })).toThrow(RangeError);
  });
});
