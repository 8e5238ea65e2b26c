/** Small helpers shared by the splat loaders (activation functions, quaternion storage, axis flips). */

/** Logistic sigmoid 1 / (1 + e^−x): raw 3DGS opacity → opacity in [0, 1]. */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Normalises the quaternion (w, x, y, z) and stores it at `out[4i .. 4i+3]` in (w, x, y, z) order.
 * A zero (or non-finite-norm) quaternion is stored as the identity (1, 0, 0, 0).
 */
export function storeUnitQuat(out: Float32Array, i: number, w: number, x: number, y: number, z: number): void {
  const n = Math.sqrt(w * w + x * x + y * y + z * z);
  const o = 4 * i;
  if (!(n > 0) || !Number.isFinite(n)) {
    out[o] = 1; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0;
    return;
  }
  out[o] = w / n; out[o + 1] = x / n; out[o + 2] = y / n; out[o + 3] = z / n;
}

/** SH degree for a per-channel higher-band coefficient count (3 → 1, 8 → 2, 15 → 3), or −1. */
export function degreeForRestCount(perChannel: number): number {
  return [0, 3, 8, 15].indexOf(perChannel);
}

/**
 * Sign of each higher-band SH coefficient (bands 1..3, the 15 coefficients in 3DGS order) under
 * the change of axes (x, y, z) → (x, −y, −z), i.e. RUB (x right, y up, z back: OpenGL, glTF,
 * SPZ) ↔ RDF (x right, y down, z forward: COLMAP, INRIA PLY): the parity of each basis function
 * in y and z (Niantic spz `flipSh`). Its own inverse.
 */
export const RUB_TO_RDF_SH_SIGN: readonly number[] = [-1, -1, 1, -1, 1, 1, -1, 1, -1, 1, -1, -1, 1, -1, 1];
