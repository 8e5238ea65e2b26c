/**
 * Spatial indices for point and segment queries against polygons in the ground plane (metres):
 * boundary edges bucketed into horizontal bands, so a point-in-polygon test only visits the edges
 * in its band (the even-odd ray is cast along +x).
 */
import type { Box, MultiPolygon, Ring, Vec2 } from './geometry';
import { pointInRing, pointSegmentDistance, segmentSegmentDistance, segmentsIntersect } from './geometry';

/** Point-in-multipolygon and boundary-crossing queries on a fixed multipolygon. */
export class MultiPolygonIndex {
  /** Boundary edges, flat `[x0, y0, x1, y1]` per edge. */
  private readonly edges: Float64Array;
  private readonly bands: Int32Array[];
  private readonly y0: number;
  private readonly bandHeight: number;
  /** Bounds of the indexed geometry, or null when it is empty. */
  readonly box: Box | null;

  /**
   * @param mp the geometry (polygons disjoint, holes inside their outer ring);
   * @param bandHeight band height, metres (smaller: faster queries, more memory).
   */
  constructor(mp: MultiPolygon | Ring[], bandHeight = 4) {
    const rings: Ring[] = [];
    for (const p of mp) {
      if (Array.isArray(p)) rings.push(p as Ring);
      else rings.push(p.outer, ...p.holes);
    }
    const n = rings.reduce((s, r) => s + r.length, 0);
    this.edges = new Float64Array(n * 4);
    let k = 0, ymin = Infinity, ymax = -Infinity, xmin = Infinity, xmax = -Infinity;
    for (const r of rings) {
      for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
        this.edges.set([r[j][0], r[j][1], r[i][0], r[i][1]], k * 4);
        k++;
        ymin = Math.min(ymin, r[i][1]);
        ymax = Math.max(ymax, r[i][1]);
        xmin = Math.min(xmin, r[i][0]);
        xmax = Math.max(xmax, r[i][0]);
      }
    }
    this.bandHeight = bandHeight;
    this.y0 = Number.isFinite(ymin) ? ymin : 0;
    this.box = Number.isFinite(ymin) ? [xmin, ymin, xmax, ymax] : null;
    const nb = Number.isFinite(ymin) ? Math.max(1, Math.ceil((ymax - ymin) / bandHeight) + 1) : 0;
    const lists: number[][] = Array.from({ length: nb }, () => []);
    for (let e = 0; e < k; e++) {
      const a = Math.min(this.edges[e * 4 + 1], this.edges[e * 4 + 3]), b = Math.max(this.edges[e * 4 + 1], this.edges[e * 4 + 3]);
      const b0 = Math.floor((a - this.y0) / bandHeight), b1 = Math.floor((b - this.y0) / bandHeight);
      for (let q = b0; q <= b1; q++) lists[q].push(e);
    }
    this.bands = lists.map((l) => Int32Array.from(l));
  }

  private band(y: number): Int32Array | null {
    if (!this.box || y < this.box[1] || y > this.box[3]) return null;
    return this.bands[Math.floor((y - this.y0) / this.bandHeight)] ?? null;
  }

  /** Whether (x, y) is inside the geometry (even-odd over all rings). */
  contains(x: number, y: number): boolean {
    const band = this.band(y);
    if (!band || x < this.box![0] || x > this.box![2]) return false;
    const E = this.edges;
    let inside = false;
    for (let q = 0; q < band.length; q++) {
      const e = band[q] * 4;
      const xi = E[e], yi = E[e + 1], xj = E[e + 2], yj = E[e + 3];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /** Visits every boundary edge whose band range overlaps [ya, yb] (an edge may be visited more than once). */
  private forEdges(ya: number, yb: number, fn: (a: Vec2, b: Vec2) => boolean | void): boolean {
    if (!this.box) return false;
    const lo = Math.max(ya, this.box[1]), hi = Math.min(yb, this.box[3]);
    if (lo > hi) return false;
    const E = this.edges;
    for (let q = Math.floor((lo - this.y0) / this.bandHeight); q <= Math.floor((hi - this.y0) / this.bandHeight); q++) {
      const band = this.bands[q];
      if (!band) continue;
      for (let i = 0; i < band.length; i++) {
        const e = band[i] * 4;
        if (fn([E[e], E[e + 1]], [E[e + 2], E[e + 3]])) return true;
      }
    }
    return false;
  }

  /** Whether segment ab touches or crosses the geometry's boundary. */
  segmentCrossesBoundary(a: Vec2, b: Vec2): boolean {
    const x0 = Math.min(a[0], b[0]), x1 = Math.max(a[0], b[0]);
    return this.forEdges(Math.min(a[1], b[1]), Math.max(a[1], b[1]), (c, d) => {
      if (Math.max(c[0], d[0]) < x0 || Math.min(c[0], d[0]) > x1) return false;
      return segmentsIntersect(a, b, c, d);
    });
  }

  /** Whether segment ab stays at least `clearance` metres from every boundary edge (touching or crossing fails). */
  segmentClearOfBoundary(a: Vec2, b: Vec2, clearance: number): boolean {
    const x0 = Math.min(a[0], b[0]) - clearance, x1 = Math.max(a[0], b[0]) + clearance;
    return !this.forEdges(Math.min(a[1], b[1]) - clearance, Math.max(a[1], b[1]) + clearance, (c, d) => {
      if (Math.max(c[0], d[0]) < x0 || Math.min(c[0], d[0]) > x1) return false;
      return segmentSegmentDistance(a, b, c, d) < clearance;
    });
  }

  /** Whether a ring lies entirely inside the geometry (every vertex inside, no edge crossing the boundary). */
  containsRing(ring: Ring): boolean {
    for (const p of ring) if (!this.contains(p[0], p[1])) return false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) if (this.segmentCrossesBoundary(ring[j], ring[i])) return false;
    return true;
  }

  /** Whether a ring overlaps the geometry (some vertex inside, or an edge crossing the boundary, or the geometry inside the ring). */
  overlapsRing(ring: Ring): boolean {
    for (const p of ring) if (this.contains(p[0], p[1])) return true;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) if (this.segmentCrossesBoundary(ring[j], ring[i])) return true;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of ring) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    return this.forEdges(y0, y1, (a) => a[0] >= x0 && a[0] <= x1 && a[1] >= y0 && a[1] <= y1 && pointInRing(a[0], a[1], ring));
  }

  /** Distance from (x, y) to the boundary, or `maxDistance` when no edge is closer. */
  distanceToBoundary(x: number, y: number, maxDistance: number): number {
    let best = maxDistance;
    this.forEdges(y - maxDistance, y + maxDistance, (a, b) => {
      best = Math.min(best, pointSegmentDistance(x, y, a, b));
    });
    return best;
  }
}

