/**
 * Browser side of `npm run bench:pedestrians` and `bench/pedestrians-snapshot.ts`: seeded crowds
 * of pedestrians walking in front of a robot-eye camera (0.5 m high), driven by the procedural gait,
 * skinned on the GPU and drawn by the pedestrian pass over a grey ground. Bodies: the shipped
 * MakeHuman set with distance LODs (`makehuman`, the default) or the built-in procedural body.
 */
import { median } from '../src/bench/metrics';
import { cameraModel, type CameraModel, type PinholeCamera } from '../src/gpu/camera';
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';
import { OpaqueQuadPass } from '../src/gpu/opaque-quad-pass';
import { GpuProfiler } from '../src/gpu/profiler';
import { readTexture, toRgba8 } from '../src/gpu/readback';
import { createRng, deriveSeed } from '../src/core/random';
import { DEFAULT_CAMERA_MOUNT } from '../src/policy/manifest';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../src/splats/offscreen';
import { PedestrianMotion } from '../src/humans/motion/pedestrian-motion';
import { POSE_FLOATS, type MotionState } from '../src/humans/motion/procedural-gait';
import { skeletonFromModel } from '../src/humans/motion/skeleton';
import { randomAppearance, type PedestrianAppearance, type PedestrianPlacement } from '../src/humans/pedestrian-appearance';
import { PedestrianLodGroup } from '../src/humans/pedestrian-lod';
import { createProceduralBody } from '../src/humans/procedural-body';
import { makeHumanBodies, makeHumanMaterial, MAKEHUMAN_LOD_COUNT, MAKEHUMAN_LOD_DISTANCES } from '../src/humans/makehuman-set';
import type { BodyModel } from '../src/humans/body-model';

/** Which pedestrian body a run draws. */
export type BenchBody = 'procedural' | 'makehuman';

/** Default LOD switch distances of the MakeHuman set (metres from the eye). */
export const DEFAULT_LOD_DISTANCES = MAKEHUMAN_LOD_DISTANCES;

/** A LOD group for `body` (one LOD for the procedural body). */
async function bodyGroup(device: GPUDevice, body: BenchBody, capacity: number, lodDistances: readonly number[]) {
  const models = body === 'makehuman' ? makeHumanBodies() : [createProceduralBody()];
  const materials = body === 'makehuman' ? models.map((_, k) => makeHumanMaterial(k)) : undefined;
  const group = await PedestrianLodGroup.create(device, {
    colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, models, materials,
    switchDistances: body === 'makehuman' ? lodDistances.slice(0, MAKEHUMAN_LOD_COUNT - 1) : [], capacity, label: `PedestrianBench.${body}`,
  });
  return { models, group };
}

/** Robot-eye camera: 0.5 m high at the origin looking along +x, pitched up 6° (see the pass test). */
function robotCamera(width: number, height: number): PinholeCamera {
  const pitch = (6 * Math.PI) / 180;
  return { eye: [0, 0, 0.5], target: [1, 0, 0.5 + Math.tan(pitch)], up: [0, 0, 1], fovYDeg: DEFAULT_CAMERA_MOUNT.fovYDeg, width, height, near: 0.05, far: 200 };
}

/** A seeded crowd: motions (with their states), appearances and shapes. */
interface Crowd {
  motions: PedestrianMotion[];
  states: MotionState[];
  appearances: PedestrianAppearance[];
}

function makeCrowd(model: BodyModel, count: number, seed: number, gestures: boolean): Crowd {
  const rng = createRng(seed).fork('crowd');
  const skeleton = skeletonFromModel(model);
  const motions: PedestrianMotion[] = [], states: MotionState[] = [], appearances: PedestrianAppearance[] = [];
  for (let i = 0; i < count; i++) {
    const x = rng.range(2.5, 20), y = rng.range(-0.45, 0.45) * x;
    const yaw = rng.pick([0, Math.PI, Math.PI / 2, -Math.PI / 2]) + rng.range(-0.4, 0.4);
    motions.push(new PedestrianMotion(skeleton, deriveSeed(seed, i), { x, y, yaw }));
    let state: MotionState = { walkSpeed: rng.range(1.0, 1.6), turnRate: rng.range(-0.15, 0.15), gesture: 'none', idle: 'stand' };
    if (gestures && i % 5 === 1) state = { walkSpeed: 0, turnRate: 0, gesture: rng.pick(['talk', 'stop', 'wave'] as const), idle: 'stand' };
    if (gestures && i % 5 === 3) state = { walkSpeed: 0, turnRate: 0, gesture: 'none', idle: 'shuffle' };
    states.push(state);
    appearances.push(randomAppearance(deriveSeed(seed, 1000 + i)));
    // Shapes now come from the appearance; these four draws (the former random β) keep every crowd
    // where earlier versions put it, so before/after images and timings show the same scene.
    for (let b = 0; b < 4; b++) rng.next();
  }
  return { motions, states, appearances };
}

