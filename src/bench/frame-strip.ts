/**
 * What a camera-fed policy saw before an episode failed: a ring of each slot's last robot-camera
 * frames kept on the GPU (one texture copy per control step, nothing read back while the episode
 * runs), and, when an episode ends without success, a strip of the frames of its last seconds read
 * back and laid side by side as one JPEG for the report (SidewalkBench's qualitative figures).
 * Browser-side (OffscreenCanvas).
 */
import { submit } from '../gpu/gpu-stats';

/** Frames kept per slot (at 5 Hz: the last 3.2 s). */
export const FRAME_RING_CAPACITY = 16;
/** The strip's span before the end, s, and its most frames. */
export const STRIP_SPAN_S = 3;
export const STRIP_MAX_FRAMES = 6;

/** A failed episode's strip: the JPEG and each frame's episode time, s (left to right). */
export interface FrameStrip {
  jpeg: Uint8Array;
  times: number[];
}

/**
 * Which of a slot's kept frames the strip shows: indices into `times` (ascending episode times,
 * s) of at most `maxFrames` frames spread evenly over the last `spanS` seconds, the last frame
 * always among them; [] when there is none.
 */
export function pickStripFrames(times: readonly number[], spanS = STRIP_SPAN_S, maxFrames = STRIP_MAX_FRAMES): number[] {
  if (times.length === 0 || maxFrames < 1) return [];
  const last = times.length - 1;
  let first = last;
  while (first > 0 && times[first - 1] >= times[last] - spanS - 1e-9) first--;
  const n = Math.min(maxFrames, last - first + 1);
  if (n === 1) return [last];
  const picked: number[] = [];
  for (let k = 0; k < n; k++) {
    // Evenly spaced target times from the span's start to the last frame; the nearest kept frame not yet picked.
    const target = times[first] + ((times[last] - times[first]) * k) / (n - 1);
    let best = Math.max(first, picked.length ? picked[picked.length - 1] + 1 : first);
    for (let i = best; i <= last - (n - 1 - k); i++) if (Math.abs(times[i] - target) < Math.abs(times[best] - target)) best = i;
    picked.push(best);
  }
  return picked;
}

/** RGBA8 pixels (top row first) → JPEG bytes, alpha ignored (the page's encoder). */
export async function encodeJpeg(rgba: Uint8Array, width: number, height: number, quality: number): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const pixels = new Uint8ClampedArray(rgba.length);
  pixels.set(rgba);
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
  return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality })).arrayBuffer());
}

/**
 * The last {@link FRAME_RING_CAPACITY} frames of each of `slots` slots (rgba8unorm textures of one
 * size, e.g. CameraBatch frames), in one 2D-array texture per slot.
 */
export class FrameRing {
  private readonly rings: GPUTexture[];
  /** Per slot: episode time of each kept frame, oldest first, and the layer the next one goes to. */
  private readonly times: number[][];
  private readonly layers: number[][];
  private readonly next: number[];

  /** @param width, height the frames' size, pixels. */
  constructor(private readonly device: GPUDevice, slots: number, readonly width: number, readonly height: number) {
    this.rings = Array.from({ length: slots }, (_, i) => device.createTexture({
      label: `FrameRing[${i}]`,
      size: [width, height, FRAME_RING_CAPACITY],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
    }));
    this.times = Array.from({ length: slots }, () => []);
    this.layers = Array.from({ length: slots }, () => []);
    this.next = new Array(slots).fill(0);
  }

  /** Forgets `slot`'s frames (a new episode starts there). */
  reset(slot: number): void {
    this.times[slot] = [];
    this.layers[slot] = [];
    this.next[slot] = 0;
  }

  /**
   * Keeps `frames[i]` (null: slot i did not render) as slot i's newest frame, taken at episode
   * time `times[i]`, s: one submission of texture copies.
   *
   * @throws Error (a validation error) when a frame's size or format differs from the ring's.
   */
  push(frames: readonly (GPUTexture | null)[], times: readonly (number | null)[]): void {
    const encoder = this.device.createCommandEncoder({ label: 'FrameRing.push' });
    let copies = 0;
    frames.forEach((frame, slot) => {
      if (!frame) return;
      const layer = this.next[slot];
      encoder.copyTextureToTexture({ texture: frame }, { texture: this.rings[slot], origin: [0, 0, layer] }, [this.width, this.height, 1]);
      this.next[slot] = (layer + 1) % FRAME_RING_CAPACITY;
      this.times[slot].push(times[slot]!);
      this.layers[slot].push(layer);
      if (this.times[slot].length > FRAME_RING_CAPACITY) {
        this.times[slot].shift();
        this.layers[slot].shift();
      }
      copies++;
    });
    if (copies > 0) submit(this.device, encoder);
  }

  /** Slot `slot`'s strip ({@link pickStripFrames} of its kept frames side by side), or null when it kept none. */
  async strip(slot: number, quality = 0.85): Promise<FrameStrip | null> {
    const picked = pickStripFrames(this.times[slot]);
    if (picked.length === 0) return null;
    const { width, height } = this;
    const rowBytes = width * 4;
    const bytesPerRow = Math.ceil(rowBytes / 256) * 256;
    const buffer = this.device.createBuffer({ label: 'FrameRing.strip', size: bytesPerRow * height * picked.length, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = this.device.createCommandEncoder({ label: 'FrameRing.strip' });
      picked.forEach((k, j) => encoder.copyTextureToBuffer(
        { texture: this.rings[slot], origin: [0, 0, this.layers[slot][k]] },
        { buffer, offset: j * bytesPerRow * height, bytesPerRow },
        [width, height, 1],
      ));
      // Per-episode report material, not per-step work: not counted in gpu-stats (bench --stats).
      this.device.queue.submit([encoder.finish()]);
      await buffer.mapAsync(GPUMapMode.READ);
      const src = new Uint8Array(buffer.getMappedRange());
      const stripWidth = width * picked.length;
      const out = new Uint8Array(stripWidth * height * 4);
      for (let j = 0; j < picked.length; j++) {
        for (let y = 0; y < height; y++) {
          const from = j * bytesPerRow * height + y * bytesPerRow;
          out.set(src.subarray(from, from + rowBytes), (y * stripWidth + j * width) * 4);
        }
      }
      buffer.unmap();
      return { jpeg: await encodeJpeg(out, stripWidth, height, quality), times: picked.map((k) => this.times[slot][k]) };
    } finally {
      buffer.destroy();
    }
  }

  destroy(): void {
    for (const t of this.rings) t.destroy();
  }
}
