/**
 * Browser side of `npm run profile -- --scene FILE`: frame time and per-pass GPU time of the splat
 * renderer on any capture (file, SOG folder), at one resolution, with the camera optionally
 * orbiting its target by a fixed angle per frame.
 */
import { median } from '../src/bench/metrics';
import type { Vec3 } from '../src/gpu/camera';
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';
import { captureCamera, type CaptureViewRequest } from '../src/splats/framing';
import { loadSplatSource, type SplatSource } from '../src/splats/load-source';
import { DEFAULT_LOD_PIXEL_FRACTION } from '../src/splats/splat-lod';
import { SplatSceneBuffers } from '../src/splats/splat-scene-buffers';
import { orbitCamera, SplatFrameTimer } from './splat-frame-timer';

export interface SceneProfileRequest extends CaptureViewRequest {
  file: SplatSource;
  /** Degrees the camera turns about the target per frame (0: a still camera). */
  orbitDeg: number;
  /** Timed frames (after `warmup` untimed ones). */
  frames: number;
  warmup: number;
  /** Total-α cull threshold, px² (`SplatRendererOptions.minAlphaMass`; default 0 draws every splat). */
  minAlphaMass?: number;
  /** Level of detail (`SplatRendererOptions.lodPixelFraction`; default DEFAULT_LOD_PIXEL_FRACTION, 0 draws every splat). */
  lodPixelFraction?: number;
}

/** One profiled capture (the `rows[]` entries of profile.json). */
export interface SceneProfileRow {
  scene: string;
  splats: number;
  width: number;
  height: number;
  /** Median ms, start of encoding → onSubmittedWorkDone. */
  frameMs: number;
  fps: number;
  /** Median GPU ms per pass (preprocess, sort, raster); {} without timestamp-query. */
  passes: Record<string, number>;
  /** Load and parse time of the capture in the page, ms. */
  loadMs: number;
  /** Spatial cells, coarse levels and upload (SplatSceneBuffers), ms. */
  prepareMs: number;
  /** Splats of the coarse levels stored beside the capture's (0 without a level of detail). */
  lodSplats: number;
  /** Spatial cells drawn at a coarse level in the last frame, and cells in all. */
  coarseCells: number;
  cells: number;
  /** Peak memory of the browser's processes during load and frames, bytes (filled in by the CLI; null off Linux). */
  browserPeakBytes?: number | null;
  camera: { eye: Vec3; target: Vec3; up: Vec3; fovYDeg: number };
}

export interface SceneProfileResult {
  adapter: string;
  software: boolean;
  rows: SceneProfileRow[];
}

/**
 * Loads `req.file`, renders `warmup` + `frames` frames along the orbit and returns one row of medians.
 *
 * @throws SplatFormatError for a capture that does not load; Error on device loss (named).
 */
export async function profileSplatScene(req: SceneProfileRequest): Promise<SceneProfileResult> {
  return withAcquiredDevice({ optionalFeatures: ['timestamp-query'] }, async (acquired) => {
    const device = acquired.device;
    const t0 = performance.now();
    const cloud = await loadSplatSource(req.file, device);
    const loadMs = performance.now() - t0;
    const start = captureCamera(cloud, req);
    const lod = req.lodPixelFraction ?? DEFAULT_LOD_PIXEL_FRACTION;
    const t1 = performance.now();
    const scene = new SplatSceneBuffers(device, cloud, req.file.name, undefined, undefined, lod);
    const prepareMs = performance.now() - t1;
    const timer = await SplatFrameTimer.create(device, req.width, req.height);
    timer.renderer.minAlphaMass = req.minAlphaMass ?? 0;
    timer.renderer.lodPixelFraction = lod;
    try {
      await timer.renderer.setScene(scene);
      const times: number[] = [];
      for (let f = -req.warmup; f < req.frames; f++) {
        const ms = await timer.frame(orbitCamera(start, (f + req.warmup) * req.orbitDeg));
        if (f >= 0) times.push(ms);
        else timer.takePassMedians();
      }
      const frameMs = median(times);
      return {
        adapter: describeAdapter(acquired),
        software: acquired.isSoftware,
        rows: [{
          scene: req.file.name, splats: cloud.count, width: req.width, height: req.height, frameMs, fps: 1000 / frameMs,
          passes: timer.takePassMedians(), loadMs, prepareMs, lodSplats: scene.storedCount - scene.count, coarseCells: scene.lastCoarseCells, cells: scene.cells?.count.length ?? 0, camera: { eye: start.eye, target: start.target, up: start.up, fovYDeg: start.fovYDeg },
        }],
      };
    } finally {
      timer.destroy();
      scene.destroy();
    }
  });
}
