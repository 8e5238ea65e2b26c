/**
 * The pedestrian navigation graph: waypoints and edges on sidewalks and crosswalks.
 *
 * Lines: the centreline of every sidewalk (clear path) on both sides of every street and around
 * roundabouts, the centreline of every walkway (a street without carriageway), the axis of every crosswalk (extended to the sidewalk centrelines on both sides), and any lines the caller adds.
 * Lines are cut at 2 m and at every crossing of two lines (a crossing becomes a shared waypoint);
 * an edge is kept only when it lies inside the walkable region (its midpoint inside, and the whole
 * segment at least {@link NAV_CLEARANCE} from the region's boundary: an exact test); the largest connected component is the graph.
 */
import type { Vec2 } from './geometry';
import { segmentIntersection } from './geometry';
import type { Crosswalk } from './crosswalks';
import type { StreetNetwork } from './network';
import { densify, offsetPolyline } from './polyline';
import { zoneOffsets } from './profile';
import type { MultiPolygonIndex } from './spatial-index';

/** Kind of a navigation edge. */
export type NavEdgeKind = 'sidewalk' | 'crosswalk';

/** An undirected edge between waypoints `a` and `b` (indices into `NavGraph.nodes`). */
export interface NavEdge {
  a: number;
  b: number;
  /** Euclidean length, metres. */
  length: number;
  kind: NavEdgeKind;
}

/** Waypoints (ground-plane positions, metres) and undirected edges. */
export interface NavGraph {
  nodes: Vec2[];
  edges: NavEdge[];
}

/** Spacing of waypoints along lines, metres. */
export const NAV_STEP = 2;
/**
 * Least distance between an edge and the walkable region's boundary, metres: keeps edges clear of
 * the 0.1 mm snapping differences between the union and the individual zone polygons.
 */
export const NAV_CLEARANCE = 0.01;

/** Sampling step of walkability checks along a segment ({@link segmentAllOk}), metres. */
export const NAV_CHECK_STEP = 0.25;

interface Line { pts: Vec2[]; kind: NavEdgeKind }

/** Whether every point of segment ab, sampled every `step` metres (ends included), satisfies `ok`. */
export function segmentAllOk(a: Vec2, b: Vec2, ok: (x: number, y: number) => boolean, step = NAV_CHECK_STEP): boolean {
  const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / step));
  for (let i = 0; i <= n; i++) if (!ok(a[0] + ((b[0] - a[0]) * i) / n, a[1] + ((b[1] - a[1]) * i) / n)) return false;
  return true;
}

function navLines(net: StreetNetwork, crosswalks: Crosswalk[]): Line[] {
  const lines: Line[] = [];
  for (const st of net.streets) {
    if (st.closed) {
      const j = net.junctions[st.startJunction];
      const [, , d3, d4] = zoneOffsets(st.profile, -1, 0);
      const r = j.ringRadius + (d3 + d4) / 2;
      const n = Math.max(24, Math.ceil((2 * Math.PI * r) / NAV_STEP));
      const pts: Vec2[] = [];
      for (let i = 0; i <= n; i++) pts.push([j.centre[0] + r * Math.cos((2 * Math.PI * i) / n), j.centre[1] + r * Math.sin((2 * Math.PI * i) / n)]);
      lines.push({ pts, kind: 'sidewalk' });
      continue;
    }
    const line = densify(st.centreline, NAV_STEP);
    if (st.profile.roadHalfWidth === 0) {
      // A walkway (worlds from OSM): one line down its middle.
      lines.push({ pts: line, kind: 'sidewalk' });
      continue;
    }
    for (const side of [1, -1] as const) {
      const off = offsetPolyline(line, (s) => {
        const d = zoneOffsets(st.profile, side, s);
        return (side * (d[2] + d[3])) / 2;
      });
      lines.push({ pts: off, kind: 'sidewalk' });
    }
  }
  for (const c of crosswalks) {
    const st = net.streets[c.streetId];
    const dl = zoneOffsets(st.profile, 1, c.s), dr = zoneOffsets(st.profile, -1, c.s);
    const l = (dl[2] + dl[3]) / 2 + 0.3, r = (dr[2] + dr[3]) / 2 + 0.3;
    const a: Vec2 = [c.centre[0] - c.across[0] * r, c.centre[1] - c.across[1] * r];
    const b: Vec2 = [c.centre[0] + c.across[0] * l, c.centre[1] + c.across[1] * l];
    lines.push({ pts: densify([a, b], NAV_STEP), kind: 'crosswalk' });
  }
  return lines;
}

/**
 * Builds the navigation graph.
 *
 * @param walkable index of the walkable region (union of sidewalk and crosswalk polygons).
 * @param extraLines more sidewalk lines (a real place's pedestrian areas: osm/pedestrian-areas.ts),
 *   joined to the others where they cross, their edges kept where walkable as every line's.
 */
