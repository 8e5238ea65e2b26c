/**
 * The splat raster: a compute pass that writes each visible splat's three triangle corners once, in
 * draw order (`shaders/splats/corners.wgsl`), then one draw of those vertices (`shaders/splats/render.wgsl`):
 * one triangle per splat in sorted back-to-front order (the smallest triangle around each splat's
 * α ≥ 1/255 ellipse), premultiplied-alpha "over" blending, depth-tested (not written) against the caller's
 * opaque depth buffer so opaque geometry (pedestrians, markers) composites in front of and behind
 * splats. Reference: reference-renderer.ts.
 */
import { dispatchSize1d } from '../gpu/dispatch';
import { beginComputePass, beginRenderPass } from '../gpu/gpu-stats';
import { cacheKey, createComputePipeline, createRenderPipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import { SPLAT_VERTEX_LAYOUT } from './gpu-layout';
import { ALPHA_MAX, ALPHA_MIN } from './projection';

/** Where a frame is drawn. */
export interface SplatRenderTarget {
  color: GPUTextureView;
  /**
   * Opaque depth, already written by the caller's opaque passes (or cleared to 1); null when nothing
   * opaque is drawn (a capture viewer): the raster then runs without a depth test, which saves a
   * depth read per fragment.
   */
  depth: GPUTextureView | null;
  /** Clear colour; when null the colour attachment is loaded (composite over what is there). */
  clearColor: GPUColor | null;
}

const CORNERS_WORKGROUP_SIZE = 64;
/** Consecutive draw slots one corners invocation writes. */
const CORNER_SLOTS = 32;

export class SplatRasterPass {
  private constructor(
    private readonly device: GPUDevice,
    readonly pipeline: GPURenderPipeline,
    /** The same pipeline without a depth attachment (targets whose `depth` is null). */
    readonly pipelineWithoutDepth: GPURenderPipeline,
    readonly cornersPipeline: GPUComputePipeline,
  ) {}

  /**
   * The pass of `device` for these target formats: its pipeline is made once per device and formats
   * and shared by every renderer on it (pipeline-cache.ts); per-view state lives in the bind groups.
   *
   * @throws Error when the WGSL fails to compile.
   */
  static create(device: GPUDevice, colorFormat: GPUTextureFormat, depthFormat: GPUTextureFormat): Promise<SplatRasterPass> {
    return deviceCached(device, cacheKey('SplatRasterPass', colorFormat, depthFormat), () => SplatRasterPass.compile(device, colorFormat, depthFormat));
  }

  private static async compile(device: GPUDevice, colorFormat: GPUTextureFormat, depthFormat: GPUTextureFormat): Promise<SplatRasterPass> {
    const [module, cornersModule] = await Promise.all([createKernelModule(device, 'splats/render.wgsl'), createKernelModule(device, 'splats/corners.wgsl')]);
    const cornersPipeline = await createComputePipeline(device, {
      label: 'SplatRasterPass.corners',
      layout: 'auto',
      compute: { module: cornersModule, entryPoint: 'corners', constants: { WORKGROUP_SIZE: CORNERS_WORKGROUP_SIZE, CORNER_SLOTS } },
    });
    const descriptor: GPURenderPipelineDescriptor = {
      label: 'SplatRasterPass.pipeline',
      layout: 'auto',
      vertex: {
        module,
        entryPoint: 'vertexMain',
        constants: { ALPHA_MIN },
        buffers: [
          {
            arrayStride: SPLAT_VERTEX_LAYOUT.size,
            stepMode: 'vertex',
            attributes: [
              { shaderLocation: 0, offset: SPLAT_VERTEX_LAYOUT.clipLog, format: 'float32x4' },
              { shaderLocation: 1, offset: SPLAT_VERTEX_LAYOUT.colorMinor, format: 'float16x4' },
            ],
          },
        ],
      },
      fragment: {
        module,
        entryPoint: 'fragmentMain',
        constants: { ALPHA_MIN, ALPHA_MAX },
        targets: [
          {
            format: colorFormat,
            blend: {
              color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
              alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
            },
          },
        ],
      },
      primitive: { topology: 'triangle-list' },
      depthStencil: { format: depthFormat, depthWriteEnabled: false, depthCompare: 'less' },
    };
    const [pipeline, pipelineWithoutDepth] = await Promise.all([
      createRenderPipeline(device, descriptor),
      createRenderPipeline(device, { ...descriptor, label: 'SplatRasterPass.pipelineWithoutDepth', depthStencil: undefined }),
    ]);
    return new SplatRasterPass(device, pipeline, pipelineWithoutDepth, cornersPipeline);
  }

  /**
   * The corners pass's bindings: it reads the projected splats through the sorted indices and the
   * visible count (`counters[0]`, FRAME_COUNTERS), and writes `vertices`
   * (SPLAT_VERTEX_BYTES_PER_SPLAT per splat, draw order; usage STORAGE | VERTEX).
   */
  bindGroup(camera: GPUBuffer, projected: GPUBuffer, sortedIndices: GPUBuffer, counters: GPUBuffer, vertices: GPUBuffer): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'SplatRasterPass.cornersBindGroup',
      layout: this.cornersPipeline.getBindGroupLayout(0),
      entries: [camera, projected, sortedIndices, counters, vertices].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /**
   * Records the corners dispatch over at most `maxSplats` draw slots (those past the GPU-written
   * visible count return at once), then the draw of `vertices`; the draw's arguments (3 vertices per
   * visible splat) are at `drawArgs[offset]`, written by the preprocess pass.
   */
  encode(
    encoder: GPUCommandEncoder, bindGroup: GPUBindGroup, vertices: GPUBuffer, maxSplats: number, drawArgs: GPUBuffer, offset: number,
    target: SplatRenderTarget, timestampWrites?: GPURenderPassTimestampWrites, cornersTimestampWrites?: GPUComputePassTimestampWrites,
  ): void {
    const corners = beginComputePass(this.device, encoder, { label: 'SplatRasterPass.corners', timestampWrites: cornersTimestampWrites });
    corners.setPipeline(this.cornersPipeline);
    corners.setBindGroup(0, bindGroup);
    corners.dispatchWorkgroups(...dispatchSize1d(Math.ceil(maxSplats / CORNER_SLOTS), CORNERS_WORKGROUP_SIZE, this.device.limits.maxComputeWorkgroupsPerDimension));
    corners.end();
    const pass = beginRenderPass(this.device, encoder, {
      label: 'SplatRasterPass',
      colorAttachments: [
        {
          view: target.color,
          loadOp: target.clearColor ? 'clear' : 'load',
          clearValue: target.clearColor ?? undefined,
          storeOp: 'store',
        },
      ],
      depthStencilAttachment: target.depth ? { view: target.depth, depthReadOnly: true } : undefined,
      timestampWrites,
    });
    pass.setPipeline(target.depth ? this.pipeline : this.pipelineWithoutDepth);
    pass.setVertexBuffer(0, vertices);
    pass.drawIndirect(drawArgs, offset);
    pass.end();
  }
}
