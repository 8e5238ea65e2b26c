/**
 * A growable list of flattened Gaussian splats in the world frame (Z up, metres), built by the
 * baker and turned into a chunk-local {@link SplatCloud} (SH degree 0).
 *
 * Each splat is a surface element: two in-plane standard deviations along unit tangents `u` and
 * `v` and a tiny one along the normal `u × v`. The rotation matrix with columns (u, v, u × v) is
 * stored as a unit quaternion (w, x, y, z), so the 3DGS covariance R S Sᵀ Rᵀ (Kerbl et al. 2023,
 * eq. 6) is thin along the surface normal.
 */
import { allocateSplatCloud, SH_C0, type SplatCloud } from '../../splats/splat-cloud';

/** An RGB colour, linear-ish display values in [0, 1] (what the renderer's SH dc encodes). */
export type Rgb = [number, number, number];

/** Standard deviation along a surface's normal, metres (the "tiny" third scale). */
export const SURFACE_THICKNESS = 0.004;

/**
 * Quaternion (w, x, y, z) of the rotation whose matrix has columns (u, v, n), written to `out[o..o+3]`.
 * u and v must be orthonormal and n = u × v (Shepperd's method).
 */
export function basisQuaternion(u: ArrayLike<number>, v: ArrayLike<number>, n: ArrayLike<number>, out: Float32Array, o: number): void {
  const m00 = u[0], m10 = u[1], m20 = u[2];
  const m01 = v[0], m11 = v[1], m21 = v[2];
  const m02 = n[0], m12 = n[1], m22 = n[2];
  const tr = m00 + m11 + m22;
  let w: number, x: number, y: number, z: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const l = Math.hypot(w, x, y, z);
  const sg = w < 0 ? -1 : 1;
  out[o] = (sg * w) / l; out[o + 1] = (sg * x) / l; out[o + 2] = (sg * y) / l; out[o + 3] = (sg * z) / l;
}

/** Splats accumulated in world coordinates (f64), with per-splat attributes in f32. */
export class SplatBuilder {
  count = 0;
  private pos = new Float64Array(3 * 1024);
  private scl = new Float32Array(3 * 1024);
  private rot = new Float32Array(4 * 1024);
  private opa = new Float32Array(1024);
  private col = new Float32Array(3 * 1024);
  private emi = new Float32Array(1024);
  private readonly n = new Float64Array(3);
  /** Emission of the splats added from now on, [0, 1] (SplatCloud.emissive: lamps, lit windows); set it back to 0 after. */
  emission = 0;

  private grow(): void {
    const cap = this.opa.length * 2;
    const g = <T extends Float32Array | Float64Array>(a: T, k: number): T => {
      const b = new (a.constructor as { new (n: number): T })(cap * k);
      b.set(a);
      return b;
    };
    this.pos = g(this.pos, 3); this.scl = g(this.scl, 3); this.rot = g(this.rot, 4); this.opa = g(this.opa, 1); this.col = g(this.col, 3); this.emi = g(this.emi, 1);
  }

  /**
   * Adds a surface splat at world point (x, y, z), metres, spanning unit tangents u, v (orthonormal)
   * with standard deviations su, sv (metres), thickness `sn` along u × v, colour `rgb` in [0, 1] and
   * opacity in [0, 1].
   *
   * @throws RangeError when the position is not finite (a baker bug; caught here, not in the GPU).
   */
  add(x: number, y: number, z: number, u: ArrayLike<number>, v: ArrayLike<number>, su: number, sv: number, rgb: ArrayLike<number>, opacity = 1, sn = SURFACE_THICKNESS): void {
    if (!Number.isFinite(x + y + z)) throw new RangeError(`SplatBuilder.add: non-finite position (${x}, ${y}, ${z})`);
    if (this.count === this.opa.length) this.grow();
    const i = this.count++;
    const n = this.n;
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    this.pos[3 * i] = x; this.pos[3 * i + 1] = y; this.pos[3 * i + 2] = z;
    this.scl[3 * i] = su; this.scl[3 * i + 1] = sv; this.scl[3 * i + 2] = sn;
    basisQuaternion(u, v, n, this.rot, 4 * i);
    this.opa[i] = opacity;
    this.emi[i] = this.emission;
    for (let c = 0; c < 3; c++) this.col[3 * i + c] = Math.min(1, Math.max(0, rgb[c]));
  }

  /** Adds a horizontal (ground-parallel) splat, normal +z, round with standard deviation `s`. */
  addFlat(x: number, y: number, z: number, s: number, rgb: ArrayLike<number>, opacity = 1): void {
    this.add(x, y, z, X_AXIS, Y_AXIS, s, s, rgb, opacity);
  }

  /**
   * The splats as a {@link SplatCloud} with positions relative to `origin` (metres, world frame),
   * SH degree 0 (`shDc = (rgb − 0.5) / SH_C0`).
   */
  toCloud(origin: readonly [number, number, number]): SplatCloud {
    const c = allocateSplatCloud(this.count, 0);
    for (let i = 0; i < this.count; i++) {
      for (let k = 0; k < 3; k++) {
        c.positions[3 * i + k] = this.pos[3 * i + k] - origin[k];
        c.shDc[3 * i + k] = (this.col[3 * i + k] - 0.5) / SH_C0;
      }
    }
    c.scales.set(this.scl.subarray(0, 3 * this.count));
    c.rotations.set(this.rot.subarray(0, 4 * this.count));
    c.opacities.set(this.opa.subarray(0, this.count));
    if (this.emi.subarray(0, this.count).some((e) => e > 0)) c.emissive = this.emi.slice(0, this.count);
    return c;
  }
}

/** World axes as tangent vectors. */
export const X_AXIS: readonly number[] = [1, 0, 0];
export const Y_AXIS: readonly number[] = [0, 1, 0];
export const Z_AXIS: readonly number[] = [0, 0, 1];
