// Linear blend skinning with pose blend shapes (SMPL, Loper et al. 2015, eqs. 2, 6, 9), every frame.
// One invocation per (pedestrian n, vertex v):
//   1. T_P = shapedVertices[n][v] + Σ_p poseFeature[n][p] 𝒫[p][v]   (skipped when P = 0)
//   2. M = Σ_i w_i A_{k_i} over the 4 strongest influences (skinIndices packs 4 × 8-bit joints)
//   3. position = M T_P; normal = normalize(M₃ₓ₃ n̄_v) (rest normals; blend shapes' effect ignored)
//   4. skinnedVertices[n][v] = (position.xyz, normal.xyz): 6 f32, the renderer's vertex buffer.
// Reference: skinBody in src/humans/lbs-reference.ts.

@group(0) @binding(0) var<uniform> params: SkinningParams;
@group(0) @binding(1) var<storage, read> shapedVertices: array<f32>;          // N×V×3 (shape.wgsl)
@group(0) @binding(2) var<storage, read> poseDirs: array<f32>;                // P×V×3 ([p][v][c])
@group(0) @binding(3) var<storage, read> poseFeature: array<f32>;             // N×P (joints.wgsl)
@group(0) @binding(4) var<storage, read> skinningMatrices: array<vec4f>;      // N×J×3 rows (joints.wgsl)
@group(0) @binding(5) var<storage, read> skinIndices: array<u32>;             // V, joint i in bits 8i..8i+7
@group(0) @binding(6) var<storage, read> skinWeights: array<vec4f>;           // V, sum 1
@group(0) @binding(7) var<storage, read> restNormals: array<f32>;             // V×3, unit
@group(0) @binding(8) var<storage, read_write> skinnedVertices: array<f32>;   // N×V×6

fn shapedAt(i: u32) -> vec3f {
  return vec3f(shapedVertices[3u * i], shapedVertices[3u * i + 1u], shapedVertices[3u * i + 2u]);
}

fn poseDirAt(i: u32) -> vec3f {
  return vec3f(poseDirs[3u * i], poseDirs[3u * i + 1u], poseDirs[3u * i + 2u]);
}

fn restNormalAt(i: u32) -> vec3f {
  return vec3f(restNormals[3u * i], restNormals[3u * i + 1u], restNormals[3u * i + 2u]);
}

@compute @workgroup_size(SKINNING_WORKGROUP_SIZE)
fn skinVertices(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linearIndex(gid, nwg);
  let V = params.vertexCount;
  if (i >= params.pedestrianCount * V) {
    return;
  }
  let n = i / V;
  let v = i % V;

  // Step 1: pose blend shapes.
  var p = shapedAt(i);
  let P = params.poseFeatureCount;
  for (var f = 0u; f < P; f++) {
    p += poseFeature[n * P + f] * poseDirAt(f * V + v);
  }

  // Step 2: blended skinning matrix (three rows).
  let packed = skinIndices[v];
  let w = skinWeights[v];
  var r0 = vec4f(0.0);
  var r1 = vec4f(0.0);
  var r2 = vec4f(0.0);
  for (var s = 0u; s < 4u; s++) {
    let o = 3u * (n * JOINT_COUNT + ((packed >> (8u * s)) & 0xffu));
    r0 += w[s] * skinningMatrices[o];
    r1 += w[s] * skinningMatrices[o + 1u];
    r2 += w[s] * skinningMatrices[o + 2u];
  }

  // Steps 3–4.
  let h = vec4f(p, 1.0);
  let nr = vec4f(restNormalAt(v), 0.0);
  let normal = normalize(vec3f(dot(r0, nr), dot(r1, nr), dot(r2, nr)));
  let o = 6u * i;
  skinnedVertices[o] = dot(r0, h);
  skinnedVertices[o + 1u] = dot(r1, h);
  skinnedVertices[o + 2u] = dot(r2, h);
  skinnedVertices[o + 3u] = normal.x;
  skinnedVertices[o + 4u] = normal.y;
  skinnedVertices[o + 5u] = normal.z;
}
