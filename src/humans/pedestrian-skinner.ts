/**
 * GPU skinning of many pedestrians of one body model in one submission (SMPL, Loper et al. 2015):
 * shape blend (`shaders/humans/shape.wgsl`, only after `setShapes`), forward kinematics per joint
 * (`joints.wgsl`, every frame), then LBS with pose blend shapes per vertex (`skin.wgsl`). The plain
 * TypeScript twin is `skinBody` in `lbs-reference.ts`.
 *
 * Choice: T̄ + B_S(β) and J(β) are precomputed per pedestrian when β change (a pedestrian's body
 * does not change while it walks), so the per-frame vertex pass costs P pose-blend MACs instead of
 * B + P. It costs N×V×3 f32 of memory (`shapedVertices`), 3.2 MB for 50 MakeHuman bodies.
 *
 * Owns (n = pedestrian < capacity, J joints, V vertices, B shapes, P pose features):
 *
 * | buffer | count | written by | contents |
 * |---|---|---|---|
 * | `params` (uniform) | SkinningParams | `encode` | V, B, N, P |
 * | `betas` | capacity×B f32 | `setShapes` | β per pedestrian |
 * | `poses` | capacity×(3J+3) f32 | `setPoses` or a GPU motion pass | θ (axis-angle, rad, body frame), trans (m) |
 * | `shapedVertices` | capacity×V×3 f32 | shape pass | T̄ + B_S(β) |
 * | `restJoints` | capacity×J×3 f32 | shape pass | J(β) |
 * | `skinningMatrices` | capacity×J×3 vec4f | joint pass | rows of A_k = G_k [I | −J_k] |
 * | `poseFeature` | capacity×P f32 | joint pass | vec(R(θ_k) − I), k ≥ 1 |
 * | `skinnedVertices` | capacity×V×6 f32 | skin pass | position, normal (STORAGE, VERTEX, COPY_SRC) |
 *
 * The model's constant arrays live in a {@link BodyModelBuffers} (owned when created here).
 */
