/**
 * The one body-model form every pedestrian source loads into (SMPL `.npz`, MakeHuman, the built-in
 * procedural body, rigged glTF), and what the TS reference (`lbs-reference.ts`) and the GPU skinner
 * (`pedestrian-skinner.ts`) consume.
 *
 * Model: SMPL, Loper et al. 2015, "SMPL: A Skinned Multi-Person Linear Model", eqs. 1–4:
 * T_P(β, θ) = T̄ + B_S(β) + B_P(θ), J(β) = 𝒥(T̄ + B_S(β)), vertices = W(T_P, J(β), θ, 𝒲).
 *
 * **Body frame** (all sources, after conversion at load): right-handed, metres, **x forward (the
 * way the face points), y left, z up** (the ROS REP 103 body convention, same as the robot frame).
 * For the rest shape (β = 0) the feet touch z = 0 and the root joint (pelvis) is above the origin
 * (its x and y are 0). SMPL, MakeHuman and glTF are all Y-up, +Z forward, +X left, so each is mapped
 * by the same rotation {@link Y_UP_TO_BODY} (x, y, z) → (z, x, y), then translated onto the ground;
 * the full source→body transform is kept in {@link BodyModel.sourceToBody}.
 *
 * **Pose convention** (SMPL's): joint k's pose is an axis-angle θ_k (radians, body-frame axes) that
 * rotates joint k's children relative to joint k's rest orientation, which is aligned with the body
 * frame for every joint. The rest pose (θ = 0) is the template's pose: a T-pose for SMPL and the
 * procedural body, MakeHuman's A-pose for MakeHuman, the bind pose for glTF.
 */

/** SMPL's 24-joint kinematic tree: parent of each joint, −1 for the root (Loper et al. 2015). */
export const SMPL_PARENTS: readonly number[] = [-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19, 20, 21];

/** SMPL joint names, in SMPL's order (index = joint id). */
export const SMPL_JOINT_NAMES: readonly string[] = [
  'pelvis', 'leftHip', 'rightHip', 'spine1', 'leftKnee', 'rightKnee', 'spine2', 'leftAnkle', 'rightAnkle',
  'spine3', 'leftFoot', 'rightFoot', 'neck', 'leftCollar', 'rightCollar', 'head', 'leftShoulder',
  'rightShoulder', 'leftElbow', 'rightElbow', 'leftWrist', 'rightWrist', 'leftHand', 'rightHand',
];

/** Number of SMPL joints. */
export const SMPL_JOINT_COUNT = 24;

/** Influences kept per vertex (strongest first, renormalised to sum 1). */
export const INFLUENCES_PER_VERTEX = 4;

/**
 * Rotation from the Y-up, +Z-forward, +X-left frame of SMPL, MakeHuman and glTF to the body frame
 * (x forward, y left, z up): (x, y, z) → (z, x, y). Row-major 3×3, det +1.
 */
export const Y_UP_TO_BODY: readonly number[] = [0, 0, 1, 1, 0, 0, 0, 1, 0];

/** A sparse row-major (CSR) matrix, e.g. SMPL's joint regressor 𝒥 (J×V). */
export interface SparseMatrix {
  rows: number;
  cols: number;
  /** rows + 1 offsets into `colIndex` / `values`. */
  rowPtr: Uint32Array;
  colIndex: Uint32Array;
  values: Float64Array;
}

/** Where a body model came from. */
export type BodySource = 'smpl' | 'makehuman' | 'procedural' | 'gltf';

/**
 * A linear blend-skinned body (SMPL's model form) in the body frame (see the module doc).
 *
 * Notation: V vertices, F triangles, J joints, B shape components, P = 9(J − 1) pose-feature size.
 * Arrays are flat, row-major. Large arrays are float32 (uploaded to the GPU as-is); the reference
 * computes in float64 from the same values.
 */
