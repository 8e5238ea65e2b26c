/**
 * Headless-page functions of the baked city and scanned scenes (collected by
 * `src/tools/headless-entry.ts` for `npm run render -- --world SEED|SCENE.json`): plain JSON in,
 * plain JSON out, images as base64 RGBA8 (opaque: the sky is composited behind the splats). A view
 * is opened once (world baked or scene loaded, renderer created) and rendered frame by frame with
 * {@link renderViewFrame} (one frame, or an orbit), then closed with {@link closeView}.
 */
import { fetchBytes, toBase64 } from '../core/bytes';
import { acquireDevice, describeAdapter, raceDeviceLoss, type AcquiredDevice } from '../gpu/device';
import { orbitCamera, type PinholeCamera, type Vec3 } from '../gpu/camera';
import { openViewSession, type ViewSource } from '../gpu/view-session';
import { loadSplatFile } from '../splats/formats';
import { OffscreenSplatView } from '../splats/offscreen';
import type { SplatBackground, SplatViewOptions } from '../splats/splat-background';
import type { SplatCloud } from '../splats/splat-cloud';
import { renderWorldMap } from '../world/map-render';
import { generateWorld, type World } from '../world/world';
import { osmWorldLabel, pageOsmWorld, type PageOsmWorld } from '../world/osm/world-ref';
import { StreetView, type PlacedPedestrian } from './street-view';
import { type BakeOptions, ChunkedWorld, DEFAULT_CHUNK_SIZE, DEFAULT_VIEW_DISTANCE } from '../world/bake/chunks';
import { defaultWorldCamera } from '../world/bake/default-camera';
import { loadScene, parseSceneFile, sceneCamera, sceneWorld } from '../world/bake/scene-file';
import { compositeSky } from '../world/bake/sky';
import type { Conditions } from '../world/conditions';

export { closeView, renderViewFrame } from '../gpu/view-session';
export type { PlacedPedestrian } from './street-view';

/** Camera overrides shared by the view requests (world frame, Z up, metres, degrees). */
export interface ViewCameraRequest {
  width: number;
  height: number;
  fovYDeg?: number;
  eye?: Vec3;
  target?: Vec3;
  up?: Vec3;
  /** Standing pedestrians at chosen spots (drawn by the robot camera). */
  pedestrianAt?: PlacedPedestrian[];
}

/** A view of a procedural world. */
export interface WorldViewRequest extends ViewCameraRequest {
  seed: number;
  /** World side length, metres (default 400). */
  worldSize?: number;
  /**
   * A real place instead of the procedural world of `seed`: its ref and a Curbside OSM extract of
   * at least its selection (src/world/osm/extract.ts), registered once per page.
   */
  osm?: PageOsmWorld;
  /** Chunk side, metres (default 32). */
  chunkSize?: number;
  /** View distance for chunk selection, metres (default 60). */
  viewDistance?: number;
  /** Walking pedestrians placed on sidewalks in view (drawn by the robot camera). */
  pedestrians?: number;
  /** Room for this many pedestrians given frame by frame (`renderViewFrame`'s `pedestrians`; default: the view's own count). */
  maxPedestrians?: number;
  /** Time of day and weather (drawn by the robot camera, as in an episode); default: the default look. */
  conditions?: Conditions;
  /** How the city is baked (sign style, surface detail); default: the city as shipped. */
  bake?: BakeOptions;
}

/** An opened view: its session for `renderViewFrame` / `closeView`, and what opening it cost. */
export interface ViewOpened {
  session: number;
  adapter: string;
  /** Chunks in the world (procedural worlds; 1 for scenes). */
  totalChunks: number;
  /** The first frame's camera. */
  camera: PinholeCamera;
  /** Pedestrians drawn (walking ones found in view plus placed ones). */
  pedestrians: number;
  /** Milliseconds: world generation + baking of the first frame's chunks, or loading the scene. */
  bakeMs: number;
}

