/**
 * Baking a whole procedural world or real place (or a crop of it) into one splat cloud in the world frame (Z up,
 * metres): what `npm run bake` writes, and how a scene file whose capture was baked
 * (`source.bake`) gets its capture back on a machine that does not have it. Deterministic: the
 * same options give the same splats, byte for byte.
 */
import { createRng, deriveSeed } from '../../core/random';
import { allocateSplatCloud, shRestCount, type SplatCloud } from '../../splats/splat-cloud';
import { generateWorld, type World } from '../world';
import { assembleChunks, bakeChunk, chunkGrid } from './chunks';
import type { SignStyle } from './sign';
import type { SurfaceDetail } from './fine-paving';

/** What to bake. */
export interface BakeWorldOptions {
  /** World seed of a procedural world, or a world already built (a real place from OpenStreetMap). */
  world: number | World;
  /** World side, metres (150–2000), with a seed; a built world has its own. */
  size?: number;
  /** SH degree of the output (0–3): higher bands carry a small seeded view-dependent term. */
  shDegree: number;
  /** Keep only splats whose centre lies in [minX, minY, maxX, maxY] (world metres). */
  crop?: readonly [number, number, number, number];
  /** How storefront signs draw their text (sign.ts; default: the city as shipped). */
  signStyle?: SignStyle;
  /** How finely the ground is baked (fine-paving.ts; default: the city as shipped). */
  surfaceDetail?: SurfaceDetail;
}

/** Adds seeded higher SH bands (|c| ≤ 0.05, falling with the band) to a degree-0 cloud. */
function withShBands(cloud: SplatCloud, degree: number, seed: number): SplatCloud {
  if (degree === 0) return cloud;
  const out = allocateSplatCloud(cloud.count, degree);
  out.positions.set(cloud.positions);
  out.scales.set(cloud.scales);
  out.rotations.set(cloud.rotations);
  out.opacities.set(cloud.opacities);
  out.shDc.set(cloud.shDc);
  const rng = createRng(deriveSeed(seed, 'bake-sh'));
  const K = shRestCount(degree);
  for (let i = 0; i < cloud.count; i++) {
    for (let k = 0; k < K; k++) {
      const amplitude = 0.05 / (k < 3 ? 1 : k < 8 ? 2 : 4);
      for (let c = 0; c < 3; c++) out.shRest[(i * K + k) * 3 + c] = rng.range(-amplitude, amplitude);
    }
  }
  return out;
}

/** The splats of `cloud` whose centres lie in the XY box (a new cloud, same SH degree). */
function cropCloud(cloud: SplatCloud, box: readonly number[]): SplatCloud {
  const keep: number[] = [];
  for (let i = 0; i < cloud.count; i++) {
    const x = cloud.positions[3 * i], y = cloud.positions[3 * i + 1];
    if (x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]) keep.push(i);
  }
  const out = allocateSplatCloud(keep.length, cloud.shDegree);
  const K = shRestCount(cloud.shDegree) * 3;
  keep.forEach((i, j) => {
    out.positions.set(cloud.positions.subarray(3 * i, 3 * i + 3), 3 * j);
    out.scales.set(cloud.scales.subarray(3 * i, 3 * i + 3), 3 * j);
    out.rotations.set(cloud.rotations.subarray(4 * i, 4 * i + 4), 4 * j);
    out.opacities[j] = cloud.opacities[i];
    out.shDc.set(cloud.shDc.subarray(3 * i, 3 * i + 3), 3 * j);
    if (K) out.shRest.set(cloud.shRest.subarray(K * i, K * i + K), K * j);
  });
  return out;
}

/**
 * Bakes every chunk of the world and assembles them (then crops, then adds SH bands).
 *
 * @param progress called after each chunk with (done, total).
 * @throws RangeError for a size outside 150–2000 m or an empty crop box.
 */
export function bakeWorldCloud(o: BakeWorldOptions, progress?: (done: number, total: number) => void): SplatCloud {
  if (typeof o.world === 'number' && !(o.size !== undefined && o.size >= 150 && o.size <= 2000)) throw new RangeError(`bake: worlds are 150–2000 m, got ${o.size}`);
  if (o.crop && !(o.crop[2] > o.crop[0] && o.crop[3] > o.crop[1])) throw new RangeError(`bake: crop ${o.crop.join(', ')} is empty (need minX, minY, maxX, maxY with max > min)`);
  const world = typeof o.world === 'number' ? generateWorld({ seed: o.world, size: o.size }) : o.world;
  const grid = chunkGrid(world);
  const n = grid.nx * grid.ny;
  const chunks = [];
  for (let id = 0; id < n; id++) {
    const c = grid.bounds.subarray(6 * id, 6 * id + 6);
    // Chunks whose grown bounds miss the crop hold no splat it keeps.
    if (!o.crop || (c[3] >= o.crop[0] && c[0] <= o.crop[2] && c[4] >= o.crop[1] && c[1] <= o.crop[3])) chunks.push(bakeChunk(world, grid, id, { signStyle: o.signStyle, surfaceDetail: o.surfaceDetail }));
    progress?.(id + 1, n);
  }
  let cloud = assembleChunks(chunks);
  if (o.crop) cloud = cropCloud(cloud, o.crop);
  return withShBands(cloud, o.shDegree, world.seed);
}
