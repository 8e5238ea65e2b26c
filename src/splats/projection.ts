/**
 * Projection of one 3D Gaussian to a 2D screen-space Gaussian (EWA splatting), in f64: the plain
 * TypeScript reference for `shaders/splats/preprocess.wgsl`.
 *
 * Math (Kerbl et al. 2023, "3D Gaussian Splatting", §4, eqs. 5–6; Zwicker et al. 2002, EWA):
 *   Σ = R S Sᵀ Rᵀ                    (3D covariance from rotation quaternion and scales)
 *   Σ' = J W Σ Wᵀ Jᵀ                 (W: world→camera rotation, J: Jacobian of the projection)
 *   Σ' += 0.3 px² · I                (low-pass dilation of the reference rasteriser)
 *   conic = Σ'⁻¹
 * As in the reference, the point used for J is clamped to 1.3 × the half field of view, and
 * splats closer than the near plane are culled.
 *
 * Extent (opacity-aware, exact by construction): a pixel at offset d contributes only where
 * α = o · exp(−½ dᵀ Σ'⁻¹ d) ≥ 1/255, i.e. inside the ellipse dᵀ Σ'⁻¹ d ≤ k² with
 * k = √(2 ln(255 o)) (≤ 3.33; the splat is culled when o < 1/255). The GPU draws the smallest
 * triangle around that ellipse in its eigenbasis Σ' = λ₁ e₁e₁ᵀ + λ₂ e₂e₂ᵀ (semi-axes k√λ₁, k√λ₂), so every
 * pixel the 3DGS equations give a fragment to is drawn, and far fewer others than with the
 * 3-sigma square of the CUDA rasteriser. Off-screen culling uses the ellipse's axis-aligned box,
 * half-sides k√Σ'ₓₓ and k√Σ'ᵧᵧ.
 */
import type { CameraModel } from '../gpu/camera';
import { worldToCamera } from '../gpu/camera';
import type { SplatCloud } from './splat-cloud';

/** Smallest α that contributes, and the clamp on α (`forward.cu: renderCUDA`). */
export const ALPHA_MIN = 1 / 255;
export const ALPHA_MAX = 0.99;

/** A splat in screen space. */
export interface ProjectedSplat {
  /** Centre, pixels (origin top-left, y down). */
  u: number;
  v: number;
  /** Camera-frame depth, metres (> near). */
  depth: number;
  /** Conic (inverse 2D covariance) entries (a, b, c) of [[a, b], [b, c]], 1/px². */
  conic: [number, number, number];
  /** 2D covariance Σ' (with dilation) entries (a, b, c), px². */
  cov: [number, number, number];
  /** Unit major eigenvector e₁ of Σ' (the minor one is (−e₁y, e₁x)). */
  major: [number, number];
  /** One standard deviation along e₁ and e₂: √λ₁ ≥ √λ₂, pixels. */
  sigma: [number, number];
  /** Extent in standard deviations where α falls to 1/255: √(2 ln(o / ALPHA_MIN)). */
  extentSigmas: number;
  /** Half-sides of the axis-aligned box around the α ≥ 1/255 ellipse, pixels. */
  halfExtent: [number, number];
  opacity: number;
}

/**
 * Eigen decomposition of a symmetric positive-definite 2×2 [[a, b], [b, c]] (closed form):
 * λ₁ = m + √(m² − det), λ₂ = det / λ₁ (no cancellation for thin splats), e₁ from the better
 * conditioned of the two null-space rows of Σ − λ₁I.
 */
export function eigenSym2(a: number, b: number, c: number): { lambda: [number, number]; major: [number, number] } {
  const det = a * c - b * b;
  const mid = 0.5 * (a + c);
  const l1 = mid + Math.sqrt(Math.max(0, mid * mid - det));
  const l2 = det / l1;
  let ex: number;
  let ey: number;
  if (a >= c) [ex, ey] = [l1 - c, b];
  else [ex, ey] = [b, l1 - a];
  const n = Math.hypot(ex, ey);
  return n > 0 ? { lambda: [l1, l2], major: [ex / n, ey / n] } : { lambda: [l1, l2], major: [1, 0] };
}

