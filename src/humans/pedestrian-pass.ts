/**
 * The pedestrian render pass (`shaders/humans/pedestrian.wgsl`): one instanced, indexed draw of
 * every pedestrian's skinned mesh (index buffer = the model's faces, instance n reads
 * `PedestrianSkinner.skinnedVertices[n·V …]`), placed in the world per instance (x, y, z, yaw),
 * coloured per instance and lit by a sun + sky uniform, writing colour and depth32float. In a
 * frame it runs after the skinner and before the splat pass, which depth-tests against it.
 *
 * Owns:
 *
 * | buffer | contents | written by |
 * |---|---|---|
 * | `camera` (uniform) | `Camera` (common/camera.wgsl) | `encode` |
 * | `lighting` (uniform) | `PedestrianLighting` | `setLighting` |
 * | `instances` (storage) | capacity × `PedestrianInstance` (PEDESTRIAN_INSTANCE_LAYOUT) | `setInstances` |
 * | `material` (vertex) | V × 32 B material coordinates | constructor ({@link materialVertexData} or `options.material`) |
 * | `indices` (index) | the model's faces, u32 | constructor |
 *
 * Pipeline: back faces culled (faces are counter-clockwise from outside; the projection keeps
 * orientation), depth test `less` with writes. Group 0: camera, lighting, instances, skinned vertices.
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel } from '../gpu/camera';
import { beginRenderPass } from '../gpu/gpu-stats';
import { cacheKey, createRenderPipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import type { BodyModel } from './body-model';
import {
  DEFAULT_PEDESTRIAN_LIGHTING, PEDESTRIAN_INSTANCE_LAYOUT, PEDESTRIAN_LIGHTING_LAYOUT, packPedestrianInstances,
  packPedestrianLighting, type PedestrianAppearance, type PedestrianLighting, type PedestrianPlacement,
} from './pedestrian-appearance';
import { MATERIAL_VERTEX_LAYOUT, materialVertexData } from './pedestrian-material';

/** Options of {@link PedestrianPass.create}. */
export interface PedestrianPassOptions {
  colorFormat: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  /** The body model whose skinned vertices are drawn (V and faces). */
  model: BodyModel;
  /** Most pedestrians drawn per frame. */
  capacity: number;
  /**
   * The model's material vertex buffer (V × 32 bytes, pedestrian-material.ts); default
   * `materialVertexData(model)`. A LOD passes its parent's (`makeHumanMaterial`) so the look cannot move.
   */
  material?: ArrayBuffer;
  label?: string;
}

/** Where `encode` draws: colour and depth views, and whether to clear them first. */
export interface PedestrianTarget {
  color: GPUTextureView;
  depth: GPUTextureView;
  /** Clear colour, or null to keep what is there (e.g. a ground drawn before). */
  clearColor: GPUColor | null;
  /** Clear depth to 1 first (default: same as whether clearColor is given). */
  clearDepth?: boolean;
}

/**
 * The pedestrian pipeline for these target formats and a body of `vertexCount` vertices
 * (VERTEX_COUNT override): compiled once per device, formats and vertex count, shared by every pass.
 */
function pedestrianPipeline(device: GPUDevice, colorFormat: GPUTextureFormat, depthFormat: GPUTextureFormat, vertexCount: number) {
  return deviceCached(device, cacheKey('PedestrianPass', colorFormat, depthFormat, vertexCount), async () => {
    const module = await createKernelModule(device, 'humans/pedestrian.wgsl');
    return createRenderPipeline(device, {
      label: 'PedestrianPass.pipeline',
      layout: 'auto',
      vertex: {
        module,
        entryPoint: 'vertexMain',
        constants: { VERTEX_COUNT: vertexCount },
        buffers: [{
          arrayStride: MATERIAL_VERTEX_LAYOUT.stride,
          stepMode: 'vertex',
          attributes: [
            { shaderLocation: 0, offset: MATERIAL_VERTEX_LAYOUT.restPosition, format: 'float32x3' },
            { shaderLocation: 1, offset: MATERIAL_VERTEX_LAYOUT.bodyZ, format: 'float32x4' },
            { shaderLocation: 2, offset: MATERIAL_VERTEX_LAYOUT.weights, format: 'unorm8x4' },
          ],
        }],
      },
      fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: colorFormat }] },
      primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
      depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'less' },
    });
  });
}

