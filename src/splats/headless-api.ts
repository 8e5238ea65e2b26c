/**
 * Headless-page functions of the splat renderer (called by `npm run render` through the browser
 * harness): plain JSON in, plain JSON out.
 */
import { acquireDevice, describeAdapter, raceDeviceLoss } from '../gpu/device';
import { toRgba8 } from '../gpu/readback';
import { loadSplatFile, splatBounds } from './formats';
import { frameSplatBounds } from './framing';
import { renderSplatsOffscreen } from './offscreen';
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { fetchBytes, toBase64 } from '../cli/page-io';

/** A render request from `npm run render`. */
export interface RenderRequest {
  fileUrl: string;
  fileName: string;
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
  camera: PinholeCamera;
}

export async function renderSplats(req: RenderRequest): Promise<RenderResult> {
  const cloud = loadSplatFile(req.fileName, await fetchBytes(req.fileUrl, req.fileName));
  const framed = frameSplatBounds(splatBounds(cloud), req.width, req.height, req.fovYDeg);
  const camera: PinholeCamera = {
    ...framed,
    eye: req.eye ?? framed.eye,
    target: req.target ?? framed.target,
    up: req.up ?? framed.up,
  };
  if (req.eye || req.target) {
    // An explicit view: keep near/far generous around the given eye.
    const d = Math.hypot(...camera.target.map((t, k) => t - camera.eye[k]));
    camera.near = Math.max(1e-3, d * 1e-3);
    camera.far = Math.max(framed.far, d * 50);
  }
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const pixels = await raceDeviceLoss(acquired, renderSplatsOffscreen(acquired.device, cloud, camera, req.fileName));
  acquired.device.destroy();
  return { width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(pixels)), adapter: describeAdapter(acquired), splatCount: cloud.count, camera };
}

