/**
 * Host-side layouts and tuning constants of the pedestrian skinning kernels
 * (`shaders/humans/skinning-types.wgsl`, checked by `skinning-layout.browser.test.ts`).
 */

/** Invocations per workgroup of every humans kernel (WGSL `override` of the same name). */
export const SKINNING_WORKGROUP_SIZE = 64;

/** `SkinningParams`: byte offsets of its u32 fields, and its size. */
export const SKINNING_PARAMS_LAYOUT = {
  vertexCount: 0,
  shapeCount: 4,
  pedestrianCount: 8,
  poseFeatureCount: 12,
  size: 16,
} as const;

/**
 * f32 per skinned vertex in `PedestrianSkinner.skinnedVertices`: position xyz (metres, body frame
 * plus the pose's root translation), unit normal xyz. As a vertex buffer: arrayStride 24 B,
 * `float32x3` at offset 0 (position) and 12 (normal); pedestrian n's vertices start at n·V.
 */
export const SKINNED_VERTEX_FLOATS = 6;

/** f32 per pedestrian in the `poses` buffer of a J-joint model: θ (J×3 axis-angle, rad), trans (3, m). */
export function poseFloats(jointCount: number): number {
  return 3 * jointCount + 3;
}

/**
 * Packs V×4 joint indices (each < 256) into one u32 per vertex, joint i in bits 8i … 8i + 7
 * (`skinIndices` in skin.wgsl).
 *
 * @throws RangeError when an index is ≥ 256.
 */
export function packSkinIndices(indices: Uint32Array): Uint32Array {
  const out = new Uint32Array(indices.length / 4);
  for (let v = 0; v < out.length; v++) {
    let word = 0;
    for (let i = 0; i < 4; i++) {
      const j = indices[4 * v + i];
      if (j > 255) throw new RangeError(`packSkinIndices: vertex ${v} joint ${j} ≥ 256`);
      word |= j << (8 * i);
    }
    out[v] = word >>> 0;
  }
  return out;
}
