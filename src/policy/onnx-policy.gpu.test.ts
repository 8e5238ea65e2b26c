/**
 * ONNX policies on Curbside's own GPUDevice against onnxruntime's wasm backend given the same
 * frames: the WebGPU session reads the observation pass's GPU buffer (`Tensor.fromGpuBuffer`), the
 * wasm session reads the CPU reference of the same frames. Also: the session really runs on our
 * device, malformed and mismatched models are refused, and diffusion noise follows the seed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import type { EpisodePolicy } from '../sim/episode-contracts';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { singleEnvironmentPolicy } from './episode-adapter';
import { fillClosureInput } from './closure-input';
import { DiffusionNoise } from './diffusion-noise';
import { fetchPolicyFiles, type PolicyFiles } from './load-policy';
import { observationDims, parsePolicyManifest } from './manifest';
import { ModelMismatchError } from './model-check';
import { OnnxPolicy } from './onnx-policy';
import { ObservationRingReference, observationConfig, resizeNormalizeReference, type RgbaImage } from './observation-reference';
import { getOrt } from './ort-runtime';
import type { PolicyObservation } from './policy';
import { decodePolicyOutput } from './policy-output';
import { ORT_RUN_QUEUE } from './serial-queue';
import { makeTestImage, uploadRgba16f } from './test-frames';

import singleFrameUrl from '../../assets/policies/single-frame/model.onnx?url';
import context3Url from '../../assets/policies/context3/model.onnx?url';
import pointGoalUrl from '../../assets/policies/point-goal/model.onnx?url';
import cmdUrl from '../../assets/policies/cmd/model.onnx?url';
import diffusionUrl from '../../assets/policies/diffusion/model.onnx?url';
import imageGoalUrl from '../../assets/policies/image-goal/model.onnx?url';
import urbanUrl from '../../assets/policies/urban/model.onnx?url';

/**
 * WebGPU vs wasm outputs, absolute. The inputs differ by at most the observation pass's tolerance
 * (≈ 1.4e-4 for these sizes, see observation-pass.gpu.test.ts; in practice ~1e-7); the example
 * models' gain from an input perturbation to an output is ≤ Σ|conv w| · Σ|gemm w| ≈ 27 · 0.19 · 4 ·
 * 0.05 ≈ 1, and the two backends sum the conv (27 terms), pool (192) and Gemm (≤ 6) reductions in
 * different orders, ≈ 200 · 2^-24 · |partial sums| ≈ 1e-5. 2e-4 bounds the sum.
 */
const OUTPUT_TOLERANCE = 2e-4;

const files = new Map<string, PolicyFiles>();
async function load(url: string): Promise<PolicyFiles> {
  if (!files.has(url)) files.set(url, await fetchPolicyFiles(url));
  return files.get(url)!;
}

/** A wasm (CPU) session of the same model, fed from the CPU reference; cached per model. */
const wasmSessions = new Map<string, Awaited<ReturnType<ReturnType<typeof getOrt>['InferenceSession']['create']>>>();
async function runWasm(url: string, feeds: Record<string, { data: Float32Array; dims: number[] }>): Promise<Float32Array> {
  const ort = getOrt();
  const f = await load(url);
  let session = wasmSessions.get(url);
  if (!session) {
    session = await ORT_RUN_QUEUE.run(() => ort.InferenceSession.create(f.model, { executionProviders: ['wasm'] }));
    wasmSessions.set(url, session);
  }
  const tensors = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor('float32', v.data, v.dims)]));
  const out = await ORT_RUN_QUEUE.run(() => session!.run(tensors));
  return Float32Array.from(out[f.manifest.output.name].data as Float32Array);
}
afterAll(async () => {
  for (const s of wasmSessions.values()) await s.release();
});

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
}

function observation(frames: GPUTexture[], extra: Partial<PolicyObservation> = {}): PolicyObservation {
  return { frames, states: frames.map(() => ({ x: 0, y: 0, yaw: 0, v: 0, w: 0 })), time: 0, ...extra };
}

