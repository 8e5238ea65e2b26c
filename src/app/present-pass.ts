/**
 * The demo's present pass (`shaders/app/present.wgsl`): sky under the offscreen frame, time-of-day
 * tint, written to the canvas texture in the canvas's preferred format. One full-screen triangle.
 *
 * Owns: `camera` (uniform, `Camera`), `params` (uniform, `PresentParams`, {@link PRESENT_PARAMS_LAYOUT}).
 * The bind group is rebuilt when the frame texture changes (resize).
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel } from '../gpu/camera';
import { createKernelModule } from '../gpu/shader-loader';
import type { SkyLighting } from '../world/lighting';

/** Byte layout of WGSL `PresentParams` (64 bytes): zenith @0, exposure @12, horizon @16, groundHaze @32, tint @48. */
export const PRESENT_PARAMS_LAYOUT = { size: 64, zenith: 0, exposure: 12, horizon: 16, groundHaze: 32, tint: 48 } as const;

/** Presents an offscreen frame to a canvas (see the module doc). */
export class PresentPass {
  private readonly cameraScratch = new Float32Array(CAMERA_LAYOUT.size / 4);
  private readonly cameraBuffer: GPUBuffer;
  private readonly paramsBuffer: GPUBuffer;
  private bindGroup: GPUBindGroup | null = null;
  private boundFrame: GPUTexture | null = null;

  private constructor(private readonly device: GPUDevice, private readonly pipeline: GPURenderPipeline) {
    this.cameraBuffer = device.createBuffer({ label: 'PresentPass.camera', size: CAMERA_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.paramsBuffer = device.createBuffer({ label: 'PresentPass.params', size: PRESENT_PARAMS_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** @throws Error when the WGSL fails to compile. */
  static async create(device: GPUDevice, canvasFormat: GPUTextureFormat): Promise<PresentPass> {
    const module = await createKernelModule(device, 'app/present.wgsl');
    const pipeline = await device.createRenderPipelineAsync({
      label: 'PresentPass.pipeline',
      layout: 'auto',
      vertex: { module, entryPoint: 'vertexMain' },
      fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: canvasFormat }] },
      primitive: { topology: 'triangle-list' },
    });
    return new PresentPass(device, pipeline);
  }

  /** Sets sky colours, scene tint and exposure (see lighting.ts). */
  setSky(sky: SkyLighting): void {
    const d = new Float32Array(PRESENT_PARAMS_LAYOUT.size / 4);
    d.set(sky.zenith, 0);
    d[3] = sky.exposure;
    d.set(sky.horizon, 4);
    d.set(sky.groundHaze, 8);
    d.set(sky.tint, 12);
    this.device.queue.writeBuffer(this.paramsBuffer, 0, d);
  }

  /** Records the pass from `frame` (same size as `target`) into `target`. Records only. */
  encode(encoder: GPUCommandEncoder, camera: CameraModel, frame: GPUTexture, target: GPUTextureView, timestampWrites?: GPURenderPassTimestampWrites): void {
    this.device.queue.writeBuffer(this.cameraBuffer, 0, packCameraUniform(camera, this.cameraScratch));
    if (this.boundFrame !== frame) {
      this.bindGroup = this.device.createBindGroup({
        label: 'PresentPass.bindGroup',
        layout: this.pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.cameraBuffer } },
          { binding: 1, resource: { buffer: this.paramsBuffer } },
          { binding: 2, resource: frame.createView() },
        ],
      });
      this.boundFrame = frame;
    }
    const pass = encoder.beginRenderPass({
      label: 'PresentPass',
      colorAttachments: [{ view: target, loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 1 }, storeOp: 'store' }],
      timestampWrites,
    });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup!);
    pass.draw(3);
    pass.end();
  }

  /** Frees its buffers. */
  destroy(): void {
    this.cameraBuffer.destroy();
    this.paramsBuffer.destroy();
  }
}
