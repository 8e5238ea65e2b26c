/**
 * Browser side of `npm run bench:splats`: renders synthetic splat clouds at several counts and
 * resolutions and reports wall-clock frame time and per-pass GPU time (timestamp queries).
 */
import { median } from '../src/bench/metrics';
import { cameraModel } from '../src/gpu/camera';
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';
import { GpuProfiler } from '../src/gpu/profiler';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../src/splats/offscreen';
import { SplatRenderer } from '../src/splats/splat-renderer';
import { SplatSceneBuffers } from '../src/splats/splat-scene-buffers';
import { syntheticCamera, syntheticSplats } from '../src/splats/synthetic-splats';

export interface SplatBenchRequest {
  counts: number[];
  resolutions: [number, number][];
  /** Timed frames per configuration (after one warm-up frame). */
  frames: number;
  shDegree: number;
}

export interface SplatBenchRow {
  splats: number;
  width: number;
  height: number;
  /** Median wall-clock time from submit to `onSubmittedWorkDone`, ms. */
  frameMs: number;
  /** Median GPU time per pass (timestamp queries), ms; null without `timestamp-query`. */
  preprocessMs: number | null;
  sortMs: number | null;
  rasterMs: number | null;
}

export interface SplatBenchResult {
  adapter: string;
  software: boolean;
  timestamps: boolean;
  rows: SplatBenchRow[];
}

export async function runSplatBenchmark(req: SplatBenchRequest): Promise<SplatBenchResult> {
  return withAcquiredDevice({ optionalFeatures: ['timestamp-query'] }, async (acquired) => {
    const device = acquired.device;
    const profiler = new GpuProfiler(device, 4);
    const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, profiler });
    const rows: SplatBenchRow[] = [];
    for (const count of req.counts) {
      const scene = new SplatSceneBuffers(device, syntheticSplats(count, req.shDegree), `synthetic-${count}`);
      await renderer.setScene(scene);
      for (const [width, height] of req.resolutions) {
        const target = new OffscreenTarget(device, width, height);
        const cam = cameraModel(syntheticCamera(width, height));
        const wall: number[] = [];
        const passes: Record<'pre' | 'sort' | 'raster', number[]> = { pre: [], sort: [], raster: [] };
        for (let f = 0; f <= req.frames; f++) {
          profiler.beginFrame();
          const encoder = device.createCommandEncoder();
          target.clearDepth(encoder);
          renderer.encode(encoder, cam, { color: target.color.createView(), depth: target.depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 1 } });
          const { wallMs, spans: times } = await profiler.submitTimed(encoder);
          if (f === 0) continue; // warm-up: pipeline compilation and first-use allocation
          wall.push(wallMs);
          if (times) {
            passes.pre.push(times.get('splats.preprocess') ?? NaN);
            passes.sort.push(times.get('splats.preprocess→splats.raster') ?? 0);
            passes.raster.push(times.get('splats.raster') ?? NaN);
          }
        }
        target.destroy();
        rows.push({
          splats: count,
          width,
          height,
          frameMs: median(wall),
          preprocessMs: profiler.enabled ? median(passes.pre) : null,
          sortMs: profiler.enabled ? median(passes.sort) : null,
          rasterMs: profiler.enabled ? median(passes.raster) : null,
        });
      }
      scene.destroy();
    }
    renderer.destroy();
    profiler.destroy();
    return { adapter: describeAdapter(acquired), software: acquired.isSoftware, timestamps: profiler.enabled, rows };
  });
}