/**
 * Runs `steps` control steps on the WebGPU policy and the wasm twin with the same frames and
 * returns the worst difference and the last WebGPU output.
 */
async function compareBackends(device: GPUDevice, url: string, batch: number, steps: number, extra: (step: number) => { goal?: [number, number][]; goalImages?: RgbaImage[] } = () => ({})) {
  const f = await load(url);
  const policy = await OnnxPolicy.create(device, { ...f, batch });
  const ref = new ObservationRingReference(observationConfig(f.manifest), batch);
  const noise = f.manifest.noise ? new DiffusionNoise(f.manifest.noise.shape, batch) : undefined;
  await policy.reset(7);
  noise?.reset(7);
  let worst = 0;
  let last: Float32Array = new Float32Array(0);
  try {
    for (let step = 0; step < steps; step++) {
      const images: RgbaImage[] = Array.from({ length: batch }, (_, b) => makeTestImage(40, 30, 100 * step + b));
      const textures = images.map((img) => uploadRgba16f(device, img));
      const { goal, goalImages } = extra(step);
      const goalTextures = goalImages?.map((img) => uploadRgba16f(device, img, 'test.goal'));
      const gpu = await policy.runModel(observation(textures, { goalRobot: goal, goalFrames: goalTextures }));
      const m = f.manifest;
      const feeds: Record<string, { data: Float32Array; dims: number[] }> = {
        [m.inputs.observation]: { data: ref.push(images), dims: [batch, ...observationDims(m)] },
      };
      if (m.goal.type === 'point') feeds[m.goal.input] = { data: Float32Array.from(goal!.flat()), dims: [batch, 2] };
      if (m.goal.type === 'image') {
        const planes = goalImages!.map((img) => resizeNormalizeReference(img, observationConfig(m)));
        const data = new Float32Array(planes.reduce((n, p) => n + p.length, 0));
        planes.forEach((p, b) => data.set(p, b * p.length));
        feeds[m.goal.input] = { data, dims: [batch, 3, m.image.height, m.image.width] };
      }
      if (m.noise && noise) feeds[m.noise.input] = { data: noise.next(), dims: [batch, ...m.noise.shape] };
      const cpu = await runWasm(url, feeds);
      worst = Math.max(worst, maxAbsDiff(gpu, cpu));
      last = gpu;
      for (const t of [...textures, ...(goalTextures ?? [])]) t.destroy();
    }
  } finally {
    policy.destroy();
  }
  return { worst, last, manifest: f.manifest };
}

