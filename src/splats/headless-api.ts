/**
 * Headless-page functions of the splat renderer (called by `npm run render` through the browser
 * harness): plain JSON in, plain JSON out.
 */
import { acquireDevice, describeAdapter, raceDeviceLoss } from '../gpu/device';
import { toRgba8 } from '../gpu/readback';
import { splatBounds } from './formats';
import { loadSplatSource } from './load-source';
import { frameSplatBounds } from './framing';
import { renderSplatsOffscreen } from './offscreen';
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { toBase64 } from '../cli/page-io';

/** A render request from `npm run render`. */
export interface RenderRequest {
  fileUrl: string;
  fileName: string;
  /** For a folder of SOG datasets: their meta.json paths relative to `fileUrl`. */
  sogParts?: string[];
  width: number;
  height: number;
  fovYDeg: number;
  eye?: Vec3;
  target?: Vec3;
  up?: Vec3;
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
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const cloud = await raceDeviceLoss(acquired, loadSplatSource({ url: req.fileUrl, name: req.fileName, sogParts: req.sogParts }, acquired.device));
  const framed = frameSplatBounds(splatBounds(cloud), req.width, req.height, req.fovYDeg);
  const camera: PinholeCamera = {
    ...framed,
    eye: req.eye ?? framed.eye,
    target: req.target ?? framed.target,
    up: req.up ?? framed.up,
  };
  if (req.eye || req.target) {
    // An explicit view: the target gives a direction, not a depth range. Far reaches past every
    // splat (full bounds, not the robust ones); depth keys span the visible splats whatever near
    // and far are, so a wide range costs no sort precision.
    const all = splatBounds(cloud, 0, 1);
    const reach = Math.hypot(...all.center.map((c, k) => c - camera.eye[k])) + all.radius;
    camera.far = Math.max(1, reach * 1.01);
    camera.near = Math.min(0.01, Math.max(1e-4, camera.far * 1e-6));
  }
  const pixels = await raceDeviceLoss(acquired, renderSplatsOffscreen(acquired.device, cloud, camera, req.fileName));
  acquired.device.destroy();
  let coveredPixels = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) coveredPixels++;
  return { width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(pixels)), adapter: describeAdapter(acquired), splatCount: cloud.count, coveredPixels, camera };
}

