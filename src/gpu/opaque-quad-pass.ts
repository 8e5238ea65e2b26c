/**
 * Draws one flat-coloured opaque quad in world space into a colour and depth target
 * (`shaders/gpu/opaque-quad.wgsl`). Corners must lie in front of the near plane (no clipping
 * against it is done beyond the rasteriser's).
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel, type Vec3 } from './camera';
import { beginRenderPass } from './gpu-stats';
import { cacheKey, createRenderPipeline, deviceCached } from './pipeline-cache';
import { createKernelModule } from './shader-loader';

/** Byte layout of WGSL `Quad`: four vec4f corners then a vec4f colour. */
export const QUAD_LAYOUT = { size: 80, corners: 0, color: 64 } as const;

export class OpaqueQuadPass {
  private readonly cameraBuffer: GPUBuffer;
  private readonly quadBuffer: GPUBuffer;
  private readonly bindGroup: GPUBindGroup;
  private readonly cameraScratch: Float32Array<ArrayBuffer> = new Float32Array(CAMERA_LAYOUT.size / 4);

  private constructor(private readonly device: GPUDevice, private readonly pipeline: GPURenderPipeline) {
    this.cameraBuffer = device.createBuffer({ label: 'OpaqueQuadPass.camera', size: CAMERA_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.quadBuffer = device.createBuffer({ label: 'OpaqueQuadPass.quad', size: QUAD_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.bindGroup = device.createBindGroup({
      label: 'OpaqueQuadPass.bindGroup',
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.cameraBuffer } },
        { binding: 1, resource: { buffer: this.quadBuffer } },
      ],
    });
  }

  /** Allocates the pass's uniforms; its pipeline is compiled once per device and target formats. */
  static async create(device: GPUDevice, colorFormat: GPUTextureFormat, depthFormat: GPUTextureFormat): Promise<OpaqueQuadPass> {
    const pipeline = await deviceCached(device, cacheKey('OpaqueQuadPass', colorFormat, depthFormat), async () => {
      const module = await createKernelModule(device, 'gpu/opaque-quad.wgsl');
      return createRenderPipeline(device, {
        label: 'OpaqueQuadPass.pipeline',
        layout: 'auto',
        vertex: { module, entryPoint: 'vertexMain' },
        fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: colorFormat }] },
        primitive: { topology: 'triangle-strip' },
        depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'less' },
      });
    });
    return new OpaqueQuadPass(device, pipeline);
  }

  /**
   * Records a pass that clears colour and depth, then draws the rectangle with corners
   * `a, b, c, d` (in order around it) in `color`.
   */
  encode(encoder: GPUCommandEncoder, camera: CameraModel, corners: [Vec3, Vec3, Vec3, Vec3], color: [number, number, number, number], target: { color: GPUTextureView; depth: GPUTextureView }): void {
    this.device.queue.writeBuffer(this.cameraBuffer, 0, packCameraUniform(camera, this.cameraScratch));
    const [a, b, c, d] = corners;
    const data = new Float32Array(QUAD_LAYOUT.size / 4);
    [a, b, d, c].forEach((p, k) => data.set(p, k * 4));
    data.set(color, QUAD_LAYOUT.color / 4);
    this.device.queue.writeBuffer(this.quadBuffer, 0, data);
    const pass = beginRenderPass(this.device, encoder, {
      label: 'OpaqueQuadPass',
      colorAttachments: [{ view: target.color, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 0 }, storeOp: 'store' }],
      depthStencilAttachment: { view: target.depth, depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
    });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup);
    pass.draw(4);
    pass.end();
  }

  destroy(): void {
    this.cameraBuffer.destroy();
    this.quadBuffer.destroy();
  }
}
