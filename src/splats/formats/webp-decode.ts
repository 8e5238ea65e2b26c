/**
 * Exact RGBA8 decoding of (lossless) WebP images in the browser, for the SOG loader: the browser's
 * own decoder (`createImageBitmap` with `premultiplyAlpha: 'none'` and no colour-space
 * conversion), then `copyExternalImageToTexture` into an rgba8unorm texture and a readback. A 2D
 * canvas would premultiply alpha and lose the colour bytes of low-alpha texels (SOG keeps opacity
 * in alpha); this path keeps every byte.
 */
import { readTextureBytes } from '../../gpu/readback';
import type { ImageDecoder, Rgba8Image } from './sog';

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
      return { width, height, data: await readTextureBytes(device, texture) };
    } finally {
      texture.destroy();
      bitmap.close();
    }
  };
}
