/**
 * Node-transform math for the `KHR_gaussian_splatting` splat loader (`./gltf`): a node's local
 * matrix, 4×4 products, quaternion ↔ matrix, a symmetric 3×3 eigen-decomposition, applying a
 * node's global transform to a SplatCloud (centres, rotations, scales and SH bands), and the change
 * from glTF's RUB axes to the RDF axes of PLY/COLMAP captures.
 *
 * Spec: KhronosGroup/glTF `extensions/2.0/Khronos/KHR_gaussian_splatting/README.md` (release
 * candidate, commit 63770cc of April 2026; the ellipse kernel); glTF 2.0 §3.4 (coordinate system),
 * §3.5.3 (node transforms).
 *
 * Transforms: a splat primitive instanced by a node takes the node's global transform M (parents ×
 * matrix or T·R·S), as the spec's ellipse kernel says: centre M·p, covariance A·(R S)(R S)ᵀ·Aᵀ with
 * A the upper-left 3×3 of M, and the SH bands rotated by the rotation part of A. For A = s·R this is
 * q_R ⊗ q and scales × s; a non-uniform scale re-diagonalises each covariance (Jacobi). Transforms
 * the spec leaves undefined are refused: mirrors (det < 0), zero or non-finite scales, and shear.
 *
 * Frame: glTF is right-handed with +Y up and +Z the asset's front, metres (§3.4), i.e. RUB axes.
 * Like `loadSpz`, the loader then converts to the RDF axes of INRIA PLY / COLMAP captures, so a
 * glTF written from a PLY (rotated into glTF axes, as the spec's note asks of converters) loads as
 * that PLY's cloud, and the renderer's default y-down camera shows a Y-up asset upright: y and z
 * of centres negate, the quaternion (w, x, y, z) becomes (w, x, −y, −z), and each SH coefficient
 * is multiplied by `RUB_TO_RDF_SH_SIGN`.
 */
import type { GLTF } from '@gltf-transform/core';
import { rotateShRest } from '../sh-rotation';
import { shRestCount, type SplatCloud } from '../splat-cloud';
import { RUB_TO_RDF_SH_SIGN, storeUnitQuat } from './common';
import { fail, type Context } from './gltf-accessors';

/** Column-major 4×4 product a · b (16 numbers each; returns a new array). */
export function mul4(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/** Row-major 3×3 rotation of the unit quaternion (w, x, y, z). */
function quatToMatrix(w: number, x: number, y: number, z: number): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** Unit quaternion (w, x, y, z) of a row-major 3×3 rotation (Shepperd's method). */
function matrixToQuat(m: ArrayLike<number>): [number, number, number, number] {
  const tr = m[0] + m[4] + m[8];
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    return [s / 4, (m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s];
  }
  if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    return [(m[7] - m[5]) / s, s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s];
  }
  if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    return [(m[2] - m[6]) / s, (m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s];
  }
  const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
  return [(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4];
}

/**
 * Eigen-decomposition of a symmetric row-major 3×3 matrix by cyclic Jacobi rotations: `a` is
 * overwritten (its diagonal holds the eigenvalues) and `v` receives the eigenvectors as columns.
 */
function symmetricEigen3(a: Float64Array, v: Float64Array): void {
  v.fill(0);
  v[0] = v[4] = v[8] = 1;
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    const diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    if (off <= 1e-30 * diag || off === 0) return;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p], akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k], aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p], vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
}

/**
 * A node's local transform (column-major 4×4) from `matrix` or translation · rotation · scale
 * (glTF 2.0 §3.5.3; the rotation quaternion (x, y, z, w) is renormalised).
 *
 * @param label the node (`node i ("name")`), the start of error messages.
 * @throws SplatFormatError when `matrix`, `translation`, `rotation` or `scale` is not 16, 3, 4 or 3
 *   finite numbers, or the rotation is the zero quaternion.
 */
export function localMatrix(ctx: Context, node: GLTF.INode, label: string): Float64Array {
  const nums = (v: unknown, len: number, what: string): number[] => {
    if (!Array.isArray(v) || v.length !== len || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      fail(ctx, `${label}: ${what} must be ${len} finite numbers, got ${JSON.stringify(v)}`);
    }
    return v as number[];
  };
  if (node.matrix !== undefined) return Float64Array.from(nums(node.matrix, 16, 'matrix'));
  const [tx, ty, tz] = node.translation !== undefined ? nums(node.translation, 3, 'translation') : [0, 0, 0];
  let [qx, qy, qz, qw] = node.rotation !== undefined ? nums(node.rotation, 4, 'rotation') : [0, 0, 0, 1];
  const qn = Math.hypot(qx, qy, qz, qw);
  if (!(qn > 0)) fail(ctx, `${label}: rotation is the zero quaternion`);
  [qx, qy, qz, qw] = [qx / qn, qy / qn, qz / qn, qw / qn];
  const [sx, sy, sz] = node.scale !== undefined ? nums(node.scale, 3, 'scale') : [1, 1, 1];
  const R = quatToMatrix(qw, qx, qy, qz);
  const s = [sx, sy, sz];
  const m = new Float64Array(16);
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) m[c * 4 + r] = R[r * 3 + c] * s[c];
  m[12] = tx; m[13] = ty; m[14] = tz; m[15] = 1;
  return m;
}

/**
 * Applies a node's global transform (column-major 4×4) to a cloud in place, as the spec's ellipse
 * kernel defines it (module comment).
 *
 * `cloud` is in the primitive's local glTF frame (metres, rotations (w, x, y, z)); afterwards it is
 * in the frame of the node's parent scene. The identity leaves it untouched.
 * @param label the node, the start of error messages.
 * @throws SplatFormatError when the last row is not (0, 0, 0, 1), a column length (scale) is zero or
 *   not finite, the transform mirrors (det < 0), or it shears.
 */
