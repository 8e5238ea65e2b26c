/**
 * Small float64 matrix helpers for the glTF loader: 4×4 column-major (glTF's order), quaternions
 * [x, y, z, w] (glTF 2.0 spec §3.5.2, §3.11), and rotation ↔ axis-angle.
 */

/**
 * 4×4 column-major from translation, quaternion [x, y, z, w] (normalised here, as glTF requires
 * unit rotations) and scale (T·R·S, glTF §3.5.3).
 */
export function composeTrs(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): Float64Array {
  const ql = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  const [x, y, z, w] = [q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql];
  const m = new Float64Array(16);
  m[0] = (1 - 2 * (y * y + z * z)) * s[0];
  m[1] = 2 * (x * y + z * w) * s[0];
  m[2] = 2 * (x * z - y * w) * s[0];
  m[4] = 2 * (x * y - z * w) * s[1];
  m[5] = (1 - 2 * (x * x + z * z)) * s[1];
  m[6] = 2 * (y * z + x * w) * s[1];
  m[8] = 2 * (x * z + y * w) * s[2];
  m[9] = 2 * (y * z - x * w) * s[2];
  m[10] = (1 - 2 * (x * x + y * y)) * s[2];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

/** a·b, both 4×4 column-major. */
export function multiply4(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const m = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      m[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return m;
}

/** Rotation part of a 4×4 column-major matrix with its column scales removed, as 3×3 row-major. */
export function rotationOf(m: ArrayLike<number>): Float64Array {
  const r = new Float64Array(9);
  for (let c = 0; c < 3; c++) {
    const l = Math.hypot(m[4 * c], m[4 * c + 1], m[4 * c + 2]) || 1;
    for (let row = 0; row < 3; row++) r[row * 3 + c] = m[4 * c + row] / l;
  }
  return r;
}

/** aᵀ·b for 3×3 row-major. */
export function transposeTimes3(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const m = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
  return m;
}

/** a·b for 3×3 row-major. */
export function times3(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const m = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  return m;
}

/** a·bᵀ for 3×3 row-major. */
export function timesTranspose3(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const m = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
  return m;
}

/**
 * Axis-angle (‖ω‖ = angle in [0, π], radians) of a 3×3 row-major rotation, via the quaternion
 * (Shepperd's method), stable near 0 and π.
 */
export function axisAngleOf(r: ArrayLike<number>): [number, number, number] {
  const tr = r[0] + r[4] + r[8];
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    w = s / 4; x = (r[7] - r[5]) / s; y = (r[2] - r[6]) / s; z = (r[3] - r[1]) / s;
  } else if (r[0] > r[4] && r[0] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[0] - r[4] - r[8]);
    w = (r[7] - r[5]) / s; x = s / 4; y = (r[1] + r[3]) / s; z = (r[2] + r[6]) / s;
  } else if (r[4] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[4] - r[0] - r[8]);
    w = (r[2] - r[6]) / s; x = (r[1] + r[3]) / s; y = s / 4; z = (r[5] + r[7]) / s;
  } else {
    const s = 2 * Math.sqrt(1 + r[8] - r[0] - r[4]);
    w = (r[3] - r[1]) / s; x = (r[2] + r[6]) / s; y = (r[5] + r[7]) / s; z = s / 4;
  }
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const sinHalf = Math.hypot(x, y, z);
  if (sinHalf < 1e-12) return [2 * x, 2 * y, 2 * z];
  const angle = 2 * Math.atan2(sinHalf, w);
  return [(x / sinHalf) * angle, (y / sinHalf) * angle, (z / sinHalf) * angle];
}

/** Spherical linear interpolation of unit quaternions [x, y, z, w] (shortest arc). */
export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): number[] {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = d < 0 ? -1 : 1;
  d *= sign;
  if (d > 0.9995) {
    const q = [0, 1, 2, 3].map((i) => a[i] + t * (sign * b[i] - a[i]));
    const l = Math.hypot(q[0], q[1], q[2], q[3]);
    return q.map((x) => x / l);
  }
  const th = Math.acos(d);
  const wa = Math.sin((1 - t) * th) / Math.sin(th), wb = (sign * Math.sin(t * th)) / Math.sin(th);
  return [0, 1, 2, 3].map((i) => wa * a[i] + wb * b[i]);
}

/**
 * Inverse of an affine 4×4 column-major matrix [A | t; 0 0 0 1]: [A⁻¹ | −A⁻¹ t].
 *
 * @throws Error when A is singular.
 */
export function invertAffine(m: ArrayLike<number>): Float64Array {
  const a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  if (Math.abs(det) < 1e-30) throw new Error('invertAffine: singular matrix');
  const inv = [
    (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
    (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
    (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det,
  ]; // row-major
  const out = new Float64Array(16);
  for (let r = 0; r < 3; r++) {
    for (let col = 0; col < 3; col++) out[col * 4 + r] = inv[r * 3 + col];
    out[12 + r] = -(inv[r * 3] * m[12] + inv[r * 3 + 1] * m[13] + inv[r * 3 + 2] * m[14]);
  }
  out[15] = 1;
  return out;
}
