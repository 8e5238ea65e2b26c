/**
 * Texture readback for tests, the CLI and benchmarks (never in a frame loop).
 */
import { fromHalfBits } from './half-float';
import { mapForReading, submit } from './gpu-stats';

const BYTES_PER_PIXEL: Record<string, number> = { rgba16float: 8, rgba8unorm: 4, bgra8unorm: 4, depth32float: 4 };

/**
 * Copies `size` bytes of `buffer` from `offset` to the CPU through a temporary staging buffer, in
 * one submission (counted in gpu-stats.ts).
 *
 * @param buffer needs COPY_SRC usage; `offset` and `size` are bytes, multiples of 4.
 * @throws Error (a validation error) when the usage or range is wrong.
 */
export async function readBuffer(device: GPUDevice, buffer: GPUBuffer, offset = 0, size = buffer.size - offset, label = 'readBuffer'): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ label: `${label}.staging`, size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const encoder = device.createCommandEncoder({ label });
    encoder.copyBufferToBuffer(buffer, offset, staging, 0, size);
    submit(device, encoder);
    await mapForReading(device, staging);
    return staging.getMappedRange().slice(0);
  } finally {
    staging.destroy();
  }
}

/**
 * Copies a 2D texture to the CPU and returns its texels as tightly packed bytes (rows unpadded,
 * top row first, the texture's own format). Supports `rgba16float`, `rgba8unorm`, `bgra8unorm` and
 * `depth32float` (depth aspect).
 *
 * @throws Error for other formats.
 */
export async function readTextureBytes(device: GPUDevice, texture: GPUTexture): Promise<Uint8Array> {
  const { width, height, format } = texture;
  const bytesPerPixel = BYTES_PER_PIXEL[format as string];
  if (!bytesPerPixel) throw new Error(`readTexture: unsupported format ${format}`);
  const rowBytes = width * bytesPerPixel;
  const bytesPerRow = Math.ceil(rowBytes / 256) * 256;
  const buffer = device.createBuffer({ label: 'readTexture.buffer', size: bytesPerRow * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder({ label: 'readTexture.encoder' });
  encoder.copyTextureToBuffer({ texture, aspect: format === 'depth32float' ? 'depth-only' : 'all' }, { buffer, bytesPerRow }, { width, height });
  submit(device, encoder);
  await mapForReading(device, buffer);
  const src = new Uint8Array(buffer.getMappedRange());
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) out.set(src.subarray(y * bytesPerRow, y * bytesPerRow + rowBytes), y * rowBytes);
  buffer.unmap();
  buffer.destroy();
  return out;
}

/**
 * Copies a 2D texture to the CPU and returns it as RGBA floats (width×height×4, top row first).
 * Supports `rgba16float`, `rgba8unorm` and `bgra8unorm` colour and `depth32float` (in channel 0).
 *
 * @throws Error for other formats.
 */
export async function readTexture(device: GPUDevice, texture: GPUTexture): Promise<Float32Array> {
  const { width, height, format } = texture;
  const bytes = await readTextureBytes(device, texture);
  const bytesPerPixel = BYTES_PER_PIXEL[format as string];
  const out = new Float32Array(width * height * 4);
  const view = new DataView(bytes.buffer);
  for (let p = 0; p < width * height; p++) {
    const src = p * bytesPerPixel;
    const dst = p * 4;
    if (format === 'rgba16float') {
      for (let c = 0; c < 4; c++) out[dst + c] = fromHalfBits(view.getUint16(src + 2 * c, true));
    } else if (format === 'depth32float') {
      out[dst] = view.getFloat32(src, true);
    } else {
      const order = format === 'bgra8unorm' ? [2, 1, 0, 3] : [0, 1, 2, 3];
      for (let c = 0; c < 4; c++) out[dst + c] = bytes[src + order[c]] / 255;
    }
  }
  return out;
}

/** Converts RGBA floats in [0, 1] to 8-bit RGBA (rounded, clamped), e.g. for PNG encoding. */
export function toRgba8(pixels: Float32Array): Uint8ClampedArray {
  const out = new Uint8ClampedArray(pixels.length);
  for (let i = 0; i < pixels.length; i++) out[i] = Math.round(Math.min(1, Math.max(0, pixels[i])) * 255);
  return out;
}
