/**
 * 2D polygon geometry in the ground plane (x-y) of the world frame (right-handed, Z up, metres).
 *
 * Conventions used by every module in `src/world/`:
 * - a {@link Ring} is an open list of vertices (the first vertex is not repeated at the end);
 * - a {@link Polygon}'s outer ring is counter-clockwise (positive signed area, seen from +z) and its
 *   holes are clockwise, as in GeoJSON (RFC 7946 §3.1.6) and polygon-clipping's output;
 * - obstacles handed to ORCA are single CCW rings without holes (RVO2 `addObstacle` convention).
 */

import { boxOf, orient, pointInRing, pointRingDistance, pointSegmentDistance, segmentsIntersect, signedArea, type Box, type Ring, type Vec2 } from '../core/geometry2d';

// The primitives live in src/core/geometry2d.ts (shared with the robot and the benchmark).
export { boxOf, orient, pointInRing, pointRingDistance, pointSegmentDistance, segmentsIntersect, signedArea, type Box, type Ring, type Vec2 };

/** A polygon with holes: `outer` CCW, each hole CW and inside `outer`. */
export interface Polygon {
  outer: Ring;
  holes: Ring[];
}

/** A set of disjoint polygons (interiors do not overlap). */
export type MultiPolygon = Polygon[];


/** Area of a polygon (outer minus holes), m². */
export function polygonArea(p: Polygon): number {
  return Math.abs(signedArea(p.outer)) - p.holes.reduce((s, h) => s + Math.abs(signedArea(h)), 0);
}

/** Area of a multipolygon, m². */
export function multiPolygonArea(mp: MultiPolygon): number {
  return mp.reduce((s, p) => s + polygonArea(p), 0);
}

/** The ring oriented CCW (a reversed copy when it is CW; the same array otherwise). */
export function toCCW(ring: Ring): Ring {
  return signedArea(ring) < 0 ? ring.slice().reverse() : ring;
}

/** Whether two boxes overlap (closed intervals), optionally grown by `margin` metres. */
export function boxesOverlap(a: Box, b: Box, margin = 0): boolean {
  return a[0] - margin <= b[2] && b[0] - margin <= a[2] && a[1] - margin <= b[3] && b[1] - margin <= a[3];
}

/** Point-in-polygon: inside the outer ring and in no hole. */
export function pointInPolygon(x: number, y: number, p: Polygon): boolean {
  if (!pointInRing(x, y, p.outer)) return false;
  for (const h of p.holes) if (pointInRing(x, y, h)) return false;
  return true;
}

/** Point in any polygon of a multipolygon. */
export function pointInMultiPolygon(x: number, y: number, mp: MultiPolygon): boolean {
  for (const p of mp) if (pointInPolygon(x, y, p)) return true;
  return false;
}

/**
 * Intersection parameter of segments ab and cd: `[t, u]` with the point `a + t(b − a) = c + u(d − c)`,
 * both in [0, 1], or null when they do not cross (parallel segments return null).
 */
