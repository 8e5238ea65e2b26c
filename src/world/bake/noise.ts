/**
 * Position-keyed procedural noise for the baker. Every value is a pure function of a seed and
 * integer or real coordinates (no stream state), so a chunk bakes to the same splats whichever
 * other chunks are baked, and in whatever order.
 */

/** 32-bit integer hash of (seed, a, b, c) (lowbias32 finaliser), uniform on [0, 2³²). */
export function hash32(seed: number, a: number, b = 0, c = 0): number {
  let h = (seed ^ Math.imul(a | 0, 0x27d4eb2d) ^ Math.imul(b | 0, 0x165667b1) ^ Math.imul(c | 0, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform value in [0, 1) from (seed, a, b, c). */
export function hash01(seed: number, a: number, b = 0, c = 0): number {
  return hash32(seed, a, b, c) / 4294967296;
}

/**
 * 2D value noise in [0, 1]: hashed values on the integer lattice of (x / cell, y / cell), smoothstep-
 * interpolated (Perlin 1985 "value noise").
 *
 * @param cell lattice spacing, metres (> 0).
 */
export function valueNoise(seed: number, x: number, y: number, cell: number): number {
  const fx = x / cell, fy = y / cell;
  const ix = Math.floor(fx), iy = Math.floor(fy);
  const tx = fx - ix, ty = fy - iy;
  const sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const a = hash01(seed, ix, iy), b = hash01(seed, ix + 1, iy), c = hash01(seed, ix, iy + 1), d = hash01(seed, ix + 1, iy + 1);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** Two octaves of {@link valueNoise} (cells `cell` and `cell / 2.7`), in [0, 1]. */
export function fbm2(seed: number, x: number, y: number, cell: number): number {
  return 0.65 * valueNoise(seed, x, y, cell) + 0.35 * valueNoise(seed + 17, x, y, cell / 2.7);
}
