/**
 * The splat preprocess compute pass (`shaders/splats/preprocess.wgsl`): culling, EWA projection to
 * an eigenbasis, SH colour, and the depth keys for the sort (quantised over the visible depth
 * range by a second entry point). One projection pipeline per SH degree (an `override`).
 * Reference: projection.ts and spherical-harmonics.ts.
 */
import cameraWgsl from '../../shaders/common/camera.wgsl?raw';
import splatTypesWgsl from '../../shaders/splats/splat-types.wgsl?raw';
import preprocessWgsl from '../../shaders/splats/preprocess.wgsl?raw';
import { dispatchSize1d } from '../gpu/dispatch';
import { createShaderModule } from '../gpu/shader-loader';
import { shRestStride } from './gpu-layout';
import { ALPHA_MIN, COV2D_DILATION, FRUSTUM_CLAMP } from './projection';

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
  depthRange: GPUBuffer;
}

export class SplatPreprocessPass {
  private constructor(
    private readonly device: GPUDevice,
    private readonly module: GPUShaderModule,
    private readonly layout: GPUBindGroupLayout,
    private readonly pipelineLayout: GPUPipelineLayout,
  ) {}

  private readonly pipelines = new Map<number, GPUComputePipeline>();
  private quantizePipeline: GPUComputePipeline | null = null;

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
        entry(8, 'storage'),
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
            ALPHA_MIN,
          },
        },
      });
      this.pipelines.set(shDegree, p);
    }
    return p;
  }

  /** The key-quantisation pipeline (entry point `quantizeKeys`; independent of the SH degree). */
  private quantize(): GPUComputePipeline {
    this.quantizePipeline ??= this.device.createComputePipeline({
      label: 'SplatPreprocessPass.quantizeKeys',
      layout: this.pipelineLayout,
      compute: { module: this.module, entryPoint: 'quantizeKeys', constants: { WORKGROUP_SIZE: PREPROCESS_WORKGROUP_SIZE } },
    });
    return this.quantizePipeline;
  }

  bindGroup(b: PreprocessBindings): GPUBindGroup {
    const buffers = [b.camera, b.frame, b.splats, b.shRest, b.projected, b.sortKeys, b.sortValues, b.drawArgs, b.depthRange];
    return this.device.createBindGroup({
      label: 'SplatPreprocessPass.bindGroup',
      layout: this.layout,
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /**
   * Records the projection dispatch over `count` splats, then the key quantisation (a second
   * dispatch: it needs the depth range of every visible splat). The caller clears the depth range
   * and the draw count before.
   */
  encode(encoder: GPUCommandEncoder, bindGroup: GPUBindGroup, shDegree: number, count: number, timestampWrites?: GPUComputePassTimestampWrites): void {
    const pass = encoder.beginComputePass({ label: 'SplatPreprocessPass', timestampWrites });
    const [x, y] = dispatchSize1d(count, PREPROCESS_WORKGROUP_SIZE, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setBindGroup(0, bindGroup);
    pass.setPipeline(this.pipeline(shDegree));
    pass.dispatchWorkgroups(x, y);
    pass.setPipeline(this.quantize());
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }
}
