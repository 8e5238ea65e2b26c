/**
 * Host-side layouts of the splat structs in `shaders/splats/splat-types.wgsl` and the packing of a
 * {@link SplatCloud} into GPU buffers. Offsets are checked against the WGSL by gpu-layout.test.ts.
 *
 * | buffer       | stride           | contents                                                        |
 * |--------------|------------------|-----------------------------------------------------------------|
 * | splats       | 64 B             | `Splat`: position f32×3, opacity, Σ xx xy xz, SH scale, Σ yy yz zz, emission, shDc f32×3, pad |
 * | shRest       | SH_REST_STRIDE×4 | the K higher-band SH coefficients (rgb) as snorm8 of the splat's SH scale, one word per coefficient (`packShRest`) |
 * | projected    | 32 B             | `ProjectedSplat`: centre px, k√λ₁e₁ px, L = ln(o/α_min) (−1: culled), NDC depth, colour rg, (b, √(λ₂/λ₁)) as f16 pairs |
 * | depths       | 4 B              | f32 bits of the splat's camera depth (valid where its visibility bit is set) |
 * | visible bits | 1 bit            | visible this frame, whole blocks of 256 (cleared each frame)    |
 * | block offsets| 4 B / 256 splats | visible splats per block, then their exclusive scan             |
 * | sort keys    | 4 B              | compacted: the visible splats' quantised reversed depth keys (first V used) |
 * | sort values  | 4 B              | compacted: their splat indices                                  |
 * | counters     | 32 B per frame   | visible count V, ~bits(min depth), bits(max depth), pad, drawIndirect args (preprocess-pass.ts: FRAME_COUNTERS) |
 */
import { covarianceFromRotationScale } from './projection';
import { shRestCount, type SplatCloud } from './splat-cloud';

export const SPLAT_LAYOUT = { size: 64, position: 0, opacity: 12, covA: 16, shScale: 28, covB: 32, emissive: 44, shDc: 48 } as const;
export const PROJECTED_SPLAT_LAYOUT = { size: 32, centerPx: 0, extentMajor: 8, alphaLog: 16, depthNdc: 20, colorRG: 24, blueMinor: 28 } as const;
/**
 * One vertex of a splat's triangle as the corners pass writes it (`shaders/splats/corners.wgsl`;
 * bytes): clip x, y and NDC depth (f32), L = ln(o / α_min) (f32), then the projected record's
 * colorRG and blueMinor words (rgb and the minor/major ratio, four binary16). Three per splat, in draw order.
 */
export const SPLAT_VERTEX_LAYOUT = { size: 24, clipLog: 0, colorMinor: 16 } as const;
/** Bytes of vertices per splat (three corners). */
export const SPLAT_VERTEX_BYTES_PER_SPLAT = 3 * SPLAT_VERTEX_LAYOUT.size;
/** `SplatFrame`: counts and the cull threshold, then the conditions' shading (splat-shading.ts). */
export const SPLAT_FRAME_LAYOUT = {
  size: 64, splatCount: 0, keyBits: 4, rangeCount: 8, minAlphaMass: 12, tint: 16, fogDensity: 28, fogColor: 32, wetBelow: 44, wetFactor: 48,
} as const;

/**
 * u32 words of packed SH per splat for a degree: one per higher-band coefficient, at most 12 (degree
 * 3's coefficients 12–14 ride in the spare bytes, see `packShRest`); at least 1 so the binding is
 * never empty.
 */
export function shRestStride(degree: number): number {
  return Math.max(1, Math.min(12, shRestCount(degree)));
}

/** Largest |coefficient| of splat `i`'s higher SH bands (the snorm8 scale of `packShRest`), 0 without. */
export function shRestScale(cloud: SplatCloud, i: number): number {
  const n = shRestCount(cloud.shDegree) * 3;
  let m = 0;
  for (let h = i * n; h < (i + 1) * n; h++) m = Math.max(m, Math.abs(cloud.shRest[h]));
  return m;
}

/**
 * Word and byte of value `h` = 3m + channel (coefficient m of the higher bands) in a splat's
 * packed SH: coefficients 0–11 fill bytes 0–2 of words 0–11 (r, g, b); coefficients 12–14 (degree
 * 3) fill byte 3 of words 3(m − 12) + channel.
 */
