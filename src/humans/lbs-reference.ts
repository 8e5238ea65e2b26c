/**
 * Plain TypeScript (float64) reference of SMPL's forward kinematics and linear blend skinning, the
 * oracle for the GPU skinner (`pedestrian-skinner.ts`, `shaders/humans/*.wgsl`).
 *
 * Loper et al. 2015, "SMPL: A Skinned Multi-Person Linear Model": eq. 1 (Rodrigues), eqs. 2–4
 * (W, the per-joint world transforms G_k and the blend), eq. 8 (B_S), eq. 9 (B_P), eq. 10 (J(β)).
 * All positions are metres in the body frame of `body-model.ts`; poses are axis-angle radians.
 */
import { poseFeatureCount, type BodyModel } from './body-model';

/** Angle below which Rodrigues' formula falls back to R = I + [ω]× (first order), radians. */
export const RODRIGUES_EPSILON = 1e-8;

/**
 * Rodrigues' formula (SMPL eq. 1): R = I + sin‖ω‖ K + (1 − cos‖ω‖) K², K = [ω/‖ω‖]×.
 *
 * @param aa axis-angle array; the 3 values at `offset` are used (radians).
 * @returns 3×3 row-major rotation.
 */
export function rodrigues(aa: ArrayLike<number>, offset = 0): Float64Array {
  const x = aa[offset], y = aa[offset + 1], z = aa[offset + 2];
  const theta = Math.hypot(x, y, z);
  if (theta < RODRIGUES_EPSILON) return Float64Array.of(1, -z, y, z, 1, -x, -y, x, 1);
  const kx = x / theta, ky = y / theta, kz = z / theta;
  const s = Math.sin(theta), c = 1 - Math.cos(theta);
  return Float64Array.of(
    1 - c * (ky * ky + kz * kz), -s * kz + c * kx * ky, s * ky + c * kx * kz,
    s * kz + c * kx * ky, 1 - c * (kx * kx + kz * kz), -s * kx + c * ky * kz,
    -s * ky + c * kx * kz, s * kx + c * ky * kz, 1 - c * (kx * kx + ky * ky),
  );
}

/**
 * Shaped rest mesh and joints (SMPL eqs. 8 and 10): T̄ + B_S(β) and J(β) = J̄ + Σ_b β_b 𝒥𝒮_b.
 *
 * @param betas B shape coefficients (missing ones count as 0).
 * @returns `vertices` V×3 and `joints` J×3, metres, body frame.
 * @throws Error when `betas` is longer than the model's shape count.
 */
export function shapeBlend(model: BodyModel, betas: ArrayLike<number>): { vertices: Float64Array; joints: Float64Array } {
  const { vertexCount: V, jointCount: J, shapeCount: B } = model;
  if (betas.length > B) throw new Error(`shapeBlend: ${betas.length} betas for a model with ${B} shape components`);
  const vertices = Float64Array.from(model.template);
  const joints = Float64Array.from(model.jointTemplate);
  for (let b = 0; b < betas.length; b++) {
    const beta = betas[b];
    if (beta === 0) continue;
    const dirs = model.shapeDirs.subarray(b * V * 3, (b + 1) * V * 3);
    for (let i = 0; i < V * 3; i++) vertices[i] += beta * dirs[i];
    const jdirs = model.jointShapeDirs.subarray(b * J * 3, (b + 1) * J * 3);
    for (let i = 0; i < J * 3; i++) joints[i] += beta * jdirs[i];
  }
  return { vertices, joints };
}

/**
 * Pose feature of SMPL eq. 9: vec(R(θ_k) − I) for k = 1…J−1, row-major 3×3 per joint.
 *
 * @param pose J×3 axis-angle (radians).
 * @returns 9(J − 1) values.
 */
export function poseFeature(pose: ArrayLike<number>, jointCount: number): Float64Array {
  const out = new Float64Array(poseFeatureCount(jointCount));
  for (let k = 1; k < jointCount; k++) {
    const r = rodrigues(pose, 3 * k);
    for (let i = 0; i < 9; i++) out[9 * (k - 1) + i] = r[i] - (i % 4 === 0 ? 1 : 0);
  }
  return out;
}

/**
 * Forward kinematics (SMPL eqs. 3–4): G_k = G_parent(k) · [R(θ_k) | J_k − J_parent(k)], roots
 * [R(θ_k) | J_k + trans]; skinning transforms A_k = G_k · [I | −J_k] (world from rest).
 *
 * @param parents J parents (−1 = root, parents before children).
 * @param joints J×3 rest joint positions J(β), metres.
 * @param pose J×3 axis-angle, radians, body frame (SMPL convention, see `body-model.ts`).
 * @param trans root translation (metres, body frame) added to every root.
 * @returns `world` (G_k) and `skinning` (A_k), each J×12 (3×4 row-major [R | t]).
 */