export function buildNavGraph(net: StreetNetwork, crosswalks: Crosswalk[], walkable: MultiPolygonIndex, extraLines: readonly Vec2[][] = []): NavGraph {
  const lines = [...navLines(net, crosswalks), ...extraLines.map((pts): Line => ({ pts, kind: 'sidewalk' }))];
  // Segment grid for crossings between lines.
  const CELL = 8;
  const grid = new Map<string, [number, number][]>();
  lines.forEach((ln, li) => {
    for (let i = 0; i < ln.pts.length - 1; i++) {
      const a = ln.pts[i], b = ln.pts[i + 1];
      for (let gx = Math.floor(Math.min(a[0], b[0]) / CELL); gx <= Math.floor(Math.max(a[0], b[0]) / CELL); gx++) {
        for (let gy = Math.floor(Math.min(a[1], b[1]) / CELL); gy <= Math.floor(Math.max(a[1], b[1]) / CELL); gy++) {
          const k = `${gx},${gy}`;
          if (!grid.has(k)) grid.set(k, []);
          grid.get(k)!.push([li, i]);
        }
      }
    }
  });
  const inserts: Map<number, { t: number; p: Vec2 }[]>[] = lines.map(() => new Map());
  const done = new Set<string>();
  for (const cell of grid.values()) {
    for (let x = 0; x < cell.length; x++) {
      for (let y = x + 1; y < cell.length; y++) {
        const [la, sa] = cell[x], [lb, sb] = cell[y];
        if (la === lb) continue;
        const key = la < lb ? `${la}:${sa}:${lb}:${sb}` : `${lb}:${sb}:${la}:${sa}`;
        if (done.has(key)) continue;
        done.add(key);
        const A = lines[la].pts, B = lines[lb].pts;
        const hit = segmentIntersection(A[sa], A[sa + 1], B[sb], B[sb + 1]);
        if (!hit) continue;
        const p: Vec2 = [A[sa][0] + hit[0] * (A[sa + 1][0] - A[sa][0]), A[sa][1] + hit[0] * (A[sa + 1][1] - A[sa][1])];
        for (const [li, si, t] of [[la, sa, hit[0]], [lb, sb, hit[1]]] as const) {
          const m = inserts[li];
          if (!m.has(si)) m.set(si, []);
          m.get(si)!.push({ t, p });
        }
      }
    }
  }
  // Nodes (deduplicated by exact coordinates) and edges.
  const index = new Map<string, number>();
  const nodes: Vec2[] = [];
  const nodeOf = (p: Vec2): number => {
    const k = `${p[0]},${p[1]}`;
    let i = index.get(k);
    if (i === undefined) {
      i = nodes.length;
      index.set(k, i);
      nodes.push(p);
    }
    return i;
  };
  const edges: NavEdge[] = [];
  const seen = new Set<string>();
  // Nodes closer than a micrometre are one node: a crossing computed on the other line lands within
  // rounding of a vertex (or of the same crossing computed on a third line), as where a walkway meets
  // the shared end of two sidewalk lines at exactly right angles; an edge between them would be too
  // short to keep, and dropping it would cut the graph there.
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== undefined && parent[i] !== i) i = parent[i];
    return i;
  };
  lines.forEach((ln, li) => {
    const pts: Vec2[] = [];
    for (let i = 0; i < ln.pts.length; i++) {
      pts.push(ln.pts[i]);
      const ins = inserts[li].get(i);
      if (ins) for (const q of ins.sort((u, v) => u.t - v.t)) pts.push(q.p);
    }
    for (let i = 0; i < pts.length - 1; i++) {
      const a = nodeOf(pts[i]), b = nodeOf(pts[i + 1]);
      if (a === b) continue;
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      if (seen.has(key)) continue;
      const length = Math.hypot(nodes[b][0] - nodes[a][0], nodes[b][1] - nodes[a][1]);
      if (length < 1e-6) {
        const [ra, rb] = [find(a), find(b)];
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        continue;
      }
      if (!walkable.segmentClearOfBoundary(nodes[a], nodes[b], NAV_CLEARANCE)) continue;
      if (!walkable.contains((nodes[a][0] + nodes[b][0]) / 2, (nodes[a][1] + nodes[b][1]) / 2)) continue;
      seen.add(key);
      edges.push({ a, b, length, kind: ln.kind });
    }
  });
  if (parent.length === 0) return largestComponent({ nodes, edges });
  const merged = new Set<string>();
  const kept: NavEdge[] = [];
  for (const e of edges) {
    const a = find(e.a), b = find(e.b);
    const key = a < b ? `${a}-${b}` : `${b}-${a}`;
    if (a === b || merged.has(key)) continue;
    merged.add(key);
    kept.push({ ...e, a, b });
  }
  return largestComponent({ nodes, edges: kept });
}

/** The largest connected component of a graph (ties: the one with the lowest node index), renumbered in node order. */
export function largestComponent(g: NavGraph): NavGraph {
  const parent = g.nodes.map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const e of g.edges) {
    const ra = find(e.a), rb = find(e.b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const size = new Map<number, number>();
  for (const e of g.edges) size.set(find(e.a), (size.get(find(e.a)) ?? 0) + 1);
  let best = -1, bestSize = 0;
  for (const [r, s] of size) if (s > bestSize || (s === bestSize && r < best)) [best, bestSize] = [r, s];
  const remap = new Map<number, number>();
  const nodes: Vec2[] = [];
  g.nodes.forEach((p, i) => {
    if (best >= 0 && find(i) === best && g.edges.length > 0) {
      remap.set(i, nodes.length);
      nodes.push(p);
    }
  });
  const edges = g.edges.filter((e) => remap.has(e.a)).map((e) => ({ ...e, a: remap.get(e.a)!, b: remap.get(e.b)! }));
  return { nodes, edges };
}

/** Total length of all edges, metres. */
export function navGraphLength(g: NavGraph): number {
  return g.edges.reduce((s, e) => s + e.length, 0);
}

