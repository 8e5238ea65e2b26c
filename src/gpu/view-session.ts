/**
 * Views kept open in the headless page across frames, for `npm run render` (one frame, or an orbit
 * of N with `--frames`): the page function that opens a view loads the scene and creates the
 * renderer, its pipelines and its target once and registers them here; each
 * {@link renderViewFrame} call then draws one frame, turned about the first frame's target, and
 * sends it back; {@link closeView} frees the renderer and the device.
 */
import { toBase64 } from '../core/bytes';
import type { PinholeCamera, Vec3 } from './camera';
import { raceDeviceLoss, type AcquiredDevice } from './device';
import { toRgba8 } from './readback';

/** One rendered frame of a {@link ViewSource}: linear RGBA floats and what was drawn. */
export interface ViewSourceFrame {
  /** Linear RGBA, width×height×4, top row first. */
  pixels: Float32Array;
  splatCount: number;
  /** Splat chunks drawn (1 for a capture or a scene file). */
  chunkCount: number;
  /** Pixels any splat covers (alpha > 0; views over a transparent background only). */
  coveredPixels?: number;
}

/** A pedestrian to draw in one frame: ground position (world frame, metres), facing (rad from +x, counter-clockwise) and walking speed (m/s, 0 standing). */
export interface FramePedestrian {
  x: number;
  y: number;
  heading: number;
  walkSpeed: number;
}

/**
 * Pedestrians that move between frames (an arena session's walkers): who stands where in this frame
 * (list position is identity: the i-th pedestrian keeps its look and gait from frame to frame) and
 * the seconds their gaits advance since the last frame.
 */
export interface FramePedestrians {
  pedestrians: readonly FramePedestrian[];
  dt: number;
}

/** What a view session renders with (a renderer and its target, created once). */
export interface ViewSource {
  /** The camera of the frame turned `orbitDeg` degrees about the view's target (0: the first frame's camera). */
  cameraAt(orbitDeg: number): PinholeCamera;
  /**
   * Renders one frame from `camera` (of the view's size); with `pedestrians`, those instead of the
   * view's own (up to the room the view was opened with; a view without a pedestrian pass ignores them).
   */
  render(camera: PinholeCamera, pedestrians?: FramePedestrians): Promise<ViewSourceFrame>;
  destroy(): void;
}

/** An image encoding done in the page (the browser's own PNG/JPEG encoder): format and JPEG quality, 0–1. */
export interface FrameEncoding {
  format: 'png' | 'jpeg';
  quality?: number;
}

/** A frame sent back to the CLI: RGBA8 pixels (base64, alpha as rendered), or the encoded image when asked for one, and its camera. */
export interface ViewFrameResult {
  width: number;
  height: number;
  /** RGBA8 pixels, base64; empty when `encoded` is set. */
  rgbaBase64: string;
  /** The frame as a PNG or JPEG file (opaque: alpha forced to 1), base64, when the request asked for an encoding. */
  encodedBase64?: string;
  camera: PinholeCamera;
  splatCount: number;
  chunkCount: number;
  /** Pixels any splat covers, for views over a transparent background (a capture: 0 means nothing in view). */
  coveredPixels?: number;
  /** Milliseconds: GPU render incl. upload and readback. */
  renderMs: number;
}

const sessions = new Map<number, { acquired: AcquiredDevice; source: ViewSource }>();
let nextSession = 1;

/**
 * Registers `source` (rendering on `acquired`'s device) and returns its session id; the session
 * owns the device from now on ({@link closeView} destroys both).
 */
export function openViewSession(acquired: AcquiredDevice, source: ViewSource): number {
  const id = nextSession++;
  sessions.set(id, { acquired, source });
  return id;
}

function session(id: number) {
  const s = sessions.get(id);
  if (!s) throw new Error(`view session ${id} is not open`);
  return s;
}

/**
 * Renders one frame of an open view, turned `orbitDeg` degrees about its target (around its up axis),
 * or from `pose` (world frame, metres, Z up: an arena agent's eye and the point it looks at) with the
 * view's size and field of view; with `pedestrians`, those pedestrians in this frame (see
 * {@link FramePedestrians}; drawn by views opened with room for them, e.g. `openWorldView`'s `maxPedestrians`).
 *
 * @throws Error for a closed session; the device-loss message; whatever the renderer throws.
 */
export async function renderViewFrame(req: { session: number; orbitDeg: number; pose?: { eye: Vec3; target: Vec3 }; encode?: FrameEncoding; pedestrians?: FramePedestrians }): Promise<ViewFrameResult> {
  const { acquired, source } = session(req.session);
  const t0 = performance.now();
  const first = source.cameraAt(req.orbitDeg);
  const camera: PinholeCamera = req.pose ? { ...first, eye: req.pose.eye, target: req.pose.target, up: [0, 0, 1] } : first;
  const frame = await raceDeviceLoss(acquired, source.render(camera, req.pedestrians));
  const rgba = toRgba8(frame.pixels);
  const renderMs = performance.now() - t0;
  const base = { width: camera.width, height: camera.height, camera, splatCount: frame.splatCount, chunkCount: frame.chunkCount, coveredPixels: frame.coveredPixels, renderMs };
  if (!req.encode) return { ...base, rgbaBase64: toBase64(rgba) };
  return { ...base, rgbaBase64: '', encodedBase64: toBase64(await encodeFrame(rgba, camera.width, camera.height, req.encode)) };
}

/**
 * Encodes RGBA8 pixels (top row first) as an opaque PNG or JPEG with the browser's encoder
 * (`OffscreenCanvas.convertToBlob`): far less to send back than the raw pixels.
 */
async function encodeFrame(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, e: FrameEncoding): Promise<Uint8Array> {
  const px = new Uint8ClampedArray(rgba.length);
  px.set(rgba);
  for (let i = 3; i < px.length; i += 4) px[i] = 255;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('renderViewFrame: no 2D canvas to encode the frame');
  ctx.putImageData(new ImageData(px, width, height), 0, 0);
  const blob = await canvas.convertToBlob({ type: e.format === 'png' ? 'image/png' : 'image/jpeg', quality: e.quality });
  return new Uint8Array(await blob.arrayBuffer());
}

/** Frees an open view's renderer and device (a closed or unknown session is a no-op). */
export async function closeView(req: { session: number }): Promise<void> {
  const s = sessions.get(req.session);
  if (!s) return;
  sessions.delete(req.session);
  try {
    s.source.destroy();
  } finally {
    s.acquired.device.destroy();
  }
}
