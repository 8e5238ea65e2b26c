/**
 * Spatial cells of a splat capture, so a camera touches only the splats it can see: the splats are
 * reordered cell by cell at upload (a counting sort on a regular 3D grid over their centres), and
 * each frame the cells whose bounds meet the view frustum become a short list of index ranges that
 * the preprocess pass runs over. The baked city streams 32 m chunks; a capture file (a street scan)
 * is one block, and this gives it the same frustum culling.
 *
 * Cell bounds are conservative: the centres' box grown by 3.4 × the largest scale of the cell's
 * splats (a splat contributes only within k ≤ 3.33 standard deviations, `projection.ts`).
 */
import { boxOutsideFrustum, type CameraModel } from '../gpu/camera';
import type { SplatCloud } from './splat-cloud';

/** Splats' cell order and the cells' ranges and bounds. */
export interface SpatialCells {
  /** order[k] = index in the cloud of the k-th splat in cell order. */
  order: Uint32Array;
  /** Per cell: first position in `order` and splat count (empty cells dropped). */
  start: Uint32Array;
  count: Uint32Array;
  /** Per cell: [minX, minY, minZ, maxX, maxY, maxZ] in the cloud's frame, metres, grown by the splats' extent. */
  bounds: Float64Array;
}

/** Extent of a splat in standard deviations beyond which it never contributes (k ≤ √(2 ln 255) < 3.4). */
const EXTENT_SIGMAS = 3.4;

/**
 * Builds about `targetCells` cubic cells over the bounds of the splat centres and sorts the splats
 * into them (stable: splats keep their order within a cell, so the result is deterministic).
 */
export function buildSpatialCells(cloud: SplatCloud, targetCells = 4096): SpatialCells {
  const n = cloud.count;
  const p = cloud.positions;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const v = p[3 * i + a];
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  }
  const ext = [0, 1, 2].map((a) => Math.max(hi[a] - lo[a], 1e-6));
  const side = Math.max(Math.cbrt((ext[0] * ext[1] * ext[2]) / targetCells), Math.max(...ext) / 256);
  const dims = ext.map((e) => Math.max(1, Math.min(256, Math.ceil(e / side))));
  const cellOf = new Uint32Array(n);
  const histogram = new Uint32Array(dims[0] * dims[1] * dims[2] + 1);
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (let a = 2; a >= 0; a--) {
      const k = Math.min(dims[a] - 1, Math.floor(((p[3 * i + a] - lo[a]) / ext[a]) * dims[a]));
      c = c * dims[a] + k;
    }
    cellOf[i] = c;
    histogram[c + 1]++;
  }
  for (let c = 1; c < histogram.length; c++) histogram[c] += histogram[c - 1];
  const order = new Uint32Array(n);
  const next = histogram.slice(0, -1);
  for (let i = 0; i < n; i++) order[next[cellOf[i]]++] = i;
  const cells: number[] = [];
  for (let c = 0; c + 1 < histogram.length; c++) if (histogram[c + 1] > histogram[c]) cells.push(c);
  const start = Uint32Array.from(cells, (c) => histogram[c]);
  const count = Uint32Array.from(cells, (c) => histogram[c + 1] - histogram[c]);
  const bounds = new Float64Array(cells.length * 6);
  for (let k = 0; k < cells.length; k++) {
    bounds.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * k);
    for (let m = start[k]; m < start[k] + count[k]; m++) growCellBounds(bounds, k, cloud, order[m]);
  }
  return { order, start, count, bounds };
}

/** Grows cell `k`'s box in `bounds` (6 per cell) to hold splat `i` of `cloud` out to EXTENT_SIGMAS of its largest σ. */
export function growCellBounds(bounds: Float64Array, k: number, cloud: SplatCloud, i: number): void {
  const r = EXTENT_SIGMAS * Math.max(cloud.scales[3 * i], cloud.scales[3 * i + 1], cloud.scales[3 * i + 2]);
  for (let a = 0; a < 3; a++) {
    bounds[6 * k + a] = Math.min(bounds[6 * k + a], cloud.positions[3 * i + a] - r);
    bounds[6 * k + 3 + a] = Math.max(bounds[6 * k + 3 + a], cloud.positions[3 * i + a] + r);
  }
}

/**
 * Appends range (start, count) to the table `out` of (start, count, prefix, 0) quadruples holding
 * `ranges` entries and `splats` splats, merged into the last entry when it ends at `start`;
 * returns the new number of entries.
 */
export function appendRange(out: Uint32Array, ranges: number, splats: number, start: number, count: number): number {
  if (ranges > 0 && out[4 * (ranges - 1)] + out[4 * (ranges - 1) + 1] === start) {
    out[4 * (ranges - 1) + 1] += count;
    return ranges;
  }
  out[4 * ranges] = start;
  out[4 * ranges + 1] = count;
  out[4 * ranges + 2] = splats;
  out[4 * ranges + 3] = 0;
  return ranges + 1;
}

/**
 * Writes the index ranges (cell order) of the cells a camera can see into `out` as (start, count,
 * prefix, 0) quadruples, merging adjacent cells; returns the number of ranges and of splats.
 *
 * @param out at least 4 × cell count u32.
 */
export function visibleRanges(cells: SpatialCells, m: CameraModel, out: Uint32Array): { ranges: number; splats: number } {
  let ranges = 0;
  let splats = 0;
  for (let k = 0; k < cells.count.length; k++) {
    if (boxOutsideFrustum(m, cells.bounds, 6 * k)) continue;
    ranges = appendRange(out, ranges, splats, cells.start[k], cells.count[k]);
    splats += cells.count[k];
  }
  return { ranges, splats };
}
