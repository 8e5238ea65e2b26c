/**
 * Loads a user's SMPL model from its `.npz` form (SMPL cannot be redistributed; nothing of it ships).
 *
 * Layout (Loper et al. 2015; the `.npz`/`.pkl` keys of the SMPL release): `v_template` V×3,
 * `shapedirs` V×3×B, `posedirs` V×3×207, `J_regressor` 24×V (dense in `.npz`), `weights` V×24,
 * `kintree_table` 2×24 (row 0: parents, root any value ≥ 24 or −1), `f` F×3. Metres, SMPL's frame:
 * Y up, +Z forward (the face), +X the body's left.
 *
 * Conversion to the body frame of `body-model.ts`, exactly (LBS commutes with it):
 * - positions and offsets are rotated by C = {@link Y_UP_TO_BODY}, (x, y, z) → (z, x, y);
 * - the template is then translated so the rest feet touch z = 0 and the pelvis is above the origin;
 * - joints are re-regressed from the converted template, J = 𝒥·T̄ (SMPL eq. 10);
 * - pose blend shapes: a pose θ' in the body frame is C θ in SMPL's, so R' = C R Cᵀ and the pose
 *   feature vec(R' − I) is a permutation of SMPL's; `posedirs` columns are permuted to match and
 *   each offset rotated by C, so B_P'(θ') = C B_P(θ).
 * Skin weights are cut to the 4 strongest per vertex and renormalised (GPU limit); the reference uses
 * the same weights.
 */
import {
  SMPL_JOINT_COUNT, SMPL_JOINT_NAMES, SMPL_PARENTS, Y_UP_TO_BODY, denseInfluences,
  groundOffset, poseFeatureCount, similarityMatrix, strongestInfluences, type BodyModel, type SparseMatrix,
} from './body-model';
import { readNpz, type NpzArray } from './npz';

/** Keys read from an SMPL `.npz`. */
export const SMPL_NPZ_KEYS = ['v_template', 'shapedirs', 'posedirs', 'J_regressor', 'weights', 'kintree_table', 'f'] as const;

/** Options of {@link loadSmplNpz}. */
export interface SmplLoadOptions {
  /** Keep SMPL's own frame and origin (Y up) instead of converting to the body frame; for tests. Default false. */
  keepSourceFrame?: boolean;
  /** Use only the first `maxShapes` shape components (SMPL files carry 10 to 300). Default: all. */
  maxShapes?: number;
}

/**
 * Parses an SMPL `.npz` into a {@link BodyModel} (source `smpl`, 24 joints, pose blend shapes).
 *
 * @param bytes the `.npz` file. @param file its name, for messages and the model name.
 * @throws Error `file: key: problem` when a key is missing, has the wrong rank or size (e.g.
 *   `model.npz: shapedirs: shape [200,3] is not [V=200, 3, B]`), `kintree_table` parents differ
 *   from SMPL's, or a face index is out of range.
 */
