/**
 * Boolean operations on polygons in the ground plane (metres), through `polygon-clipping`
 * (Martinez–Rueda–Feito sweep). Inputs are snapped to a 0.1 mm grid first (1 mm, then 1 cm on a
 * sweep failure), which makes the sweep robust against near-coincident vertices and keeps the output
 * deterministic.
 *
 * Output follows the conventions of `geometry.ts`: outer rings CCW, holes CW, rings open.
 */
import polygonClipping from 'polygon-clipping';
import type { Pair, Polygon as PcPolygon, MultiPolygon as PcMulti } from 'polygon-clipping';
import { signedArea, type MultiPolygon, type Polygon, type Ring } from './geometry';

/** Snapping grids of the clipping inputs, metres: the first, then coarser ones on a sweep failure. */
export const CLIP_GRIDS = [1e-4, 1e-3, 1e-2] as const;

let inv: number = 1 / CLIP_GRIDS[0];
// Dividing by an integer scale gives the double nearest the decimal grid point, so equal grid points snap to equal doubles.
const snap = (v: number): number => Math.round(v * inv) / inv;

/**
 * Runs a clipping operation, retrying on a coarser snapping grid when polygon-clipping's sweep fails
 * ("Unable to complete output ring", a known robustness limit of the library on near-degenerate input).
 *
 * @throws Error from the last grid when every grid fails.
 */
function robust<T>(op: () => T): T {
  for (let i = 0; ; i++) {
    inv = Math.round(1 / CLIP_GRIDS[i]);
    try {
      return op();
    } catch (e) {
      if (i === CLIP_GRIDS.length - 1) throw e;
    } finally {
      inv = Math.round(1 / CLIP_GRIDS[0]);
    }
  }
}

function toPcRing(r: Ring): Pair[] {
  const out: Pair[] = [];
  for (const [x, y] of r) {
    const p: Pair = [snap(x), snap(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) out.pop();
  return out;
}

function toPc(mp: MultiPolygon): PcMulti {
  const out: PcMulti = [];
  for (const p of mp) {
    const outer = toPcRing(p.outer);
    if (outer.length < 3) continue;
    const poly: PcPolygon = [outer];
    for (const h of p.holes) {
      const r = toPcRing(h);
      if (r.length >= 3) poly.push(r);
    }
    out.push(poly);
  }
  return out;
}

function openRing(r: Pair[]): Ring {
  const n = r.length > 1 && r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1] ? r.length - 1 : r.length;
  const out: Ring = [];
  for (let i = 0; i < n; i++) out.push([r[i][0], r[i][1]]);
  return out;
}

function fromPc(mp: PcMulti, minArea: number): MultiPolygon {
  const out: MultiPolygon = [];
  for (const p of mp) {
    let outer = openRing(p[0]);
    if (outer.length < 3 || Math.abs(signedArea(outer)) < minArea) continue;
    if (signedArea(outer) < 0) outer = outer.reverse();
    const holes: Ring[] = [];
    for (const h of p.slice(1)) {
      let r = openRing(h);
      if (r.length < 3 || Math.abs(signedArea(r)) < minArea * 1e-3) continue;
      if (signedArea(r) > 0) r = r.reverse();
      holes.push(r);
    }
    out.push({ outer, holes });
  }
  return out;
}

/** Polygons whose outer ring is below this area are dropped from results (slivers), m². */
export const MIN_PIECE_AREA = 1e-3;

/** A simple ring as a one-polygon multipolygon (oriented CCW). */
export function ringToMulti(r: Ring): MultiPolygon {
  return [{ outer: signedArea(r) < 0 ? r.slice().reverse() : r, holes: [] }];
}

/**
 * Union of any number of multipolygons (overlapping inputs allowed). Empty input gives []. When the
 * single sweep fails on every grid, the inputs are unioned in halves and the halves joined.
 *
 * @throws Error when even a single input cannot be processed.
 */
export function union(...geoms: MultiPolygon[]): MultiPolygon {
  try {
    return unionOnce(geoms);
  } catch (e) {
    if (geoms.length < 2) throw e;
    const h = geoms.length >> 1;
    return unionOnce([union(...geoms.slice(0, h)), union(...geoms.slice(h))]);
  }
}

function unionOnce(geoms: MultiPolygon[]): MultiPolygon {
  return robust(() => {
    const pcs = geoms.map(toPc).filter((g) => g.length > 0);
    if (pcs.length === 0) return [];
    return fromPc(polygonClipping.union(pcs[0], ...pcs.slice(1)), MIN_PIECE_AREA);
  });
}

/** `subject` minus every clip geometry. */
export function difference(subject: MultiPolygon, ...clips: MultiPolygon[]): MultiPolygon {
  return robust(() => {
    const s = toPc(subject);
    if (s.length === 0) return [];
    const cs = clips.map(toPc).filter((g) => g.length > 0);
    if (cs.length === 0) return fromPc(polygonClipping.union(s), MIN_PIECE_AREA);
    return fromPc(polygonClipping.difference(s, ...cs), MIN_PIECE_AREA);
  });
}

/** Intersection of all geometries (empty when any is empty). */
export function intersection(a: MultiPolygon, ...others: MultiPolygon[]): MultiPolygon {
  return robust(() => {
    const pa = toPc(a);
    const po = others.map(toPc);
    if (pa.length === 0 || po.some((g) => g.length === 0)) return [];
    return fromPc(polygonClipping.intersection(pa, ...po), MIN_PIECE_AREA);
  });
}

/** Union of a list of single polygons (convenience over {@link union}). */
export function unionPolygons(polys: Polygon[]): MultiPolygon {
  if (polys.length === 0) return [];
  return union(...polys.map((p) => [p]));
}
