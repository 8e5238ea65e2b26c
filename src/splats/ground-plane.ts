/**
 * Ground-plane fit for levelling a capture (the scene editor's "level" step): RANSAC over the
 * capture's opaque splat centres (Fischler & Bolles 1981), then a least-squares refit of
 * the inliers, twice with a halved distance (the normal is the smallest-eigenvalue eigenvector of
 * their covariance, Jacobi iteration), and the rotation that turns the fitted normal to world +z.
 *
 * Which plane is the ground: the one with the most inliers whose normal lies within
 * `maxTiltDeg` of the up hint (default: any direction; then the sign is chosen so that most splats
 * lie above). Street scans have walls as large planes too, so a user who knows the capture's
 * rough up axis (COLMAP / OpenCV captures are y-down: hint (0, −1, 0)) should pass it.
 * Deterministic for a seed. Frame: the capture's own; distances in its units.
 */
import { createRng } from '../core/random';
import type { Quat } from '../core/quaternion';
import type { SplatCloud } from './splat-cloud';

/** Options of {@link fitGroundPlane}. */
export interface GroundFitOptions {
  /** Rough up direction (capture frame; need not be unit). Default: none (any plane, most inliers). */
  upHint?: readonly [number, number, number];
  /** Largest angle between the fitted normal and `upHint`, degrees (default 45; ignored without a hint). */
  maxTiltDeg?: number;
  /** Inlier distance from the plane for RANSAC, capture units (default 0.5 % of the sampled splats' diagonal); the final refit uses half. */
  inlierDistance?: number;
  /** RANSAC trials (default 400). */
  iterations?: number;
  /** Splats sampled for the fit (default 20,000; the rest are not looked at). */
  sampleSize?: number;
  /** Seed of the sampling (default 1). */
  seed?: number;
}

/** A fitted ground plane: points p with normal · p = offset, normal pointing up (unit). */
export interface GroundPlane {
  normal: [number, number, number];
  offset: number;
  /** Share of the sampled splats within the inlier distance, in [0, 1]. */
  inlierFraction: number;
  /** Root-mean-square distance of the inliers from the refitted plane, capture units. */
  rms: number;
  /** The inlier distance of the final refit, capture units. */
  inlierDistance: number;
  /** Mean of the inliers: a point on the ground (capture frame). */
  centroid: [number, number, number];
}

/** Thrown when a capture has too few usable splats or no plane fits within the options. */
export class GroundFitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GroundFitError';
  }
}

type V3 = [number, number, number];
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: readonly number[]): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/**
 * Fits the ground plane of a capture.
 *
 * Candidates: splats with opacity ≥ 0.5 (solid surface, not haze), sampled evenly by index up to
 * `sampleSize`. Each trial takes three of them, rejects planes outside the tilt cone, and counts
 * candidates within `inlierDistance`; the best plane is refitted to its inliers by least squares.
 *
 * @throws GroundFitError with fewer than 3 opaque splats, or when no trial finds a plane within the
 *   tilt cone (the message says which).
 */
