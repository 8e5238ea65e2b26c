/**
 * Rain streaks over a camera image (`shaders/sensors/rain.wgsl`): the pass that blends them over the
 * robot camera's frame, and `rainStreakAlpha`, the TypeScript twin of its fragment for tests. The
 * streak field depends only on the pixel, the image height and the time since the episode started,
 * so the same episode shows the same rain.
 */
import { beginRenderPass } from '../gpu/gpu-stats';
import { cacheKey, createRenderPipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';

/** Byte layout of WGSL `Rain`. */
export const RAIN_LAYOUT = { size: 32, color: 0, strength: 12, time: 16, height: 20 } as const;

// The shader's constants (rain.wgsl).
const LANE = 0.012, PERIOD = 0.45, LENGTH = 0.2, SPEED = 3, SLANT = 0.08, WIDTH_PX = 0.9, ALPHA = 0.35;

/** PCG hash of a u32 (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering"), as the shader. */
export function pcgHash(v: number): number {
  const state = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

const unit = (h: number) => (h >>> 8) / 16777216;
const fract = (x: number) => x - Math.floor(x);

/**
 * The streak α at pixel centre (x, y) (pixels, origin top-left) of an image `height` pixels high,
 * `time` seconds into the episode, for rain `strength` ∈ [0, 1] (the model in rain.wgsl's header).
 */
export function rainStreakAlpha(x: number, y: number, height: number, time: number, strength: number): number {
  const v = y / height;
  const u = x / height + SLANT * v;
  const c = Math.floor(u / LANE) >>> 0;
  const h1 = unit(pcgHash(Math.imul(c, 3)));
  const h2 = unit(pcgHash(Math.imul(c, 3) + 1));
  const h3 = unit(pcgHash(Math.imul(c, 3) + 2));
  const s = fract(v / PERIOD + time * SPEED * (0.75 + 0.5 * h2) + h1);
  const d = Math.abs(fract(u / LANE) - (0.25 + 0.5 * h3)) * LANE * height;
  return s < LENGTH ? strength * ALPHA * (1 - s / LENGTH) * Math.max(0, 1 - d / WIDTH_PX) : 0;
}

/** Blends rain streaks over a colour target (load, blend src-alpha over, store). */
export class RainPass {
  private readonly uniform: GPUBuffer;
  private readonly bindGroup: GPUBindGroup;
  private readonly scratch = new Float32Array(RAIN_LAYOUT.size / 4);

  private constructor(private readonly device: GPUDevice, private readonly pipeline: GPURenderPipeline) {
    this.uniform = device.createBuffer({ label: 'RainPass.uniform', size: RAIN_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.bindGroup = device.createBindGroup({ label: 'RainPass.bindGroup', layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: this.uniform } }] });
  }

  /** The pass for targets of `colorFormat`; its pipeline is compiled once per device and format. */
  static async create(device: GPUDevice, colorFormat: GPUTextureFormat): Promise<RainPass> {
    const pipeline = await deviceCached(device, cacheKey('RainPass', colorFormat), async () => {
      const module = await createKernelModule(device, 'sensors/rain.wgsl');
      return createRenderPipeline(device, {
        label: 'RainPass.pipeline',
        layout: 'auto',
        vertex: { module, entryPoint: 'vertexMain' },
        fragment: {
          module,
          entryPoint: 'fragmentMain',
          targets: [{
            format: colorFormat,
            blend: {
              color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha', operation: 'add' },
              alpha: { srcFactor: 'zero', dstFactor: 'one', operation: 'add' },
            },
          }],
        },
        primitive: { topology: 'triangle-list' },
      });
    });
    return new RainPass(device, pipeline);
  }

  /**
   * Records the streaks over `color` (a view of a target `height` pixels high), `time` seconds into
   * the episode, in display RGB `streakColor`, at `strength` ∈ [0, 1].
   *
   * @throws RangeError when strength is outside [0, 1] or time or height is not finite and ≥ 0.
   */
  encode(encoder: GPUCommandEncoder, color: GPUTextureView, height: number, time: number, strength: number, streakColor: readonly [number, number, number]): void {
    if (!(strength >= 0 && strength <= 1)) throw new RangeError(`RainPass: strength ${strength} outside [0, 1]`);
    if (!(Number.isFinite(time) && time >= 0 && height > 0)) throw new RangeError(`RainPass: time ${time} s or height ${height} px is not finite and ≥ 0`);
    this.scratch.set(streakColor, RAIN_LAYOUT.color / 4);
    this.scratch[RAIN_LAYOUT.strength / 4] = strength;
    this.scratch[RAIN_LAYOUT.time / 4] = time;
    this.scratch[RAIN_LAYOUT.height / 4] = height;
    this.device.queue.writeBuffer(this.uniform, 0, this.scratch);
    const pass = beginRenderPass(this.device, encoder, { label: 'RainPass', colorAttachments: [{ view: color, loadOp: 'load', storeOp: 'store' }] });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup);
    pass.draw(3);
    pass.end();
  }

  destroy(): void {
    this.uniform.destroy();
  }
}
