/**
 * OSM highways into a {@link StreetNetwork}: ways are clipped at the selection's edge, split at every
 * node they share with another way, given a cross-section from their tags (highway-tags.ts), and
 * joined again through nodes where nothing but the way changes (a `bend` junction keeps the two
 * cross-sections apart where they differ). Junctions: 1 arm → `deadEnd`, 2 → `bend`, 3 →
 * `tJunction`, 4 or more → `intersection`. The largest connected part of the network (ways that reach
 * one pedestrian area are connected through it) is kept; the
 * OSM ids of the ways it drops are reported.
 */
import { boxOf, type Box, type Vec2 } from '../geometry';
import type { Junction, JunctionKind, Street, StreetNetwork } from '../network';
import { densify, polylineLength, projectOnPolyline } from '../polyline';
import { maxReach, type StreetProfile } from '../profile';
import { BoxGrid, MultiPolygonIndex } from '../spatial-index';
import type { OsmArea } from './areas';
import type { OsmData, OsmTags } from './elements';
import { clipWay, type ClipVertex, type NodeProjector } from './clip';
import { CURB_WIDTH, HIGHWAY_CLASSES, highwayClass, highwayProfile, sidewalkTags, type SideSpec } from './highway-tags';

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
  left: SideSpec;
  right: SideSpec;
}

const roadOf = (cls: string) => HIGHWAY_CLASSES[cls].role === 'road';

/** Whether a way is where a footway crosses a road (`footway=crossing`, `path=crossing`, `cycleway=crossing`). */
const isCrossingWay = (tags: OsmTags): boolean => tags.footway === 'crossing' || tags.path === 'crossing' || tags.cycleway === 'crossing';

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
 * Where a separate `footway=sidewalk` way runs along the `side` (+1 left, −1 right) of polyline
 * `pts`: probes every 5 m cast a ray across from the centreline, from `near` to `far` metres in
 * 0.5 m steps, and stop where a sidewalk segment passes within 0.75 m. Returns the median offset of
 * the probes that hit (metres), or null when fewer than half of them hit.
 */
function separateOffset(pts: Vec2[], side: 1 | -1, near: number, far: number, grid: BoxGrid<[Vec2, Vec2]>): number | null {
  const L = polylineLength(pts);
  if (L < 4) return null;
  const hits: number[] = [];
  let probes = 0;
  for (let s = 2; s < L - 1; s += 5) {
    let acc = 0, i = 0;
    while (i < pts.length - 2 && acc + Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) < s) {
      acc += Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
      i++;
    }
    const a = pts[i], b = pts[i + 1];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const t = (s - acc) / l;
    const cx = a[0] + t * (b[0] - a[0]), cy = a[1] + t * (b[1] - a[1]);
    const nx = (-side * (b[1] - a[1])) / l, ny = (side * (b[0] - a[0])) / l;
    probes++;
    const cands = grid.query([Math.min(cx + nx * near, cx + nx * far) - 1, Math.min(cy + ny * near, cy + ny * far) - 1, Math.max(cx + nx * near, cx + nx * far) + 1, Math.max(cy + ny * near, cy + ny * far) + 1]);
    if (cands.length === 0) continue;
    for (let o = near; o <= far; o += 0.5) {
      const x = cx + nx * o, y = cy + ny * o;
      if (cands.some(([p, q]) => projectOnPolyline([p, q], x, y).d <= 0.75)) {
        hits.push(o);
        break;
      }
    }
  }
  if (probes === 0 || hits.length * 2 < probes) return null;
  hits.sort((p, q) => p - q);
  return hits[hits.length >> 1];
}

/** Farthest a separate sidewalk way may run from a named road's centreline to take its name, metres. */
const SIDEWALK_NAME_REACH = 15;

/** The point at arc length `s` along `pts`. */
function sampleAlong(pts: Vec2[], s: number): Vec2 {
  let acc = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    const l = Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
    if (acc + l >= s || i + 2 === pts.length) {
      const t = l > 0 ? Math.min(1, Math.max(0, (s - acc) / l)) : 0;
      return [pts[i][0] + t * (pts[i + 1][0] - pts[i][0]), pts[i][1] + t * (pts[i + 1][1] - pts[i][1])];
    }
    acc += l;
  }
  return pts[0];
}

/** Half the width of a separate sidewalk way where it is not tagged, metres. */
const SEPARATE_HALF_WIDTH = 1.0;

/**
 * The strip between a road's curb and its separate sidewalk way, metres (0.3 m overlap so the two
 * walkable zones join; multiples of 0.25 m so equal sides of consecutive ways merge), or 0 when
 * the way was not found.
 */
function separateFill(offset: number | null, half: number): number | 'separate' {
  if (offset === null) return 'separate';
  const fill = Math.round((offset - SEPARATE_HALF_WIDTH - half - CURB_WIDTH + 0.3) * 4) / 4;
  return Math.min(4, Math.max(0.25, fill));
}

/** How near a pedestrian area a way (or its sidewalk's outer edge) must come for the area to join it to the others, metres. */
export const AREA_JOIN = 1.5;

/**
 * Builds the street network of the highways inside `box`.
 *
 * @param proj the node projector of the world frame.
 * @param box world bounds, metres.
 * @param areas pedestrian areas (pedestrian-areas.ts): the ways that reach one are connected through it.
 */

