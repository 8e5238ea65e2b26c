/**
 * Seeded synthetic frames for the policy tests: rgba16float textures like the renderer's
 * `OffscreenTarget.color`, with their exact CPU values (each value is a binary16, so the CPU copy
 * equals what the GPU reads).
 */
import { createRng } from '../core/random';
import { fromHalfBits, toHalfBits } from '../gpu/half-float';
import type { RgbaImage } from './observation-reference';

/**
 * A smooth gradient plus seeded noise, values in [−0.1, 1.1] so the [0, 1] clamp is exercised.
 * Returned values are already rounded to binary16.
 */
export function makeTestImage(width: number, height: number, seed: number): RgbaImage {
  const rng = createRng(seed);
  const data = new Float32Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        const smooth = c === 3 ? 1 : 0.5 + 0.4 * Math.sin((x * (c + 1)) / width * 6 + (y * (3 - c)) / height * 4);
        const v = Math.min(1.1, Math.max(-0.1, smooth + rng.range(-0.25, 0.25)));
        data[(y * width + x) * 4 + c] = fromHalfBits(toHalfBits(v));
      }
    }
  }
  return { data, width, height };
}

/**
 * Uploads an image to a new rgba16float texture with TEXTURE_BINDING | COPY_DST usage. The caller
 * destroys it.
 */
export function uploadRgba16f(device: GPUDevice, img: RgbaImage, label = 'testFrame'): GPUTexture {
  const texture = device.createTexture({
    label,
    size: [img.width, img.height],
    format: 'rgba16float',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
  });
  const halves = new Uint16Array(img.data.length);
  for (let i = 0; i < halves.length; i++) halves[i] = toHalfBits(img.data[i]);
  device.queue.writeTexture({ texture }, halves, { bytesPerRow: img.width * 8 }, [img.width, img.height]);
  return texture;
}

/** Copies a GPU buffer's first `count` float32 to the CPU (tests only). */
export async function readFloats(device: GPUDevice, buffer: GPUBuffer, count: number, offsetBytes = 0): Promise<Float32Array> {
  const staging = device.createBuffer({ label: 'readFloats.staging', size: count * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder({ label: 'readFloats' });
  encoder.copyBufferToBuffer(buffer, offsetBytes, staging, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return out;
}
