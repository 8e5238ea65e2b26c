/**
 * Polylines in the ground plane (metres): street centrelines, sidewalk centrelines, routes.
 * Spline routing uses cubic Bézier curves sampled at a fixed arc-length step.
 */
import type { Ring, Vec2 } from './geometry';

/** Cumulative arc length at each vertex, metres (`[0, …, total]`). */
export function arcLengths(line: readonly Vec2[]): number[] {
  const s = [0];
  for (let i = 1; i < line.length; i++) s.push(s[i - 1] + Math.hypot(line[i][0] - line[i - 1][0], line[i][1] - line[i - 1][1]));
  return s;
}

/** Total length of a polyline, metres. */
export function polylineLength(line: readonly Vec2[]): number {
  let l = 0;
  for (let i = 1; i < line.length; i++) l += Math.hypot(line[i][0] - line[i - 1][0], line[i][1] - line[i - 1][1]);
  return l;
}

/**
 * Point and unit tangent at arc length `s` (clamped to [0, length]).
 *
 * @param cum cumulative lengths from {@link arcLengths} (pass to avoid recomputing).
 * @throws RangeError when the polyline has fewer than 2 vertices.
 */
export function sampleAt(line: readonly Vec2[], s: number, cum = arcLengths(line)): { p: Vec2; t: Vec2 } {
  if (line.length < 2) throw new RangeError('sampleAt: polyline needs at least 2 vertices');
  const total = cum[cum.length - 1];
  s = Math.max(0, Math.min(total, s));
  let lo = 0, hi = cum.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] <= s) lo = mid;
    else hi = mid;
  }
  const a = line[lo], b = line[hi];
  const seg = cum[hi] - cum[lo];
  const u = seg > 0 ? (s - cum[lo]) / seg : 0;
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  return { p: [a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])], t: [(b[0] - a[0]) / len, (b[1] - a[1]) / len] };
}

/** Cubic Bézier p0→p3 with control points p1, p2, sampled so that chords are ≤ `step` metres. */
export function cubicBezier(p0: Vec2, p1: Vec2, p2: Vec2, p3: Vec2, step = 2): Vec2[] {
  const approx = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) + Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) + Math.hypot(p3[0] - p2[0], p3[1] - p2[1]);
  const n = Math.max(1, Math.ceil(approx / step));
  const out: Vec2[] = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n, u = 1 - t;
    const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
    out.push([a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]]);
  }
  return out;
}

/** Unit left normals (tangent rotated +90° about +z) at each vertex, averaged across joints. */
export function vertexNormals(line: readonly Vec2[], closed = false): Vec2[] {
  const n = line.length;
  const out: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    const prev = i > 0 ? line[i - 1] : closed ? line[n - 1] : line[i];
    const next = i < n - 1 ? line[i + 1] : closed ? line[0] : line[i];
    let tx = next[0] - prev[0], ty = next[1] - prev[1];
    const l = Math.hypot(tx, ty) || 1;
    tx /= l;
    ty /= l;
    out.push([-ty, tx]);
  }
  return out;
}

/**
 * The polyline offset to its left by `offset(s)` metres (negative: to the right), one output
 * vertex per input vertex. Callers keep offsets below the curvature radius so the result stays
 * simple; at a joint the normal is the average of the neighbouring segments' normals, scaled by the
 * miter factor 1/cos(half turn), capped at 2.
 */
export function offsetPolyline(line: readonly Vec2[], offset: (s: number) => number, closed = false): Vec2[] {
  const cum = arcLengths(line);
  const normals = vertexNormals(line, closed);
  const n = line.length;
  return line.map((p, i) => {
    let miter = 1;
    if (i > 0 && i < n - 1) {
      const ax = line[i][0] - line[i - 1][0], ay = line[i][1] - line[i - 1][1];
      const la = Math.hypot(ax, ay) || 1;
      const nm = normals[i];
      const c = Math.abs((-ay / la) * nm[0] + (ax / la) * nm[1]);
      miter = Math.min(2, 1 / Math.max(c, 0.5));
    }
    const d = offset(cum[i]) * miter;
    return [p[0] + normals[i][0] * d, p[1] + normals[i][1] * d] as Vec2;
  });
}

/**
 * The band between two offsets (`inner(s) < outer(s)` or any order) of an open polyline, as a ring
 * (orientation not normalised): left side forward, right side backward.
 */
export function stripRing(line: readonly Vec2[], left: (s: number) => number, right: (s: number) => number): Ring {
  const a = offsetPolyline(line, left);
  const b = offsetPolyline(line, right);
  return [...a, ...b.reverse()];
}

/** Sub-polyline between arc lengths s0 < s1 (endpoints interpolated). */
export function subPolyline(line: readonly Vec2[], s0: number, s1: number, cum = arcLengths(line)): Vec2[] {
  const out: Vec2[] = [sampleAt(line, s0, cum).p];
  for (let i = 0; i < line.length; i++) if (cum[i] > s0 + 1e-6 && cum[i] < s1 - 1e-6) out.push([line[i][0], line[i][1]]);
  out.push(sampleAt(line, s1, cum).p);
  return out;
}

/** Resamples a polyline so that no segment is longer than `step` metres (keeps every input vertex). */
export function densify(line: readonly Vec2[], step: number): Vec2[] {
  const out: Vec2[] = [];
  for (let i = 0; i < line.length - 1; i++) {
    const a = line[i], b = line[i + 1];
    const k = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / step));
    for (let j = 0; j < k; j++) out.push([a[0] + ((b[0] - a[0]) * j) / k, a[1] + ((b[1] - a[1]) * j) / k]);
  }
  if (line.length > 0) out.push([line[line.length - 1][0], line[line.length - 1][1]]);
  return out;
}

/** Closest point on a polyline to (x, y): its arc length `s`, distance `d` and signed side (+1 left). */
export function projectOnPolyline(line: readonly Vec2[], x: number, y: number, cum = arcLengths(line)): { s: number; d: number; side: number } {
  let best = { s: 0, d: Infinity, side: 1 };
  for (let i = 0; i < line.length - 1; i++) {
    const a = line[i], b = line[i + 1];
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const l2 = dx * dx + dy * dy;
    let t = l2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / l2 : 0;
    t = Math.max(0, Math.min(1, t));
    const px = a[0] + t * dx, py = a[1] + t * dy;
    const d = Math.hypot(x - px, y - py);
    if (d < best.d) best = { s: cum[i] + t * Math.sqrt(l2), d, side: dx * (y - a[1]) - dy * (x - a[0]) >= 0 ? 1 : -1 };
  }
  return best;
}