export function segmentIntersection(a: Vec2, b: Vec2, c: Vec2, d: Vec2): [number, number] | null {
  const rx = b[0] - a[0], ry = b[1] - a[1], sx = d[0] - c[0], sy = d[1] - c[1];
  const den = rx * sy - ry * sx;
  if (Math.abs(den) < 1e-12) return null;
  const qx = c[0] - a[0], qy = c[1] - a[1];
  const t = (qx * sy - qy * sx) / den;
  const u = (qx * ry - qy * rx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return null;
  return [t, u];
}

/** Distance between segments ab and cd (0 when they intersect), metres. */
export function segmentSegmentDistance(a: Vec2, b: Vec2, c: Vec2, d: Vec2): number {
  if (segmentsIntersect(a, b, c, d)) return 0;
  return Math.min(
    pointSegmentDistance(a[0], a[1], c, d),
    pointSegmentDistance(b[0], b[1], c, d),
    pointSegmentDistance(c[0], c[1], a, b),
    pointSegmentDistance(d[0], d[1], a, b),
  );
}

/**
 * Why a ring is not a valid simple ring, or null when it is: at least 3 vertices, finite
 * coordinates, no repeated consecutive vertices, non-zero area, and no two non-adjacent edges
 * touching or crossing (O(n log n + k) sweep over edge boxes).
 */
export function ringProblem(ring: Ring): string | null {
  const n = ring.length;
  if (n < 3) return `ring has ${n} vertices`;
  for (let i = 0; i < n; i++) {
    const p = ring[i], q = ring[(i + 1) % n];
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return `vertex ${i} is not finite`;
    if (p[0] === q[0] && p[1] === q[1]) return `vertices ${i} and ${(i + 1) % n} coincide`;
  }
  if (Math.abs(signedArea(ring)) < 1e-12) return 'ring has zero area';
  const order = [...Array(n).keys()].sort((i, j) => Math.min(ring[i][0], ring[(i + 1) % n][0]) - Math.min(ring[j][0], ring[(j + 1) % n][0]));
  const active: number[] = [];
  for (const i of order) {
    const a = ring[i], b = ring[(i + 1) % n];
    const minX = Math.min(a[0], b[0]);
    for (let k = active.length - 1; k >= 0; k--) {
      const j = active[k];
      if (Math.max(ring[j][0], ring[(j + 1) % n][0]) < minX) {
        active.splice(k, 1);
        continue;
      }
      const adjacent = j === (i + 1) % n || i === (j + 1) % n;
      const c = ring[j], d = ring[(j + 1) % n];
      if (adjacent) {
        // Adjacent edges share one vertex; they must not fold back onto each other.
        const shared = j === (i + 1) % n ? b : a;
        const other1 = shared === a ? b : a;
        const other2 = c === shared ? d : c;
        if (orient(shared, other1, other2) === 0 && (other1[0] - shared[0]) * (other2[0] - shared[0]) + (other1[1] - shared[1]) * (other2[1] - shared[1]) > 0) {
          return `edges ${i} and ${j} overlap`;
        }
      } else if (segmentsIntersect(a, b, c, d)) {
        return `edges ${i} and ${j} intersect`;
      }
    }
    active.push(i);
  }
  return null;
}

/** Why a polygon is invalid (outer not simple or not CCW, a hole not simple, not CW or outside), or null. */
export function polygonProblem(p: Polygon): string | null {
  const o = ringProblem(p.outer);
  if (o) return `outer: ${o}`;
  if (signedArea(p.outer) <= 0) return 'outer ring is not counter-clockwise';
  for (let h = 0; h < p.holes.length; h++) {
    const hp = ringProblem(p.holes[h]);
    if (hp) return `hole ${h}: ${hp}`;
    if (signedArea(p.holes[h]) >= 0) return `hole ${h} is not clockwise`;
    if (Math.abs(signedArea(p.holes[h])) > Math.abs(signedArea(p.outer))) return `hole ${h} is larger than the outer ring`;
  }
  return null;
}

/** Regular n-gon approximating a circle, CCW, first vertex at angle `phase` (rad). */
export function circleRing(cx: number, cy: number, r: number, n = 12, phase = 0): Ring {
  const out: Ring = [];
  for (let i = 0; i < n; i++) {
    const a = phase + (2 * Math.PI * i) / n;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** Rectangle centred at (cx, cy), `length` along heading `yaw` (rad from +x), `width` across, CCW. */
export function rectRing(cx: number, cy: number, length: number, width: number, yaw: number): Ring {
  const c = Math.cos(yaw), s = Math.sin(yaw), hl = length / 2, hw = width / 2;
  const corner = (u: number, v: number): Vec2 => [cx + u * c - v * s, cy + u * s + v * c];
  return [corner(-hl, -hw), corner(hl, -hw), corner(hl, hw), corner(-hl, hw)];
}

/**
 * Whether two convex rings overlap by more than `tolerance` metres of penetration (separating axis
 * theorem over both rings' edge normals). Touching rings do not overlap.
 */
export function convexRingsOverlap(a: Ring, b: Ring, tolerance = 1e-9): boolean {
  for (const ring of [a, b]) {
    for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
      const nx = ring[i][1] - ring[j][1], ny = ring[j][0] - ring[i][0];
      const len = Math.hypot(nx, ny);
      if (len === 0) continue;
      let a0 = Infinity, a1 = -Infinity, b0 = Infinity, b1 = -Infinity;
      for (const p of a) {
        const d = (p[0] * nx + p[1] * ny) / len;
        a0 = Math.min(a0, d);
        a1 = Math.max(a1, d);
      }
      for (const p of b) {
        const d = (p[0] * nx + p[1] * ny) / len;
        b0 = Math.min(b0, d);
        b1 = Math.max(b1, d);
      }
      if (a1 <= b0 + tolerance || b1 <= a0 + tolerance) return false;
    }
  }
  return true;
}