export function fitGroundPlane(cloud: SplatCloud, options: GroundFitOptions = {}): GroundPlane {
  const sampleSize = options.sampleSize ?? 20_000;
  const iterations = options.iterations ?? 400;
  const rng = createRng(options.seed ?? 1);
  const opaque: number[] = [];
  for (let i = 0; i < cloud.count; i++) if (cloud.opacities[i] >= 0.5) opaque.push(i);
  if (opaque.length < 3) throw new GroundFitError(`ground fit: only ${opaque.length} of ${cloud.count} splats are opaque (≥ 0.5); need 3`);
  const step = Math.max(1, opaque.length / sampleSize);
  const n = Math.min(opaque.length, sampleSize);
  const pts = new Float64Array(3 * n);
  const lo: V3 = [Infinity, Infinity, Infinity];
  const hi: V3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < n; k++) {
    const i = opaque[Math.floor(k * step)];
    for (let a = 0; a < 3; a++) {
      const v = cloud.positions[3 * i + a];
      pts[3 * k + a] = v;
      lo[a] = Math.min(lo[a], v);
      hi[a] = Math.max(hi[a], v);
    }
  }
  const diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const inlierDistance = options.inlierDistance ?? 0.005 * diagonal;
  const hint = options.upHint ? unit(options.upHint) : null;
  const cosTilt = Math.cos(((options.maxTiltDeg ?? 45) * Math.PI) / 180);
  const p = (k: number): V3 => [pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]];

  let best: { normal: V3; offset: number; count: number } | null = null;
  for (let t = 0; t < iterations; t++) {
    const a = p(rng.int(0, n - 1)), b = p(rng.int(0, n - 1)), c = p(rng.int(0, n - 1));
    const nrm = cross([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
    if (Math.hypot(...nrm) < 1e-12 * diagonal * diagonal) continue;
    let normal = unit(nrm);
    if (hint) {
      const cosine = dot(normal, hint);
      if (Math.abs(cosine) < cosTilt) continue;
      if (cosine < 0) normal = [-normal[0], -normal[1], -normal[2]];
    }
    const offset = dot(normal, a);
    let count = 0;
    for (let k = 0; k < n; k++) if (Math.abs(normal[0] * pts[3 * k] + normal[1] * pts[3 * k + 1] + normal[2] * pts[3 * k + 2] - offset) <= inlierDistance) count++;
    if (!best || count > best.count) best = { normal, offset, count };
  }
  if (!best) throw new GroundFitError(`ground fit: no plane within ${options.maxTiltDeg ?? 45}° of the up hint in ${iterations} trials`);

  // Least-squares refits (the normal is the inliers' covariance's smallest eigenvector): at the
  // inlier distance around the RANSAC plane, then at half of it around the refitted one.
  let normal = best.normal;
  let offset = best.offset;
  let inliers: number[] = [];
  let centroid: V3 = [0, 0, 0];
  let used = inlierDistance;
  for (const distance of [inlierDistance, inlierDistance / 2]) {
    const near: number[] = [];
    for (let k = 0; k < n; k++) if (Math.abs(dot(normal, p(k)) - offset) <= distance) near.push(k);
    if (near.length < 3) break;
    inliers = near;
    used = distance;
    centroid = [0, 0, 0];
    for (const k of inliers) for (let a = 0; a < 3; a++) centroid[a] += pts[3 * k + a] / inliers.length;
    const cov = new Float64Array(9);
    for (const k of inliers) {
      const d = [pts[3 * k] - centroid[0], pts[3 * k + 1] - centroid[1], pts[3 * k + 2] - centroid[2]];
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cov[3 * r + c] += d[r] * d[c];
    }
    const e = smallestEigenvector(cov);
    normal = dot(e, normal) < 0 ? [-e[0], -e[1], -e[2]] : e;
    offset = dot(normal, centroid);
  }
  if (!hint) {
    // No hint: up is the side most splats lie on (a scan sees the ground from above).
    let above = 0;
    for (let k = 0; k < n; k++) if (dot(normal, p(k)) > offset) above++;
    if (above < n / 2) {
      normal = [-normal[0], -normal[1], -normal[2]];
      offset = -offset;
    }
  }
  let sq = 0;
  for (const k of inliers) sq += (dot(normal, p(k)) - offset) ** 2;
  return { normal, offset, inlierFraction: inliers.length / n, rms: Math.sqrt(sq / inliers.length), inlierDistance: used, centroid };
}

/** Eigenvector of the smallest eigenvalue of a symmetric 3×3 (row-major), by cyclic Jacobi rotations. */
function smallestEigenvector(m: Float64Array): V3 {
  const a = Float64Array.from(m);
  const v = Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    if (off < 1e-30 * (a[0] * a[0] + a[4] * a[4] + a[8] * a[8] + 1e-300)) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = a[3 * p + q];
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) { // A ← A J (columns p, q)
        const akp = a[3 * k + p], akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) { // A ← Jᵀ A (rows p, q)
        const apk = a[3 * p + k], aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) { // V ← V J
        const vkp = v[3 * k + p], vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  let j = 0;
  if (a[4] < a[3 * j + j]) j = 1;
  if (a[8] < a[3 * j + j]) j = 2;
  return unit([v[j], v[3 + j], v[6 + j]]);
}

/**
 * The shortest rotation taking unit `normal` to +z, as a unit quaternion (w, x, y, z), composed
 * with a turn of `yawRad` about +z afterwards (so a street can be aligned with the x axis).
 * For normal = −z (antiparallel) the half turn is about +x.
 */
export function levellingRotation(normal: readonly [number, number, number], yawRad = 0): Quat {
  const n = unit(normal);
  // q = (1 + n·z, n × z) normalised is the shortest arc n → z.
  let q: Quat = n[2] < -1 + 1e-12 ? [0, 1, 0, 0] : (() => {
    const c = cross(n, [0, 0, 1]);
    const w = 1 + n[2];
    const l = Math.hypot(w, c[0], c[1], c[2]);
    return [w / l, c[0] / l, c[1] / l, c[2] / l] as Quat;
  })();
  if (yawRad !== 0) {
    const h = yawRad / 2;
    const [bw, bx, by, bz] = q;
    const aw = Math.cos(h), az = Math.sin(h); // yaw ⊗ q
    q = [aw * bw - az * bz, aw * bx - az * by, aw * by + az * bx, aw * bz + az * bw];
  }
  return q;
}
