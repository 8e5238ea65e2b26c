/**
 * Headless-page functions of the splat renderer (called by `npm run render` through the browser
 * harness): plain JSON in, plain JSON out.
 */
import { describeAdapter, withAcquiredDevice } from '../gpu/device';
import { toRgba8 } from '../gpu/readback';
import { loadSplatSource } from './load-source';
import { captureCamera, type CaptureViewRequest } from './framing';
import { renderSplatsOffscreen } from './offscreen';
import type { PinholeCamera } from '../gpu/camera';
import { toBase64 } from '../core/bytes';

/** A render request from `npm run render`. */
export interface RenderRequest extends CaptureViewRequest {
  fileUrl: string;
  fileName: string;
  /** For a folder of SOG datasets: their meta.json paths relative to `fileUrl`. */
  sogParts?: string[];
  /** Total-α cull threshold, px² (`SplatRendererOptions.minAlphaMass`; default 0 draws every splat). */
  minAlphaMass?: number;
  /** Level of detail (`SplatRendererOptions.lodPixelFraction`; default DEFAULT_LOD_PIXEL_FRACTION, 0 draws every splat of the capture). */
  lodPixelFraction?: number;
}

export interface RenderResult {
  width: number;
  height: number;
  rgbaBase64: string;
  adapter: string;
  splatCount: number;
  /** Pixels any splat covers (alpha > 0); 0 means nothing was in view. */
  coveredPixels: number;
  camera: PinholeCamera;
}

export async function renderSplats(req: RenderRequest): Promise<RenderResult> {
  return withAcquiredDevice({ optionalFeatures: ['timestamp-query'] }, async (acquired) => {
    const cloud = await loadSplatSource({ url: req.fileUrl, name: req.fileName, sogParts: req.sogParts }, acquired.device);
    const camera = captureCamera(cloud, req);
    const pixels = await renderSplatsOffscreen(acquired.device, cloud, camera, req.fileName, req.minAlphaMass ?? 0, req.lodPixelFraction);
    let coveredPixels = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) coveredPixels++;
    return { width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(pixels)), adapter: describeAdapter(acquired), splatCount: cloud.count, coveredPixels, camera };
  });
}

