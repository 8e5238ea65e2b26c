/**
 * The batched robot camera on real WebGPU (SwiftShader, 48×36): B views encoded into one
 * submission, each equal to a single camera's render of the same state, each environment showing
 * only its own pedestrians, and a refilled slot rendering like a fresh camera of the new episode;
 * 8 slots create no more pipelines than 1 (pipelines once per device, state per view).
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { acquireDevice } from '../gpu/device';
import { gpuStats, gpuStatsDelta } from '../gpu/gpu-stats';
import { readTexture } from '../gpu/readback';
import { defaultWorldCamera } from '../world/bake/default-camera';
import { generateWorld, type World } from '../world/world';
import { CameraBatch, type CameraBatchOptions } from './camera-batch';
import { RobotCamera, type PedestrianView } from './robot-camera';

const W = 48;
const H = 36;
const options: CameraBatchOptions = { mount: { height: 0.8, pitchDeg: 5, fovYDeg: 60 }, width: W, height: H, viewDistance: 8, maxPedestrians: 2 };

/** Largest absolute difference between two images. */
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
/** Pixels whose RGB differ by more than 0.05 in some channel. */
const changedPixels = (a: Float32Array, b: Float32Array) => {
  let n = 0;
  for (let p = 0; p < a.length; p += 4) if ([0, 1, 2].some((c) => Math.abs(a[p + c] - b[p + c]) > 0.05)) n++;
  return n;
};

/** The default city camera's robot state, and a pedestrian 3 m ahead walking towards it. */
function defaultView(world: World): { state: { x: number; y: number; yaw: number }; ped: PedestrianView } {
  const cam = defaultWorldCamera(world, { widthPx: W, heightPx: H });
  const yaw = Math.atan2(cam.target[1] - cam.eye[1], cam.target[0] - cam.eye[0]);
  const state = { x: cam.eye[0], y: cam.eye[1], yaw };
  return { state, ped: { x: state.x + 3 * Math.cos(yaw), y: state.y + 3 * Math.sin(yaw), heading: yaw + Math.PI, walkSpeed: 1.2, gesture: 'none' } };
}

describe('CameraBatch (48×36)', () => {
  it('renders B views in one submission, each as a single camera does, each with only its own pedestrians', () =>
    withDevice(async (device) => {
      const world = generateWorld({ seed: 1 });
      const { state, ped } = defaultView(world);

      const batch = new CameraBatch(device, 2, options);
      const single = await RobotCamera.create(device, { ...options, world, seed: 7 });
      try {
        await batch.load(0, world, 7);
        await batch.load(1, world, 7);
        const before = gpuStats(device);
        await batch.render([
          { state, pedestrians: [ped], dt: 0.5 },
          { state, pedestrians: [], dt: 0.5 },
        ]);
        expect(gpuStatsDelta(gpuStats(device), before).submissions).toBe(1);
        const [b0, b1] = [await readTexture(device, batch.frame(0)), await readTexture(device, batch.frame(1))];

        await single.render(state, [ped], 0.5);
        const withPed = await readTexture(device, single.target.color);
        single.resetPedestrians(7);
        await single.render(state, [], 0.5);
        const without = await readTexture(device, single.target.color);

        expect(maxDiff(b0, withPed)).toBeLessThan(1e-3);
        expect(maxDiff(b1, without)).toBeLessThan(1e-3);
        // The pedestrian 3 m ahead shows in environment 0 only.
        expect(changedPixels(b0, b1)).toBeGreaterThan(20);

        // A refilled slot (new episode seed) renders like a camera reset to that seed.
        await batch.load(1, world, 9);
        await batch.render([null, { state, pedestrians: [ped], dt: 0.5 }]);
        single.resetPedestrians(9);
        await single.render(state, [ped], 0.5);
        expect(maxDiff(await readTexture(device, batch.frame(1)), await readTexture(device, single.target.color))).toBeLessThan(1e-3);
        // Slot 0 was not drawn again: still its first view.
        expect(maxDiff(await readTexture(device, batch.frame(0)), b0)).toBe(0);
      } finally {
        batch.destroy();
        single.destroy();
      }
    }));

  it('creates as many pipelines for 8 slots as for 1, and renders a step of any B in one submission', async () => {
    const world = generateWorld({ seed: 1 });
    const { state, ped } = defaultView(world);
    const created: number[] = [];
    for (const slots of [1, 8]) {
      // A fresh device per batch size: its pipeline count starts at 0.
      const { device } = await acquireDevice({});
      device.pushErrorScope('validation');
      try {
        const batch = new CameraBatch(device, slots, options);
        for (let i = 0; i < slots; i++) await batch.load(i, world, 7 + i);
        const views = Array.from({ length: slots }, () => ({ state, pedestrians: [ped], dt: 0.5 }));
        await batch.render(views);
        const before = gpuStats(device);
        await batch.render(views);
        expect(gpuStatsDelta(gpuStats(device), before), `${slots} slots`).toMatchObject({ submissions: 1, pipelinesCreated: 0 });
        created.push(gpuStats(device).pipelinesCreated);
        await device.queue.onSubmittedWorkDone();
        batch.destroy();
        expect((await device.popErrorScope())?.message ?? 'no validation error').toBe('no validation error');
      } finally {
        device.destroy();
      }
    }
    expect(created[0]).toBeGreaterThan(0);
    expect(created[1]).toBe(created[0]);
  });
});