export function buildOsmNetwork(data: OsmData, proj: NodeProjector, box: Box, areas: readonly OsmArea[] = []): OsmNetwork {
  const waysMissingNodes: number[] = [];
  type Run = { way: number; cls: string; tags: OsmTags; vs: ClipVertex[] };
  const runs: Run[] = [];
  const sidewalkGrid = new BoxGrid<[Vec2, Vec2]>(10);
  for (const w of [...data.ways.values()].sort((p, q) => p.id - q.id)) {
    const cls = highwayClass(w.tags);
    // A crossing way's part on the road becomes the crosswalk at its road node, its ends join the sidewalks (connectivity below).
    if (!cls || isCrossingWay(w.tags)) continue;
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
        const side = (t: boolean | 'separate' | undefined, s: 1 | -1): SideSpec => {
          if (!roadOf(r.cls)) return false;
          const half = highwayProfile(r.cls, r.tags, { left: false, right: false }).roadHalfWidth;
          if (t === 'separate') {
            separateSides++;
            return separateFill(separateOffset(pts, s, half, half + 10, sidewalkGrid), half);
          }
          if (t !== undefined) return t;
          if (!inferred) return false;
          const found = separateOffset(pts, s, half, half + 5.5, sidewalkGrid);
          if (found !== null) {
            separateSides++;
            return separateFill(found, half);
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
  const join = (x: string, y: string): void => {
    if (!parent.has(x)) parent.set(x, x);
    if (!parent.has(y)) parent.set(y, y);
    const ra = find(x), rb = find(y);
    const [lo, hi] = ra < rb ? [ra, rb] : [rb, ra];
    if (lo !== hi) parent.set(hi, lo);
  };
  const edgesAtNode = new Map<number, number[]>();
  kept.forEach((e, i) => {
    join(e.a, e.b);
    for (const n of e.nodes) if (n !== null) edgesAtNode.set(n, [...(edgesAtNode.get(n) ?? []), i]);
  });
  // Crossing ways join what they touch: a separate sidewalk to the road it crosses and to the sidewalk beyond.
  for (const w of [...data.ways.values()].sort((p, q) => p.id - q.id)) {
    if (!isCrossingWay(w.tags) || !highwayClass(w.tags)) continue;
    const touched = w.nodes.flatMap((n) => edgesAtNode.get(n) ?? []);
    for (const i of touched) join(kept[touched[0]].a, kept[i].a);
  }
  // Pedestrian areas join the ways that reach them: a footway that ends on a square's edge or inside
  // it, a street whose sidewalk runs along it.
  if (areas.length > 0) {
    const reachOf = kept.map((e) => maxReach(highwayProfile(e.cls, e.tags, { left: e.left, right: e.right })) + AREA_JOIN);
    for (const a of areas) {
      const idx = new MultiPolygonIndex(a.polygon);
      const ab = idx.box;
      if (!ab) continue;
      const touched = kept.map((e, i) => {
        const r = reachOf[i], bb = boxOf(e.pts);
        if (bb[0] > ab[2] + r || bb[2] < ab[0] - r || bb[1] > ab[3] + r || bb[3] < ab[1] - r) return -1;
        return densify(e.pts, 1).some((p) => idx.contains(p[0], p[1]) || idx.distanceToBoundary(p[0], p[1], r) < r) ? i : -1;
      }).filter((i) => i >= 0);
      for (const i of touched) join(kept[touched[0]].a, kept[i].a);
    }
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
  // A separate sidewalk way carries the name of the road it runs along (OSM leaves them unnamed).
  const roadGrid = new BoxGrid<number>(50);
  main.forEach((e, id) => {
    if (!roadOf(e.cls) || info[id].name === null) return;
    roadGrid.insert(boxOf(e.pts), id);
  });
  main.forEach((e, id) => {
    if (e.tags.footway !== 'sidewalk' || info[id].name !== null) return;
    const L = polylineLength(e.pts);
    const probes = [0.25, 0.5, 0.75].map((f) => sampleAlong(e.pts, f * L));
    let best = -1, bestD = SIDEWALK_NAME_REACH;
    for (const rid of new Set(probes.flatMap(([x, y]) => roadGrid.query([x - SIDEWALK_NAME_REACH, y - SIDEWALK_NAME_REACH, x + SIDEWALK_NAME_REACH, y + SIDEWALK_NAME_REACH])))) {
      const d = Math.max(...probes.map(([x, y]) => projectOnPolyline(main[rid].pts, x, y).d));
      if (d < bestD || (d === bestD && rid < best)) [best, bestD] = [rid, d];
    }
    if (best >= 0) info[id] = { ...info[id], name: info[best].name, nameLatin: info[best].nameLatin };
  });
  // Mapped crossings on roads.
  const crossingNode = (id: number): boolean => {
    const t = data.nodes.get(id)?.tags;
    return !!t && (t.highway === 'crossing' || (t.crossing !== undefined && t.crossing !== 'no'));
  };
  const onCrossingWay = new Set<number>();
  for (const w of data.ways.values()) if (isCrossingWay(w.tags)) for (const n of w.nodes) onCrossingWay.add(n);
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