/** Draws skinned pedestrians (see the module doc). */
export class PedestrianPass {
  private readonly cameraScratch = new Float32Array(CAMERA_LAYOUT.size / 4);
  private readonly cameraBuffer: GPUBuffer;
  private readonly lightingBuffer: GPUBuffer;
  private readonly instanceBuffer: GPUBuffer;
  private readonly materialBuffer: GPUBuffer;
  private readonly indexBuffer: GPUBuffer;
  private readonly indexCount: number;
  private bindGroup: GPUBindGroup | null = null;
  private boundVertices: GPUBuffer | null = null;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly pipeline: GPURenderPipeline,
    readonly model: BodyModel,
    readonly capacity: number,
    readonly label: string,
    material: ArrayBuffer | undefined,
  ) {
    const V = model.vertexCount;
    this.cameraBuffer = device.createBuffer({ label: `${label}.camera`, size: CAMERA_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.lightingBuffer = device.createBuffer({ label: `${label}.lighting`, size: PEDESTRIAN_LIGHTING_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.instanceBuffer = device.createBuffer({ label: `${label}.instances`, size: capacity * PEDESTRIAN_INSTANCE_LAYOUT.size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const packed = material ?? materialVertexData(model);
    if (packed.byteLength !== V * MATERIAL_VERTEX_LAYOUT.stride) {
      throw new Error(`${label}: material buffer of ${packed.byteLength} bytes, expected ${V} × ${MATERIAL_VERTEX_LAYOUT.stride}`);
    }
    this.materialBuffer = device.createBuffer({ label: `${label}.material`, size: packed.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.materialBuffer, 0, packed);
    this.indexCount = model.faces.length;
    this.indexBuffer = device.createBuffer({ label: `${label}.indices`, size: Math.ceil((this.indexCount * 4) / 4) * 4, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.indexBuffer, 0, model.faces as Uint32Array<ArrayBuffer>);
    this.setLighting(DEFAULT_PEDESTRIAN_LIGHTING);
  }

  /**
   * Allocates buffers; the pipeline (VERTEX_COUNT = model.vertexCount) is compiled once per device,
   * formats and vertex count.
   *
   * @throws Error when `capacity` is not a positive integer, `material` has the wrong size, or the WGSL fails to compile.
   */
  static async create(device: GPUDevice, options: PedestrianPassOptions): Promise<PedestrianPass> {
    const label = options.label ?? 'PedestrianPass';
    if (!Number.isInteger(options.capacity) || options.capacity < 1) {
      throw new Error(`PedestrianPass.create: capacity ${options.capacity} is not a positive integer`);
    }
    const pipeline = await pedestrianPipeline(device, options.colorFormat, options.depthFormat, options.model.vertexCount);
    return new PedestrianPass(device, pipeline, options.model, options.capacity, label, options.material);
  }

  /** Sets the sun and sky (see {@link PedestrianLighting}); takes effect at the next submission. */
  setLighting(lighting: PedestrianLighting): void {
    this.device.queue.writeBuffer(this.lightingBuffer, 0, packPedestrianLighting(lighting));
  }

  /**
   * Writes placements and appearances of pedestrians `first …` (instance n pairs with skinned
   * pedestrian n).
   *
   * @throws Error when the range exceeds the capacity or the arrays differ in length.
   */
  setInstances(placements: readonly PedestrianPlacement[], appearances: readonly PedestrianAppearance[], first = 0): void {
    if (first + placements.length > this.capacity) {
      throw new Error(`${this.label}.setInstances: ${placements.length} pedestrians from ${first} exceed capacity ${this.capacity}`);
    }
    this.device.queue.writeBuffer(this.instanceBuffer, first * PEDESTRIAN_INSTANCE_LAYOUT.size, packPedestrianInstances(placements, appearances));
  }

  /**
   * Records the render pass drawing pedestrians 0 … count − 1 from `skinnedVertices` (the
   * skinner's output, which must hold at least count × V × 6 f32). Records only; the caller submits.
   *
   * @param timestampWrites e.g. `profiler.span('pedestrians.draw')`.
   * @throws Error after destroy() or when count is outside [0, capacity].
   */
  encode(
    encoder: GPUCommandEncoder,
    camera: CameraModel,
    skinnedVertices: GPUBuffer,
    count: number,
    target: PedestrianTarget,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    if (this.destroyed) throw new Error(`${this.label}.encode: called after destroy()`);
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new Error(`${this.label}.encode: count ${count} is not an integer in [0, ${this.capacity}]`);
    }
    this.device.queue.writeBuffer(this.cameraBuffer, 0, packCameraUniform(camera, this.cameraScratch));
    if (this.boundVertices !== skinnedVertices) {
      this.bindGroup = this.device.createBindGroup({
        label: `${this.label}.bindGroup`,
        layout: this.pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.cameraBuffer } },
          { binding: 1, resource: { buffer: this.lightingBuffer } },
          { binding: 2, resource: { buffer: this.instanceBuffer } },
          { binding: 3, resource: { buffer: skinnedVertices } },
        ],
      });
      this.boundVertices = skinnedVertices;
    }
    const clearDepth = target.clearDepth ?? target.clearColor !== null;
    const pass = beginRenderPass(this.device, encoder, {
      label: this.label,
      colorAttachments: [{ view: target.color, loadOp: target.clearColor ? 'clear' : 'load', clearValue: target.clearColor ?? undefined, storeOp: 'store' }],
      depthStencilAttachment: { view: target.depth, depthClearValue: 1, depthLoadOp: clearDepth ? 'clear' : 'load', depthStoreOp: 'store' },
      timestampWrites,
    });
    if (count > 0) {
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup!);
      pass.setVertexBuffer(0, this.materialBuffer);
      pass.setIndexBuffer(this.indexBuffer, 'uint32');
      pass.drawIndexed(this.indexCount, count);
    }
    pass.end();
  }

  /** Frees every buffer it made; later encodes throw. */
  destroy(): void {
    for (const b of [this.cameraBuffer, this.lightingBuffer, this.instanceBuffer, this.materialBuffer, this.indexBuffer]) b.destroy();
    this.destroyed = true;
  }
}