export interface BodyModel {
  /** Human-readable name, e.g. `smpl:model.npz`, `makehuman`, `procedural`, `gltf:CesiumMan.glb`. */
  name: string;
  source: BodySource;
  vertexCount: number;
  jointCount: number;
  /** J parents, −1 for a root; every parent index is smaller than its child's. SMPL sources use {@link SMPL_PARENTS}. */
  parents: Int32Array;
  /** J joint names (SMPL names for 24-joint models, the file's names for glTF). */
  jointNames: string[];
  /** T̄: V×3 rest vertices, metres, body frame. */
  template: Float32Array;
  /** F×3 triangle vertex indices, counter-clockwise seen from outside. */
  faces: Uint32Array;
  /** Optional V×2 texture coordinates (u right, v up, as in the source). */
  uvs?: Float32Array;
  /** Optional 𝒥: J×V joint regressor (SMPL). Absent when joints follow another rule (see `jointTemplate`). */
  jointRegressor?: SparseMatrix;
  /** J(0): J×3 rest joint positions, metres, body frame (= 𝒥·T̄ when a regressor exists). */
  jointTemplate: Float32Array;
  /** V×4 joint indices of the 4 strongest influences per vertex (unused slots: index 0, weight 0). */
  skinIndices: Uint32Array;
  /** V×4 weights matching `skinIndices`, non-negative, summing to 1 per vertex. */
  skinWeights: Float32Array;
  /** B, the number of shape components (may be 0). */
  shapeCount: number;
  /** B names, e.g. `beta0` (SMPL), `height` (procedural), a target file name (MakeHuman). */
  shapeNames: string[];
  /**
   * 𝒮: B×V×3 shape blend shapes, metres per unit β, body frame, **component-major** (`[b][v][c]`;
   * SMPL's file stores V×3×B, transposed at load so each component is contiguous on the GPU).
   */
  shapeDirs: Float32Array;
  /** B×J×3: each shape component's effect on the joints (= 𝒥·𝒮_b, or the joint rule applied to 𝒮_b). */
  jointShapeDirs: Float32Array;
  /**
   * Optional 𝒫: P×V×3 pose blend shapes (P = 9(J − 1)), feature-major (`[p][v][c]`), metres; the
   * feature is vec(R(θ_k) − I) for k = 1…J−1, row-major per joint (SMPL eq. 9).
   */
  poseDirs?: Float32Array;
  /** 4×4 column-major transform from the source file's frame and units to the body frame. */
  sourceToBody: Float64Array;
}

/** Number of pose-blend-shape features of a J-joint model: 9(J − 1). */
export function poseFeatureCount(jointCount: number): number {
  return 9 * (jointCount - 1);
}

/**
 * Checks every array size and index range of `model`.
 *
 * @throws Error `BodyModel <name>: <field>: <problem>` on the first inconsistency (wrong length,
 *   parent not before child, skin index ≥ J, weights not summing to 1 within 1e-3, face index ≥ V).
 */
export function validateBodyModel(model: BodyModel): void {
  const fail = (field: string, problem: string) => {
    throw new Error(`BodyModel ${model.name}: ${field}: ${problem}`);
  };
  const { vertexCount: V, jointCount: J, shapeCount: B } = model;
  const len = (field: string, arr: { length: number } | undefined, want: number) => {
    if (arr && arr.length !== want) fail(field, `length ${arr.length}, expected ${want}`);
  };
  if (J < 1 || J > 256) fail('jointCount', `${J} outside [1, 256]`);
  len('parents', model.parents, J);
  model.parents.forEach((p, k) => {
    if (p >= k || p < -1) fail('parents', `joint ${k} has parent ${p}; parents must precede children`);
  });
  len('template', model.template, V * 3);
  if (model.faces.length % 3 !== 0) fail('faces', `length ${model.faces.length} is not a multiple of 3`);
  for (const f of model.faces) if (f >= V) fail('faces', `index ${f} ≥ vertexCount ${V}`);
  len('uvs', model.uvs, V * 2);
  len('jointTemplate', model.jointTemplate, J * 3);
  len('skinIndices', model.skinIndices, V * 4);
  len('skinWeights', model.skinWeights, V * 4);
  for (const j of model.skinIndices) if (j >= J) fail('skinIndices', `joint ${j} ≥ jointCount ${J}`);
  for (let v = 0; v < V; v++) {
    const w = model.skinWeights;
    const s = w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3];
    if (Math.abs(s - 1) > 1e-3) fail('skinWeights', `vertex ${v} weights sum to ${s}`);
  }
  len('shapeNames', model.shapeNames, B);
  len('shapeDirs', model.shapeDirs, B * V * 3);
  len('jointShapeDirs', model.jointShapeDirs, B * J * 3);
  len('poseDirs', model.poseDirs, poseFeatureCount(J) * V * 3);
  len('sourceToBody', model.sourceToBody, 16);
}