/** A uniform grid of items with bounding boxes, for neighbourhood queries. */
export class BoxGrid<T> {
  private readonly cells = new Map<number, { box: Box; item: T }[]>();
  /** @param cell cell size, metres. */
  constructor(private readonly cell = 10) {}

  private key(i: number, j: number): number {
    return (i + 32768) * 65536 + (j + 32768);
  }

  /** Adds an item covering `box`. */
  insert(box: Box, item: T): void {
    const c = this.cell;
    for (let i = Math.floor(box[0] / c); i <= Math.floor(box[2] / c); i++) {
      for (let j = Math.floor(box[1] / c); j <= Math.floor(box[3] / c); j++) {
        const k = this.key(i, j);
        let l = this.cells.get(k);
        if (!l) this.cells.set(k, (l = []));
        l.push({ box, item });
      }
    }
  }

  /** Items whose box overlaps `box` (each once). */
  query(box: Box): T[] {
    const c = this.cell;
    const seen = new Set<T>();
    for (let i = Math.floor(box[0] / c); i <= Math.floor(box[2] / c); i++) {
      for (let j = Math.floor(box[1] / c); j <= Math.floor(box[3] / c); j++) {
        for (const e of this.cells.get(this.key(i, j)) ?? []) {
          if (e.box[0] <= box[2] && box[0] <= e.box[2] && e.box[1] <= box[3] && box[1] <= e.box[3]) seen.add(e.item);
        }
      }
    }
    return [...seen];
  }
}