describe('OnnxPolicy (WebGPU EP on our device)', () => {
  it('single frame: GPU-buffer input equals the wasm backend; the PD path gives a command', () =>
    withDevice(async (device) => {
      const { worst, last, manifest } = await compareBackends(device, singleFrameUrl, 2, 2);
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
      const action = decodePolicyOutput(manifest, last, 2, DELIVERY_ROBOT);
      expect(action.commands).toHaveLength(2);
      for (const c of action.commands) {
        expect(c.v).toBeGreaterThan(0);
        expect(c.v).toBeLessThanOrEqual(DELIVERY_ROBOT.maxLinearSpeed);
        expect(Math.abs(c.w)).toBeLessThanOrEqual(DELIVERY_ROBOT.maxAngularSpeed);
      }
    }));

  it('T = 3 context (channel-stacked, normalised in the graph) equals the wasm backend over 4 steps', () =>
    withDevice(async (device) => {
      const { worst } = await compareBackends(device, context3Url, 1, 4);
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
    }));

  it('point goal: equals the wasm backend, and a goal on the left turns left', () =>
    withDevice(async (device) => {
      const goals: [number, number][] = [[10, 8], [10, -8]];
      const { worst, last, manifest } = await compareBackends(device, pointGoalUrl, 2, 1, () => ({ goal: goals }));
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
      const [left, right] = decodePolicyOutput(manifest, last, 2, DELIVERY_ROBOT).commands;
      expect(left.w).toBeGreaterThan(right.w);
    }));

  it('image goal: goal frames through the same GPU pass, equal to the wasm backend', () =>
    withDevice(async (device) => {
      const goalImages = [makeTestImage(50, 40, 77), makeTestImage(36, 27, 78)];
      const { worst } = await compareBackends(device, imageGoalUrl, 2, 2, () => ({ goalImages }));
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
    }));

  it('cmd output equals the wasm backend and is clipped to the robot limits', () =>
    withDevice(async (device) => {
      const { worst, last, manifest } = await compareBackends(device, cmdUrl, 1, 1);
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
      const [c] = decodePolicyOutput(manifest, last, 1, DELIVERY_ROBOT).commands;
      expect(c.v).toBeCloseTo(last[0], 6);
    }));

  it('closure notices (on the notice step only) and the map observation reach the model (manifest closures and map inputs), as the wasm twin computes', () =>
    withDevice(async (device) => {
      const f = await load(urbanUrl);
      const m = f.manifest;
      expect(m.closures).toEqual({ input: 'closures', segments: 8 });
      expect(m.map).toMatchObject({ input: 'map', width: 16, height: 16 });
      const policy = await OnnxPolicy.create(device, { ...f, batch: 2 });
      const images = [makeTestImage(40, 30, 1), makeTestImage(40, 30, 2)];
      const textures = images.map((img) => uploadRgba16f(device, img));
      const ref = new ObservationRingReference(observationConfig(m), 2);
      const notices = [null, { text: 'Sidewalk closed', segments: [[[4, 1], [10, 1]], [[4, 3], [10, 3]]] as [[number, number], [number, number]][] }];
      // Environment 0's map all red 0.6, environment 1's black.
      const maps = new Float32Array(2 * 3 * 16 * 16);
      maps.fill(0.6, 0, 256);
      try {
        await policy.reset(1);
        await expect(policy.runModel(observation(textures, { notices }))).rejects.toThrow(/map input needs maps of 1536 floats/);
        await policy.reset(1);
        const withNotice = await policy.runModel(observation(textures, { notices, maps }));
        const frame = ref.push(images);
        const cpu = await runWasm(urbanUrl, {
          obs: { data: frame, dims: [2, ...observationDims(m)] },
          closures: { data: fillClosureInput(new Float32Array(2 * 8 * 5), notices, 2, 8), dims: [2, 8, 5] },
          map: { data: maps, dims: [2, 3, 16, 16] },
        });
        expect(maxAbsDiff(withNotice, cpu)).toBeLessThan(OUTPUT_TOLERANCE);
        const without = await policy.runModel(observation(textures, { maps: new Float32Array(maps.length) }));
        // Environment 1's two noticed segments took 2 × 0.2 m/s off v, only on the notice step;
        // environment 0's red map added 0.5 × 0.6 m/s.
        expect(withNotice[2] - without[2]).toBeCloseTo(-0.4, 5);
        expect(withNotice[0] - without[0]).toBeCloseTo(0.3, 5);
        expect(withNotice[3]).toBeCloseTo(without[3], 6);
      } finally {
        policy.destroy();
        for (const t of textures) t.destroy();
      }
    }));

  it('diffusion: noise from the seed matches the wasm twin; same seed same output, other seed differs', () =>
    withDevice(async (device) => {
      const { worst } = await compareBackends(device, diffusionUrl, 1, 2);
      expect(worst).toBeLessThan(OUTPUT_TOLERANCE);
      const f = await load(diffusionUrl);
      const policy = await OnnxPolicy.create(device, f);
      const texture = uploadRgba16f(device, makeTestImage(40, 30, 5));
      try {
        const runWith = async (seed: number) => {
          await policy.reset(seed);
          return policy.runModel(observation([texture]));
        };
        const a = await runWith(11);
        const b = await runWith(11);
        const c = await runWith(12);
        expect(Array.from(b)).toEqual(Array.from(a));
        expect(maxAbsDiff(a, c)).toBeGreaterThan(1e-3);
      } finally {
        texture.destroy();
        policy.destroy();
      }
    }));

  it('adapts to the episode loop (EpisodePolicy): a command per step from the current frame', () =>
    withDevice(async (device) => {
      const f = await load(pointGoalUrl);
      const policy = await OnnxPolicy.create(device, f);
      const texture = uploadRgba16f(device, makeTestImage(40, 30, 9));
      try {
        const adapter = singleEnvironmentPolicy(policy, { current: () => texture });
        const episodePolicy: EpisodePolicy = adapter; // type check: the loop accepts the adapter
        await episodePolicy.reset(5);
        const cmd = await adapter.act({ time: 0, state: { x: 0, y: 0, yaw: 0, v: 0, w: 0 }, goalRobot: [10, 8] });
        expect(cmd.v).toBeGreaterThan(0);
        expect(cmd.w).toBeGreaterThan(0); // goal on the left
        expect(adapter.lastWaypoints).toHaveLength(10);
      } finally {
        texture.destroy();
        policy.destroy();
      }
    }));

  it('the session runs on our device: its GPU output buffer is usable by our device', () =>
    withDevice(async (device) => {
      const ort = getOrt();
      const f = await load(singleFrameUrl);
      const session = await ORT_RUN_QUEUE.run(() =>
        ort.InferenceSession.create(f.model, { executionProviders: [{ name: 'webgpu', device }], preferredOutputLocation: 'gpu-buffer' }),
      );
      const input = device.createBuffer({ label: 'test.input', size: 3 * 24 * 32 * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(input, 0, new Float32Array(3 * 24 * 32).fill(0.25));
      const out = await ORT_RUN_QUEUE.run(() =>
        session.run({ obs: ort.Tensor.fromGpuBuffer(input, { dataType: 'float32', dims: [1, 1, 3, 24, 32] }) }),
      );
      const t = out.waypoints;
      expect(t.location).toBe('gpu-buffer');
      // A buffer of another device cannot be copied by ours: this would be a validation error.
      const staging = device.createBuffer({ label: 'test.staging', size: 40, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      device.pushErrorScope('validation');
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(t.gpuBuffer as GPUBuffer, 0, staging, 0, 40);
      device.queue.submit([encoder.finish()]);
      const err = await device.popErrorScope();
      expect(err?.message ?? 'no error').toBe('no error');
      await staging.mapAsync(GPUMapMode.READ);
      const viaOurDevice = new Float32Array(staging.getMappedRange().slice(0));
      const viaOrt = (await t.getData()) as Float32Array;
      expect(Array.from(viaOurDevice)).toEqual(Array.from(viaOrt));
      t.dispose();
      staging.destroy();
      input.destroy();
      await session.release();
    }));

  it('refuses a model that does not match its manifest, and a malformed model, naming the problem', () =>
    withDevice(async (device) => {
      const f = await load(singleFrameUrl);
      const wrong = parsePolicyManifest({ ...JSON.parse(JSON.stringify(f.manifest)), context: { frames: 2, spacing: 0.5 } }, 'wrong.json');
      await expect(OnnxPolicy.create(device, { ...f, manifest: wrong, modelFile: 'single-frame.onnx' })).rejects.toThrow(
        ModelMismatchError,
      );
      await expect(OnnxPolicy.create(device, { ...f, manifest: wrong, modelFile: 'single-frame.onnx' })).rejects.toThrow(
        /single-frame\.onnx: input 'obs' \(manifest inputs\.observation\): dim 1 is 1, manifest implies 2/,
      );
      await expect(OnnxPolicy.create(device, { ...f, model: new Uint8Array([1, 2, 3, 4]), modelFile: 'garbage.onnx' })).rejects.toThrow(
        /garbage\.onnx: not a loadable ONNX model/,
      );
    }));
});
