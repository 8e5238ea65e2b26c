/**
 * The splat raster pass (`shaders/splats/render.wgsl`): one triangle per splat in sorted back-to-front
 * order (the smallest triangle around each splat's α ≥ 1/255 ellipse), premultiplied-alpha "over" blending, depth-tested (not written) against the caller's
 * opaque depth buffer so opaque geometry (pedestrians, markers) composites in front of and behind
 * splats. Reference: reference-renderer.ts.
 */
import { beginRenderPass } from '../gpu/gpu-stats';
import { cacheKey, createRenderPipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import { ALPHA_MAX, ALPHA_MIN } from './projection';

/** Where a frame is drawn. */
export interface SplatRenderTarget {
  color: GPUTextureView;
  /** Opaque depth, already written by the caller's opaque passes (or cleared to 1). */
  depth: GPUTextureView;
  /** Clear colour; when null the colour attachment is loaded (composite over what is there). */
  clearColor: GPUColor | null;
}

export class SplatRasterPass {
  private constructor(
    private readonly device: GPUDevice,
    readonly pipeline: GPURenderPipeline,
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
    const module = await createKernelModule(device, 'splats/render.wgsl');
    const pipeline = await createRenderPipeline(device, {
      label: 'SplatRasterPass.pipeline',
      layout: 'auto',
      vertex: { module, entryPoint: 'vertexMain', constants: { ALPHA_MIN } },
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
    });
    return new SplatRasterPass(device, pipeline);
  }

  bindGroup(camera: GPUBuffer, projected: GPUBuffer, sortedIndices: GPUBuffer): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'SplatRasterPass.bindGroup',
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [camera, projected, sortedIndices].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Records the draw; its arguments (3 vertices per visible splat) are at `drawArgs[offset]`, written by the preprocess pass. */
  encode(encoder: GPUCommandEncoder, bindGroup: GPUBindGroup, drawArgs: GPUBuffer, offset: number, target: SplatRenderTarget, timestampWrites?: GPURenderPassTimestampWrites): void {
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
      depthStencilAttachment: { view: target.depth, depthReadOnly: true },
      timestampWrites,
    });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.drawIndirect(drawArgs, offset);
    pass.end();
  }
}
