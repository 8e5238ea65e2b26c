/**
 * OSM highways into a {@link StreetNetwork}: ways are clipped at the selection's edge, split at every
 * node they share with another way, given a cross-section from their tags (highway-tags.ts), and
 * joined again through nodes where nothing but the way changes (a `bend` junction keeps the two
 * cross-sections apart where they differ). Junctions: 1 arm → `deadEnd`, 2 → `bend`, 3 →
 * `tJunction`, 4 or more → `intersection`. The largest connected part of the network is kept; the
 * OSM ids of the ways it drops are reported.
 */
import type { Box, Vec2 } from '../geometry';
import type { Junction, JunctionKind, Street, StreetNetwork } from '../network';
import { polylineLength, projectOnPolyline } from '../polyline';
import { maxReach, type StreetProfile } from '../profile';
import { BoxGrid } from '../spatial-index';
import type { OsmData, OsmTags } from './elements';
import { clipWay, type ClipVertex, type NodeProjector } from './clip';
import { HIGHWAY_CLASSES, highwayClass, highwayProfile, sidewalkTags } from './highway-tags';

/** What the world keeps of the OSM way(s) behind one network street. */
export interface OsmStreetInfo {
  /** OSM way ids, in order along the street. */
  ways: number[];
  /** `highway=*` class. */
  highway: string;
  /** `name`, else `ref`, else null (a generated name is given later). */
  name: string | null;
  /** `name:en` / `name:latn` when tagged (for signs whose font lacks the script). */
  nameLatin: string | null;
  /** Whether the street is steps (walkable on foot and by legged robots, never on a wheeled robot's route). */
  steps: boolean;
}

/** A mapped crossing on a street: a `highway=crossing` node, or where a `footway=crossing` way meets the road. */
export interface OsmCrossing {
  streetId: number;
  /** Arc length along the street's centreline, metres. */
  s: number;
  /** The OSM node. */
  node: number;
}

/** Output of {@link buildOsmNetwork}. */
export interface OsmNetwork {
  network: StreetNetwork;
  info: OsmStreetInfo[];
  crossings: OsmCrossing[];
  /** Ways with nodes missing from the file (usual at an extract's edge): cut there. */
  waysMissingNodes: number[];
  /** Ways outside the largest connected part of the network, dropped. */
  waysDisconnected: number[];
  /** Sides of roads whose sidewalk a separate `footway=sidewalk` way carries (tagged `separate` or found alongside). */
  separateSides: number;
}

interface Edge {
  a: string;
  b: string;
  pts: Vec2[];
  nodes: (number | null)[];
  way: number;
  cls: string;
  tags: OsmTags;
  left: boolean;
  right: boolean;
}

const roadOf = (cls: string) => HIGHWAY_CLASSES[cls].role === 'road';

/** Removes consecutive vertices closer than 1 cm. */
function dedupe(pts: Vec2[], nodes: (number | null)[]): void {
  for (let i = pts.length - 1; i > 0; i--) {
    if (Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]) < 0.01) {
      const keep = nodes[i - 1] ?? nodes[i];
      pts.splice(i, 1);
      nodes.splice(i, 1);
      nodes[i - 1] = keep;
    }
  }
}

/**
 * Whether the `side` (+1 left, −1 right) of polyline `pts` has a separate sidewalk way alongside:
 * at least half the probes, every 5 m at the sidewalk's expected offset, lie within 3 m of one.
 */
function separateAlongside(pts: Vec2[], side: 1 | -1, offset: number, grid: BoxGrid<[Vec2, Vec2]>): boolean {
  const L = polylineLength(pts);
  if (L < 4) return false;
  let hits = 0, probes = 0;
  for (let s = 2; s < L - 1; s += 5) {
    let acc = 0, i = 0;
    while (i < pts.length - 2 && acc + Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) < s) {
      acc += Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
      i++;
    }
    const a = pts[i], b = pts[i + 1];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const t = (s - acc) / l;
    const x = a[0] + t * (b[0] - a[0]) - (side * (b[1] - a[1]) * offset) / l;
    const y = a[1] + t * (b[1] - a[1]) + (side * (b[0] - a[0]) * offset) / l;
    probes++;
    for (const [p, q] of grid.query([x - 3, y - 3, x + 3, y + 3])) {
      if (projectOnPolyline([p, q], x, y).d <= 3) {
        hits++;
        break;
      }
    }
  }
  return probes > 0 && hits * 2 >= probes;
}

/**
 * Builds the street network of the highways inside `box`.
 *
 * @param proj the node projector of the world frame.
 * @param box world bounds, metres.
 */