/** Advances every motion by dt and writes poses; returns placements. */
function stepCrowd(crowd: Crowd, dt: number, poses: Float32Array): PedestrianPlacement[] {
  return crowd.motions.map((m, i) => {
    m.update(dt, crowd.states[i]);
    m.pose(poses, i * POSE_FLOATS);
    return { position: [m.root.x, m.root.y, 0], yaw: m.root.yaw };
  });
}

export interface PedestrianSnapshotRequest {
  width: number;
  height: number;
  count: number;
  seed: number;
  /** Seconds of motion before the frame. */
  time: number;
  /** Default `makehuman`. */
  body?: BenchBody;
  /** LOD switch distances (m), default {@link DEFAULT_LOD_DISTANCES}. */
  lodDistances?: number[];
}

export interface PedestrianSnapshotResult {
  width: number;
  height: number;
  adapter: string;
  rgbaBase64: string;
}

/** Renders one frame of `count` pedestrians over a grey ground plane and returns RGBA8 (base64). */
export async function renderPedestrianSnapshot(req: PedestrianSnapshotRequest): Promise<PedestrianSnapshotResult> {
  return withAcquiredDevice({}, async (acquired) => {
    const device = acquired.device;
    const { models, group } = await bodyGroup(device, req.body ?? 'makehuman', req.count, req.lodDistances ?? [...DEFAULT_LOD_DISTANCES]);
    const crowd = makeCrowd(models[0], req.count, req.seed, true);
    const poses = new Float32Array(req.count * POSE_FLOATS);
    let placements: PedestrianPlacement[] = [];
    const steps = Math.max(1, Math.round(req.time * 30));
    for (let s = 0; s < steps; s++) placements = stepCrowd(crowd, req.time / steps, poses);
    const ground = await OpaqueQuadPass.create(device, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT);
    const target = new OffscreenTarget(device, req.width, req.height);
    const pinhole = robotCamera(req.width, req.height);
    const cam: CameraModel = cameraModel(pinhole);
    group.setFrame(pinhole.eye, placements, crowd.appearances, poses);
    const encoder = device.createCommandEncoder();
    ground.encode(encoder, cam, [[0.06, -60, 0], [80, -60, 0], [80, 60, 0], [0.06, 60, 0]], [0.45, 0.45, 0.45, 1], { color: target.color.createView(), depth: target.depth.createView() });
    group.encode(encoder, cam, { color: target.color.createView(), depth: target.depth.createView(), clearColor: null });
    device.queue.submit([encoder.finish()]);
    const pixels = await readTexture(device, target.color);
    // Sky where nothing was drawn (alpha 0): a flat pale blue.
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3] < 0.5) pixels.set([0.62, 0.74, 0.88, 1], i);
    }
    const rgba = toRgba8(pixels);
    [group, ground, target].forEach((r) => r.destroy());
    let bin = '';
    for (let i = 0; i < rgba.length; i += 0x8000) bin += String.fromCharCode(...rgba.subarray(i, i + 0x8000));
    return { width: req.width, height: req.height, adapter: describeAdapter(acquired), rgbaBase64: btoa(bin) };
  });
}

export interface PedestrianBenchRequest {
  counts: number[];
  width: number;
  height: number;
  /** Timed frames per count (after one warm-up frame). */
  frames: number;
  /** Bodies measured side by side (default both: procedural, then makehuman). */
  bodies?: BenchBody[];
  /** MakeHuman LOD switch distances (m), default {@link DEFAULT_LOD_DISTANCES}. */
  lodDistances?: number[];
}

