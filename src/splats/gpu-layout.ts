/**
 * Host-side layouts of the splat structs in `shaders/splats/splat-types.wgsl` and the packing of a
 * {@link SplatCloud} into GPU buffers. Offsets are checked against the WGSL by gpu-layout.test.ts.
 *
 * | buffer       | stride           | contents                                                        |
 * |--------------|------------------|-----------------------------------------------------------------|
 * | splats       | 64 B             | `Splat`: position f32×3, opacity, rotation (w,x,y,z), scale f32×3, pad, shDc f32×3, pad |
 * | shRest       | SH_REST_STRIDE×4 | K×3 binary16 values (coefficient-major, channel-minor) packed two per u32, zero-padded |
 * | projected    | 32 B             | `ProjectedSplat`: centre px, √λ₁e₁ px, √λ₂ px, NDC depth, colour rg, (b, opacity) as f16 pairs |
 * | depths       | 4 B              | f32 bits of the splat's camera depth (valid where its visibility bit is set) |
 * | visible bits | 1 bit            | visible this frame, whole blocks of 256 (cleared each frame)    |
 * | block offsets| 4 B / 256 splats | visible splats per block, then their exclusive scan             |
 * | sort keys    | 4 B              | compacted: the visible splats' quantised reversed depth keys (first V used) |
 * | sort values  | 4 B              | compacted: their splat indices                                  |
 * | counters     | 32 B per frame   | visible count V, ~bits(min depth), bits(max depth), pad, drawIndirect args (preprocess-pass.ts: FRAME_COUNTERS) |
 */
import { toHalfBits } from '../gpu/half-float';
import { shRestCount, type SplatCloud } from './splat-cloud';

export const SPLAT_LAYOUT = { size: 64, position: 0, opacity: 12, rotation: 16, scale: 32, shDc: 48 } as const;
export const PROJECTED_SPLAT_LAYOUT = { size: 32, centerPx: 0, axisMajor: 8, sigmaMinor: 16, depthNdc: 20, colorRG: 24, colorBO: 28 } as const;
export const SPLAT_FRAME_LAYOUT = { size: 16, splatCount: 0, keyBits: 4, rangeCount: 8, minAlphaMass: 12 } as const;

/** u32 words of packed binary16 SH per splat for a degree (at least 1 so the binding is never empty). */
export function shRestStride(degree: number): number {
  return Math.max(1, Math.ceil((shRestCount(degree) * 3) / 2));
}

/**
 * Packs positions, opacities, rotations, scales and SH dc into `Splat` records; record k holds
 * splat `order[k]` (default: splat k). With `from`/`to`, only records [from, to) (record `from` first),
 * so a large scene can be uploaded in slices.
 */
export function packSplats(cloud: SplatCloud, order?: Uint32Array, from = 0, to = cloud.count): Float32Array<ArrayBuffer> {
  const out = new Float32Array((to - from) * (SPLAT_LAYOUT.size / 4));
  for (let k = from; k < to; k++) {
    const i = order ? order[k] : k;
    const o = (k - from) * 16;
    out.set(cloud.positions.subarray(i * 3, i * 3 + 3), o);
    out[o + 3] = cloud.opacities[i];
    out.set(cloud.rotations.subarray(i * 4, i * 4 + 4), o + 4);
    out.set(cloud.scales.subarray(i * 3, i * 3 + 3), o + 8);
    out.set(cloud.shDc.subarray(i * 3, i * 3 + 3), o + 12);
  }
  return out;
}

/**
 * Packs the higher-band SH as binary16 pairs, `shRestStride(degree)` words per splat; slot k holds
 * splat `order[k]`; with `from`/`to`, only slots [from, to) (at least one slot's words are returned).
 */
export function packShRest(cloud: SplatCloud, order?: Uint32Array, from = 0, to = cloud.count): Uint32Array<ArrayBuffer> {
  const stride = shRestStride(cloud.shDegree);
  const out = new Uint32Array(Math.max(1, to - from) * stride);
  const perSplat = shRestCount(cloud.shDegree) * 3;
  if (perSplat === 0) return out;
  for (let k = from; k < to; k++) {
    const i = order ? order[k] : k;
    for (let h = 0; h < perSplat; h++) {
      const bits = toHalfBits(cloud.shRest[i * perSplat + h]);
      out[(k - from) * stride + (h >> 1)] |= h & 1 ? bits << 16 : bits;
    }
  }
  return out;
}