/** The reference's frustum clamp factor for the Jacobian (`forward.cu: computeCov2D`). */
export const FRUSTUM_CLAMP = 1.3;
/** Low-pass dilation added to the 2D covariance's diagonal, px² (`forward.cu`). */
export const COV2D_DILATION = 0.3;

/**
 * The three corners of a splat's triangle (`shaders/splats/corners.wgsl`), pixels: the image under
 * the eigenbasis of the equilateral triangle around the unit circle with vertices at 2, (0, 2),
 * (√3, −1), (−√3, −1) along (e₁, e₂), scaled by the α ≥ 1/255 ellipse's semi-axes. `extentMajor`
 * is k√λ₁ e₁ (px) and `minorRatio` √(λ₂/λ₁), as in the GPU's projected record; e₂ = (−e₁y, e₁x).
 * The triangle's incircle is the ellipse, so it holds every pixel the splat gives α ≥ 1/255.
 */
export function splatTriangleCorners(center: readonly [number, number], extentMajor: readonly [number, number], minorRatio: number): [number, number][] {
  const minor = [-extentMajor[1] * minorRatio, extentMajor[0] * minorRatio];
  const at = (a: number, b: number): [number, number] => [center[0] + a * extentMajor[0] + b * minor[0], center[1] + a * extentMajor[1] + b * minor[1]];
  return [at(0, 2), at(Math.sqrt(3), -1), at(-Math.sqrt(3), -1)];
}

/** 3D covariance (upper triangle xx, xy, xz, yy, yz, zz) of splat `i` from its quaternion and scales. */
export function splatCovariance3d(cloud: SplatCloud, i: number): Float64Array {
  return covarianceFromRotationScale(cloud.rotations.subarray(i * 4, i * 4 + 4), cloud.scales.subarray(i * 3, i * 3 + 3));
}

/**
 * Σ = R S Sᵀ Rᵀ (3DGS eq. 6) for unit quaternion `q` (w, x, y, z) and per-axis standard deviations
 * `s` (metres), as the upper triangle xx, xy, xz, yy, yz, zz written to `out`.
 */
export function covarianceFromRotationScale<T extends Float64Array<ArrayBufferLike>>(q: ArrayLike<number>, s: ArrayLike<number>, out: T = new Float64Array(6) as T): T {
  const w = q[0], x = q[1], y = q[2], z = q[3];
  const sx = s[0], sy = s[1], sz = s[2];
  // M = R S (row-major: row a of R with column k scaled by s_k); Σ = M Mᵀ. Scalars only: the packer
  // calls this for every splat of multi-million-splat scans.
  const m00 = (1 - 2 * (y * y + z * z)) * sx, m01 = 2 * (x * y - w * z) * sy, m02 = 2 * (x * z + w * y) * sz;
  const m10 = 2 * (x * y + w * z) * sx, m11 = (1 - 2 * (x * x + z * z)) * sy, m12 = 2 * (y * z - w * x) * sz;
  const m20 = 2 * (x * z - w * y) * sx, m21 = 2 * (y * z + w * x) * sy, m22 = (1 - 2 * (x * x + y * y)) * sz;
  out[0] = m00 * m00 + m01 * m01 + m02 * m02;
  out[1] = m00 * m10 + m01 * m11 + m02 * m12;
  out[2] = m00 * m20 + m01 * m21 + m02 * m22;
  out[3] = m10 * m10 + m11 * m11 + m12 * m12;
  out[4] = m10 * m20 + m11 * m21 + m12 * m22;
  out[5] = m20 * m20 + m21 * m21 + m22 * m22;
  return out;
}

/**
 * Total α of a projected Gaussian over the image plane, px²: ∫ o · exp(−½ dᵀ Σ'⁻¹ d) dd =
 * 2π · o · √det Σ' (with the 0.3 px² dilation, so never below 1.88 · o). An upper bound on how much
 * the splat can change the image (sum over pixels of its α), the quantity PlayCanvas's
 * `minContribution` culls by.
 */