export function buildOsmNetwork(data: OsmData, proj: NodeProjector, box: Box): OsmNetwork {
  const waysMissingNodes: number[] = [];
  type Run = { way: number; cls: string; tags: OsmTags; vs: ClipVertex[] };
  const runs: Run[] = [];
  const sidewalkGrid = new BoxGrid<[Vec2, Vec2]>(10);
  for (const w of [...data.ways.values()].sort((p, q) => p.id - q.id)) {
    const cls = highwayClass(w.tags);
    if (!cls) continue;
    const { runs: rs, missing } = clipWay(w.nodes, proj, box);
    if (missing > 0) waysMissingNodes.push(w.id);
    for (const vs of rs) {
      runs.push({ way: w.id, cls, tags: w.tags, vs });
      if (w.tags.footway === 'sidewalk') {
        for (let i = 0; i + 1 < vs.length; i++) {
          const a = vs[i].p, b = vs[i + 1].p;
          sidewalkGrid.insert([Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])], [a, b]);
        }
      }
    }
  }
  // Split at shared nodes.
  let clipId = 0;
  const keyOf = (v: ClipVertex) => (v.node === null ? `c${clipId++}` : `n${v.node}`);
  const uses = new Map<number, number>();
  for (const r of runs) for (const v of r.vs) if (v.node !== null) uses.set(v.node, (uses.get(v.node) ?? 0) + 1);
  let separateSides = 0;
  const edges: Edge[] = [];
  for (const r of runs) {
    const tagged = sidewalkTags(r.tags);
    const inferred = HIGHWAY_CLASSES[r.cls].sidewalks;
    let start = 0;
    const startKey = keyOf(r.vs[0]);
    let aKey = startKey;
    for (let i = 1; i < r.vs.length; i++) {
      const v = r.vs[i];
      const last = i === r.vs.length - 1;
      if (!last && (v.node === null || (uses.get(v.node) ?? 0) < 2)) continue;
      const bKey = last && v.node === r.vs[0].node && v.node !== null ? startKey : keyOf(v);
      const pts = r.vs.slice(start, i + 1).map((x) => x.p);
      const nodes = r.vs.slice(start, i + 1).map((x) => x.node);
      dedupe(pts, nodes);
      if (pts.length >= 2 && polylineLength(pts) >= 0.1) {
        const side = (t: boolean | 'separate' | undefined, s: 1 | -1): boolean => {
          if (!roadOf(r.cls)) return false;
          if (t === 'separate') {
            separateSides++;
            return false;
          }
          if (t !== undefined) return t;
          if (!inferred) return false;
          const half = highwayProfile(r.cls, r.tags, { left: false, right: false }).roadHalfWidth;
          if (separateAlongside(pts, s, half + 2.5, sidewalkGrid)) {
            separateSides++;
            return false;
          }
          return true;
        };
        edges.push({ a: aKey, b: bKey, pts, nodes, way: r.way, cls: r.cls, tags: r.tags, left: side(tagged.left, 1), right: side(tagged.right, -1) });
      }
      start = i;
      aKey = bKey;
    }
  }
  // Join through vertices of degree 2 where the two edges are the same kind of street.
  const sameKind = (e: Edge, f: Edge) => e.cls === f.cls && (e.tags.name ?? '') === (f.tags.name ?? '') && (e.tags.width ?? '') === (f.tags.width ?? '') && (e.tags.lanes ?? '') === (f.tags.lanes ?? '');
  const reverse = (e: Edge): void => {
    [e.a, e.b] = [e.b, e.a];
    e.pts.reverse();
    e.nodes.reverse();
    [e.left, e.right] = [e.right, e.left];
  };
  const alive = new Set(edges.map((_, i) => i));
  const ends = new Map<string, number[]>();
  const addEnd = (k: string, i: number) => ends.set(k, [...(ends.get(k) ?? []), i]);
  edges.forEach((e, i) => { addEnd(e.a, i); addEnd(e.b, i); });
  for (const [k, list] of [...ends.entries()].sort((p, q) => (p[0] < q[0] ? -1 : 1))) {
    if (list.length !== 2 || list[0] === list[1]) continue;
    const [i, j] = list;
    const e = edges[i], f = edges[j];
    if (!sameKind(e, f)) continue;
    if (e.b !== k) reverse(e);
    if (f.a !== k) reverse(f);
    if (e.left !== f.left || e.right !== f.right) continue;
    e.pts.push(...f.pts.slice(1));
    e.nodes.push(...f.nodes.slice(1));
    e.b = f.b;
    alive.delete(j);
    ends.delete(k);
    const fb = ends.get(f.b)!;
    fb[fb.indexOf(j)] = i;
  }
  const kept = [...alive].sort((p, q) => p - q).map((i) => edges[i]);
  // Largest connected part (by street length).
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const e of kept) {
    if (!parent.has(e.a)) parent.set(e.a, e.a);
    if (!parent.has(e.b)) parent.set(e.b, e.b);
    const ra = find(e.a), rb = find(e.b);
    const [lo, hi] = ra < rb ? [ra, rb] : [rb, ra];
    if (lo !== hi) parent.set(hi, lo);
  }
  const lengthOf = new Map<string, number>();
  for (const e of kept) lengthOf.set(find(e.a), (lengthOf.get(find(e.a)) ?? 0) + polylineLength(e.pts));
  let best = '', bestLen = -1;
  for (const [r, l] of [...lengthOf.entries()].sort((p, q) => (p[0] < q[0] ? -1 : 1))) if (l > bestLen) [best, bestLen] = [r, l];
  const main = kept.filter((e) => find(e.a) === best);
  const waysDisconnected = [...new Set(kept.filter((e) => find(e.a) !== best).map((e) => e.way))].filter((w) => !main.some((e) => e.way === w)).sort((p, q) => p - q);

  // Network.
  const junctionOf = new Map<string, number>();
  const junctions: Junction[] = [];
  const streets: Street[] = [];
  const info: OsmStreetInfo[] = [];
  const armsAt = new Map<string, { streetId: number; atStart: boolean }[]>();
  main.forEach((e, id) => {
    armsAt.set(e.a, [...(armsAt.get(e.a) ?? []), { streetId: id, atStart: true }]);
    armsAt.set(e.b, [...(armsAt.get(e.b) ?? []), { streetId: id, atStart: false }]);
  });
  const kindOf = (n: number): JunctionKind => (n <= 1 ? 'deadEnd' : n === 2 ? 'bend' : n === 3 ? 'tJunction' : 'intersection');
  for (const [k, arms] of armsAt) {
    const e0 = main[arms[0].streetId];
    const centre = arms[0].atStart ? e0.pts[0] : e0.pts[e0.pts.length - 1];
    junctionOf.set(k, junctions.length);
    junctions.push({ id: junctions.length, kind: kindOf(arms.length), centre: [centre[0], centre[1]], arms, ringRadius: 0, islandRadius: 0, ringStreetId: -1 });
  }
  main.forEach((e, id) => {
    const profile: StreetProfile = highwayProfile(e.cls, e.tags, { left: e.left, right: e.right });
    const chord = Math.hypot(e.pts[e.pts.length - 1][0] - e.pts[0][0], e.pts[e.pts.length - 1][1] - e.pts[0][1]);
    const curved = polylineLength(e.pts) > chord * 1.02 + 0.5;
    streets.push({ id, kind: curved ? 'curve' : 'straight', centreline: e.pts, closed: false, profile, startJunction: junctionOf.get(e.a)!, endJunction: junctionOf.get(e.b)! });
    const ways = [e.way];
    const latin = e.tags['name:en'] ?? e.tags['name:latn'] ?? null;
    info.push({ ways, highway: e.cls, name: e.tags.name ?? e.tags.ref ?? null, nameLatin: latin, steps: e.cls === 'steps' });
  });
  // Mapped crossings on roads.
  const crossingNode = (id: number): boolean => {
    const t = data.nodes.get(id)?.tags;
    return !!t && (t.highway === 'crossing' || (t.crossing !== undefined && t.crossing !== 'no'));
  };
  const onCrossingWay = new Set<number>();
  for (const w of data.ways.values()) if (w.tags.footway === 'crossing' || w.tags.path === 'crossing') for (const n of w.nodes) onCrossingWay.add(n);
  const crossings: OsmCrossing[] = [];
  main.forEach((e, id) => {
    if (!roadOf(e.cls) || maxReach(streets[id].profile) <= 0) return;
    let s = 0;
    for (let i = 0; i < e.pts.length; i++) {
      if (i > 0) s += Math.hypot(e.pts[i][0] - e.pts[i - 1][0], e.pts[i][1] - e.pts[i - 1][1]);
      const n = e.nodes[i];
      if (n === null || !(crossingNode(n) || onCrossingWay.has(n))) continue;
      if (crossings.some((c) => c.streetId === id && Math.abs(c.s - s) < 4)) continue;
      crossings.push({ streetId: id, s, node: n });
    }
  });
  return { network: { junctions, streets }, info, crossings, waysMissingNodes, waysDisconnected, separateSides };
}