function applyOverrides(cam: PinholeCamera, req: ViewCameraRequest): PinholeCamera {
  return { ...cam, eye: req.eye ?? cam.eye, target: req.target ?? cam.target, up: req.up ?? cam.up, fovYDeg: req.fovYDeg ?? cam.fovYDeg };
}

/** A background that remembers what its last view drew (the frame's splat and chunk counts). */
class CountedBackground implements SplatBackground {
  splats = 0;
  chunks = 0;
  constructor(private readonly inner: SplatBackground | ChunkedWorld) {}
  view(camera: PinholeCamera, options?: SplatViewOptions): { cloud: SplatCloud; changed: boolean } {
    const v = this.inner.view(camera, options);
    this.splats = v.cloud.count;
    this.chunks = 'ids' in v ? (v.ids as number[]).length : 1;
    return v;
  }
}

/** A fixed cloud (a scanned scene in the world frame): changed on the first view only. */
function fixedBackground(cloud: SplatCloud): SplatBackground {
  let shown = false;
  return {
    view() {
      const changed = !shown;
      shown = true;
      return { cloud, changed };
    },
  };
}

/**
 * The view's renderer: the robot camera when pedestrians or conditions are drawn (as in an
 * episode), else the splats alone over the sky gradient.
 */
async function viewSource(acquired: AcquiredDevice, o: { world: World; background: CountedBackground; camera: PinholeCamera; name: string; viewDistance: number; pedestrians: number; maxPedestrians?: number; placed: PlacedPedestrian[]; conditions?: Conditions }): Promise<{ source: ViewSource; pedestrians: number }> {
  const { device } = acquired;
  const { background, viewDistance, camera } = o;
  const cameraAt = (deg: number) => orbitCamera(camera, deg);
  const counts = () => ({ splatCount: background.splats, chunkCount: background.chunks });
  if (o.pedestrians > 0 || (o.maxPedestrians ?? 0) > 0 || o.placed.length > 0 || o.conditions) {
    const street = await raceDeviceLoss(acquired, StreetView.create(device, { world: o.world, camera, count: o.pedestrians, capacity: o.maxPedestrians, placed: o.placed, seed: o.world.seed, viewDistance, background, conditions: o.conditions }));
    return {
      source: { cameraAt, render: async (cam, peds) => ({ pixels: await street.render(cam, peds), ...counts() }), destroy: () => street.destroy() },
      pedestrians: street.pedestrians.length,
    };
  }
  const view = await raceDeviceLoss(acquired, OffscreenSplatView.create(device, camera.width, camera.height));
  let uploaded = false;
  return {
    source: {
      cameraAt,
      async render(cam) {
        const v = background.view(cam, { viewDistance });
        if (v.cloud.count === 0) return { pixels: compositeSky(new Float32Array(cam.width * cam.height * 4), cam), ...counts() };
        if (v.changed || !uploaded) await view.setCloud(v.cloud, o.name);
        uploaded = true;
        return { pixels: compositeSky(await view.render(cam), cam), ...counts() };
      },
      destroy: () => view.destroy(),
    },
    pedestrians: 0,
  };
}

/** @throws RangeError naming `--pedestrian-at` (the CLI option these come from) for a spot outside the world's bounds. */
function checkPlaced(world: World, placed: readonly PlacedPedestrian[], name: string): void {
  const b = world.bounds;
  for (const p of placed) {
    if (!(p.x >= b[0] && p.x <= b[2] && p.y >= b[1] && p.y <= b[3])) {
      throw new RangeError(`--pedestrian-at ${p.x},${p.y}: outside ${name} (x ${b[0].toFixed(1)}..${b[2].toFixed(1)}, y ${b[1].toFixed(1)}..${b[3].toFixed(1)} m)`);
    }
  }
}

