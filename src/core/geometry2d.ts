/**
 * 2D geometry in the ground plane (x, y of the Z-up world, metres), the one set of primitives shared
 * by the world generator (src/world/geometry.ts re-exports these), the robot's failure checks,
 * route tracking, the expert and the metrics. A ring is an array of [x, y] vertices, implicitly
 * closed (first vertex not repeated); obstacle rings are counter-clockwise (positive signed area).
 */

/** A point or vector, metres. */
export type Vec2 = [number, number];

/** A closed ring of vertices (the last vertex connects back to the first). */
export type Ring = Vec2[];

/** Axis-aligned box `[minX, minY, maxX, maxY]`, metres. */
export type Box = [number, number, number, number];

/** Signed area of a ring (shoelace formula), m²: positive when CCW. */
export function signedArea(ring: Ring): number {
  let a = 0;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return a / 2;
}

/** Whether a ring is convex (every turn the same way; collinear vertices allowed). */
export function isConvexRing(r: Ring): boolean {
  let sign = 0;
  for (let i = 0; i < r.length; i++) {
    const a = r[i], b = r[(i + 1) % r.length], c = r[(i + 2) % r.length];
    const cr = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(cr) < 1e-12) continue;
    if (sign === 0) sign = Math.sign(cr);
    else if (Math.sign(cr) !== sign) return false;
  }
  return true;
}

/** Bounding box of a point list. @throws RangeError on an empty list. */
export function boxOf(points: readonly Vec2[]): Box {
  if (points.length === 0) throw new RangeError('boxOf: empty point list');
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of points) {
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

/** Even-odd point-in-ring test (points exactly on an edge may go either way). */
export function pointInRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** 2D cross product of (b − a) × (c − a). */
export function orient(a: Vec2, b: Vec2, c: Vec2): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function onSegment(a: Vec2, b: Vec2, p: Vec2): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/** Whether closed segments ab and cd intersect (touching and collinear overlap count). */
export function segmentsIntersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2): boolean {
  const d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && onSegment(c, d, a)) return true;
  if (d2 === 0 && onSegment(c, d, b)) return true;
  if (d3 === 0 && onSegment(a, b, c)) return true;
  if (d4 === 0 && onSegment(a, b, d)) return true;
  return false;
}

/** Distance from point p to segment ab, metres. */
export function pointSegmentDistance(px: number, py: number, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - a[0]) * dx + (py - a[1]) * dy) / l2 : 0;
  t = t < 0 ? 0 : Math.min(t, 1);
  return Math.hypot(px - a[0] - t * dx, py - a[1] - t * dy);
}

/** Distance from a point to the boundary of a ring, metres. */
export function pointRingDistance(x: number, y: number, ring: Ring): number {
  let best = Infinity;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) best = Math.min(best, pointSegmentDistance(x, y, ring[j], ring[i]));
  return best;
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

/** Whether two simple rings overlap (an edge crossing, or one containing the other). */
export function ringsIntersect(p: Ring, q: Ring): boolean {
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    for (let k = 0, l = q.length - 1; k < q.length; l = k++) if (segmentsIntersect(p[j], p[i], q[l], q[k])) return true;
  }
  return pointInRing(p[0][0], p[0][1], q) || pointInRing(q[0][0], q[0][1], p);
}

/** Whether a ring and a disc overlap. */
export function ringIntersectsCircle(ring: Ring, cx: number, cy: number, r: number): boolean {
  return pointInRing(cx, cy, ring) || pointRingDistance(cx, cy, ring) <= r;
}
