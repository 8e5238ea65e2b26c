/**
 * Projection of one 3D Gaussian to a 2D screen-space Gaussian (EWA splatting), in f64: the plain
 * TypeScript reference for `shaders/splats/preprocess.wgsl`.
 *
 * Math (Kerbl et al. 2023, "3D Gaussian Splatting", §4, eqs. 5–6; Zwicker et al. 2002, EWA):
 *   Σ = R S Sᵀ Rᵀ                    (3D covariance from rotation quaternion and scales)
 *   Σ' = J W Σ Wᵀ Jᵀ                 (W: world→camera rotation, J: Jacobian of the projection)
 *   Σ' += 0.3 px² · I                (low-pass dilation of the reference rasteriser)
 *   conic = Σ'⁻¹, radius = ceil(3 √λ_max)
 * As in the reference, the point used for J is clamped to 1.3 × the half field of view, and
 * splats closer than the near plane are culled.
 */
import type { CameraModel } from '../gpu/camera';
import { worldToCamera } from '../gpu/camera';
import type { SplatCloud } from './splat-cloud';

/** A splat in screen space. */
export interface ProjectedSplat {
  /** Centre, pixels (origin top-left, y down). */
  u: number;
  v: number;
  /** Camera-frame depth, metres (> near). */
  depth: number;
  /** Conic (inverse 2D covariance) entries (a, b, c) of [[a, b], [b, c]], 1/px². */
  conic: [number, number, number];
  /** Half-size of the square drawn, pixels. */
  radius: number;
  opacity: number;
}

/** The reference's frustum clamp factor for the Jacobian (`forward.cu: computeCov2D`). */
export const FRUSTUM_CLAMP = 1.3;
/** Low-pass dilation added to the 2D covariance's diagonal, px² (`forward.cu`). */
export const COV2D_DILATION = 0.3;

/** 3D covariance (upper triangle xx, xy, xz, yy, yz, zz) of splat `i` from its quaternion and scales. */
export function splatCovariance3d(cloud: SplatCloud, i: number): Float64Array {
  const [w, x, y, z] = cloud.rotations.subarray(i * 4, i * 4 + 4);
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  const s = cloud.scales.subarray(i * 3, i * 3 + 3);
  // M = R S; Σ = M Mᵀ
  const m = r.map((v, k) => v * s[k % 3]);
  const dot = (a: number, b: number) => m[a * 3] * m[b * 3] + m[a * 3 + 1] * m[b * 3 + 1] + m[a * 3 + 2] * m[b * 3 + 2];
  return Float64Array.from([dot(0, 0), dot(0, 1), dot(0, 2), dot(1, 1), dot(1, 2), dot(2, 2)]);
}

/** Projects splat `i`; returns null when it is culled (behind the near plane, degenerate, or off screen). */
export function projectSplat(cloud: SplatCloud, i: number, cam: CameraModel): ProjectedSplat | null {
  const t = worldToCamera(cam, cloud.positions.subarray(i * 3, i * 3 + 3));
  if (t[2] <= cam.near) return null;
  const limX = FRUSTUM_CLAMP * cam.tanHalfFovX;
  const limY = FRUSTUM_CLAMP * cam.tanHalfFovY;
  const tz = t[2];
  const tx = Math.min(limX, Math.max(-limX, t[0] / tz)) * tz;
  const ty = Math.min(limY, Math.max(-limY, t[1] / tz)) * tz;
  // J (2×3) and T = J W (2×3).
  const j00 = cam.fx / tz, j02 = (-cam.fx * tx) / (tz * tz);
  const j11 = cam.fy / tz, j12 = (-cam.fy * ty) / (tz * tz);
  const w = cam.rotation;
  const T = [
    j00 * w[0] + j02 * w[6], j00 * w[1] + j02 * w[7], j00 * w[2] + j02 * w[8],
    j11 * w[3] + j12 * w[6], j11 * w[4] + j12 * w[7], j11 * w[5] + j12 * w[8],
  ];
  const c = splatCovariance3d(cloud, i);
  const S = [c[0], c[1], c[2], c[1], c[3], c[4], c[2], c[4], c[5]];
  // Σ' = T Σ Tᵀ
  const ts = (row: number, col: number) => T[row * 3] * S[col] + T[row * 3 + 1] * S[3 + col] + T[row * 3 + 2] * S[6 + col];
  const cov = (a: number, b: number) => ts(a, 0) * T[b * 3] + ts(a, 1) * T[b * 3 + 1] + ts(a, 2) * T[b * 3 + 2];
  const a = cov(0, 0) + COV2D_DILATION;
  const b = cov(0, 1);
  const cc = cov(1, 1) + COV2D_DILATION;
  const det = a * cc - b * b;
  if (!(det > 0)) return null;
  const mid = 0.5 * (a + cc);
  const lambda1 = mid + Math.sqrt(Math.max(0.1, mid * mid - det));
  const radius = Math.ceil(3 * Math.sqrt(lambda1));
  const u = (cam.fx * t[0]) / tz + cam.cx;
  const v = (cam.fy * t[1]) / tz + cam.cy;
  if (u + radius < 0 || u - radius > cam.width || v + radius < 0 || v - radius > cam.height) return null;
  return { u, v, depth: tz, conic: [cc / det, -b / det, a / det], radius, opacity: cloud.opacities[i] };
}

/**
 * Bits of the depth sort key. Depth is quantised linearly over [near, far] into 2^bits − 1 levels
 * (1/65534 of the depth range at 16 bits: 1.5 mm over 100 m), so the radix sort runs 2 passes
 * instead of 4; see bench/RESULTS.md for the measured effect.
 */
export const DEPTH_KEY_BITS = 16;

/**
 * The depth sort key of `preprocess.wgsl` (f32 arithmetic as on the GPU): reversed quantised depth,
 * so an ascending sort is back to front. Culled splats get 2^bits − 1, after every visible key.
 */
export function depthSortKey(depth: number, near: number, far: number, bits = DEPTH_KEY_BITS): number {
  const maxKey = 2 ** bits - 2;
  const u = Math.min(1, Math.max(0, Math.fround(Math.fround(depth - near) / Math.fround(far - near))));
  return maxKey - Math.round(Math.fround(u * maxKey));
}
