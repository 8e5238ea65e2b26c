/**
 * The failed-episode camera strip on a real device: frames of solid colours pushed into the GPU
 * ring come back, decoded from the strip's JPEG, as the last ones in order and side by side.
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { FRAME_RING_CAPACITY, FrameRing } from './frame-strip';

/** A w×h rgba8unorm texture of one colour (0–255). */
function solid(device: GPUDevice, w: number, h: number, rgb: [number, number, number]): GPUTexture {
  const t = device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING });
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set([...rgb, 255], i * 4);
  device.queue.writeTexture({ texture: t }, px, { bytesPerRow: w * 4 }, [w, h]);
  return t;
}

/** Decodes a JPEG to RGBA pixels with the page's image decoder. */
async function decode(jpeg: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const bitmap = await createImageBitmap(new Blob([jpeg as BlobPart], { type: 'image/jpeg' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
}

describe('FrameRing', () => {
  it('keeps the last frames of each slot and lays the last seconds side by side', async () => {
    await withDevice(async (device) => {
      const [w, h] = [16, 12];
      const ring = new FrameRing(device, 2, w, h);
      const frames: GPUTexture[] = [];
      try {
        // Slot 0: 20 frames at 2 Hz (more than the ring holds), frame k red = 10·k; slot 1: one blue frame.
        for (let k = 0; k < 20; k++) {
          const f = solid(device, w, h, [10 * k, 0, 0]);
          frames.push(f);
          ring.push([f, k === 0 ? solid(device, w, h, [0, 0, 200]) : null], [k * 0.5, k === 0 ? 0 : null]);
        }
        const strip = await ring.strip(0);
        expect(strip).not.toBeNull();
        // The last 3 s at 2 Hz: t = 6.5 … 9.5 s, frames 13 … 19 (7 > 6 kept: six spread over them).
        expect(strip!.times).toHaveLength(6);
        expect(strip!.times[0]).toBeCloseTo(6.5, 9);
        expect(strip!.times[5]).toBeCloseTo(9.5, 9);
        const img = await decode(strip!.jpeg);
        expect([img.width, img.height]).toEqual([6 * w, h]);
        strip!.times.forEach((t, j) => {
          const o = ((h >> 1) * img.width + j * w + (w >> 1)) * 4;
          expect(Math.abs(img.data[o] - 10 * Math.round(t / 0.5)), `frame ${j} red`).toBeLessThanOrEqual(4);
          expect(img.data[o + 2], `frame ${j} blue`).toBeLessThanOrEqual(4);
        });
        const other = await ring.strip(1);
        expect(other!.times).toEqual([0]);
        const blue = await decode(other!.jpeg);
        expect(blue.data[((h >> 1) * w + (w >> 1)) * 4 + 2]).toBeGreaterThan(190);
        ring.reset(0);
        expect(await ring.strip(0)).toBeNull();
        expect(FRAME_RING_CAPACITY).toBeGreaterThanOrEqual(7);
      } finally {
        ring.destroy();
        for (const f of frames) f.destroy();
      }
    });
  });
});
