/**
 * Headless-page functions of the baked city and scanned scenes (collected by
 * `src/tools/headless-entry.ts` for `npm run render -- --world SEED|SCENE.json`): plain JSON in,
 * plain JSON out, images as base64 RGBA8 (opaque: the sky is composited behind the splats).
 */
import { toBase64, fetchBytes } from '../core/bytes';
import { acquireDevice, describeAdapter, raceDeviceLoss } from '../gpu/device';
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { toRgba8 } from '../gpu/readback';
import { loadSplatFile } from '../splats/formats';
import { renderSplatsOffscreen } from '../splats/offscreen';
import type { SplatCloud } from '../splats/splat-cloud';
import { renderWorldMap } from '../world/map-render';
import { generateWorld, type World } from '../world/world';
import { renderStreetView } from './street-view';
import { ChunkedWorld, DEFAULT_CHUNK_SIZE, DEFAULT_VIEW_DISTANCE } from '../world/bake/chunks';
import { defaultWorldCamera } from '../world/bake/default-camera';
import { loadScene, parseSceneFile, sceneCamera, sceneWorld } from '../world/bake/scene-file';
import { compositeSky } from '../world/bake/sky';
import type { Conditions } from '../world/conditions';

/** Camera overrides shared by the view requests (world frame, Z up, metres, degrees). */
export interface ViewCameraRequest {
  width: number;
  height: number;
  fovYDeg?: number;
  eye?: Vec3;
  target?: Vec3;
  up?: Vec3;
}

/** A view of a procedural world. */
export interface WorldViewRequest extends ViewCameraRequest {
  seed: number;
  /** World side length, metres (default 400). */
  worldSize?: number;
  /** Chunk side, metres (default 32). */
  chunkSize?: number;
  /** View distance for chunk selection, metres (default 60). */
  viewDistance?: number;
  /** Walking pedestrians placed on sidewalks in view (drawn by the robot camera). */
  pedestrians?: number;
  /** Time of day and weather (drawn by the robot camera, as in an episode); default: the default look. */
  conditions?: Conditions;
}

/** A rendered view and what it cost. */
export interface WorldViewResult {
  width: number;
  height: number;
  rgbaBase64: string;
  adapter: string;
  splatCount: number;
  /** Chunks drawn / chunks in the world (procedural worlds; 1 / 1 for scenes). */
  chunkCount: number;
  totalChunks: number;
  camera: PinholeCamera;
  /** Milliseconds: world generation + baking of the visible chunks; GPU render incl. upload and readback. */
  bakeMs: number;
  renderMs: number;
}

function applyOverrides(cam: PinholeCamera, req: ViewCameraRequest): PinholeCamera {
  return { ...cam, eye: req.eye ?? cam.eye, target: req.target ?? cam.target, up: req.up ?? cam.up, fovYDeg: req.fovYDeg ?? cam.fovYDeg };
}

async function renderCloud(cloud: SplatCloud, camera: PinholeCamera, name: string): Promise<{ pixels: Float32Array; adapter: string; ms: number }> {
  const t0 = performance.now();
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  try {
    const pixels = await raceDeviceLoss(acquired, renderSplatsOffscreen(acquired.device, cloud, camera, name));
    return { pixels: compositeSky(pixels, camera), adapter: describeAdapter(acquired), ms: performance.now() - t0 };
  } finally {
    acquired.device.destroy();
  }
}

/**
 * Generates the world of `seed`, bakes the chunks visible from the camera (default: on a sidewalk
 * at robot height, see `defaultWorldCamera`) and renders them.
 *
 * @throws RangeError on a bad seed, world size or chunk size; Error on a bad camera; SplatMemoryError when the view does not fit the adapter.
 */
async function renderWithPedestrians(world: World, camera: PinholeCamera, count: number, viewDistance: number, conditions?: Conditions): Promise<{ pixels: Float32Array; adapter: string; ms: number }> {
  const t0 = performance.now();
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  try {
    const r = await raceDeviceLoss(acquired, renderStreetView(acquired.device, world, camera, count, world.seed, viewDistance, conditions));
    return { pixels: r.pixels, adapter: describeAdapter(acquired), ms: performance.now() - t0 };
  } finally {
    acquired.device.destroy();
  }
}

export async function renderWorldView(req: WorldViewRequest): Promise<WorldViewResult> {
  const t0 = performance.now();
  const world = generateWorld({ seed: req.seed, size: req.worldSize });
  const camera = applyOverrides(defaultWorldCamera(world, { widthPx: req.width, heightPx: req.height }), req);
  const chunked = new ChunkedWorld(world, req.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const view = chunked.view(camera, { viewDistance: req.viewDistance ?? DEFAULT_VIEW_DISTANCE });
  if (view.cloud.count === 0) throw new Error(`world ${world.seed}: no chunk is visible from eye ${camera.eye.join(',')}`);
  const bakeMs = performance.now() - t0;
  // Pedestrians and conditions are the robot camera's (as in an episode); the bare city gets the sky gradient.
  const r = req.pedestrians || req.conditions
    ? await renderWithPedestrians(world, camera, req.pedestrians ?? 0, req.viewDistance ?? DEFAULT_VIEW_DISTANCE, req.conditions)
    : await renderCloud(view.cloud, camera, `world ${world.seed}`);
  return {
    width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(r.pixels)), adapter: r.adapter, splatCount: view.cloud.count,
    chunkCount: view.ids.length, totalChunks: chunked.grid.nx * chunked.grid.ny, camera, bakeMs, renderMs: r.ms,
  };
}

/** A view of a scanned scene file: its JSON text and its capture served to the page. */
export interface SceneViewRequest extends ViewCameraRequest {
  sceneText: string;
  sceneName: string;
  captureUrl: string;
  captureName: string;
}

/**
 * Loads a scene file and its capture, transforms the capture to the world frame and renders it from
 * the scene's camera (or the overrides).
 *
 * @throws SceneFileError naming the field; SplatFormatError naming the capture file.
 */
export async function renderSceneView(req: SceneViewRequest): Promise<WorldViewResult> {
  const t0 = performance.now();
  const scene = parseSceneFile(req.sceneText, req.sceneName);
  const capture = loadSplatFile(req.captureName, await fetchBytes(req.captureUrl, req.captureName));
  const loaded = loadScene(scene, capture, req.sceneName);
  const camera = applyOverrides(sceneCamera(scene, loaded.world, req.width, req.height), req);
  const bakeMs = performance.now() - t0;
  const r = await renderCloud(loaded.cloud, camera, req.captureName);
  return {
    width: req.width, height: req.height, rgbaBase64: toBase64(toRgba8(r.pixels)), adapter: r.adapter, splatCount: loaded.cloud.count,
    chunkCount: 1, totalChunks: 1, camera, bakeMs, renderMs: r.ms,
  };
}

/** Top-down map of a scene file's annotation (walkable polygons and obstacles), RGBA8 base64. */
export async function renderSceneMapImage(req: { sceneText: string; sceneName: string; widthPx: number; heightPx: number }): Promise<{ width: number; height: number; rgbaBase64: string; metresPerPixel: number }> {
  const scene = parseSceneFile(req.sceneText, req.sceneName);
  const img = renderWorldMap(sceneWorld(scene), { widthPx: req.widthPx, heightPx: req.heightPx });
  return { width: img.width, height: img.height, rgbaBase64: toBase64(img.data), metresPerPixel: img.metresPerPixel };
}
