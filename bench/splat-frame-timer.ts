/**
 * Timed frames of Curbside's splat renderer for the benchmarks (`bench:peers`, `profile --scene`):
 * one offscreen target, one renderer with a GPU profiler, and helpers for the camera paths.
 */
import { median } from '../src/bench/metrics';
import { cameraModel, type PinholeCamera, type Vec3 } from '../src/gpu/camera';
import { GpuProfiler } from '../src/gpu/profiler';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../src/splats/offscreen';
import { SplatRenderer } from '../src/splats/splat-renderer';

export { orbitCamera } from '../src/gpu/camera';

/**
 * A start view relative to a capture's robust bounds: the eye at `distance` bounds radii from the
 * centre, `pitchDeg` above the plane perpendicular to `up` (the capture's up direction).
 */
export interface BoundsView {
  up: Vec3;
  pitchDeg: number;
  distance: number;
}

/** The camera of a {@link BoundsView} around `bounds`. */
export function boundsViewCamera(bounds: { center: Vec3; radius: number }, view: BoundsView, width: number, height: number, fovYDeg: number): PinholeCamera {
  const n = Math.hypot(...view.up);
  const up = view.up.map((v) => v / n) as Vec3;
  // A horizontal direction: +z (or +x when up is along z) made perpendicular to up.
  const seed: Vec3 = Math.abs(up[2]) > 0.9 ? [1, 0, 0] : [0, 0, 1];
  const d = seed[0] * up[0] + seed[1] * up[1] + seed[2] * up[2];
  const h = seed.map((v, i) => v - d * up[i]) as Vec3;
  const hn = Math.hypot(...h);
  const p = (view.pitchDeg * Math.PI) / 180;
  const r = bounds.radius * view.distance;
  const eye = bounds.center.map((c, i) => c + r * (Math.cos(p) * (h[i] / hn) + Math.sin(p) * up[i])) as Vec3;
  return { eye, target: bounds.center, up, fovYDeg, width, height, near: Math.max(1e-3, r * 1e-4), far: r + 4 * bounds.radius };
}

/** Renders frames of the renderer's current scene into its own target and times them. */
export class SplatFrameTimer {
  private readonly passTimes = new Map<string, number[]>();

  private constructor(
    readonly device: GPUDevice,
    readonly renderer: SplatRenderer,
    readonly target: OffscreenTarget,
    private readonly profiler: GpuProfiler,
  ) {}

  /** A renderer (with a 4-span profiler) and a width × height offscreen target on `device`. */
  static async create(device: GPUDevice, width: number, height: number): Promise<SplatFrameTimer> {
    const profiler = new GpuProfiler(device, 4);
    const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, profiler });
    return new SplatFrameTimer(device, renderer, new OffscreenTarget(device, width, height), profiler);
  }

  /** One frame seen by `camera`: ms from the start of encoding to `onSubmittedWorkDone`; pass times are collected. */
  async frame(camera: PinholeCamera): Promise<number> {
    const t0 = performance.now();
    this.profiler.beginFrame();
    const encoder = this.device.createCommandEncoder({ label: 'SplatFrameTimer' });
    // A capture alone: nothing opaque to depth-test against.
    this.renderer.encode(encoder, cameraModel(camera), { color: this.target.color.createView(), depth: null, clearColor: { r: 0, g: 0, b: 0, a: 1 } });
    const encodeMs = performance.now() - t0;
    const { wallMs, spans } = await this.profiler.submitTimed(encoder);
    for (const [name, t] of spans ?? []) {
      if (!name.includes('→')) this.passTimes.set(name, [...(this.passTimes.get(name) ?? []), t]);
    }
    return encodeMs + wallMs;
  }

  /** Median GPU ms per pass since the last call (`preprocess`, `sort`, `raster`); {} without timestamps. */
  takePassMedians(): Record<string, number> {
    const out = Object.fromEntries([...this.passTimes].map(([k, v]) => [k.replace(/^splats\./, ''), median(v)]));
    this.passTimes.clear();
    return out;
  }

  destroy(): void {
    this.target.destroy();
    this.renderer.destroy();
    this.profiler.destroy();
  }
}
