/**
 * Browser side of the command-line tools: the page the CLI opens in headless Chromium. It exposes
 * `window.curbsideHeadless` with one function per job; each takes plain JSON and returns plain JSON
 * (images as base64 RGBA8), and throws errors whose message is the one line the CLI prints.
 */
import { acquireDevice, describeAdapter } from '../gpu/device';
import { toRgba8 } from '../gpu/readback';
import { loadSplatFile, splatBounds } from '../splats/formats';
import { frameSplatBounds } from '../splats/framing';
import { renderSplatsOffscreen } from '../splats/offscreen';
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { runSplatBenchmark, type SplatBenchRequest } from '../../bench/splat-bench-page';

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

async function fetchBytes(url: string, name: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${name}: cannot read file (${res.status} ${res.statusText})`);
  return new Uint8Array(await res.arrayBuffer());
}

function toBase64(bytes: Uint8ClampedArray | Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function renderSplats(req: RenderRequest): Promise<RenderResult> {
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
  const pixels = await renderSplatsOffscreen(acquired.device, cloud, camera, req.fileName);
  acquired.device.destroy();
  return { width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(pixels)), adapter: describeAdapter(acquired), splatCount: cloud.count, camera };
}

const api = { renderSplats, runSplatBenchmark };
export type HeadlessApi = typeof api;
export type { SplatBenchRequest };
(window as unknown as { curbsideHeadless: HeadlessApi }).curbsideHeadless = api;
document.title = 'curbside-ready';
