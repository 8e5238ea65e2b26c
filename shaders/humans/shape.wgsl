// Shape blend (SMPL, Loper et al. 2015, eqs. 8 and 10), run only when a pedestrian's β change:
//   shapedVertices[n][v] = T̄[v] + Σ_b β[n][b] 𝒮[b][v]          (T̄ + B_S(β))
//   restJoints[n][k]     = J̄[k] + Σ_b β[n][b] (𝒥𝒮)[b][k]     (J(β) = 𝒥 (T̄ + B_S(β)), linear)
// One invocation per (pedestrian, vertex), then one per (pedestrian, joint): i < N·V are vertices,
// N·V ≤ i < N·(V + J) are joints. Reference: shapeBlend in src/humans/lbs-reference.ts.

@group(0) @binding(0) var<uniform> params: SkinningParams;
@group(0) @binding(1) var<storage, read> templateVertices: array<f32>;     // V×3, metres, body frame
@group(0) @binding(2) var<storage, read> shapeDirs: array<f32>;            // B×V×3 ([b][v][c])
@group(0) @binding(3) var<storage, read> jointTemplate: array<f32>;        // J×3
@group(0) @binding(4) var<storage, read> jointShapeDirs: array<f32>;       // B×J×3
@group(0) @binding(5) var<storage, read> betas: array<f32>;                // N×B
@group(0) @binding(6) var<storage, read_write> shapedVertices: array<f32>; // N×V×3
@group(0) @binding(7) var<storage, read_write> restJoints: array<f32>;     // N×J×3

fn vec3At(which: u32, i: u32) -> vec3f {
  switch (which) {
    case 0u: { return vec3f(templateVertices[3u * i], templateVertices[3u * i + 1u], templateVertices[3u * i + 2u]); }
    case 1u: { return vec3f(shapeDirs[3u * i], shapeDirs[3u * i + 1u], shapeDirs[3u * i + 2u]); }
    case 2u: { return vec3f(jointTemplate[3u * i], jointTemplate[3u * i + 1u], jointTemplate[3u * i + 2u]); }
    default: { return vec3f(jointShapeDirs[3u * i], jointShapeDirs[3u * i + 1u], jointShapeDirs[3u * i + 2u]); }
  }
}

@compute @workgroup_size(SKINNING_WORKGROUP_SIZE)
fn shapeBlend(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linearIndex(gid, nwg);
  let V = params.vertexCount;
  let B = params.shapeCount;
  let N = params.pedestrianCount;
  if (i < N * V) {
    let n = i / V;
    let v = i % V;
    var p = vec3At(0u, v);
    for (var b = 0u; b < B; b++) {
      p += betas[n * B + b] * vec3At(1u, b * V + v);
    }
    shapedVertices[3u * i] = p.x;
    shapedVertices[3u * i + 1u] = p.y;
    shapedVertices[3u * i + 2u] = p.z;
    return;
  }
  let j = i - N * V;
  if (j >= N * JOINT_COUNT) {
    return;
  }
  let n = j / JOINT_COUNT;
  let k = j % JOINT_COUNT;
  var q = vec3At(2u, k);
  for (var b = 0u; b < B; b++) {
    q += betas[n * B + b] * vec3At(3u, b * JOINT_COUNT + k);
  }
  restJoints[3u * j] = q.x;
  restJoints[3u * j + 1u] = q.y;
  restJoints[3u * j + 2u] = q.z;
}
