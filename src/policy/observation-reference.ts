/**
 * Plain TypeScript reference of the observation pass (`shaders/policy/observation.wgsl`): the
 * crop/bilinear resize/normalise of one frame, the ring of past frames and the chronological
 * context table. The GPU pass is tested against it; the wasm-backend comparison feeds it to the
 * model as the CPU-side observation.
 *
 * Resize: bilinear with half-pixel centres and edge clamping, without antialiasing — the same as
 * PyTorch `F.interpolate(mode='bilinear', align_corners=False, antialias=False)` and OpenCV
 * `INTER_LINEAR`. Each f32 operation is rounded with `Math.fround` in the WGSL's order, so the two
 * differ only by fused multiply-adds and the GPU's own rounding (see the GPU test's tolerance).
 */
import type { PolicyManifest } from './manifest';
import { contextStride } from './manifest';

/** What the observation pass needs from a manifest. */
export interface ObservationConfig {
  /** Output image size, pixels. */
  width: number;
  height: number;
  /** `center`: crop the source to width/height's aspect ratio first. */
  crop: 'none' | 'center';
  /** Per-channel mean and std (RGB), applied as (x − mean)/std when `normalize`. */
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
  normalize: boolean;
  /** T: context frames; stride: control steps between them. */
  frames: number;
  stride: number;
}

/** The observation config a manifest implies. */
export function observationConfig(m: PolicyManifest): ObservationConfig {
  return {
    width: m.image.width,
    height: m.image.height,
    crop: m.image.crop,
    mean: m.normalization.mean,
    std: m.normalization.std,
    normalize: m.normalization.appliedBy === 'curbside',
    frames: m.context.frames,
    stride: contextStride(m),
  };
}

/** Ring slots a config needs: (T − 1)·stride + 1 (as `ringSlots` of the manifest). */
export function configRingSlots(c: ObservationConfig): number {
  return (c.frames - 1) * c.stride + 1;
}

/**
 * The source rectangle (origin and size, source pixels, may be fractional) that maps onto the
 * output: the whole frame, or the centred crop with the output's aspect ratio.
 */
export function cropRect(srcWidth: number, srcHeight: number, c: Pick<ObservationConfig, 'width' | 'height' | 'crop'>): { x0: number; y0: number; w: number; h: number } {
  if (c.crop === 'none') return { x0: 0, y0: 0, w: srcWidth, h: srcHeight };
  const aspect = c.width / c.height;
  if (srcWidth / srcHeight > aspect) {
    const w = srcHeight * aspect;
    return { x0: (srcWidth - w) / 2, y0: 0, w, h: srcHeight };
  }
  const h = srcWidth / aspect;
  return { x0: 0, y0: (srcHeight - h) / 2, w: srcWidth, h };
}

/** An RGBA float image, top row first (as `readTexture` returns). */
export interface RgbaImage {
  data: Float32Array;
  width: number;
  height: number;
}

const f = Math.fround;

/**
 * Resizes and normalises one RGBA frame into planar RGB [3, H, W] float32.
 *
 * Per output pixel (i, j): u = x0 + (i + ½)·w/W − ½, v likewise, clamped to the source; the four
 * neighbouring texels, each clamped to [0, 1], are blended bilinearly; then (x − mean)/std when the
 * config normalises. Alpha is ignored.
 */
export function resizeNormalizeReference(src: RgbaImage, c: ObservationConfig): Float32Array {
  const { width: W, height: H } = c;
  const rect = cropRect(src.width, src.height, c);
  const scaleX = f(rect.w / W);
  const scaleY = f(rect.h / H);
  const x0 = f(rect.x0);
  const y0 = f(rect.y0);
  const out = new Float32Array(3 * W * H);
  const texel = (x: number, y: number, ch: number) => Math.min(1, Math.max(0, src.data[(y * src.width + x) * 4 + ch]));
  for (let j = 0; j < H; j++) {
    const v = Math.min(src.height - 1, Math.max(0, f(f(y0 + f(f(j + 0.5) * scaleY)) - 0.5)));
    const ya = Math.floor(v);
    const yb = Math.min(ya + 1, src.height - 1);
    const fy = f(v - ya);
    for (let i = 0; i < W; i++) {
      const u = Math.min(src.width - 1, Math.max(0, f(f(x0 + f(f(i + 0.5) * scaleX)) - 0.5)));
      const xa = Math.floor(u);
      const xb = Math.min(xa + 1, src.width - 1);
      const fx = f(u - xa);
      for (let ch = 0; ch < 3; ch++) {
        const top = f(texel(xa, ya, ch) + f(fx * f(texel(xb, ya, ch) - texel(xa, ya, ch))));
        const bottom = f(texel(xa, yb, ch) + f(fx * f(texel(xb, yb, ch) - texel(xa, yb, ch))));
        let value = f(top + f(fy * f(bottom - top)));
        if (c.normalize) value = f(f(value - f(c.mean[ch])) / f(c.std[ch]));
        out[(ch * H + j) * W + i] = value;
      }
    }
  }
  return out;
}

/**
 * Ring slots holding the T context frames of one environment, oldest first: the frame k·stride
 * control steps before the newest for k = T−1 … 0. While fewer frames have been pushed than the
 * context spans, the oldest frame pushed stands in for the missing ones (so the first step sees T
 * copies of the first frame).
 *
 * @param newestSlot Slot the newest frame was written to.
 * @param pushed Frames pushed since the environment's reset (≥ 1).
 * @param slots Ring size S.
 */
export function contextSlots(newestSlot: number, pushed: number, frames: number, stride: number, slots: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < frames; t++) {
    const age = Math.min((frames - 1 - t) * stride, pushed - 1);
    out.push((((newestSlot - age) % slots) + slots) % slots);
  }
  return out;
}

/**
 * CPU twin of {@link ObservationPass}: keeps the last S resized frames per environment and
 * assembles [B, T, 3, H, W] float32 (chronological) on each push.
 */
export class ObservationRingReference {
  private readonly slots: number;
  private readonly ring: Float32Array[][];
  private newest = -1;
  private readonly pushed: number[];

  constructor(readonly config: ObservationConfig, readonly batch: number) {
    this.slots = configRingSlots(config);
    this.ring = Array.from({ length: this.slots }, () => new Array<Float32Array>(batch));
    this.pushed = new Array<number>(batch).fill(0);
  }

  /** Forgets the history of `envs` (all when omitted). */
  reset(envs?: readonly number[]): void {
    for (const b of envs ?? this.pushed.keys()) this.pushed[b] = 0;
  }

  /**
   * Pushes one frame per environment (one control step) and returns the model input.
   *
   * @throws Error when `frames.length` is not the batch size.
   */
  push(frames: readonly RgbaImage[]): Float32Array {
    if (frames.length !== this.batch) throw new Error(`ObservationRingReference.push: ${frames.length} frames for batch ${this.batch}`);
    this.newest = (this.newest + 1) % this.slots;
    const { frames: T, stride, width, height } = this.config;
    const plane = 3 * width * height;
    const out = new Float32Array(this.batch * T * plane);
    for (let b = 0; b < this.batch; b++) {
      this.ring[this.newest][b] = resizeNormalizeReference(frames[b], this.config);
      this.pushed[b]++;
      const table = contextSlots(this.newest, this.pushed[b], T, stride, this.slots);
      table.forEach((slot, t) => out.set(this.ring[slot][b], (b * T + t) * plane));
    }
    return out;
  }
}
