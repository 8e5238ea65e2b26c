/**
 * Writes a random model in SMPL's `.npz` layout (see `smpl-npz.ts`), for tests and benchmarks:
 * SMPL itself may not be redistributed, so nothing real is used. Same keys, ranks and dtypes as the
 * release (float64 arrays, int64 `kintree_table` with root 4294967295, uint32 `f`); V, F and B are
 * free. Vertices lie near SMPL-like joint positions (Y up, metres) so poses look plausible.
 */
import { zipSync } from 'fflate';
import { dump } from 'npyjs';
import { createRng } from '../core/random';
import { SMPL_JOINT_COUNT, SMPL_PARENTS, poseFeatureCount } from './body-model';
import { createProceduralBody } from './procedural-body';

/** Sizes of a synthetic SMPL file. */
export interface SyntheticSmplOptions {
  /** Vertices (SMPL: 6890). Default 200. */
  vertexCount?: number;
  /** Triangles (SMPL: 13776). Default 2 × vertexCount. */
  faceCount?: number;
  /** Shape components (SMPL: 10 or 300). Default 10. */
  shapeCount?: number;
  /** RNG seed. Default 1. */
  seed?: number;
  /** Replace or drop arrays (key → [data, shape], or null to omit), to test the loader's errors. */
  override?: Record<string, [Float64Array | Uint32Array, number[]] | null>;
}

/**
 * Builds the `.npz` bytes.
 *
 * @returns a zip of `v_template.npy`, `shapedirs.npy`, `posedirs.npy`, `J_regressor.npy`,
 *   `weights.npy`, `kintree_table.npy`, `f.npy`.
 */
export function writeSyntheticSmplNpz(options: SyntheticSmplOptions = {}): Uint8Array {
  const V = options.vertexCount ?? 200;
  const F = options.faceCount ?? 2 * V;
  const B = options.shapeCount ?? 10;
  const J = SMPL_JOINT_COUNT;
  const P = poseFeatureCount(J);
  const rng = createRng(options.seed ?? 1);
  // Procedural joints (body frame x fwd, y left, z up) in SMPL's frame: (x, y, z)_smpl = (y, z, x)_body.
  const bj = createProceduralBody().jointTemplate;
  const joint = (k: number) => [bj[3 * k + 1], bj[3 * k + 2] - 1.0, bj[3 * k]];
  const vt = new Float64Array(V * 3);
  const owner = new Int32Array(V);
  for (let v = 0; v < V; v++) {
    owner[v] = v % J;
    const c = joint(owner[v]);
    for (let i = 0; i < 3; i++) vt[3 * v + i] = c[i] + rng.range(-0.06, 0.06);
  }
  const jr = new Float64Array(J * V);
  for (let k = 0; k < J; k++) {
    const mine = Array.from({ length: V }, (_, v) => v).filter((v) => owner[v] === k);
    for (const v of mine) jr[k * V + v] = 1 / mine.length;
  }
  const weights = new Float64Array(V * J);
  for (let v = 0; v < V; v++) {
    const k = owner[v];
    const p = Math.max(0, SMPL_PARENTS[k]);
    const other = rng.int(0, J - 1);
    const w = [rng.range(0.5, 1), rng.range(0.1, 0.5), rng.range(0, 0.2), rng.range(0, 0.05)];
    const idx = [k, p, other, (k + 5) % J];
    const s = w.reduce((a, b) => a + b, 0);
    idx.forEach((j, i) => (weights[v * J + j] += w[i] / s));
  }
  const normal = (n: number, scale: number) => Float64Array.from({ length: n }, () => scale * rng.normal());
  const kintree = new BigInt64Array(2 * J);
  for (let k = 0; k < J; k++) {
    kintree[k] = BigInt(k === 0 ? 4294967295 : SMPL_PARENTS[k]);
    kintree[J + k] = BigInt(k);
  }
  const f = Uint32Array.from({ length: F * 3 }, () => rng.int(0, V - 1));
  const arrays: Record<string, [Float64Array | Uint32Array | BigInt64Array, number[]]> = {
    v_template: [vt, [V, 3]],
    shapedirs: [normal(V * 3 * B, 0.01), [V, 3, B]],
    posedirs: [normal(V * 3 * P, 0.002), [V, 3, P]],
    J_regressor: [jr, [J, V]],
    weights: [weights, [V, J]],
    kintree_table: [kintree, [2, J]],
    f: [f, [F, 3]],
  };
  for (const [key, value] of Object.entries(options.override ?? {})) {
    if (value === null) delete arrays[key];
    else arrays[key] = value;
  }
  const files: Record<string, Uint8Array> = {};
  for (const [key, [data, shape]] of Object.entries(arrays)) files[`${key}.npy`] = new Uint8Array(dump(data, shape));
  return zipSync(files);
}
