/**
 * The observation pass (`shaders/policy/observation.wgsl`): rendered frames → the policy's input
 * tensor, entirely on the GPU.
 *
 * Input choice: one 2D colour texture per environment (the `OffscreenTarget.color` each
 * environment's camera renders into, `rgba8unorm`; any float-sampled colour format works). A
 * texture array would need every environment rendered into layers of one texture of one size;
 * separate textures let environments differ in resolution and keep the renderer unchanged. The
 * cost is one dispatch per environment (B is ≤ ~10).
 *
 * Owns (`Label.field` labels):
 *
 * | buffer   | layout (float32 unless said)   | contents                                           |
 * |----------|--------------------------------|----------------------------------------------------|
 * | `ring`   | [S, B, 3, H, W]                | last S resized/normalised frames, slot = step mod S |
 * | `input`  | [B, T, 3, H, W]                | model input, oldest context frame first            |
 * | `params` (uniform) | B slots of ObservationParams (80 B, slot stride {@link ObservationPass.paramsStride}) | crop/scale/sizes/mean/stdDev, env b, slot |
 *
 * S = (T − 1)·stride + 1, stride = manifest spacing × rate in control steps. Each `encode` is one
 * control step: one write of the B parameter slots, a dispatch per environment (its slot selected
 * by a dynamic offset) writes ring slot `step mod S`, then B·T buffer copies gather
 * the chronological context into `input` (the (slot, b) block of `ring` and the (b, t) block of
 * `input` are both 3·H·W contiguous floats). `input` has STORAGE usage, so onnxruntime-web reads it
 * with `Tensor.fromGpuBuffer`; `[B, 3T, H, W]` (ViNT's channel-stacked layout) is the same memory.
 */