import { dispatchSize1d } from '../gpu/dispatch';
import { beginComputePass } from '../gpu/gpu-stats';
import { cacheKey, createComputePipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import type { KernelPath } from '../gpu/shader-manifest';
import type { BodyModel } from './body-model';
import { BodyModelBuffers } from './body-model-buffers';
import { SKINNED_VERTEX_FLOATS, SKINNING_PARAMS_LAYOUT, SKINNING_WORKGROUP_SIZE, poseFloats } from './skinning-layout';

/**
 * The three skinning pipelines for a skeleton of `jointCount` joints (JOINT_COUNT override; layouts
 * 'auto'): compiled once per device and joint count, shared by every skinner on the device.
 */
function skinningPipelines(device: GPUDevice, jointCount: number) {
  return deviceCached(device, cacheKey('PedestrianSkinner', jointCount), async () => {
    const constants = { SKINNING_WORKGROUP_SIZE, JOINT_COUNT: jointCount };
    const pipeline = async (kernel: KernelPath, entryPoint: string) =>
      createComputePipeline(device, {
        label: `PedestrianSkinner.${entryPoint}Pipeline`,
        layout: 'auto',
        compute: { module: await createKernelModule(device, kernel), entryPoint, constants },
      });
    const [shape, joints, skin] = await Promise.all([
      pipeline('humans/shape.wgsl', 'shapeBlend'),
      pipeline('humans/joints.wgsl', 'forwardKinematics'),
      pipeline('humans/skin.wgsl', 'skinVertices'),
    ]);
    return { shape, joints, skin };
  });
}

/** Skins up to `capacity` pedestrians of one body model per `encode` (see the module doc for buffers). */
export class PedestrianSkinner {
  private shapesDirty = true;
  /** Pedestrians whose shaped rest mesh is current. */
  private shapedCount = 0;
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    readonly model: BodyModel,
    /** Largest pedestrian count accepted. */
    readonly capacity: number,
    readonly label: string,
    readonly modelBuffers: BodyModelBuffers,
    private readonly ownsModelBuffers: boolean,
    private readonly pipelines: { shape: GPUComputePipeline; joints: GPUComputePipeline; skin: GPUComputePipeline },
    private readonly bindGroups: { shape: GPUBindGroup; joints: GPUBindGroup; skin: GPUBindGroup },
    private readonly buffers: Record<string, GPUBuffer>,
  ) {}

  /** capacity×B β (f32); written by {@link setShapes}. */
  get betas(): GPUBuffer { return this.buffers.betas; }
  /** capacity×(3J + 3) poses (f32); a GPU motion pass may write it directly. */
  get poses(): GPUBuffer { return this.buffers.poses; }
  /** capacity×V×6 f32 skinned positions and normals, the renderer's vertex buffer. */
  get skinnedVertices(): GPUBuffer { return this.buffers.skinnedVertices; }
  /** capacity×J×3 vec4f skinning matrices (rows), e.g. for attachments. */
  get skinningMatrices(): GPUBuffer { return this.buffers.skinningMatrices; }

  /**
   * Allocates buffers for up to `capacity` pedestrians; the three kernels (JOINT_COUNT =
   * model.jointCount) are compiled once per device and joint count.
   *
   * @param modelBuffers share one model upload between skinners; created (and owned) when absent.
   * @throws Error when `capacity` is not a positive integer, a buffer would exceed
   *   maxStorageBufferBindingSize, or the model is invalid.
   */
  static async create(
    device: GPUDevice,
    model: BodyModel,
    capacity: number,
    label = 'PedestrianSkinner',
    modelBuffers?: BodyModelBuffers,
  ): Promise<PedestrianSkinner> {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`PedestrianSkinner.create: capacity ${capacity} is not a positive integer`);
    }
    const owns = !modelBuffers;
    const mb = modelBuffers ?? BodyModelBuffers.create(device, model, `${label}.model`);
    const { vertexCount: V, jointCount: J, shapeCount: B } = model;
    const P = mb.poseFeatureCount;
    const storage = (field: string, floats: number, extra = 0) => {
      const size = Math.max(16, floats * 4);
      if (size > device.limits.maxStorageBufferBindingSize) {
        throw new Error(
          `PedestrianSkinner.create: ${field} for ${capacity} pedestrians needs ${size} bytes, above ` +
            `maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`,
        );
      }
      return device.createBuffer({ label: `${label}.${field}`, size, usage: GPUBufferUsage.STORAGE | extra });
    };
    const buffers: Record<string, GPUBuffer> = {
      params: device.createBuffer({ label: `${label}.params`, size: SKINNING_PARAMS_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
      betas: storage('betas', capacity * B, GPUBufferUsage.COPY_DST),
      poses: storage('poses', capacity * poseFloats(J), GPUBufferUsage.COPY_DST),
      shapedVertices: storage('shapedVertices', capacity * V * 3),
      restJoints: storage('restJoints', capacity * J * 3),
      skinningMatrices: storage('skinningMatrices', capacity * J * 12, GPUBufferUsage.COPY_SRC),
      poseFeature: storage('poseFeature', capacity * P),
      skinnedVertices: storage('skinnedVertices', capacity * V * SKINNED_VERTEX_FLOATS, GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC),
    };
    const { shape, joints, skin } = await skinningPipelines(device, J);
    const bind = (name: string, p: GPUComputePipeline, list: GPUBuffer[]) =>
      device.createBindGroup({
        label: `${label}.${name}BindGroup`,
        layout: p.getBindGroupLayout(0),
        entries: list.map((buffer, binding) => ({ binding, resource: { buffer } })),
      });
    const b = buffers;
    const bindGroups = {
      shape: bind('shape', shape, [b.params, mb.templateVertices, mb.shapeDirs, mb.jointTemplate, mb.jointShapeDirs, b.betas, b.shapedVertices, b.restJoints]),
      joints: bind('joints', joints, [b.params, mb.parents, b.restJoints, b.poses, b.skinningMatrices, b.poseFeature]),
      skin: bind('skin', skin, [b.params, b.shapedVertices, mb.poseDirs, b.poseFeature, b.skinningMatrices, mb.skinIndices, mb.skinWeights, mb.restNormals, b.skinnedVertices]),
    };
    return new PedestrianSkinner(device, model, capacity, label, mb, owns, { shape, joints, skin }, bindGroups, buffers);
  }

  /**
   * Writes β for pedestrians `first … first + count − 1`; the next `encode` re-runs the shape pass.
   *
   * @param betas count×B values (β of the model's shape space, e.g. `makeHumanBetas`).
   * @throws Error when the range exceeds the capacity or `betas.length` is not a multiple of B.
   */
  setShapes(betas: Float32Array, first = 0): void {
    const B = this.model.shapeCount;
    if (B === 0) return void (this.shapesDirty = true);
    const count = betas.length / B;
    if (!Number.isInteger(count) || first + count > this.capacity) {
      throw new Error(`PedestrianSkinner.setShapes: ${betas.length} betas (B = ${B}) from pedestrian ${first} exceed capacity ${this.capacity}`);
    }
    this.device.queue.writeBuffer(this.buffers.betas, first * B * 4, betas as Float32Array<ArrayBuffer>);
    this.shapesDirty = true;
  }

  /**
   * Writes poses for pedestrians `first …`.
   *
   * @param poses count×(3J + 3): per pedestrian θ (J×3 axis-angle, radians, body frame, SMPL
   *   convention) then the root translation (metres).
   * @throws Error when the range exceeds the capacity or the length is not a multiple of 3J + 3.
   */
  setPoses(poses: Float32Array, first = 0): void {
    const stride = poseFloats(this.model.jointCount);
    const count = poses.length / stride;
    if (!Number.isInteger(count) || first + count > this.capacity) {
      throw new Error(`PedestrianSkinner.setPoses: ${poses.length} floats (stride ${stride}) from pedestrian ${first} exceed capacity ${this.capacity}`);
    }
    this.device.queue.writeBuffer(this.buffers.poses, first * stride * 4, poses as Float32Array<ArrayBuffer>);
  }

  /**
   * Records the passes that skin pedestrians 0 … count − 1 into `skinnedVertices` (shape pass only
   * after `setShapes` or when `count` grows). Records only; the caller submits. All encodes of one submission must use
   * the same `count` (the params uniform is written at encode time).
   *
   * @throws Error when `count` is not an integer in [0, capacity] or after `destroy()`.
   */
  encode(encoder: GPUCommandEncoder, count: number): void {
    if (this.destroyed) throw new Error('PedestrianSkinner.encode: called after destroy()');
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new Error(`PedestrianSkinner.encode: count ${count} is not an integer in [0, ${this.capacity}]`);
    }
    if (count === 0) return;
    const { vertexCount: V, jointCount: J, shapeCount: B } = this.model;
    const P = this.modelBuffers.poseFeatureCount;
    this.device.queue.writeBuffer(this.buffers.params, 0, Uint32Array.of(V, B, count, P));
    const maxDim = this.device.limits.maxComputeWorkgroupsPerDimension;
    const pass = beginComputePass(this.device, encoder, { label: `${this.label}.pass` });
    if (this.shapesDirty || count > this.shapedCount) {
      pass.setPipeline(this.pipelines.shape);
      pass.setBindGroup(0, this.bindGroups.shape);
      pass.dispatchWorkgroups(...dispatchSize1d(count * (V + J), SKINNING_WORKGROUP_SIZE, maxDim));
      this.shapesDirty = false;
      this.shapedCount = count;
    }
    pass.setPipeline(this.pipelines.joints);
    pass.setBindGroup(0, this.bindGroups.joints);
    pass.dispatchWorkgroups(...dispatchSize1d(count * J, SKINNING_WORKGROUP_SIZE, maxDim));
    pass.setPipeline(this.pipelines.skin);
    pass.setBindGroup(0, this.bindGroups.skin);
    pass.dispatchWorkgroups(...dispatchSize1d(count * V, SKINNING_WORKGROUP_SIZE, maxDim));
    pass.end();
  }

  /** Frees every buffer it made (and the model buffers if it created them); later encodes throw. */
  destroy(): void {
    for (const buffer of Object.values(this.buffers)) buffer.destroy();
    if (this.ownsModelBuffers) this.modelBuffers.destroy();
    this.destroyed = true;
  }
}