export function loadSmplNpz(bytes: Uint8Array, file = 'smpl.npz', options: SmplLoadOptions = {}): BodyModel {
  const arrays = readNpz(bytes, SMPL_NPZ_KEYS, file);
  const get = (key: string): NpzArray => {
    const a = arrays.get(key);
    if (!a) throw new Error(`${file}: ${key}: missing from the archive`);
    return a;
  };
  const expectShape = (key: string, want: (number | undefined)[], text: string): NpzArray => {
    const a = get(key);
    const ok = a.shape.length === want.length && want.every((w, i) => w === undefined || a.shape[i] === w);
    if (!ok) throw new Error(`${file}: ${key}: shape [${a.shape}] is not ${text}`);
    return a;
  };
  const vt = expectShape('v_template', [undefined, 3], '[V, 3]');
  const V = vt.shape[0];
  const J = SMPL_JOINT_COUNT;
  const P = poseFeatureCount(J);
  const sd = expectShape('shapedirs', [V, 3, undefined], `[V=${V}, 3, B]`);
  const pd = expectShape('posedirs', [V, 3, P], `[V=${V}, 3, ${P}]`);
  const jr = expectShape('J_regressor', [J, V], `[${J}, V=${V}]`);
  const wt = expectShape('weights', [V, J], `[V=${V}, ${J}]`);
  const kt = expectShape('kintree_table', [2, J], `[2, ${J}]`);
  const f = expectShape('f', [undefined, 3], '[F, 3]');
  for (let k = 1; k < J; k++) {
    if (kt.data[k] !== SMPL_PARENTS[k]) {
      throw new Error(`${file}: kintree_table: parent of joint ${k} is ${kt.data[k]}, SMPL's is ${SMPL_PARENTS[k]}`);
    }
  }
  for (const idx of f.data) {
    if (!Number.isInteger(idx) || idx < 0 || idx >= V) throw new Error(`${file}: f: vertex index ${idx} outside [0, ${V})`);
  }
  const B = Math.min(sd.shape[2], options.maxShapes ?? Infinity);
  const Bfile = sd.shape[2];
  const C = options.keepSourceFrame ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : Y_UP_TO_BODY;
  const rotate = (x: number, y: number, z: number, out: Float32Array, o: number) => {
    out[o] = C[0] * x + C[1] * y + C[2] * z;
    out[o + 1] = C[3] * x + C[4] * y + C[5] * z;
    out[o + 2] = C[6] * x + C[7] * y + C[8] * z;
  };

  const regressor = denseToCsr(jr.data, J, V);
  const template = new Float32Array(V * 3);
  for (let v = 0; v < V; v++) rotate(vt.data[3 * v], vt.data[3 * v + 1], vt.data[3 * v + 2], template, 3 * v);
  let t = [0, 0, 0];
  if (!options.keepSourceFrame) {
    t = groundOffset(template, regress(regressor, template, 0));
    for (let i = 0; i < V * 3; i++) template[i] += t[i % 3];
  }
  const jointTemplate = new Float32Array(J * 3);
  for (let k = 0; k < J; k++) jointTemplate.set(regress(regressor, template, k), 3 * k);

  const shapeDirs = new Float32Array(B * V * 3);
  for (let b = 0; b < B; b++) {
    for (let v = 0; v < V; v++) {
      const s = (c: number) => sd.data[(3 * v + c) * Bfile + b];
      rotate(s(0), s(1), s(2), shapeDirs, (b * V + v) * 3);
    }
  }
  const jointShapeDirs = new Float32Array(B * J * 3);
  for (let b = 0; b < B; b++) {
    const dirs = shapeDirs.subarray(b * V * 3, (b + 1) * V * 3);
    for (let k = 0; k < J; k++) jointShapeDirs.set(regress(regressor, dirs, k), (b * J + k) * 3);
  }

  // Feature i' of the body frame is feature π(i') of SMPL's: R'[a][b] = R[σ(a)][σ(b)], v'[a] = v[σ(a)].
  const sigma = options.keepSourceFrame ? [0, 1, 2] : [2, 0, 1];
  const poseDirs = new Float32Array(P * V * 3);
  for (let k = 0; k < J - 1; k++) {
    for (let a = 0; a < 3; a++) {
      for (let c = 0; c < 3; c++) {
        const pNew = 9 * k + 3 * a + c;
        const pOld = 9 * k + 3 * sigma[a] + sigma[c];
        for (let v = 0; v < V; v++) {
          const s = (axis: number) => pd.data[(3 * v + axis) * P + pOld];
          rotate(s(0), s(1), s(2), poseDirs, (pNew * V + v) * 3);
        }
      }
    }
  }
  const { skinIndices, skinWeights } = strongestInfluences(V, denseInfluences(wt.data, J));
  return {
    name: `smpl:${file}`,
    source: 'smpl',
    vertexCount: V,
    jointCount: J,
    parents: Int32Array.from(SMPL_PARENTS),
    jointNames: [...SMPL_JOINT_NAMES],
    template,
    faces: Uint32Array.from(f.data),
    jointRegressor: regressor,
    jointTemplate,
    skinIndices,
    skinWeights,
    shapeCount: B,
    shapeNames: Array.from({ length: B }, (_, b) => `beta${b}`),
    shapeDirs,
    jointShapeDirs,
    poseDirs,
    sourceToBody: similarityMatrix(C, 1, t),
  };
}

/** Row k of 𝒥 applied to V×3 `positions`: Σ_v 𝒥[k][v] · positions[v]. */
function regress(m: SparseMatrix, positions: ArrayLike<number>, k: number): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  for (let e = m.rowPtr[k]; e < m.rowPtr[k + 1]; e++) {
    const v = m.colIndex[e], w = m.values[e];
    out[0] += w * positions[3 * v];
    out[1] += w * positions[3 * v + 1];
    out[2] += w * positions[3 * v + 2];
  }
  return out;
}

/** Dense row-major rows×cols to CSR, dropping exact zeros. */
export function denseToCsr(dense: ArrayLike<number>, rows: number, cols: number): SparseMatrix {
  const rowPtr = new Uint32Array(rows + 1);
  const colIndex: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = dense[r * cols + c];
      if (x !== 0) {
        colIndex.push(c);
        values.push(x);
      }
    }
    rowPtr[r + 1] = colIndex.length;
  }
  return { rows, cols, rowPtr, colIndex: Uint32Array.from(colIndex), values: Float64Array.from(values) };
}
