/**
 * An ONNX navigation policy on Curbside's own GPUDevice (issue 6, product brief "Policy contract
 * (ONNX)"): frames → {@link ObservationPass} (GPU) → onnxruntime-web WebGPU EP reading the
 * assembled input with `Tensor.fromGpuBuffer` (no frame passes through the CPU) → small output
 * read back → (v, ω) via the PD controller (ViNT/NoMaD/CityWalker deployment).
 *
 * Owns: the onnxruntime session, the observation pass (and a second one for goal images), the
 * GPU input tensor wrapper and the diffusion noise streams. Every `session.run()` goes through
 * {@link ORT_RUN_QUEUE}.
 */
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { countReadback, submit } from '../gpu/gpu-stats';
import { DiffusionNoise } from './diffusion-noise';
import { CLOSURE_ROW, fillClosureInput } from './closure-input';
import { mapDims, observationDims, requireMaps, type PolicyManifest } from './manifest';
import { checkModelAgainstManifest, ModelMismatchError } from './model-check';
import { ObservationPass } from './observation-pass';
import { observationConfig } from './observation-reference';
import { getOrt, type Ort } from './ort-runtime';
import type { CameraMount, Policy, PolicyAction, PolicyObservation } from './policy';
import { decodePolicyOutput } from './policy-output';
import { ORT_RUN_QUEUE } from './serial-queue';

type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;
type Tensor = InstanceType<Ort['Tensor']>;

/** How to build an {@link OnnxPolicy}. */
export interface OnnxPolicyOptions {
  /** The ONNX model (ModelProto bytes). */
  model: Uint8Array;
  /** Its validated manifest (see `parsePolicyManifest`). */
  manifest: PolicyManifest;
  /** Names the model in errors, e.g. `assets/policies/single-frame/model.onnx`. */
  modelFile: string;
  /** B, environments per step (default 1). */
  batch?: number;
  /** Speed limits for the PD controller and command clipping (default SidewalkBench's robot). */
  robot?: RobotSpec;
}

