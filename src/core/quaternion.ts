/**
 * Unit quaternions `[w, x, y, z]` (Hamilton convention, active rotations of column vectors) and 3×3
 * row-major rotation matrices, for every layer (splats, bodies, motion). Matrix → quaternion by
 * Shepperd's method (Shepperd 1978, J. Guidance and Control 1(3)), choosing the largest diagonal
 * term for stability.
 */

/** A unit quaternion `[w, x, y, z]`. */
export type Quat = [number, number, number, number];
/** A 3×3 row-major rotation matrix (9 numbers). */
export type Mat3 = number[] | Float64Array;

/** Unit quaternion → 3×3 row-major matrix. */
export function quatToMat3(q: Readonly<Quat>): number[] {
  const [w, x, y, z] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** 3×3 row-major rotation → unit quaternion (Shepperd 1978), w ≥ 0. */
export function quatFromMat3(m: Mat3): Quat {
  const t = m[0] + m[4] + m[8];
  let q: Quat;
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    q = [s / 4, (m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s];
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[0] - m[4] - m[8]);
    q = [(m[7] - m[5]) / s, s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s];
  } else if (m[4] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[4] - m[0] - m[8]);
    q = [(m[2] - m[6]) / s, (m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m[8] - m[0] - m[4]);
    q = [(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4];
  }
  const l = Math.hypot(...q) * (q[0] < 0 ? -1 : 1);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

