/**
 * The in-memory form of a Gaussian-splat scene that every loader produces and every renderer reads.
 *
 * Parameters are stored *activated*, as in the 3DGS paper (Kerbl et al. 2023, §4): opacity is
 * sigmoid(raw), scale is exp(raw), the rotation quaternion is normalised. Colour is kept as
 * spherical-harmonics coefficients so view-dependent colour can be evaluated per frame:
 * `color = SH_C0 * dc + (higher bands) + 0.5` (3DGS reference `computeColorFromSH`).
 *
 * Frame: whatever frame the file was captured in (COLMAP/OpenCV captures are Y-down, Z-forward).
 * A scene file records the transform to Curbside's Z-up world frame; the renderer takes it as is.
 */
import { UserError } from '../core/user-error';
export interface SplatCloud {
  /** Number of splats N. */
  count: number;
  /** Centres, N×3 (x, y, z), metres in the file's frame. */
  positions: Float32Array;
  /** Per-axis standard deviations (activated, exp of the stored log-scale), N×3, metres. */
  scales: Float32Array;
  /** Unit quaternions, N×4 in (w, x, y, z) order (INRIA `rot_0` is w). */
  rotations: Float32Array;
  /** Activated opacity in [0, 1], N. */
  opacities: Float32Array;
  /** Degree-0 SH coefficient (INRIA `f_dc_0..2`), N×3 (r, g, b). */
  shDc: Float32Array;
  /** SH degree of the higher bands present, 0–3. */
  shDegree: number;
  /**
   * Higher-band SH coefficients, N × K × 3 with K = (shDegree+1)² − 1, coefficient-major and
   * channel-minor: `shRest[(i*K + k)*3 + c]`. (INRIA PLY stores `f_rest` channel-major; loaders
   * transpose.) Empty when shDegree is 0.
   */
  shRest: Float32Array;
  /**
   * Emission, N, in [0, 1]: the share of a splat's colour that does not take the frame's light tint
   * (splat-shading.ts), for light sources baked into a city (lamp heads, lit windows) that stay
   * bright at night. Absent: 0 for every splat (captures).
   */
  emissive?: Float32Array;
}

/** The SH constant for band 0: 1 / (2·sqrt(π)). */
export const SH_C0 = 0.28209479177387814;

/** Number of higher-band SH coefficients per channel for a degree: (d+1)² − 1. */
export function shRestCount(degree: number): number {
  return (degree + 1) * (degree + 1) - 1;
}

/** Allocates a zeroed cloud of `count` splats with the given SH degree. */
export function allocateSplatCloud(count: number, shDegree: number): SplatCloud {
  return {
    count,
    positions: new Float32Array(count * 3),
    scales: new Float32Array(count * 3),
    rotations: new Float32Array(count * 4),
    opacities: new Float32Array(count),
    shDc: new Float32Array(count * 3),
    shDegree,
    shRest: new Float32Array(count * shRestCount(shDegree) * 3),
  };
}

/**
 * Concatenates clouds (e.g. the folders of one capture) into one, at the highest SH degree among
 * them (missing bands are zero).
 *
 * @throws RangeError when `clouds` is empty.
 */
export function concatSplatClouds(clouds: readonly SplatCloud[]): SplatCloud {
  if (clouds.length === 0) throw new RangeError('concatSplatClouds: no clouds');
  if (clouds.length === 1) return clouds[0];
  const degree = Math.max(...clouds.map((c) => c.shDegree));
  const out = allocateSplatCloud(clouds.reduce((s, c) => s + c.count, 0), degree);
  const K = (degree + 1) ** 2 - 1;
  let o = 0;
  for (const c of clouds) {
    out.positions.set(c.positions, 3 * o);
    out.scales.set(c.scales, 3 * o);
    out.rotations.set(c.rotations, 4 * o);
    out.opacities.set(c.opacities, o);
    out.shDc.set(c.shDc, 3 * o);
    const k = (c.shDegree + 1) ** 2 - 1;
    if (k === K) out.shRest.set(c.shRest, o * K * 3);
    else for (let i = 0; i < c.count; i++) out.shRest.set(c.shRest.subarray(i * k * 3, (i + 1) * k * 3), (o + i) * K * 3);
    o += c.count;
  }
  return out;
}

/** Error from a splat loader: `file: problem`, so the CLI can print it as one line. */
export class SplatFormatError extends UserError {
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'SplatFormatError';
  }
}
