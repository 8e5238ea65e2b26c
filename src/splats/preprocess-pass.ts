/**
 * The splat preprocess compute pass (`shaders/splats/preprocess.wgsl`): culling, EWA projection to
 * a conic, SH colour, and the depth keys for the sort. One pipeline per SH degree (an `override`).
 * Reference: projection.ts and spherical-harmonics.ts.
 */
import cameraWgsl from '../../shaders/common/camera.wgsl?raw';
import splatTypesWgsl from '../../shaders/splats/splat-types.wgsl?raw';
import preprocessWgsl from '../../shaders/splats/preprocess.wgsl?raw';
import { dispatchSize1d } from '../gpu/dispatch';
import { createShaderModule } from '../gpu/shader-loader';
import { shRestStride } from './gpu-layout';
import { ALPHA_MIN, COV2D_DILATION, DEPTH_KEY_BITS, FRUSTUM_CLAMP } from './projection';

export const PREPROCESS_WORKGROUP_SIZE = 256;

/** Buffers one preprocess dispatch reads and writes. */
export interface PreprocessBindings {
  camera: GPUBuffer;
  frame: GPUBuffer;
  splats: GPUBuffer;
  shRest: GPUBuffer;
  projected: GPUBuffer;
  sortKeys: GPUBuffer;
  sortValues: GPUBuffer;
  drawArgs: GPUBuffer;
}

export class SplatPreprocessPass {
  private constructor(
    private readonly device: GPUDevice,
    private readonly module: GPUShaderModule,
    private readonly layout: GPUBindGroupLayout,
    private readonly pipelineLayout: GPUPipelineLayout,
  ) {}

  private readonly pipelines = new Map<number, GPUComputePipeline>();

  static async create(device: GPUDevice): Promise<SplatPreprocessPass> {
    const module = await createShaderModule(device, 'splats/preprocess.wgsl', preprocessWgsl, [cameraWgsl, splatTypesWgsl]);
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'SplatPreprocessPass.layout',
      entries: [
        entry(0, 'uniform'),
        entry(1, 'uniform'),
        entry(2, 'read-only-storage'),
        entry(3, 'read-only-storage'),
        entry(4, 'storage'),
        entry(5, 'storage'),
        entry(6, 'storage'),
        entry(7, 'storage'),
      ],
    });
    const pipelineLayout = device.createPipelineLayout({ label: 'SplatPreprocessPass.pipelineLayout', bindGroupLayouts: [layout] });
    return new SplatPreprocessPass(device, module, layout, pipelineLayout);
  }

  /** The pipeline for an SH degree (0–3), created on first use. */
  pipeline(shDegree: number): GPUComputePipeline {
    let p = this.pipelines.get(shDegree);
    if (!p) {
      p = this.device.createComputePipeline({
        label: `SplatPreprocessPass.pipeline[sh${shDegree}]`,
        layout: this.pipelineLayout,
        compute: {
          module: this.module,
          entryPoint: 'preprocess',
          constants: {
            WORKGROUP_SIZE: PREPROCESS_WORKGROUP_SIZE,
            SH_DEGREE: shDegree,
            SH_REST_STRIDE: shRestStride(shDegree),
            FRUSTUM_CLAMP,
            COV2D_DILATION,
            DEPTH_KEY_BITS,
            ALPHA_MIN,
          },
        },
      });
      this.pipelines.set(shDegree, p);
    }
    return p;
  }

  bindGroup(b: PreprocessBindings): GPUBindGroup {
    const buffers = [b.camera, b.frame, b.splats, b.shRest, b.projected, b.sortKeys, b.sortValues, b.drawArgs];
    return this.device.createBindGroup({
      label: 'SplatPreprocessPass.bindGroup',
      layout: this.layout,
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Records the dispatch over `count` splats. */
  encode(encoder: GPUCommandEncoder, bindGroup: GPUBindGroup, shDegree: number, count: number, timestampWrites?: GPUComputePassTimestampWrites): void {
    const pass = encoder.beginComputePass({ label: 'SplatPreprocessPass', timestampWrites });
    pass.setPipeline(this.pipeline(shDegree));
    pass.setBindGroup(0, bindGroup);
    const [x, y] = dispatchSize1d(count, PREPROCESS_WORKGROUP_SIZE, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }
}
