/**
 * Small 2D geometry in the ground plane (x, y of the Z-up world, metres), shared by the robot's
 * failure checks, route tracking and metrics. Polygons are arrays of [x, y] vertices, implicitly
 * closed; obstacle polygons are counter-clockwise (positive signed area).
 */
export type Vec2 = [number, number];
export type Polygon = Vec2[];

/** Signed area (shoelace), m²: positive for counter-clockwise vertex order. */
export function signedArea(poly: Polygon): number {
  let a = 0;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) a += poly[j][0] * poly[i][1] - poly[i][0] * poly[j][1];
  return a / 2;
}

/** Even-odd point-in-polygon test (points on the boundary may go either way). */
export function pointInPolygon(x: number, y: number, poly: Polygon): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Closest point parameter t ∈ [0, 1] on segment ab to p, and the squared distance. */
export function closestOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): { t: number; dist2: number } {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  const cx = ax + t * dx - px;
  const cy = ay + t * dy - py;
  return { t, dist2: cx * cx + cy * cy };
}

/** Distance from a point to a polygon's boundary, metres (0 on the boundary). */
export function distanceToPolygonBoundary(x: number, y: number, poly: Polygon): number {
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    best = Math.min(best, closestOnSegment(x, y, poly[j][0], poly[j][1], poly[i][0], poly[i][1]).dist2);
  }
  return Math.sqrt(best);
}

function orient(a: Vec2, b: Vec2, c: Vec2): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/** Whether closed segments ab and cd intersect (touching counts). */
export function segmentsIntersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2): boolean {
  const d1 = orient(c, d, a);
  const d2 = orient(c, d, b);
  const d3 = orient(a, b, c);
  const d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (p: Vec2, q: Vec2, r: Vec2) =>
    Math.min(p[0], q[0]) <= r[0] && r[0] <= Math.max(p[0], q[0]) && Math.min(p[1], q[1]) <= r[1] && r[1] <= Math.max(p[1], q[1]);
  return (d1 === 0 && on(c, d, a)) || (d2 === 0 && on(c, d, b)) || (d3 === 0 && on(a, b, c)) || (d4 === 0 && on(a, b, d));
}

/** Whether two simple polygons overlap (an edge crossing, or one containing the other). */
export function polygonsIntersect(p: Polygon, q: Polygon): boolean {
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    for (let k = 0, l = q.length - 1; k < q.length; l = k++) if (segmentsIntersect(p[j], p[i], q[l], q[k])) return true;
  }
  return pointInPolygon(p[0][0], p[0][1], q) || pointInPolygon(q[0][0], q[0][1], p);
}

/** Whether a polygon and a disc overlap. */
export function polygonIntersectsCircle(poly: Polygon, cx: number, cy: number, r: number): boolean {
  return pointInPolygon(cx, cy, poly) || distanceToPolygonBoundary(cx, cy, poly) <= r;
}

/** Axis-aligned bounds [minX, minY, maxX, maxY] of a polygon. */
export function polygonBounds(poly: Polygon): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of poly) {
    minX = Math.min(minX, x); minY = Math.min(minY, y);
    maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
  }
  return [minX, minY, maxX, maxY];
}