function shSlot(h: number): [word: number, byte: number] {
  const m = Math.floor(h / 3);
  const ch = h % 3;
  return m < 12 ? [m, ch] : [3 * (m - 12) + ch, 3];
}

/**
 * Packs positions, opacities, 3D covariances and SH dc into `Splat` records; record k holds splat
 * `order[k]` (default: splat k). The covariance Σ = R S Sᵀ Rᵀ (3DGS eq. 6) is computed here in f64 from
 * the quaternion and scales (`covarianceFromRotationScale`) and stored as its upper triangle (xx, xy,
 * xz in `covA`, yy, yz, zz in `covB`), so the preprocess skips it every frame (bench/RESULTS.md). With
 * `from`/`to`, only records [from, to) (record `from` first), so a large scene can be uploaded in slices.
 */
export function packSplats(cloud: SplatCloud, order?: Uint32Array, from = 0, to = cloud.count): Float32Array<ArrayBuffer> {
  const out = new Float32Array((to - from) * (SPLAT_LAYOUT.size / 4));
  const cov = new Float64Array(6);
  const [a, b] = [SPLAT_LAYOUT.covA / 4, SPLAT_LAYOUT.covB / 4];
  for (let k = from; k < to; k++) {
    const i = order ? order[k] : k;
    const o = (k - from) * 16;
    out.set(cloud.positions.subarray(i * 3, i * 3 + 3), o);
    out[o + 3] = cloud.opacities[i];
    covarianceFromRotationScale(cloud.rotations.subarray(i * 4, i * 4 + 4), cloud.scales.subarray(i * 3, i * 3 + 3), cov);
    out[o + a] = cov[0]; out[o + a + 1] = cov[1]; out[o + a + 2] = cov[2];
    out[o + b] = cov[3]; out[o + b + 1] = cov[4]; out[o + b + 2] = cov[5];
    out[o + SPLAT_LAYOUT.shScale / 4] = shRestScale(cloud, i);
    out[o + SPLAT_LAYOUT.emissive / 4] = cloud.emissive?.[i] ?? 0;
    out.set(cloud.shDc.subarray(i * 3, i * 3 + 3), o + 12);
  }
  return out;
}

/**
 * Packs the higher-band SH as snorm8 of the splat's scale s = `shRestScale` (the `Splat` record's
 * `shScale`): q = round(127 v / s), so the GPU's unpack4x8snorm(q) · s is within s / 254 of v.
 * `shRestStride(degree)` words per splat, layout of `shSlot`; slot k holds splat `order[k]`; with
 * `from`/`to`, only slots [from, to) (at least one slot's words are returned). Eight-bit SH halve
 * the bytes the preprocess reads per SH-3 splat (92 → 48) and its time (bench/RESULTS.md).
 */
export function packShRest(cloud: SplatCloud, order?: Uint32Array, from = 0, to = cloud.count): Uint32Array<ArrayBuffer> {
  const stride = shRestStride(cloud.shDegree);
  const out = new Uint32Array(Math.max(1, to - from) * stride);
  const perSplat = shRestCount(cloud.shDegree) * 3;
  if (perSplat === 0) return out;
  for (let k = from; k < to; k++) {
    const i = order ? order[k] : k;
    const scale = shRestScale(cloud, i);
    if (scale === 0) continue;
    for (let h = 0; h < perSplat; h++) {
      const q = Math.round((127 * cloud.shRest[i * perSplat + h]) / scale);
      const [word, byte] = shSlot(h);
      out[(k - from) * stride + word] |= (q & 0xff) << (8 * byte);
    }
  }
  return out;
}

/**
 * The higher-band SH values of packed slot `k` as the GPU decodes them (`preprocess.wgsl:
 * colorFromSh`): max(q / 127, −1) · scale, K×3 values (coefficient-major, channel-minor). The TS twin
 * of the decode, for tests.
 */
export function unpackShRest(words: Uint32Array, degree: number, k: number, scale: number): Float32Array {
  const perSplat = shRestCount(degree) * 3;
  const stride = shRestStride(degree);
  const out = new Float32Array(perSplat);
  for (let h = 0; h < perSplat; h++) {
    const [word, byte] = shSlot(h);
    const q = ((words[k * stride + word] >>> (8 * byte)) << 24) >> 24;
    out[h] = Math.max(q / 127, -1) * scale;
  }
  return out;
}
