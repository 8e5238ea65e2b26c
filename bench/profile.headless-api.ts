/**
 * Browser side of `npm run profile`: renders the demo's frame (src/app/demo-renderer.ts: skinning,
 * pedestrians, markers, splat preprocess/sort/raster, present) of the default city with a crowd of
 * walkers, sweeping pedestrian count, splat count and resolution one axis at a time around a base
 * configuration, and reports per-pass GPU times (timestamp queries) and wall-clock frame times.
 */
import { median } from '../src/bench/metrics';
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';
import { suiteWorld } from '../src/bench/suites';
import { CitySplats } from '../src/app/city-splats';
import { CrowdView } from '../src/app/crowd-view';
import { DemoRenderer } from '../src/app/demo-renderer';
import { modeCamera, defaultOrbit } from '../src/app/cameras';
import { timeOfDayLighting } from '../src/world/lighting';
import { ambientWalkers, DEFAULT_CITY_SEED } from '../src/app/scenarios';
import { defaultWorldCamera } from '../src/world/bake/default-camera';
import { groundHeight } from '../src/world/queries';

/** One configuration to time. */
export interface ProfileConfig {
  /** Which sweep it belongs to: 'pedestrians', 'splats' or 'resolution'. */
  sweep: string;
  pedestrians: number;
  /** Splat budget (the city view thinned to at most this many). */
  splats: number;
  width: number;
  height: number;
}

/** A profiling request from src/cli/profile.ts. */
export interface ProfileRequest {
  configs: ProfileConfig[];
  /** Timed frames per configuration (after one warm-up frame). */
  frames: number;
  /** Draw skinned bodies (true) or stand-in boxes. */
  bodies: boolean;
}

/** Median figures of one configuration (ms; pass times null without timestamp-query). */
export interface ProfileRow extends ProfileConfig {
  /** Splats actually drawn. */
  splatsDrawn: number;
  frameMs: number;
  fps: number;
  /** Median GPU ms per pass: pedestrians (render pass; the skinning compute before it is untimed), markers, preprocess, sort, raster, present. */
  passes: Record<string, number> | null;
}

/** The profile and the adapter it ran on. */
export interface ProfileResult {
  adapter: string;
  software: boolean;
  timestamps: boolean;
  rows: ProfileRow[];
}

const PASS_KEYS: Record<string, string> = {
  pedestrians: 'pedestrians', markers: 'markers', preprocess: 'splats.preprocess', sort: 'splats.preprocess→splats.raster', raster: 'splats.raster', present: 'present',
};

/** Runs the sweep (see the module doc). */
export async function runProfileSweep(req: ProfileRequest): Promise<ProfileResult> {
  return withAcquiredDevice({ optionalFeatures: ['timestamp-query'] }, async (acquired) => {
    const device = acquired.device;
    const world = suiteWorld(DEFAULT_CITY_SEED);
    const start = defaultWorldCamera(world, { widthPx: 64, heightPx: 48 });
    const robot = { x: start.eye[0], y: start.eye[1], yaw: Math.atan2(start.target[1] - start.eye[1], start.target[0] - start.eye[0]), v: 0, w: 0 };
    const gz = groundHeight(world, robot.x, robot.y);
    const maxPeds = Math.max(...req.configs.map((c) => c.pedestrians));
    const walkers = ambientWalkers(world, [robot.x, robot.y], maxPeds, 1, 30);
    const renderer = await DemoRenderer.create(device, 'rgba8unorm', 64, 48);
    renderer.setLighting(timeOfDayLighting(14));
    await renderer.prepare(maxPeds);
    const rows: ProfileRow[] = [];
    let lastBudget = -1;
    for (const cfg of req.configs) {
      if (cfg.splats !== lastBudget) {
        const city = new CitySplats(world, { maxSplats: cfg.splats, viewDistance: 45 });
        await renderer.setSplats(city.update([robot.x, robot.y]), 'city');
        lastBudget = cfg.splats;
      }
      renderer.resize(cfg.width, cfg.height);
      const canvas = device.createTexture({ label: 'profile.canvas', size: [cfg.width, cfg.height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
      const crowd = new CrowdView(cfg.pedestrians, 1);
      const peds = walkers.slice(0, cfg.pedestrians);
      const discs = peds.map((p) => ({ x: p.spawn[0], y: p.spawn[1], radius: 0.3 }));
      const anim = peds.map((p) => ({ walkSpeed: p.speed, heading: p.heading, gesture: 'none' as const, idle: false }));
      const orbit = { ...defaultOrbit(robot.yaw), distance: 14 };
      const wall: number[] = [];
      const passes: Record<string, number[]> = {};
      for (let f = 0; f <= req.frames; f++) {
        const cf = crowd.update(1 / 30, discs, anim, (x, y) => groundHeight(world, x, y));
        const frame = { camera: modeCamera('orbit', robot, gz, orbit, cfg.width, cfg.height), crowd: cf, bodies: req.bodies, boxes: req.bodies ? [] : crowd.standIns(cf) };
        const t0 = performance.now();
        renderer.render(frame, canvas);
        await device.queue.onSubmittedWorkDone();
        const t1 = performance.now();
        const times = await renderer.readPassTimes();
        if (f === 0) continue;
        wall.push(t1 - t0);
        if (times) for (const [name, key] of Object.entries(PASS_KEYS)) (passes[name] ??= []).push(times.get(key) ?? 0);
      }
      canvas.destroy();
      const frameMs = median(wall);
      rows.push({
        ...cfg, splatsDrawn: renderer.splatCount, frameMs, fps: 1000 / frameMs,
        passes: renderer.profiler.enabled ? Object.fromEntries(Object.entries(passes).map(([k, v]) => [k, median(v)])) : null,
      });
    }
    renderer.destroy();
    return { adapter: describeAdapter(acquired), software: acquired.isSoftware, timestamps: renderer.profiler.enabled, rows };
  });
}
