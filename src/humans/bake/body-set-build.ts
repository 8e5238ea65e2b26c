/**
 * Builds the shipped MakeHuman body set from the full hm08 model (`loadMakeHuman`): a base adult
 * shape, five linear shape directions derived from MakeHuman's macro targets, and distance levels
 * of detail (LODs) decimated by quadric-error half-edge collapse (`quadric-decimate.ts`), so every
 * LOD vertex is an hm08 vertex with its own skin weights and shape offsets.
 *
 * Shape space (β per direction, metres per unit β, from `makeHumanBetas` of the macro sliders;
 * S(m) = T̄ + B_S(makeHumanBetas(m)) with every other slider at MakeHuman's default 0.5):
 *
 * | name | direction | useful β |
 * |---|---|---|
 * | gender | (S(gender 1) − S(gender 0)) / 2 | −1 female … +1 male |
 * | age | S(age 0.875) − S(age 0.5) | 0 = 25 years … 1 ≈ 74 years |
 * | weight | (S(weight 1) − S(weight 0)) / 2 | −1 … +1 |
 * | muscle | (S(muscle 1) − S(muscle 0)) / 2 | −1 … +1 |
 * | height | (S(height 1) − S(height 0)) / 2 | −1 … +1 |
 *
 * Gender and the others interact in MakeHuman (products of sliders); summing separate directions
 * is a first-order (linear) approximation about the default, exact along each axis alone.
 * The base is S(default), moved onto the ground (feet z = 0, pelvis over the origin).
 */
import { SMPL_JOINT_COUNT, groundOffset, type BodyModel } from '../body-model';
import type { BodyLod } from '../body-set-format';
import { shapeBlend } from '../lbs-reference';
import { makeHumanBetas, type MakeHumanMacros } from '../makehuman-macros';
import { decimateMesh } from './quadric-decimate';

/** Shape direction names, in β order. */
export const BODY_SET_SHAPE_NAMES = ['gender', 'age', 'weight', 'muscle', 'height'] as const;

/** Target vertex counts of LOD0, LOD1, LOD2. */
export const BODY_SET_LOD_VERTICES = [2200, 800, 300] as const;

/** Which macro targets the build needs (ages young … old; no baby/child). */
export const bodySetTargets = (name: string): boolean => /-(young|old)(-|$)/.test(name);

/**
 * The five-direction adult model at full resolution (13,380 vertices).
 *
 * @param full `loadMakeHuman` with at least the {@link bodySetTargets} targets.
 */
export function macroDirectionModel(full: BodyModel): BodyModel {
  const V = full.vertexCount, J = SMPL_JOINT_COUNT;
  const S = (m: Partial<MakeHumanMacros>) => shapeBlend(full, makeHumanBetas(full.shapeNames, m));
  const base = S({});
  const pairs: [Partial<MakeHumanMacros>, Partial<MakeHumanMacros>, number][] = [
    [{ gender: 1 }, { gender: 0 }, 0.5],
    [{ age: 0.875 }, { age: 0.5 }, 1],
    [{ weight: 1 }, { weight: 0 }, 0.5],
    [{ muscle: 1 }, { muscle: 0 }, 0.5],
    [{ height: 1 }, { height: 0 }, 0.5],
  ];
  const B = pairs.length;
  const shapeDirs = new Float32Array(B * V * 3);
  const jointShapeDirs = new Float32Array(B * J * 3);
  pairs.forEach(([hi, lo, scale], b) => {
    const a = S(hi), c = S(lo);
    for (let i = 0; i < V * 3; i++) shapeDirs[b * V * 3 + i] = scale * (a.vertices[i] - c.vertices[i]);
    for (let i = 0; i < J * 3; i++) jointShapeDirs[b * J * 3 + i] = scale * (a.joints[i] - c.joints[i]);
  });
  const t = groundOffset(base.vertices, base.joints);
  const template = Float32Array.from(base.vertices, (x, i) => x + t[i % 3]);
  const jointTemplate = Float32Array.from(base.joints, (x, i) => x + t[i % 3]);
  return {
    ...full, name: 'makehuman-adult', template, jointTemplate, shapeCount: B, shapeNames: [...BODY_SET_SHAPE_NAMES], shapeDirs, jointShapeDirs,
  };
}

/** The sub-model of `model` on vertices `kept` with triangles `faces` (indexing `kept`). */
export function subsetModel(model: BodyModel, kept: Uint32Array, faces: Uint32Array, name: string): BodyModel {
  const V = model.vertexCount, K = kept.length, B = model.shapeCount;
  const pick = (src: ArrayLike<number>, width: number, out: Float32Array | Uint32Array, block = 0, blockOut = 0) => {
    for (let i = 0; i < K; i++) for (let c = 0; c < width; c++) out[blockOut + i * width + c] = src[block + kept[i] * width + c];
    return out;
  };
  const shapeDirs = new Float32Array(B * K * 3);
  for (let b = 0; b < B; b++) pick(model.shapeDirs, 3, shapeDirs, b * V * 3, b * K * 3);
  return {
    ...model,
    name,
    vertexCount: K,
    template: pick(model.template, 3, new Float32Array(K * 3)) as Float32Array,
    faces,
    uvs: model.uvs ? (pick(model.uvs, 2, new Float32Array(K * 2)) as Float32Array) : undefined,
    skinIndices: pick(model.skinIndices, 4, new Uint32Array(K * 4)) as Uint32Array,
    skinWeights: pick(model.skinWeights, 4, new Float32Array(K * 4)) as Float32Array,
    shapeDirs,
  };
}

/**
 * The LODs: LOD0 decimated from the full mesh, each next one from the previous (nested vertex sets).
 *
 * @param adult {@link macroDirectionModel}'s output.
 */
export function buildBodyLods(adult: BodyModel, targets: readonly number[] = BODY_SET_LOD_VERTICES): BodyLod[] {
  const lods: BodyLod[] = [];
  let positions: Float32Array = adult.template;
  let faces: Uint32Array = adult.faces;
  let source = Uint32Array.from({ length: adult.vertexCount }, (_, i) => i);
  targets.forEach((target, k) => {
    const d = decimateMesh(positions, faces, target);
    source = Uint32Array.from(d.kept, (i) => source[i]);
    const model = subsetModel(adult, source, d.faces, `makehuman-lod${k}`);
    lods.push({ model, sourceVertex: Uint16Array.from(source) });
    positions = model.template;
    faces = d.faces;
  });
  return lods;
}
