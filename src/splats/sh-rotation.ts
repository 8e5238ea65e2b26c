/**
 * Rotation of real spherical-harmonics coefficients (bands 1–3, the 3DGS basis and sign
 * conventions of `src/splats/spherical-harmonics.ts`).
 *
 * Method: SH of one band span a rotation-invariant space, so for each band l the rotated
 * coefficients satisfy B(d) c' = B(Rᵀ d) c for every unit direction d, with B the band's basis
 * row. Fitting that on 2·(2l+1) fixed, well-spread directions by least squares gives the exact
 * (2l+1)×(2l+1) band rotation matrix (the Wigner-D matrix in this basis, up to round-off), without
 * the recurrence of Ivanic & Ruedenberg (1996).
 */
import { SH_C1, SH_C2, SH_C3 } from './spherical-harmonics';

/** Basis values of band `l` (1–3) at unit direction (x, y, z), in the 3DGS order, into `out`. */
function band(l: number, x: number, y: number, z: number, out: Float64Array): void {
  if (l === 1) {
    out[0] = -SH_C1 * y; out[1] = SH_C1 * z; out[2] = -SH_C1 * x;
  } else if (l === 2) {
    const xx = x * x, yy = y * y, zz = z * z;
    out[0] = SH_C2[0] * x * y; out[1] = SH_C2[1] * y * z; out[2] = SH_C2[2] * (2 * zz - xx - yy); out[3] = SH_C2[3] * x * z; out[4] = SH_C2[4] * (xx - yy);
  } else {
    const xx = x * x, yy = y * y, zz = z * z;
    out[0] = SH_C3[0] * y * (3 * xx - yy); out[1] = SH_C3[1] * x * y * z; out[2] = SH_C3[2] * y * (4 * zz - xx - yy);
    out[3] = SH_C3[3] * z * (2 * zz - 3 * xx - 3 * yy); out[4] = SH_C3[4] * x * (4 * zz - xx - yy); out[5] = SH_C3[5] * z * (xx - yy); out[6] = SH_C3[6] * x * (xx - 3 * yy);
  }
}

/** Solves the square system A x = b in place (Gaussian elimination with partial pivoting); A is n×n row-major. */
function solve(A: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r * n + c]) > Math.abs(A[p * n + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) { const t = A[c * n + k]; A[c * n + k] = A[p * n + k]; A[p * n + k] = t; }
      const t = b[c]; b[c] = b[p]; b[p] = t;
    }
    for (let r = c + 1; r < n; r++) {
      const f = A[r * n + c] / A[c * n + c];
      for (let k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
      b[r] -= f * b[c];
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r];
    for (let k = r + 1; k < n; k++) s -= A[r * n + k] * x[k];
    x[r] = s / A[r * n + r];
  }
  return x;
}

/**
 * The (2l+1)×(2l+1) matrix M_l (row-major) with c' = M_l c for the band-l coefficients of a
 * function rotated by R (row-major 3×3, world = R · capture), for l = 1, 2, 3.
 */
export function shBandRotation(l: number, R: ArrayLike<number>): Float64Array {
  const n = 2 * l + 1;
  const m = 2 * n + 3;
  const golden = Math.PI * (3 - Math.sqrt(5));
  const Bd: Float64Array[] = [], Bs: Float64Array[] = [];
  for (let i = 0; i < m; i++) {
    const zz = 1 - (2 * (i + 0.5)) / m, r = Math.sqrt(1 - zz * zz);
    const d = [Math.cos(i * golden) * r, Math.sin(i * golden) * r, zz];
    // Rᵀ d: the capture-frame direction that maps to d.
    const s = [R[0] * d[0] + R[3] * d[1] + R[6] * d[2], R[1] * d[0] + R[4] * d[1] + R[7] * d[2], R[2] * d[0] + R[5] * d[1] + R[8] * d[2]];
    const a = new Float64Array(n), b = new Float64Array(n);
    band(l, d[0], d[1], d[2], a);
    band(l, s[0], s[1], s[2], b);
    Bd.push(a); Bs.push(b);
  }
  // Normal equations: (BdᵀBd) M = BdᵀBs, column by column.
  const M = new Float64Array(n * n);
  for (let col = 0; col < n; col++) {
    const A = new Float64Array(n * n), rhs = new Float64Array(n);
    for (let i = 0; i < m; i++) {
      for (let r = 0; r < n; r++) {
        rhs[r] += Bd[i][r] * Bs[i][col];
        for (let k = 0; k < n; k++) A[r * n + k] += Bd[i][r] * Bd[i][k];
      }
    }
    const x = solve(A, rhs, n);
    for (let r = 0; r < n; r++) M[r * n + col] = x[r];
  }
  return M;
}

/**
 * Rotates the higher-band SH of every splat in place (`shRest`, N × K × 3 coefficient-major,
 * channel-minor, K = (degree+1)² − 1) by rotation R (row-major 3×3).
 */
export function rotateShRest(shRest: Float32Array, count: number, degree: number, R: ArrayLike<number>): void {
  if (degree === 0) return;
  const K = (degree + 1) * (degree + 1) - 1;
  const mats = [1, 2, 3].filter((l) => l <= degree).map((l) => shBandRotation(l, R));
  const tmp = new Float64Array(7);
  for (let i = 0; i < count; i++) {
    let off = 0;
    for (let l = 1; l <= degree; l++) {
      const n = 2 * l + 1, M = mats[l - 1];
      for (let c = 0; c < 3; c++) {
        for (let r = 0; r < n; r++) {
          let s = 0;
          for (let k = 0; k < n; k++) s += M[r * n + k] * shRest[(i * K + off + k) * 3 + c];
          tmp[r] = s;
        }
        for (let r = 0; r < n; r++) shRest[(i * K + off + r) * 3 + c] = tmp[r];
      }
      off += n;
    }
  }
}