export interface PedestrianBenchRow {
  body: BenchBody;
  pedestrians: number;
  /** Walkers drawn by each LOD (one entry for the procedural body). */
  lodCounts: number[];
  /** Median wall-clock time from submit to `onSubmittedWorkDone`, ms. */
  frameMs: number;
  /** Median CPU time of the procedural motion (update + pose for every pedestrian), ms. */
  motionMs: number;
  /** Median GPU time of the skinning passes (forward kinematics + LBS), ms; null without timestamps. */
  skinningMs: number | null;
  /** Median GPU time of the pedestrian draw (render pass incl. clear), ms. */
  drawMs: number | null;
}

export interface PedestrianBenchResult {
  adapter: string;
  software: boolean;
  timestamps: boolean;
  /** Per body, vertices and triangles of each LOD. */
  bodies: { body: BenchBody; vertices: number[]; triangles: number[] }[];
  lodDistances: number[];
  rows: PedestrianBenchRow[];
}

/**
 * Frame time against pedestrian count. Skinning is timed as the gap between an empty timed
 * compute pass recorded just before `PedestrianSkinner.encode` and the draw pass after it (the
 * skinner's own pass carries no timestamp writes).
 */
export async function runPedestrianBenchmark(req: PedestrianBenchRequest): Promise<PedestrianBenchResult> {
  return withAcquiredDevice({ optionalFeatures: ['timestamp-query'] }, async (acquired) => {
    const device = acquired.device;
    const profiler = new GpuProfiler(device, 8, 'PedestrianBench.profiler');
    const maxCount = Math.max(1, ...req.counts);
    const lodDistances = req.lodDistances ?? [...DEFAULT_LOD_DISTANCES];
    const target = new OffscreenTarget(device, req.width, req.height);
    const pinhole = robotCamera(req.width, req.height);
    const cam = cameraModel(pinhole);
    const rows: PedestrianBenchRow[] = [];
    const bodies: PedestrianBenchResult['bodies'] = [];
    for (const body of req.bodies ?? (['procedural', 'makehuman'] as const)) {
      const { models, group } = await bodyGroup(device, body, maxCount, lodDistances);
      bodies.push({ body, vertices: models.map((m) => m.vertexCount), triangles: models.map((m) => m.faces.length / 3) });
      for (const count of req.counts) {
        const crowd = makeCrowd(models[0], count, 42, false);
        const poses = new Float32Array(Math.max(1, count) * POSE_FLOATS);
        const wall: number[] = [], motion: number[] = [], skin: number[] = [], draw: number[] = [];
        for (let f = 0; f <= req.frames; f++) {
          const m0 = performance.now();
          const placements = stepCrowd(crowd, 1 / 30, poses);
          const m1 = performance.now();
          group.setFrame(pinhole.eye, placements, crowd.appearances, poses);
          profiler.beginFrame();
          const encoder = device.createCommandEncoder();
          encoder.beginComputePass({ label: 'PedestrianBench.skinStart', timestampWrites: profiler.span('pedestrians.skinStart') }).end();
          group.encode(encoder, cam, { color: target.color.createView(), depth: target.depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 1 } }, (k) => profiler.span(`pedestrians.draw${k}`));
          const { wallMs, spans: times } = await profiler.submitTimed(encoder);
          if (f === 0) continue; // warm-up
          wall.push(wallMs);
          motion.push(m1 - m0);
          if (times) {
            skin.push(times.get('pedestrians.skinStart→pedestrians.draw0') ?? 0);
            draw.push(models.reduce((sum, _, k) => sum + (times.get(`pedestrians.draw${k}`) ?? 0), 0));
          }
        }
        rows.push({
          body,
          pedestrians: count,
          lodCounts: [...group.lodCounts],
          frameMs: median(wall),
          motionMs: median(motion),
          skinningMs: profiler.enabled ? median(skin) : null,
          drawMs: profiler.enabled ? median(draw) : null,
        });
      }
      group.destroy();
    }
    [target, profiler].forEach((r) => r.destroy());
    return { adapter: describeAdapter(acquired), software: acquired.isSoftware, timestamps: profiler.enabled, bodies, lodDistances, rows };
  });
}