import { beginComputePass } from '../gpu/gpu-stats';
import { createComputePipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import { configRingSlots, contextSlots, cropRect, type ObservationConfig } from './observation-reference';

/** Workgroup width of `resizeNormalize` (WGSL override WORKGROUP_SIZE_X), output pixels. */
export const OBSERVATION_WORKGROUP_SIZE_X = 8;
/** Workgroup height of `resizeNormalize` (WGSL override WORKGROUP_SIZE_Y), output pixels. */
export const OBSERVATION_WORKGROUP_SIZE_Y = 8;

/** Byte offsets of `ObservationParams` in observation.wgsl (checked by observation-pass.gpu.test.ts). */
export const OBSERVATION_PARAMS_LAYOUT = {
  cropOrigin: 0,
  scale: 8,
  srcSize: 16,
  dstSize: 24,
  mean: 32,
  stdDev: 48,
  envIndex: 64,
  batch: 68,
  slot: 72,
  normalize: 76,
  size: 80,
} as const;

/**
 * The observation kernel's bind group layout (binding 0: one environment's parameter slot, by
 * dynamic offset) and pipeline: compiled once per device and shared by every ObservationPass on it.
 */
function observationKernel(device: GPUDevice) {
  return deviceCached(device, 'ObservationPass', async () => {
    const module = await createKernelModule(device, 'policy/observation.wgsl');
    const layout = device.createBindGroupLayout({
      label: 'ObservationPass.bindGroupLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: OBSERVATION_PARAMS_LAYOUT.size } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'unfilterable-float' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    const pipeline = await createComputePipeline(device, {
      label: 'ObservationPass.pipeline',
      layout: device.createPipelineLayout({ label: 'ObservationPass.pipelineLayout', bindGroupLayouts: [layout] }),
      compute: {
        module,
        entryPoint: 'resizeNormalize',
        constants: { WORKGROUP_SIZE_X: OBSERVATION_WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y: OBSERVATION_WORKGROUP_SIZE_Y },
      },
    });
    return { pipeline, layout };
  });
}

/**
 * Resizes/normalises B frames per control step into a GPU ring and assembles the model input.
 * Constructor (`create`) allocates, `encode` records (the caller submits), `destroy` frees.
 */
export class ObservationPass {
  /** Model input [B, T, 3, H, W] float32 (STORAGE | COPY_SRC | COPY_DST). */
  readonly input: GPUBuffer;
  /** Ring of resized frames [S, B, 3, H, W] float32. */
  readonly ring: GPUBuffer;
  /** Ring size S. */
  readonly slots: number;
  /** Bytes between environments' parameter slots in `params` (≥ 256 and the device's uniform offset alignment). */
  readonly paramsStride: number;
  private readonly params: GPUBuffer;
  private readonly paramsData: ArrayBuffer;
  private readonly bindGroups = new WeakMap<GPUTexture, GPUBindGroup>();
  private readonly pushed: number[];
  private newest = -1;
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    readonly config: ObservationConfig,
    readonly batch: number,
    readonly label: string,
    private readonly pipeline: GPUComputePipeline,
    private readonly layout: GPUBindGroupLayout,
  ) {
    const plane = 3 * config.width * config.height * 4;
    this.slots = configRingSlots(config);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.ring = device.createBuffer({ label: `${label}.ring`, size: this.slots * batch * plane, usage });
    this.input = device.createBuffer({ label: `${label}.input`, size: batch * config.frames * plane, usage });
    this.paramsStride = Math.max(256, device.limits.minUniformBufferOffsetAlignment);
    this.paramsData = new ArrayBuffer(this.paramsStride * batch);
    this.params = device.createBuffer({ label: `${label}.params`, size: this.paramsData.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.pushed = new Array<number>(batch).fill(0);
  }

  /**
   * Allocates the ring, input and parameter buffers (the kernel is compiled once per device).
   *
   * @param batch B, environments per step.
   * @throws Error when batch, size or frame counts are not positive integers, a buffer would exceed
   *   maxStorageBufferBindingSize, or the WGSL fails to compile.
   */
  static async create(device: GPUDevice, config: ObservationConfig, batch: number, label = 'ObservationPass'): Promise<ObservationPass> {
    for (const [name, v] of [['batch', batch], ['width', config.width], ['height', config.height], ['frames', config.frames], ['stride', config.stride]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new Error(`ObservationPass.create: ${name} ${v} is not a positive integer`);
    }
    const ringBytes = configRingSlots(config) * batch * 3 * config.width * config.height * 4;
    if (ringBytes > device.limits.maxStorageBufferBindingSize) {
      throw new Error(`ObservationPass.create: ring needs ${ringBytes} bytes, above maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`);
    }
    const { pipeline, layout } = await observationKernel(device);
    return new ObservationPass(device, config, batch, label, pipeline, layout);
  }

  /** Forgets the context history of `envs` (all when omitted): their next step sees T copies of its frame. */
  reset(envs?: readonly number[]): void {
    for (const b of envs ?? this.pushed.keys()) {
      if (!(b >= 0 && b < this.batch)) throw new Error(`ObservationPass.reset: environment ${b} outside [0, ${this.batch})`);
      this.pushed[b] = 0;
    }
  }

  /**
   * Records one control step: resizes/normalises `frames[b]` into the ring and gathers the
   * chronological context into {@link input}. Uniforms are written with `queue.writeBuffer` now,
   * so submit `encoder` before the next `encode`.
   *
   * @param frames B textures (TEXTURE_BINDING usage, float colour format), one per environment.
   * @throws Error on a wrong frame count, a texture without TEXTURE_BINDING, or after destroy().
   */
  encode(encoder: GPUCommandEncoder, frames: readonly GPUTexture[]): void {
    if (this.destroyed) throw new Error('ObservationPass.encode: called after destroy()');
    if (frames.length !== this.batch) throw new Error(`ObservationPass.encode: ${frames.length} frames for batch ${this.batch}`);
    this.newest = (this.newest + 1) % this.slots;
    const { width: W, height: H } = this.config;
    frames.forEach((tex, b) => {
      if ((tex.usage & GPUTextureUsage.TEXTURE_BINDING) === 0) {
        throw new Error(`ObservationPass.encode: frame ${b} ('${tex.label}') lacks TEXTURE_BINDING usage`);
      }
      this.writeParams(b, tex);
    });
    this.device.queue.writeBuffer(this.params, 0, this.paramsData);
    const pass = beginComputePass(this.device, encoder, { label: `${this.label}.resizeNormalize` });
    pass.setPipeline(this.pipeline);
    for (let b = 0; b < this.batch; b++) {
      const tex = frames[b];
      let group = this.bindGroups.get(tex);
      if (!group) {
        group = this.device.createBindGroup({
          label: `${this.label}.bindGroup`,
          layout: this.layout,
          entries: [
            { binding: 0, resource: { buffer: this.params, size: OBSERVATION_PARAMS_LAYOUT.size } },
            { binding: 1, resource: tex.createView() },
            { binding: 2, resource: { buffer: this.ring } },
          ],
        });
        this.bindGroups.set(tex, group);
      }
      pass.setBindGroup(0, group, [b * this.paramsStride]);
      pass.dispatchWorkgroups(Math.ceil(W / OBSERVATION_WORKGROUP_SIZE_X), Math.ceil(H / OBSERVATION_WORKGROUP_SIZE_Y));
    }
    pass.end();
    const planeBytes = 3 * W * H * 4;
    const T = this.config.frames;
    for (let b = 0; b < this.batch; b++) {
      this.pushed[b]++;
      const table = contextSlots(this.newest, this.pushed[b], T, this.config.stride, this.slots);
      for (let t = 0; t < T; t++) {
        encoder.copyBufferToBuffer(this.ring, (table[t] * this.batch + b) * planeBytes, this.input, (b * T + t) * planeBytes, planeBytes);
      }
    }
  }

  /** Packs environment `b`'s ObservationParams into its slot of `paramsData` (written by `encode`). */
  private writeParams(b: number, tex: GPUTexture): void {
    const c = this.config;
    const rect = cropRect(tex.width, tex.height, c);
    const L = OBSERVATION_PARAMS_LAYOUT;
    const f32 = new Float32Array(this.paramsData, b * this.paramsStride, L.size / 4);
    const u32 = new Uint32Array(this.paramsData, b * this.paramsStride, L.size / 4);
    f32.set([rect.x0, rect.y0], L.cropOrigin / 4);
    f32.set([rect.w / c.width, rect.h / c.height], L.scale / 4);
    u32.set([tex.width, tex.height], L.srcSize / 4);
    u32.set([c.width, c.height], L.dstSize / 4);
    f32.set([...c.mean, 0], L.mean / 4);
    f32.set([...c.std, 1], L.stdDev / 4);
    u32.set([b, this.batch, this.newest, c.normalize ? 1 : 0], L.envIndex / 4);
  }

  /** Frees the buffers; the pass cannot be used afterwards. */
  destroy(): void {
    this.destroyed = true;
    this.ring.destroy();
    this.input.destroy();
    this.params.destroy();
  }
}