export function forwardKinematics(
  parents: ArrayLike<number>,
  joints: ArrayLike<number>,
  pose: ArrayLike<number>,
  trans: ArrayLike<number> = [0, 0, 0],
): { world: Float64Array; skinning: Float64Array } {
  const J = parents.length;
  const world = new Float64Array(J * 12);
  const skinning = new Float64Array(J * 12);
  for (let k = 0; k < J; k++) {
    const r = rodrigues(pose, 3 * k);
    const p = parents[k];
    const o = 12 * k;
    if (p < 0) {
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) world[o + 4 * i + j] = r[3 * i + j];
        world[o + 4 * i + 3] = joints[3 * k + i] + trans[i];
      }
    } else {
      const q = 12 * p;
      const d = [0, 1, 2].map((i) => joints[3 * k + i] - joints[3 * p + i]);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          world[o + 4 * i + j] = world[q + 4 * i] * r[j] + world[q + 4 * i + 1] * r[3 + j] + world[q + 4 * i + 2] * r[6 + j];
        }
        world[o + 4 * i + 3] = world[q + 4 * i] * d[0] + world[q + 4 * i + 1] * d[1] + world[q + 4 * i + 2] * d[2] + world[q + 4 * i + 3];
      }
    }
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) skinning[o + 4 * i + j] = world[o + 4 * i + j];
      skinning[o + 4 * i + 3] =
        world[o + 4 * i + 3] - (world[o + 4 * i] * joints[3 * k] + world[o + 4 * i + 1] * joints[3 * k + 1] + world[o + 4 * i + 2] * joints[3 * k + 2]);
    }
  }
  return { world, skinning };
}

/**
 * Area-weighted vertex normals of a triangle mesh (unit length; (0, 0, 1) for unused vertices).
 *
 * @param positions V×3; @param faces F×3 counter-clockwise.
 */
export function vertexNormals(positions: ArrayLike<number>, faces: ArrayLike<number>): Float32Array {
  const n = new Float64Array(positions.length);
  for (let f = 0; f < faces.length; f += 3) {
    const [a, b, c] = [faces[f] * 3, faces[f + 1] * 3, faces[f + 2] * 3];
    const e1 = [0, 1, 2].map((i) => positions[b + i] - positions[a + i]);
    const e2 = [0, 1, 2].map((i) => positions[c + i] - positions[a + i]);
    const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    for (const v of [a, b, c]) for (let i = 0; i < 3; i++) n[v + i] += cr[i];
  }
  const out = new Float32Array(positions.length);
  for (let v = 0; v < n.length; v += 3) {
    const l = Math.hypot(n[v], n[v + 1], n[v + 2]);
    if (l > 0) for (let i = 0; i < 3; i++) out[v + i] = n[v + i] / l;
    else out[v + 2] = 1;
  }
  return out;
}

/** Result of {@link skinBody}. */
export interface SkinnedBody {
  /** V×3 posed vertices, metres, body frame. */
  positions: Float64Array;
  /** V×3 unit normals: rest normals rotated by the blended skinning matrix (blend shapes' effect on normals ignored). */
  normals: Float64Array;
  /** J×3 posed joint positions (translation of G_k). */
  joints: Float64Array;
}

/**
 * The full SMPL function M(β, θ) (eqs. 2–4 with 4 influences): T_P = T̄ + B_S(β) + B_P(θ), then
 * v' = Σ_i w_i A_{k_i} T_P.
 *
 * @param betas up to B coefficients. @param pose J×3 axis-angle (radians). @param trans metres.
 * @param restNormals V×3 rest normals (default: {@link vertexNormals} of the template).
 * @throws Error when `pose` is not J×3 long.
 */
export function skinBody(
  model: BodyModel,
  betas: ArrayLike<number>,
  pose: ArrayLike<number>,
  trans: ArrayLike<number> = [0, 0, 0],
  restNormals: ArrayLike<number> = vertexNormals(model.template, model.faces),
): SkinnedBody {
  const { vertexCount: V, jointCount: J } = model;
  if (pose.length !== 3 * J) throw new Error(`skinBody: pose has ${pose.length} values, expected ${3 * J}`);
  const { vertices, joints } = shapeBlend(model, betas);
  if (model.poseDirs) {
    const feature = poseFeature(pose, J);
    for (let p = 0; p < feature.length; p++) {
      const f = feature[p];
      if (f === 0) continue;
      const dirs = model.poseDirs.subarray(p * V * 3, (p + 1) * V * 3);
      for (let i = 0; i < V * 3; i++) vertices[i] += f * dirs[i];
    }
  }
  const { world, skinning } = forwardKinematics(model.parents, joints, pose, trans);
  const positions = new Float64Array(V * 3);
  const normals = new Float64Array(V * 3);
  const m = new Float64Array(12);
  for (let v = 0; v < V; v++) {
    m.fill(0);
    for (let i = 0; i < 4; i++) {
      const w = model.skinWeights[4 * v + i];
      if (w === 0) continue;
      const o = 12 * model.skinIndices[4 * v + i];
      for (let e = 0; e < 12; e++) m[e] += w * skinning[o + e];
    }
    const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
    const nx = restNormals[3 * v], ny = restNormals[3 * v + 1], nz = restNormals[3 * v + 2];
    for (let i = 0; i < 3; i++) {
      positions[3 * v + i] = m[4 * i] * x + m[4 * i + 1] * y + m[4 * i + 2] * z + m[4 * i + 3];
      normals[3 * v + i] = m[4 * i] * nx + m[4 * i + 1] * ny + m[4 * i + 2] * nz;
    }
    const l = Math.hypot(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]) || 1;
    for (let i = 0; i < 3; i++) normals[3 * v + i] /= l;
  }
  const posedJoints = new Float64Array(J * 3);
  for (let k = 0; k < J; k++) for (let i = 0; i < 3; i++) posedJoints[3 * k + i] = world[12 * k + 4 * i + 3];
  return { positions, normals, joints: posedJoints };
}
