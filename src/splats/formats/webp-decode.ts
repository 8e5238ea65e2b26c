/**
 * Exact RGBA8 decoding of (lossless) WebP images in the browser, for the SOG loader: the browser's
 * own decoder (`createImageBitmap` with `premultiplyAlpha: 'none'` and no colour-space
 * conversion), then `copyExternalImageToTexture` into an rgba8unorm texture and a readback. A 2D
 * canvas would premultiply alpha and lose the colour bytes of low-alpha texels (SOG keeps opacity
 * in alpha); this path keeps every byte.
 */
import type { ImageDecoder, Rgba8Image } from './sog';

/** Reads an rgba8unorm texture back as tightly packed bytes (rows unpadded). */
async function readRgba8(device: GPUDevice, texture: GPUTexture): Promise<Uint8Array> {
  const { width, height } = texture;
  const bytesPerRow = Math.ceil((width * 4) / 256) * 256;
  const buffer = device.createBuffer({ label: 'webp-decode.readback', size: bytesPerRow * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder({ label: 'webp-decode' });
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, { width, height });
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const src = new Uint8Array(buffer.getMappedRange());
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) out.set(src.subarray(y * bytesPerRow, y * bytesPerRow + width * 4), y * width * 4);
  buffer.unmap();
  buffer.destroy();
  return out;
}

/**
 * An {@link ImageDecoder} on `device`: decodes one image file to its exact RGBA8 texels.
 *
 * @throws Error `NAME: cannot decode image (…)` when the browser cannot decode the bytes.
 */
export function webpDecoder(device: GPUDevice): ImageDecoder {
  return async (name: string, bytes: Uint8Array): Promise<Rgba8Image> => {
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/webp' }), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    } catch (e) {
      throw new Error(`${name}: cannot decode image (${(e as Error).message})`);
    }
    const { width, height } = bitmap;
    const texture = device.createTexture({ label: `webp-decode.${name}`, size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.RENDER_ATTACHMENT });
    try {
      device.queue.copyExternalImageToTexture({ source: bitmap }, { texture, premultipliedAlpha: false }, [width, height]);
      return { width, height, data: await readRgba8(device, texture) };
    } finally {
      texture.destroy();
      bitmap.close();
    }
  };
}