export function alphaMass(opacity: number, det: number): number {
  return 2 * Math.PI * opacity * Math.sqrt(det);
}

/**
 * Projects splat `i` (perspective: EWA with the Jacobian at the clamped centre; orthographic: the
 * constant Jacobian diag(fx, fy)); returns null when it is culled (outside the near/far planes, degenerate, off
 * screen, or with an {@link alphaMass} below `minAlphaMass` px²; 0 keeps every splat).
 */
export function projectSplat(cloud: SplatCloud, i: number, cam: CameraModel, minAlphaMass = 0): ProjectedSplat | null {
  const t = worldToCamera(cam, cloud.positions.subarray(i * 3, i * 3 + 3));
  if (t[2] <= cam.near || t[2] >= cam.far) return null;
  const limX = FRUSTUM_CLAMP * cam.tanHalfFovX;
  const limY = FRUSTUM_CLAMP * cam.tanHalfFovY;
  const tz = t[2];
  const tx = Math.min(limX, Math.max(-limX, t[0] / tz)) * tz;
  const ty = Math.min(limY, Math.max(-limY, t[1] / tz)) * tz;
  // J (2×3) and T = J W (2×3); orthographic: J = diag(fx, fy), the same for every point.
  const ortho = cam.orthographic;
  const j00 = ortho ? cam.fx : cam.fx / tz, j02 = ortho ? 0 : (-cam.fx * tx) / (tz * tz);
  const j11 = ortho ? cam.fy : cam.fy / tz, j12 = ortho ? 0 : (-cam.fy * ty) / (tz * tz);
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
  const opacity = cloud.opacities[i];
  if (!(opacity >= ALPHA_MIN)) return null;
  if (alphaMass(opacity, det) < minAlphaMass) return null;
  const k = Math.sqrt(2 * Math.log(opacity / ALPHA_MIN));
  const { lambda, major } = eigenSym2(a, b, cc);
  const hx = k * Math.sqrt(a);
  const hy = k * Math.sqrt(cc);
  const u = (ortho ? cam.fx * t[0] : (cam.fx * t[0]) / tz) + cam.cx;
  const v = (ortho ? cam.fy * t[1] : (cam.fy * t[1]) / tz) + cam.cy;
  if (u + hx < 0 || u - hx > cam.width || v + hy < 0 || v - hy > cam.height) return null;
  return {
    u, v, depth: tz, conic: [cc / det, -b / det, a / det], cov: [a, b, cc], major,
    sigma: [Math.sqrt(lambda[0]), Math.sqrt(lambda[1])], extentSigmas: k, halfExtent: [hx, hy], opacity,
  };
}

/**
 * Bits of the depth sort key for a scene of `count` splats: ⌈round(log₂(count / 16)) / 4⌉ · 4,
 * clamped to [12, 16] (4-bit radix digits: 3 sort passes up to ~93 k splats, then 4). The levels
 * are spread over the visible depth range by the visible splats' own depth density
 * ({@link depthBinCdf}, {@link depthSortKey}), not only linearly, so where a capture's splats crowd
 * a small part of its depth range the levels crowd there too (bench/RESULTS.md: 12 instead of 16
 * linear bits cost ≤ 1.6 dB at ≥ 53 dB on the shared captures; weighted 16 against linear 20 and 16
 * bits on the 5 M-splat Semarang capture, see there).
 */
export function depthKeyBits(count: number): number {
  const bits = Math.round(Math.log2(Math.max(1, count) / 16));
  return Math.min(16, Math.max(12, Math.ceil(bits / 4) * 4));
}

/** Depth histogram bins: a positive f32 depth's bits >> DEPTH_BIN_SHIFT (32 bins per octave, absolute). */
export const DEPTH_BIN_SHIFT = 18;
export const DEPTH_BINS = 8192;
/** Share of the key levels spread linearly over the depth range (the rest follow the depth density). */
export const DEPTH_LINEAR_SHARE = 0.25;