/**
 * Keeps the `INFLUENCES_PER_VERTEX` largest weights of each vertex and renormalises them to sum 1.
 *
 * @param influences per vertex v, its [joint, weight] pairs (any order; zeros and negatives dropped).
 * @returns V×4 indices and weights, strongest first; unused slots hold joint 0 with weight 0.
 * @throws Error naming the vertex when all its weights are zero or negative.
 */
export function strongestInfluences(
  vertexCount: number,
  influences: (v: number) => Iterable<readonly [number, number]>,
): { skinIndices: Uint32Array; skinWeights: Float32Array } {
  const skinIndices = new Uint32Array(vertexCount * 4);
  const skinWeights = new Float32Array(vertexCount * 4);
  for (let v = 0; v < vertexCount; v++) {
    const list = [...influences(v)].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4);
    const sum = list.reduce((s, [, w]) => s + w, 0);
    if (!(sum > 0)) throw new Error(`strongestInfluences: vertex ${v} has no positive weight`);
    list.forEach(([j, w], i) => {
      skinIndices[4 * v + i] = j;
      skinWeights[4 * v + i] = w / sum;
    });
  }
  return { skinIndices, skinWeights };
}

/** Dense J×V weights as an influence list callback for {@link strongestInfluences}. */
export function denseInfluences(weights: ArrayLike<number>, jointCount: number): (v: number) => Array<[number, number]> {
  return (v) => Array.from({ length: jointCount }, (_, j) => [j, weights[v * jointCount + j]] as [number, number]);
}

/**
 * Applies the 3×3 row-major rotation `r` to every xyz triple of `data` in place (offsets only; no
 * translation), e.g. shape directions.
 */
export function rotateTriples(data: Float32Array, r: readonly number[]): void {
  for (let i = 0; i < data.length; i += 3) {
    const x = data[i], y = data[i + 1], z = data[i + 2];
    data[i] = r[0] * x + r[1] * y + r[2] * z;
    data[i + 1] = r[3] * x + r[4] * y + r[5] * z;
    data[i + 2] = r[6] * x + r[7] * y + r[8] * z;
  }
}

/**
 * Translation that puts a body on the ground: (−root.x, −root.y, −min z of the vertices).
 *
 * @param template V×3 body-frame vertices; @param root the root joint position.
 */
export function groundOffset(template: ArrayLike<number>, root: ArrayLike<number>): [number, number, number] {
  let minZ = Infinity;
  for (let i = 2; i < template.length; i += 3) minZ = Math.min(minZ, template[i]);
  return [-root[0], -root[1], -minZ];
}

/** Adds `t` to every xyz triple of `data` in place. */
export function translateTriples(data: Float32Array, t: readonly number[]): void {
  for (let i = 0; i < data.length; i += 3) {
    data[i] += t[0];
    data[i + 1] += t[1];
    data[i + 2] += t[2];
  }
}

/**
 * 4×4 column-major matrix of x ↦ s·R·x + t, with R row-major 3×3.
 */
export function similarityMatrix(r: readonly number[], s: number, t: readonly number[]): Float64Array {
  const m = new Float64Array(16);
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) m[col * 4 + row] = s * r[row * 3 + col];
    m[12 + row] = t[row];
  }
  m[15] = 1;
  return m;
}

/** Axis-aligned bounds of V×3 positions: [minX, minY, minZ, maxX, maxY, maxZ]. */
export function bounds(positions: ArrayLike<number>): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      b[c] = Math.min(b[c], positions[i + c]);
      b[c + 3] = Math.max(b[c + 3], positions[i + c]);
    }
  }
  return b;
}
