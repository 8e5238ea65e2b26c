/**
 * Pedestrian bodies: the body-model form, its loaders (SMPL `.npz`, MakeHuman, the shipped MakeHuman
 * body set with LODs — the default —, built-in procedural, rigged glTF), the float64 LBS reference,
 * the GPU skinner, the pedestrian pass and the per-walker appearance.
 */
export * from './body-model';
export * from './lbs-reference';
export { createProceduralBody, PROCEDURAL_SHAPE_NAMES } from './procedural-body';
export { loadSmplNpz, SMPL_NPZ_KEYS, type SmplLoadOptions } from './smpl-npz';
export { writeSyntheticSmplNpz, type SyntheticSmplOptions } from './synthetic-smpl';
export { loadMakeHuman, MAKEHUMAN_BONE_TO_SMPL, MAKEHUMAN_BODY_VERTEX_COUNT, type MakeHumanReader, type MakeHumanLoadOptions } from './makehuman';
export { DEFAULT_MACROS, makeHumanBetas, macroTargetNames, type MakeHumanMacros } from './makehuman-macros';
export { loadGltfBody, loadGltfCharacter, type GltfCharacter, type GltfClip } from './gltf-body';
export { BodyModelBuffers } from './body-model-buffers';
export { PedestrianSkinner } from './pedestrian-skinner';
export { SKINNED_VERTEX_FLOATS, SKINNING_PARAMS_LAYOUT, SKINNING_WORKGROUP_SIZE, packSkinIndices, poseFloats } from './skinning-layout';
export * from './motion';
export { PedestrianPass, type PedestrianPassOptions, type PedestrianTarget } from './pedestrian-pass';
export {
  DEFAULT_PEDESTRIAN_LIGHTING, FABRIC_PATTERNS, HAIR_STYLES, LOWER_KINDS, PEDESTRIAN_INSTANCE_LAYOUT, PEDESTRIAN_LIGHTING_LAYOUT,
  UPPER_KINDS, packPedestrianInstances, packPedestrianLighting, randomAppearance, type BodyShape, type FabricPattern, type HairStyle,
  type LowerKind, type PedestrianAppearance, type PedestrianLighting, type PedestrianPlacement, type Rgb, type UpperKind,
} from './pedestrian-appearance';
export { MONK_SKIN_TONES, pedestrianBetas, pedestrianBetasFor } from './pedestrian-wardrobe';
export { MATERIAL_VERTEX_LAYOUT, headFrame, materialVertexData, type HeadFrame } from './pedestrian-material';
export { MAKEHUMAN_LOD_COUNT, makeHumanBodies, makeHumanBody, makeHumanLod, makeHumanMaterial } from './makehuman-set';
export { BODY_SET_FORMAT, decodeBodyLod, encodeBodyLod, type BodyLod, type BodyLodFile } from './body-set-format';
export { PedestrianLodGroup, type PedestrianLodOptions } from './pedestrian-lod';
export { MATERIAL_CUTS, pedestrianAlbedo, type MaterialPoint } from './pedestrian-albedo-reference';
export { pedestrianToWorld, projectPedestrianVertex, rasterizeSilhouette, silhouetteRows, type ProjectedVertex } from './pedestrian-reference';
