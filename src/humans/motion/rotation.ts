/**
 * Rotation helpers for motion: unit quaternions `[w, x, y, z]` (Hamilton convention, active
 * rotations of column vectors), 3×3 row-major matrices, and SMPL axis-angle vectors (radians).
 *
 * Formulas: quaternion ↔ axis-angle and slerp from Shoemake 1985, "Animating rotation with
 * quaternion curves" (SIGGRAPH), §3; matrix → quaternion by Shepperd's method (Shepperd 1978,
 * J. Guidance and Control 1(3)), choosing the largest diagonal term for stability.
 */

import { quatToMat3, type Quat } from '../../core/quaternion';

export { quatFromMat3, quatToMat3, type Mat3, type Quat } from '../../core/quaternion';

/** The identity quaternion. */
export const QUAT_IDENTITY: Readonly<Quat> = [1, 0, 0, 0];

/** Axis-angle ω (radians, |ω| = angle) → unit quaternion. Reads `aa[offset … offset+2]`. */
export function quatFromAxisAngle(aa: ArrayLike<number>, offset = 0): Quat {
  const x = aa[offset], y = aa[offset + 1], z = aa[offset + 2];
  const angle = Math.hypot(x, y, z);
  if (angle < 1e-12) return [1, x / 2, y / 2, z / 2];
  const s = Math.sin(angle / 2) / angle;
  return [Math.cos(angle / 2), x * s, y * s, z * s];
}

/**
 * Unit quaternion → axis-angle with angle in [0, π] (the shorter of q and −q), written to
 * `out[offset … offset+2]`.
 */
export function quatToAxisAngle(q: Readonly<Quat>, out: number[] | Float32Array | Float64Array = [0, 0, 0], offset = 0): typeof out {
  let [w, x, y, z] = q;
  if (w < 0) [w, x, y, z] = [-w, -x, -y, -z];
  const s = Math.hypot(x, y, z);
  const angle = 2 * Math.atan2(s, w);
  const k = s < 1e-12 ? 2 : angle / s;
  out[offset] = x * k;
  out[offset + 1] = y * k;
  out[offset + 2] = z * k;
  return out;
}

/** Hamilton product a·b (apply b first, then a). */
export function quatMul(a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

/** Conjugate (= inverse for unit quaternions). */
export function quatConj(q: Readonly<Quat>): Quat {
  return [q[0], -q[1], -q[2], -q[3]];
}

/** Rotation of angle `angle` (radians) about the unit axis `axis`. */
export function quatAxis(axis: readonly number[], angle: number): Quat {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}

/** Rotates vector `v` by unit quaternion `q`. */
export function quatRotate(q: Readonly<Quat>, v: readonly number[]): [number, number, number] {
  const m = quatToMat3(q);
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

/**
 * Spherical linear interpolation (Shoemake 1985): t = 0 → a, t = 1 → b, along the shorter arc;
 * falls back to normalised lerp when a ≈ b.
 */
export function quatSlerp(a: Readonly<Quat>, b: Readonly<Quat>, t: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d *= s;
  let wa: number, wb: number;
  if (d > 0.9995) {
    wa = 1 - t;
    wb = t;
  } else {
    const th = Math.acos(d);
    const sin = Math.sin(th);
    wa = Math.sin((1 - t) * th) / sin;
    wb = Math.sin(t * th) / sin;
  }
  const q: Quat = [wa * a[0] + s * wb * b[0], wa * a[1] + s * wb * b[1], wa * a[2] + s * wb * b[2], wa * a[3] + s * wb * b[3]];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Shortest rotation taking direction `a` onto direction `b` (neither need be unit; both non-zero). */
export function quatBetween(a: readonly number[], b: readonly number[]): Quat {
  const la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]);
  const u = a.map((v) => v / la), v = b.map((x) => x / lb);
  const d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  if (d < -0.999999) {
    // Opposite: rotate π about any axis perpendicular to u.
    const p = Math.abs(u[0]) < 0.9 ? [0, -u[2], u[1]] : [-u[1], u[0], 0];
    const l = Math.hypot(p[0], p[1], p[2]);
    return [0, p[0] / l, p[1] / l, p[2] / l];
  }
  const q: Quat = [1 + d, c[0], c[1], c[2]];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Unit axes by name. */
const AXES = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] } as const;

/**
 * Euler angles as BVH defines them: channels listed left to right compose left to right,
 * R = R_{c0}(a0) · R_{c1}(a1) · R_{c2}(a2) (so the last listed rotation is applied to the vector
 * first). E.g. `ZYX` with CMU's `Zrotation Yrotation Xrotation`.
 *
 * @param order three letters from X, Y, Z; @param anglesDeg degrees, in the same order.
 */
export function quatFromEuler(order: string, anglesDeg: readonly number[]): Quat {
  let q: Quat = [1, 0, 0, 0];
  for (let i = 0; i < order.length; i++) {
    q = quatMul(q, quatAxis(AXES[order[i] as 'X' | 'Y' | 'Z'], (anglesDeg[i] * Math.PI) / 180));
  }
  return q;
}