/** An onnxruntime-web session on Curbside's device, fed from GPU-resident observations. */
export class OnnxPolicy implements Policy {
  readonly name: string;
  readonly rateHz: number;
  readonly camera: CameraMount;
  readonly goal: 'none' | 'point' | 'image';
  private readonly inputTensor: Tensor;
  private readonly goalTensor: Tensor | undefined;
  /** The closure-notice input's values, reused every step (manifest `closures`). */
  private closureInput: Float32Array | undefined;
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    readonly manifest: PolicyManifest,
    readonly batch: number,
    private readonly robot: RobotSpec,
    private readonly ort: Ort,
    private readonly session: Session,
    private readonly observation: ObservationPass,
    private readonly goalImages: ObservationPass | undefined,
    private readonly noise: DiffusionNoise | undefined,
  ) {
    this.name = manifest.name;
    this.rateHz = manifest.rateHz;
    this.camera = manifest.camera;
    this.goal = manifest.goal.type;
    this.inputTensor = ort.Tensor.fromGpuBuffer(observation.input, { dataType: 'float32', dims: [batch, ...observationDims(manifest)] });
    this.goalTensor = goalImages
      ? ort.Tensor.fromGpuBuffer(goalImages.input, { dataType: 'float32', dims: [batch, 3, manifest.image.height, manifest.image.width] })
      : undefined;
  }

  /**
   * Creates the session on `device` (WebGPU EP, device passed per session) and checks the model
   * against its manifest.
   *
   * @throws Error `<modelFile>: not a loadable ONNX model: …` when onnxruntime cannot load it.
   * @throws ModelMismatchError naming each input/output whose name, rank or dims differ from the
   *   manifest (the session is released first).
   */
  static async create(device: GPUDevice, options: OnnxPolicyOptions): Promise<OnnxPolicy> {
    const { manifest: m, modelFile } = options;
    const batch = options.batch ?? 1;
    if (!Number.isInteger(batch) || batch < 1) throw new Error(`OnnxPolicy.create: batch ${batch} is not a positive integer`);
    const ort = getOrt();
    let session: Session;
    try {
      session = await ORT_RUN_QUEUE.run(() =>
        ort.InferenceSession.create(options.model, { executionProviders: [{ name: 'webgpu', device }], graphOptimizationLevel: 'all' }),
      );
    } catch (e) {
      throw new Error(`${modelFile}: not a loadable ONNX model: ${(e as Error).message}`);
    }
    try {
      checkModelAgainstManifest(modelFile, m, session.inputMetadata, session.outputMetadata, batch);
    } catch (e) {
      await session.release();
      throw e;
    }
    const config = observationConfig(m);
    const observation = await ObservationPass.create(device, config, batch, 'OnnxPolicy.observation');
    const goalImages =
      m.goal.type === 'image' ? await ObservationPass.create(device, { ...config, frames: 1, stride: 1 }, batch, 'OnnxPolicy.goalImages') : undefined;
    const noise = m.noise ? new DiffusionNoise(m.noise.shape, batch) : undefined;
    return new OnnxPolicy(device, m, batch, options.robot ?? DELIVERY_ROBOT, ort, session, observation, goalImages, noise);
  }

  /** Forgets the frame history of `envs` (all when omitted) and restarts their noise from `seed`. */
  async reset(seed: number, envs?: readonly number[]): Promise<void> {
    if (!Number.isInteger(seed)) throw new Error(`OnnxPolicy.reset: seed ${seed} is not an integer`);
    this.observation.reset(envs);
    this.noise?.reset(seed, envs);
  }

  /**
   * Encodes and submits the observation pass for this step (after whatever the caller submitted,
   * so the frames are complete), runs the model through the run queue, and decodes its output.
   *
   * @throws Error when called after destroy(), on a missing goal, a wrong number of frames, or a
   *   non-finite model output.
   */
  async act(obs: PolicyObservation): Promise<PolicyAction> {
    return this.decode(await this.runModel(obs));
  }

  /**
   * The raw model output for one step ([B, K, D] or [B, 2], row-major), without decoding. Advances
   * the frame history like `act`.
   */
  async runModel(obs: PolicyObservation): Promise<Float32Array> {
    if (this.destroyed) throw new Error('OnnxPolicy.act: called after destroy()');
    const m = this.manifest;
    const feeds: Record<string, Tensor> = {};
    const encoder = this.device.createCommandEncoder({ label: 'OnnxPolicy.observation' });
    this.observation.encode(encoder, obs.frames);
    feeds[m.inputs.observation] = this.inputTensor;
    if (m.goal.type === 'point') {
      if (!obs.goalRobot || obs.goalRobot.length !== this.batch) {
        throw new Error(`${m.name}: point-goal policy needs goalRobot for ${this.batch} environments, got ${obs.goalRobot?.length ?? 'none'}`);
      }
      feeds[m.goal.input] = new this.ort.Tensor('float32', Float32Array.from(obs.goalRobot.flatMap((g) => [g[0], g[1]])), [this.batch, 2]);
    } else if (m.goal.type === 'image') {
      if (!obs.goalFrames) throw new Error(`${m.name}: image-goal policy needs goalFrames`);
      this.goalImages!.encode(encoder, obs.goalFrames);
      feeds[m.goal.input] = this.goalTensor!;
    }
    if (this.noise && m.noise) feeds[m.noise.input] = new this.ort.Tensor('float32', this.noise.next(), [this.batch, ...m.noise.shape]);
    const map = mapDims(m);
    if (m.map && map) feeds[m.map.input] = new this.ort.Tensor('float32', requireMaps(m, obs.maps, this.batch), [this.batch, ...map]);
    if (m.closures) {
      const k = m.closures.segments;
      this.closureInput ??= new Float32Array(this.batch * k * CLOSURE_ROW);
      feeds[m.closures.input] = new this.ort.Tensor('float32', fillClosureInput(this.closureInput, obs.notices, this.batch, k), [this.batch, k, CLOSURE_ROW]);
    }
    submit(this.device, encoder);
    const outputs = await ORT_RUN_QUEUE.run(() => this.session.run(feeds, [m.output.name]));
    const out = outputs[m.output.name];
    try {
      const data = Float32Array.from((await out.getData()) as Float32Array);
      // onnxruntime-web downloads the output from the GPU: count it with Curbside's own readbacks.
      countReadback(this.device, data.byteLength);
      return data;
    } finally {
      out.dispose();
    }
  }

  /** Decodes a raw output (see {@link decodePolicyOutput}). */
  decode(output: Float32Array): PolicyAction {
    return decodePolicyOutput(this.manifest, output, this.batch, this.robot);
  }

  /** Releases the session and GPU buffers. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.observation.destroy();
    this.goalImages?.destroy();
    void ORT_RUN_QUEUE.run(() => this.session.release());
  }
}

export { ModelMismatchError };
