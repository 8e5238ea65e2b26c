/**
 * Convex decomposition of a polygon with holes, for ORCA obstacles (which must be convex): an
 * ear-clipping triangulation (earcut) whose triangles are merged across shared diagonals while the
 * union stays convex (Hertel & Mehlhorn, "Fast triangulation of simple polygons", FCT 1983: at most
 * 4× the optimal number of pieces). Pieces share their edges exactly, so no gap opens between them.
 */
import earcut from 'earcut';
import { signedArea, type Polygon, type Ring } from '../geometry';

const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

function convex(poly: number[], xy: number[][]): boolean {
  const n = poly.length;
  for (let i = 0; i < n; i++) if (cross(xy[poly[i]], xy[poly[(i + 1) % n]], xy[poly[(i + 2) % n]]) < -1e-9) return false;
  return true;
}

/** Drops vertices on a straight line between their neighbours. */
function dropCollinear(ring: Ring): Ring {
  const out = ring.slice();
  for (let i = 0; i < out.length && out.length > 3; ) {
    const a = out[(i + out.length - 1) % out.length], b = out[i], c = out[(i + 1) % out.length];
    const l = Math.hypot(c[0] - a[0], c[1] - a[1]) || 1;
    if (Math.abs(cross(a, b, c)) / l < 1e-6) out.splice(i, 1);
    else i++;
  }
  return out;
}

/**
 * Splits a polygon (outer CCW, holes CW; metres) into convex CCW rings covering it exactly.
 * Slivers of the triangulation are kept: dropping one would open a gap.
 */
export function convexPieces(p: Polygon): Ring[] {
  const xy: number[][] = [];
  const flat: number[] = [];
  const holes: number[] = [];
  for (const [k, ring] of [p.outer, ...p.holes].entries()) {
    if (k > 0) holes.push(xy.length);
    for (const v of ring) {
      xy.push([v[0], v[1]]);
      flat.push(v[0], v[1]);
    }
  }
  const tri = earcut(flat, holes, 2);
  const polys: (number[] | null)[] = [];
  for (let i = 0; i < tri.length; i += 3) {
    const t = [tri[i], tri[i + 1], tri[i + 2]];
    if (cross(xy[t[0]], xy[t[1]], xy[t[2]]) < 0) t.reverse();
    polys.push(t);
  }
  // Directed edge u→v → polygon holding it.
  const owner = new Map<string, number>();
  const setEdges = (pi: number) => {
    const q = polys[pi]!;
    for (let i = 0; i < q.length; i++) owner.set(`${q[i]},${q[(i + 1) % q.length]}`, pi);
  };
  polys.forEach((_, i) => setEdges(i));
  let merged = true;
  while (merged) {
    merged = false;
    for (let pi = 0; pi < polys.length; pi++) {
      const P = polys[pi];
      if (!P) continue;
      for (let i = 0; i < P.length; i++) {
        const u = P[i], v = P[(i + 1) % P.length];
        const qi = owner.get(`${v},${u}`);
        if (qi === undefined || qi === pi || !polys[qi]) continue;
        const Q = polys[qi]!;
        const j = Q.indexOf(v);
        // P from v round to u, then Q from u (after v→u) round to v.
        const out: number[] = [];
        for (let k = 0; k < P.length; k++) out.push(P[(i + 1 + k) % P.length]);
        for (let k = 2; k < Q.length; k++) out.push(Q[(j + k) % Q.length]);
        if (!convex(out, xy)) continue;
        for (let k = 0; k < P.length; k++) owner.delete(`${P[k]},${P[(k + 1) % P.length]}`);
        for (let k = 0; k < Q.length; k++) owner.delete(`${Q[k]},${Q[(k + 1) % Q.length]}`);
        polys[pi] = out;
        polys[qi] = null;
        setEdges(pi);
        merged = true;
        break;
      }
    }
  }
  return polys.filter((q): q is number[] => q !== null).map((q) => dropCollinear(q.map((i) => [xy[i][0], xy[i][1]] as [number, number]))).filter((r) => signedArea(r) > 1e-9);
}