export function applyNodeTransform(ctx: Context, cloud: SplatCloud, m: Float64Array, label: string): void {
  const A = [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]]; // row-major upper-left 3×3
  const t = [m[12], m[13], m[14]];
  const identity = A.every((v, k) => v === (k % 4 === 0 ? 1 : 0)) && t.every((v) => v === 0);
  if (identity) return;
  if (!(m[3] === 0 && m[7] === 0 && m[11] === 0 && m[15] === 1)) fail(ctx, `${label}: global transform's last row is not (0, 0, 0, 1)`);
  const L = [0, 1, 2].map((c) => Math.hypot(A[c], A[3 + c], A[6 + c]));
  if (!L.every((l) => l > 0 && Number.isFinite(l))) {
    fail(ctx, `${label}: global transform has a zero or non-finite scale (column lengths ${L.join(', ')})`);
  }
  const R = A.map((v, k) => v / L[k % 3]);
  const det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (det < 0) fail(ctx, `${label}: global transform mirrors (negative scale, determinant < 0), which KHR_gaussian_splatting leaves undefined`);
  let skew = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
      skew = Math.max(skew, Math.abs(d - (i === j ? 1 : 0)));
    }
  }
  if (skew > 1e-4) {
    fail(ctx, `${label}: global transform is not translation · rotation · scale (it shears: a parent's non-uniform scale under a rotated child), which KHR_gaussian_splatting leaves undefined`);
  }
  const n = cloud.count;
  const P = cloud.positions;
  for (let i = 0; i < n; i++) {
    const x = P[3 * i], y = P[3 * i + 1], z = P[3 * i + 2];
    for (let r = 0; r < 3; r++) P[3 * i + r] = A[3 * r] * x + A[3 * r + 1] * y + A[3 * r + 2] * z + t[r];
  }
  const Q = cloud.rotations, S = cloud.scales;
  const uniform = Math.max(...L) / Math.min(...L) - 1 < 1e-6;
  if (uniform) {
    const s = (L[0] + L[1] + L[2]) / 3;
    const [qw, qx, qy, qz] = matrixToQuat(R);
    for (let i = 0; i < n; i++) {
      const bw = Q[4 * i], bx = Q[4 * i + 1], by = Q[4 * i + 2], bz = Q[4 * i + 3];
      storeUnitQuat(Q, i,
        qw * bw - qx * bx - qy * by - qz * bz,
        qw * bx + qx * bw + qy * bz - qz * by,
        qw * by - qx * bz + qy * bw + qz * bx,
        qw * bz + qx * by - qy * bx + qz * bw);
      for (let a = 0; a < 3; a++) S[3 * i + a] *= s;
    }
  } else {
    const M = new Float64Array(9), cov = new Float64Array(9), V = new Float64Array(9);
    for (let i = 0; i < n; i++) {
      const Rq = quatToMatrix(Q[4 * i], Q[4 * i + 1], Q[4 * i + 2], Q[4 * i + 3]);
      // M = A · Rq · diag(scale); covariance = M Mᵀ.
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) M[3 * r + c] = (A[3 * r] * Rq[c] + A[3 * r + 1] * Rq[3 + c] + A[3 * r + 2] * Rq[6 + c]) * S[3 * i + c];
      }
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) cov[3 * r + c] = M[3 * r] * M[3 * c] + M[3 * r + 1] * M[3 * c + 1] + M[3 * r + 2] * M[3 * c + 2];
      }
      symmetricEigen3(cov, V);
      const vdet = V[0] * (V[4] * V[8] - V[5] * V[7]) - V[1] * (V[3] * V[8] - V[5] * V[6]) + V[2] * (V[3] * V[7] - V[4] * V[6]);
      if (vdet < 0) { V[2] = -V[2]; V[5] = -V[5]; V[8] = -V[8]; }
      const [w, x, y, z] = matrixToQuat(V);
      storeUnitQuat(Q, i, w, x, y, z);
      for (let a = 0; a < 3; a++) S[3 * i + a] = Math.sqrt(Math.max(0, cov[4 * a]));
    }
  }
  if (!R.every((v, k) => Math.abs(v - (k % 4 === 0 ? 1 : 0)) < 1e-12)) rotateShRest(cloud.shRest, n, cloud.shDegree, R);
}

/**
 * glTF's RUB axes → the PLY/COLMAP RDF axes, in place: (x, y, z) → (x, −y, −z): centres' y and z
 * negate, quaternions (w, x, y, z) become (w, x, −y, −z), SH bands take `RUB_TO_RDF_SH_SIGN`.
 */
export function rubToRdf(cloud: SplatCloud): void {
  const K = shRestCount(cloud.shDegree);
  for (let i = 0; i < cloud.count; i++) {
    cloud.positions[3 * i + 1] = -cloud.positions[3 * i + 1];
    cloud.positions[3 * i + 2] = -cloud.positions[3 * i + 2];
    cloud.rotations[4 * i + 2] = -cloud.rotations[4 * i + 2];
    cloud.rotations[4 * i + 3] = -cloud.rotations[4 * i + 3];
    for (let k = 0; k < K; k++) {
      if (RUB_TO_RDF_SH_SIGN[k] < 0) for (let c = 0; c < 3; c++) cloud.shRest[(i * K + k) * 3 + c] *= -1;
    }
  }
}