const depthF32 = new Float32Array(1);
const depthU32 = new Uint32Array(depthF32.buffer);

/** The f32 bits of a depth (metres, > 0), as the GPU stores it. */
export function depthBits(depth: number): number {
  depthF32[0] = depth;
  return depthU32[0];
}

/** The histogram bin of a depth (metres, > 0): its f32 bits >> DEPTH_BIN_SHIFT, at most DEPTH_BINS − 1. */
export function depthBin(depth: number): number {
  return Math.min(DEPTH_BINS - 1, depthBits(depth) >>> DEPTH_BIN_SHIFT);
}

/**
 * Which frame splats the depth histogram samples: splat j (its index among this frame's splats) when
 * `(j & mask) === 0`: every splat of frames up to 2^18 splats, then a power-of-two stride (≤ 2^18 samples).
 */
export function depthSampleMask(splatCount: number): number {
  const shift = Math.max(0, 31 - Math.clz32(Math.max(1, splatCount)) - 17);
  return 2 ** shift - 1;
}

/**
 * The cumulative depth distribution over histogram bins (`depthCdf` in preprocess.wgsl): for each
 * bin b from bin(minDepth) to bin(maxDepth), the f32 share of the sampled depths in the bins below b
 * (0 at the first), and 1 at bin(maxDepth) + 1; entries outside stay 0. With no samples the bins
 * share the range evenly. `counts` is the DEPTH_BINS histogram of the sampled visible depths.
 */
export function depthBinCdf(counts: ArrayLike<number>, minDepth: number, maxDepth: number): Float32Array {
  const cdf = new Float32Array(DEPTH_BINS + 1);
  const b0 = depthBin(minDepth);
  const b1 = depthBin(maxDepth);
  let total = 0;
  for (let b = b0; b <= b1; b++) total += counts[b];
  let cum = 0;
  for (let b = b0; b <= b1; b++) {
    cdf[b] = total === 0 ? Math.fround(b - b0) / Math.fround(b1 - b0 + 1) : Math.fround(cum) / Math.fround(total);
    cum += counts[b];
  }
  cdf[b1 + 1] = 1;
  return cdf;
}

/**
 * The depth sort key of `preprocess.wgsl` (f32 arithmetic as on the GPU), reversed so that an
 * ascending sort is back to front: the depth's place w ∈ [0, 1] among the visible depths,
 * w = (1 − s)·F + s·u, with F the sampled depth distribution `cdf` ({@link depthBinCdf}, linear in
 * the f32 mantissa inside a bin), u the linear place in [minDepth, maxDepth] and s =
 * DEPTH_LINEAR_SHARE; key = 2^bits − 2 − round(w·(2^bits − 2)). w never decreases with depth, so
 * keys never invert the depth order (equal keys keep splat order), and every part of the range
 * keeps at least s of the linear levels. Without `cdf`, w = u. Culled splats get 2^bits − 1.
 */
export function depthSortKey(depth: number, minDepth: number, maxDepth: number, bits: number, cdf?: Float32Array): number {
  const f = Math.fround;
  const maxKey = 2 ** bits - 2;
  const span = Math.max(f(f(maxDepth) - f(minDepth)), 1e-30);
  const u = Math.min(1, Math.max(0, f(f(f(depth) - f(minDepth)) / span)));
  let w = u;
  if (cdf) {
    const db = depthBits(depth);
    const bin = depthBin(depth);
    const frac = f((db & ((1 << DEPTH_BIN_SHIFT) - 1)) / (1 << DEPTH_BIN_SHIFT));
    const lo = cdf[bin];
    const density = f(lo + f(frac * f(cdf[bin + 1] - lo)));
    w = Math.min(1, Math.max(0, f(f(f(1 - DEPTH_LINEAR_SHARE) * density) + f(f(DEPTH_LINEAR_SHARE) * u))));
  }
  return maxKey - Math.round(f(w * maxKey));
}
