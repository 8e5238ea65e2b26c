/**
 * Pedestrian bodies: the body-model form, its loaders (SMPL `.npz`, MakeHuman, built-in procedural,
 * rigged glTF), the float64 LBS reference and the GPU skinner.
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
  DEFAULT_PEDESTRIAN_LIGHTING, PEDESTRIAN_INSTANCE_LAYOUT, PEDESTRIAN_LIGHTING_LAYOUT, REGION, packPedestrianInstances,
  packPedestrianLighting, randomAppearance, vertexRegions, type PedestrianAppearance, type PedestrianLighting,
  type PedestrianPlacement, type Rgb,
} from './pedestrian-appearance';
export { pedestrianToWorld, projectPedestrianVertex, rasterizeSilhouette, silhouetteRows, type ProjectedVertex } from './pedestrian-reference';
