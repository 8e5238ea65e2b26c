// Shared by shaders/humans/{shape,joints,skin}.wgsl; prepended by the shader loader
// (src/humans/pedestrian-skinner.ts). Host mirror: SKINNING_PARAMS_LAYOUT in src/humans/skinning-layout.ts.

// Sizes of one skinning batch: N pedestrians of one body model.
struct SkinningParams {
  vertexCount: u32,      // V
  shapeCount: u32,       // B (0 allowed)
  pedestrianCount: u32,  // N pedestrians in this dispatch
  poseFeatureCount: u32, // P = 9 (J - 1) when the model has pose blend shapes, else 0
}

// Invocations per workgroup of every humans kernel (TS: SKINNING_WORKGROUP_SIZE).
override SKINNING_WORKGROUP_SIZE: u32 = 64u;
// J, joints of the body model (TS: BodyModel.jointCount; 24 for SMPL-tree bodies).
override JOINT_COUNT: u32 = 24u;

// Linear invocation index of a 1D problem folded into a 2D grid (src/gpu/dispatch.ts).
fn linearIndex(gid: vec3u, numWorkgroups: vec3u) -> u32 {
  return gid.x + gid.y * numWorkgroups.x * SKINNING_WORKGROUP_SIZE;
}