/** Acquires a device, creates the view's renderer and registers the session (the device is freed if that fails). */
async function openView(o: Omit<Parameters<typeof viewSource>[1], 'background'> & { background: SplatBackground | ChunkedWorld; totalChunks: number; t0: number }): Promise<ViewOpened> {
  const bakeMs = performance.now() - o.t0;
  const background = new CountedBackground(o.background);
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  try {
    const { source, pedestrians } = await viewSource(acquired, { ...o, background });
    const session = openViewSession(acquired, source);
    return { session, adapter: describeAdapter(acquired), totalChunks: o.totalChunks, camera: o.camera, pedestrians, bakeMs };
  } catch (e) {
    acquired.device.destroy();
    throw e;
  }
}

/**
 * Generates the world of `seed` (or builds the real place of `osm`), bakes the chunks visible from the camera (default: on a sidewalk
 * at robot height, see `defaultWorldCamera`) and opens a view of them.
 *
 * @throws RangeError on a bad seed, world size or chunk size, or a placed pedestrian outside the world; Error on a bad camera or when no chunk is in view.
 */
export async function openWorldView(req: WorldViewRequest): Promise<ViewOpened> {
  const t0 = performance.now();
  const world = req.osm ? pageOsmWorld(req.osm) : generateWorld({ seed: req.seed, size: req.worldSize });
  const name = req.osm ? osmWorldLabel(req.osm.ref) : `world ${world.seed}`;
  const camera = applyOverrides(defaultWorldCamera(world, { widthPx: req.width, heightPx: req.height }), req);
  checkPlaced(world, req.pedestrianAt ?? [], name);
  const chunked = new ChunkedWorld(world, req.chunkSize ?? DEFAULT_CHUNK_SIZE, req.bake);
  const viewDistance = req.viewDistance ?? DEFAULT_VIEW_DISTANCE;
  if (chunked.view(camera, { viewDistance }).cloud.count === 0) throw new Error(`${name}: no chunk is visible from eye ${camera.eye.join(',')}`);
  return openView({
    world, background: chunked, camera, name, viewDistance, pedestrians: req.pedestrians ?? 0, maxPedestrians: req.maxPedestrians, placed: req.pedestrianAt ?? [],
    conditions: req.conditions, totalChunks: chunked.grid.nx * chunked.grid.ny, t0,
  });
}

/** A view of a scanned scene file: its JSON text and its capture served to the page. */
export interface SceneViewRequest extends ViewCameraRequest {
  sceneText: string;
  sceneName: string;
  captureUrl: string;
  captureName: string;
}

/**
 * Loads a scene file and its capture, transforms the capture to the world frame and opens a view
 * of it from the scene's camera (or the overrides).
 *
 * @throws SceneFileError naming the field; SplatFormatError naming the capture file; RangeError for a placed pedestrian outside the scene.
 */
export async function openSceneView(req: SceneViewRequest): Promise<ViewOpened> {
  const t0 = performance.now();
  const scene = parseSceneFile(req.sceneText, req.sceneName);
  const capture = loadSplatFile(req.captureName, await fetchBytes(req.captureUrl, req.captureName));
  const loaded = loadScene(scene, capture, req.sceneName);
  checkPlaced(loaded.world, req.pedestrianAt ?? [], req.sceneName);
  const camera = applyOverrides(sceneCamera(scene, loaded.world, req.width, req.height), req);
  return openView({
    world: loaded.world, background: fixedBackground(loaded.cloud), camera, name: req.captureName, viewDistance: DEFAULT_VIEW_DISTANCE,
    pedestrians: 0, placed: req.pedestrianAt ?? [], totalChunks: 1, t0,
  });
}

/** Top-down map of a scene file's annotation (walkable polygons and obstacles), RGBA8 base64. */
export async function renderSceneMapImage(req: { sceneText: string; sceneName: string; widthPx: number; heightPx: number }): Promise<{ width: number; height: number; rgbaBase64: string; metresPerPixel: number }> {
  const scene = parseSceneFile(req.sceneText, req.sceneName);
  const img = renderWorldMap(sceneWorld(scene), { widthPx: req.widthPx, heightPx: req.heightPx });
  return { width: img.width, height: img.height, rgbaBase64: toBase64(img.data), metresPerPixel: img.metresPerPixel };
}
