/**
 * The GPU copy of one {@link BodyModel}'s constant arrays, shared by every pedestrian (and every
 * `PedestrianSkinner`) of that model.
 *
 * | buffer | f32/u32 count | contents |
 * |---|---|---|
 * | `templateVertices` | V×3 f32 | T̄, metres, body frame |
 * | `shapeDirs` | B×V×3 f32 | 𝒮, `[b][v][c]` (≥ 1 element when B = 0) |
 * | `jointTemplate` | J×3 f32 | J̄ |
 * | `jointShapeDirs` | B×J×3 f32 | 𝒥𝒮 (≥ 1 element) |
 * | `poseDirs` | P×V×3 f32 | 𝒫 `[p][v][c]`, or 1 element when the model has none |
 * | `parents` | J i32 | −1 = root |
 * | `skinIndices` | V u32 | 4 × 8-bit joint indices (`packSkinIndices`) |
 * | `skinWeights` | V×4 f32 | weights, sum 1 |
 * | `restNormals` | V×3 f32 | unit normals of T̄ (`vertexNormals`) |
 */
import type { BodyModel } from './body-model';
import { poseFeatureCount, validateBodyModel } from './body-model';
import { vertexNormals } from './lbs-reference';
import { packSkinIndices } from './skinning-layout';

/** One model's constant GPU arrays (table above); `create` uploads, `destroy` frees. */
export class BodyModelBuffers {
  private constructor(
    readonly model: BodyModel,
    /** P, or 0 when the model has no pose blend shapes. */
    readonly poseFeatureCount: number,
    readonly templateVertices: GPUBuffer,
    readonly shapeDirs: GPUBuffer,
    readonly jointTemplate: GPUBuffer,
    readonly jointShapeDirs: GPUBuffer,
    readonly poseDirs: GPUBuffer,
    readonly parents: GPUBuffer,
    readonly skinIndices: GPUBuffer,
    readonly skinWeights: GPUBuffer,
    readonly restNormals: GPUBuffer,
  ) {}

  /**
   * Validates `model` and uploads its arrays.
   *
   * @throws Error from `validateBodyModel`, or when an array exceeds maxStorageBufferBindingSize
   *   (named, with its size and the limit).
   */
  static create(device: GPUDevice, model: BodyModel, label = 'BodyModelBuffers'): BodyModelBuffers {
    validateBodyModel(model);
    const upload = (field: string, data: Float32Array | Uint32Array | Int32Array): GPUBuffer => {
      const size = Math.max(16, Math.ceil(data.byteLength / 4) * 4);
      if (size > device.limits.maxStorageBufferBindingSize) {
        throw new Error(
          `BodyModelBuffers.create: ${model.name} ${field} needs ${size} bytes, above maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`,
        );
      }
      const buffer = device.createBuffer({ label: `${label}.${field}`, size, usage: GPUBufferUsage.STORAGE, mappedAtCreation: true });
      new (data.constructor as Float32ArrayConstructor)(buffer.getMappedRange()).set(data as Float32Array);
      buffer.unmap();
      return buffer;
    };
    const P = model.poseDirs ? poseFeatureCount(model.jointCount) : 0;
    return new BodyModelBuffers(
      model,
      P,
      upload('templateVertices', model.template),
      upload('shapeDirs', model.shapeDirs),
      upload('jointTemplate', model.jointTemplate),
      upload('jointShapeDirs', model.jointShapeDirs),
      upload('poseDirs', model.poseDirs ?? new Float32Array(1)),
      upload('parents', model.parents),
      upload('skinIndices', packSkinIndices(model.skinIndices)),
      upload('skinWeights', model.skinWeights),
      upload('restNormals', vertexNormals(model.template, model.faces)),
    );
  }

  /** Frees every buffer. */
  destroy(): void {
    for (const b of [
      this.templateVertices, this.shapeDirs, this.jointTemplate, this.jointShapeDirs, this.poseDirs, this.parents,
      this.skinIndices, this.skinWeights, this.restNormals,
    ]) b.destroy();
  }
}
