/**
 * Spatial indices for point and segment queries against polygons in the ground plane (metres):
 * boundary edges bucketed into horizontal bands (segment queries visit the bands they span) and
 * into band × column cells for point-in-polygon: the even-odd count is taken along a path from the
 * point right to the next column line, then down that line to below the geometry (the crossings of
 * each column line are precomputed and sorted), so a test visits one cell's edges and does one
 * binary search however wide the world is.
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
  private readonly columnWidth: number;
  private readonly columns: number;
  /** Edges per band × column cell (cell b · columns + c), for the horizontal leg. */
  private readonly cells: Int32Array[];
  /** Per column line k (x = box[0] + k · columnWidth), the sorted heights where the boundary crosses it. */
  private readonly lineCrossings: Float64Array[];

  /**
   * @param mp the geometry (polygons disjoint, holes inside their outer ring);
   * @param bandHeight band height, metres (smaller: faster queries, more memory).
   * @param columnWidth column width of the point-query cells, metres.
   */
  constructor(mp: MultiPolygon | Ring[], bandHeight = 4, columnWidth = 16) {
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
    // Point-query cells and column-line crossings.
    this.columnWidth = columnWidth;
    this.columns = this.box ? Math.max(1, Math.ceil((xmax - xmin) / columnWidth) + 1) : 0;
    const cellLists: number[][] = Array.from({ length: nb * this.columns }, () => []);
    const lines: number[][] = Array.from({ length: this.columns + 1 }, () => []);
    const E = this.edges;
    for (let e = 0; e < k; e++) {
      const xa = E[e * 4], ya = E[e * 4 + 1], xb = E[e * 4 + 2], yb = E[e * 4 + 3];
      const b0 = Math.floor((Math.min(ya, yb) - this.y0) / bandHeight), b1 = Math.floor((Math.max(ya, yb) - this.y0) / bandHeight);
      // An edge starting exactly on a column line also belongs to the column on its left (its
      // horizontal leg ends on that line, crossings at x = X included).
      const c0 = Math.max(0, Math.ceil((Math.min(xa, xb) - xmin) / columnWidth) - 1), c1 = Math.floor((Math.max(xa, xb) - xmin) / columnWidth);
      for (let q = b0; q <= b1; q++) for (let c = c0; c <= c1; c++) cellLists[q * this.columns + c].push(e);
      // Column lines the edge straddles (half-open, as the ray test: one endpoint strictly right of the line).
      for (let line = Math.max(0, c0); line <= c1 + 1 && line <= this.columns; line++) {
        const X = xmin + line * columnWidth;
        if (xa > X !== xb > X) lines[line].push(ya + ((yb - ya) * (X - xa)) / (xb - xa));
      }
    }
    this.cells = cellLists.map((l) => Int32Array.from(l));
    this.lineCrossings = lines.map((l) => Float64Array.from(l).sort());
  }

  /**
   * Whether (x, y) is inside the geometry (even-odd over all rings): crossings of the path from
   * (x, y) right to the column line X, then down X to below the geometry.
   */
  contains(x: number, y: number): boolean {
    const box = this.box;
    if (!box || y < box[1] || y > box[3] || x < box[0] || x > box[2]) return false;
    const b = Math.floor((y - this.y0) / this.bandHeight);
    const c = Math.min(this.columns - 1, Math.floor((x - box[0]) / this.columnWidth));
    const X = box[0] + (c + 1) * this.columnWidth;
    // Down the line: crossings below y (binary search in the sorted heights).
    const ys = this.lineCrossings[c + 1];
    let lo = 0, hi = ys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ys[mid] < y) lo = mid + 1;
      else hi = mid;
    }
    let inside = (lo & 1) === 1;
    // Along y from x to X: edges of this cell crossing the horizontal line at y with x < crossing ≤ X.
    const cell = this.cells[b * this.columns + c];
    const E = this.edges;
    for (let q = 0; q < cell.length; q++) {
      const e = cell[q] * 4;
      const xi = E[e], yi = E[e + 1], xj = E[e + 2], yj = E[e + 3];
      if (yi > y !== yj > y) {
        const xc = ((xj - xi) * (y - yi)) / (yj - yi) + xi;
        if (x < xc && xc <= X) inside = !inside;
      }
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
