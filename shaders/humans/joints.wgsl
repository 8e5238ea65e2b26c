// Forward kinematics (SMPL, Loper et al. 2015, eqs. 1, 3, 4 and 9), every frame. One invocation per
// (pedestrian n, joint k); each walks k's chain to the root, so no invocation waits for another:
//   1. L_j = [R(θ_j) | J_j − J_parent(j)] (roots: [R(θ_j) | J_j + trans]), R by Rodrigues (eq. 1).
//   2. G_k = L_root ∘ … ∘ L_parent(k) ∘ L_k (eq. 3).
//   3. skinningMatrices[n][k] = G_k ∘ [I | −J_k] (eq. 4), three rows [R | t] as vec4f.
//   4. poseFeature[n][9 (k − 1) + 3 r + c] = (R(θ_k) − I)[r][c] for k ≥ 1 (eq. 9), when P > 0.
// Reference: forwardKinematics and poseFeature in src/humans/lbs-reference.ts.

@group(0) @binding(0) var<uniform> params: SkinningParams;
@group(0) @binding(1) var<storage, read> parents: array<i32>;                  // J, −1 = root
@group(0) @binding(2) var<storage, read> restJoints: array<f32>;               // N×J×3 (shape.wgsl)
@group(0) @binding(3) var<storage, read> poses: array<f32>;                    // N×(3J + 3): θ (axis-angle, rad), trans (m)
@group(0) @binding(4) var<storage, read_write> skinningMatrices: array<vec4f>; // N×J×3 rows
@group(0) @binding(5) var<storage, read_write> poseFeature: array<f32>;        // N×P

// Below this angle (radians) R = I + [ω]× (TS: RODRIGUES_EPSILON).
const RODRIGUES_EPSILON: f32 = 1e-8;

// sin and cos to ~1e-7 absolute. WGSL's built-ins allow 2^-11 absolute error (WGSL spec §"Floating
// point accuracy"), and SwiftShader uses that latitude, which would cost ~1e-4 m at arm's length.
// Range reduction by π/2 (Cody–Waite, two-part constant), then Taylor polynomials on |r| ≤ π/4
// (truncation < 3e-9).
fn sinCos(x: f32) -> vec2f {
  let q = round(x * 0.63661977236758134);
  let r = (x - q * 1.5707963705062866) + q * 4.3711388286737929e-8;
  let r2 = r * r;
  let s = r * (1.0 + r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0)))));
  let c = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40320.0 + r2 * (-1.0 / 3628800.0)))));
  let quadrant = i32(q) & 3;
  switch (quadrant) {
    case 0: { return vec2f(s, c); }
    case 1: { return vec2f(c, -s); }
    case 2: { return vec2f(-s, -c); }
    default: { return vec2f(-c, s); }
  }
}

// Rodrigues' formula: R = I + sin θ K + (1 − cos θ) K², K = [ω/θ]×, θ = |ω|.
fn rodrigues(w: vec3f) -> mat3x3f {
  let theta = length(w);
  if (theta < RODRIGUES_EPSILON) {
    return mat3x3f(vec3f(1.0, w.z, -w.y), vec3f(-w.z, 1.0, w.x), vec3f(w.y, -w.x, 1.0));
  }
  let k = w / theta;
  let K = mat3x3f(vec3f(0.0, k.z, -k.y), vec3f(-k.z, 0.0, k.x), vec3f(k.y, -k.x, 0.0)); // columns
  let I = mat3x3f(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0), vec3f(0.0, 0.0, 1.0));
  let sc = sinCos(theta);
  return I + sc.x * K + (1.0 - sc.y) * (K * K);
}

fn poseAxisAngle(n: u32, k: u32) -> vec3f {
  let o = n * (3u * JOINT_COUNT + 3u) + 3u * k;
  return vec3f(poses[o], poses[o + 1u], poses[o + 2u]);
}

fn restJoint(n: u32, k: u32) -> vec3f {
  let o = 3u * (n * JOINT_COUNT + k);
  return vec3f(restJoints[o], restJoints[o + 1u], restJoints[o + 2u]);
}

@compute @workgroup_size(SKINNING_WORKGROUP_SIZE)
fn forwardKinematics(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linearIndex(gid, nwg);
  if (i >= params.pedestrianCount * JOINT_COUNT) {
    return;
  }
  let n = i / JOINT_COUNT;
  let k = i % JOINT_COUNT;
  let Rk = rodrigues(poseAxisAngle(n, k));

  // Steps 1–2: walk from k to the root, composing G = L_j ∘ G.
  var R = mat3x3f(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0), vec3f(0.0, 0.0, 1.0));
  var t = vec3f(0.0);
  var j = i32(k);
  for (var depth = 0u; depth < JOINT_COUNT && j >= 0; depth++) {
    let ju = u32(j);
    let p = parents[ju];
    let Rj = rodrigues(poseAxisAngle(n, ju));
    var tj = restJoint(n, ju);
    if (p >= 0) {
      tj -= restJoint(n, u32(p));
    } else {
      let o = n * (3u * JOINT_COUNT + 3u) + 3u * JOINT_COUNT;
      tj += vec3f(poses[o], poses[o + 1u], poses[o + 2u]);
    }
    t = Rj * t + tj;
    R = Rj * R;
    j = p;
  }

  // Step 3: A_k = G_k ∘ [I | −J_k], stored as rows.
  let a = t - R * restJoint(n, k);
  let o = 3u * i;
  skinningMatrices[o] = vec4f(R[0].x, R[1].x, R[2].x, a.x);
  skinningMatrices[o + 1u] = vec4f(R[0].y, R[1].y, R[2].y, a.y);
  skinningMatrices[o + 2u] = vec4f(R[0].z, R[1].z, R[2].z, a.z);

  // Step 4: pose feature, row-major R − I.
  let P = params.poseFeatureCount;
  if (P > 0u && k > 0u) {
    let f = n * P + 9u * (k - 1u);
    for (var r = 0u; r < 3u; r++) {
      for (var c = 0u; c < 3u; c++) {
        poseFeature[f + 3u * r + c] = Rk[c][r] - select(0.0, 1.0, r == c);
      }
    }
  }
}
