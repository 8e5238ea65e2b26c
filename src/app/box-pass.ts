/**
 * The demo's marker pass (`shaders/app/box.wgsl`): opaque, lit, yaw-rotated boxes drawn in one
 * instanced draw (36 vertices per box, no vertex buffers) into colour + depth32float before the
 * splats, which depth-test against them. Used for the robot, the goal post and stand-in
 * pedestrians (when the skinned pedestrian pass is off).
 *
 * Owns: `camera` (uniform, `Camera`), `lighting` (uniform, `BoxLighting`, 32 bytes), `boxes`
 * (storage, capacity × `BoxInstance`, {@link BOX_INSTANCE_LAYOUT}).
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel } from '../gpu/camera';
import { createKernelModule } from '../gpu/shader-loader';

/**
 * Byte layout of WGSL `BoxInstance` (48 bytes):
 *
 * | offset | type | field |
 * |---|---|---|
 * | 0 | vec3f | centre (m, world) | 12 | f32 | yaw (rad) |
 * | 16 | vec3f | halfSize (m) | 28 | f32 | pad0 |
 * | 32 | vec4f | color (display RGB, a unused) |
 */
export const BOX_INSTANCE_LAYOUT = { size: 48, centre: 0, yaw: 12, halfSize: 16, color: 32 } as const;
/** Byte layout of WGSL `BoxLighting` (32 bytes): sunDirection vec3f @0, ambient f32 @12, sunColor vec3f @16. */
export const BOX_LIGHTING_LAYOUT = { size: 32, sunDirection: 0, ambient: 12, sunColor: 16 } as const;

/** One box: centre (m), yaw (rad), half extents along its x (forward), y (left), z (up) (m), colour (display RGB). */
export interface Box3 {
  centre: [number, number, number];
  yaw: number;
  halfSize: [number, number, number];
  color: [number, number, number];
}

/** Draws boxes (see the module doc). */
export class BoxPass {
  private readonly cameraScratch = new Float32Array(CAMERA_LAYOUT.size / 4);
  private readonly instanceScratch: Float32Array<ArrayBuffer>;
  private readonly cameraBuffer: GPUBuffer;
  private readonly lightingBuffer: GPUBuffer;
  private readonly boxBuffer: GPUBuffer;
  private readonly bindGroup: GPUBindGroup;
  private count = 0;

  private constructor(private readonly device: GPUDevice, private readonly pipeline: GPURenderPipeline, readonly capacity: number) {
    this.cameraBuffer = device.createBuffer({ label: 'BoxPass.camera', size: CAMERA_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.lightingBuffer = device.createBuffer({ label: 'BoxPass.lighting', size: BOX_LIGHTING_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.boxBuffer = device.createBuffer({ label: 'BoxPass.boxes', size: capacity * BOX_INSTANCE_LAYOUT.size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.instanceScratch = new Float32Array((capacity * BOX_INSTANCE_LAYOUT.size) / 4);
    this.bindGroup = device.createBindGroup({
      label: 'BoxPass.bindGroup',
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.cameraBuffer } },
        { binding: 1, resource: { buffer: this.lightingBuffer } },
        { binding: 2, resource: { buffer: this.boxBuffer } },
      ],
    });
    this.setLighting([-0.55, -0.45, 0.7], [1, 0.97, 0.9], 0.45);
  }

  /**
   * Compiles the pipeline and allocates buffers for `capacity` boxes.
   *
   * @throws Error when capacity is not a positive integer or the WGSL fails to compile.
   */
  static async create(device: GPUDevice, colorFormat: GPUTextureFormat, depthFormat: GPUTextureFormat, capacity: number): Promise<BoxPass> {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`BoxPass.create: capacity ${capacity} is not a positive integer`);
    const module = await createKernelModule(device, 'app/box.wgsl');
    const pipeline = await device.createRenderPipelineAsync({
      label: 'BoxPass.pipeline',
      layout: 'auto',
      vertex: { module, entryPoint: 'vertexMain' },
      fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: colorFormat }] },
      primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
      depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'less' },
    });
    return new BoxPass(device, pipeline, capacity);
  }

  /** Sets the sun (direction towards it, world frame; need not be unit), its colour and the ambient share. */
  setLighting(sunDirection: [number, number, number], sunColor: [number, number, number], ambient: number): void {
    const n = Math.hypot(...sunDirection) || 1;
    const data = new Float32Array(BOX_LIGHTING_LAYOUT.size / 4);
    data.set(sunDirection.map((v) => v / n), 0);
    data[3] = ambient;
    data.set(sunColor, 4);
    this.device.queue.writeBuffer(this.lightingBuffer, 0, data);
  }

  /**
   * Uploads the boxes drawn by the next encodes.
   *
   * @throws Error when there are more than `capacity`.
   */
  setBoxes(boxes: readonly Box3[]): void {
    if (boxes.length > this.capacity) throw new Error(`BoxPass.setBoxes: ${boxes.length} boxes exceed capacity ${this.capacity}`);
    const F = BOX_INSTANCE_LAYOUT.size / 4, out = this.instanceScratch;
    boxes.forEach((b, i) => {
      out.set(b.centre, i * F);
      out[i * F + 3] = b.yaw;
      out.set(b.halfSize, i * F + 4);
      out.set(b.color, i * F + 8);
    });
    if (boxes.length > 0) this.device.queue.writeBuffer(this.boxBuffer, 0, out, 0, boxes.length * F);
    this.count = boxes.length;
  }

  /** Records the pass (loads colour and depth; clears them when `clear` is given). Records only. */
  encode(encoder: GPUCommandEncoder, camera: CameraModel, color: GPUTextureView, depth: GPUTextureView, clear: GPUColor | null, timestampWrites?: GPURenderPassTimestampWrites): void {
    this.device.queue.writeBuffer(this.cameraBuffer, 0, packCameraUniform(camera, this.cameraScratch));
    const pass = encoder.beginRenderPass({
      label: 'BoxPass',
      colorAttachments: [{ view: color, loadOp: clear ? 'clear' : 'load', clearValue: clear ?? undefined, storeOp: 'store' }],
      depthStencilAttachment: { view: depth, depthClearValue: 1, depthLoadOp: clear ? 'clear' : 'load', depthStoreOp: 'store' },
      timestampWrites,
    });
    if (this.count > 0) {
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup);
      pass.draw(36, this.count);
    }
    pass.end();
  }

  /** Frees every buffer it made. */
  destroy(): void {
    for (const b of [this.cameraBuffer, this.lightingBuffer, this.boxBuffer]) b.destroy();
  }
}
