/**
 * Level of detail for splat captures with spatial cells: coarser copies of each cell in which the
 * splats of one voxel are merged into one Gaussian, and a per-frame choice of level per cell from
 * how large a pixel is at the cell's distance. A street or city scan seen from afar puts millions
 * of sub-pixel splats on a few thousand pixels; each is dilated to ≥ 0.3 px² (3DGS) and drawn as a
 * triangle of ≥ ~10 fragments, so merging the ones that share a fraction of a pixel cuts the
 * preprocess, sort and raster work together while the image changes little (bench/RESULTS.md
 * measures the PSNR against the f64 reference of the full capture).
 *
 * Merging is moment matching with weights w = each splat's α mass at the scale the level is drawn:
 * mean μ = Σwμᵢ/W, covariance Σ = Σw(Σᵢ + (μᵢ−μ)(μᵢ−μ)ᵀ)/W, SH coefficients averaged by w, and
 * opacity the members' union coverage of the merged footprint, min(0.99, 1 − Π(1 − wᵢ/a)) with a the
 * merged splat's dilated mean face area (≈ Σwᵢ/a, the α mass kept, while they do not overlap).
 * The mass of a splat there is o·(a + δ): a the mean face area of its 1σ ellipsoid, δ the 3DGS
 * screen-space dilation (0.3 px²) in scene units at that level's pixel size. The dilation matters:
 * the reference draws every sub-pixel splat as a ≥ 0.55 px blob at its full opacity, so N of them
 * carry N dilations' mass, which one merged splat must carry too. Levels are built from the level
 * below, carrying Σo·a and Σo of the capture splats each stands for. Voxel edges double from twice
 * the median splat extent (the largest σ); a size that merges too little (more than
 * `minReduction` of the splats left) is skipped. Splats wider than half a voxel are never merged at
 * that level (their shape shows at its pixel size; merging them blurred a city capture to 33.6 dB
 * from its exact image in the measurement of bench/RESULTS.md).
 *
 * Frames: the capture's own, metres.
 */
import { quatFromMat3, type Quat } from '../core/quaternion';
import { boxOutsideFrustum, type CameraModel } from '../gpu/camera';
import { covarianceFromRotationScale } from './projection';
import { allocateSplatCloud, concatSplatClouds, shRestCount, type SplatCloud } from './splat-cloud';
import { appendRange, growCellBounds, type SpatialCells } from './spatial-cells';

/**
 * Default level-of-detail fraction of a pixel (`SplatRendererOptions.lodPixelFraction`): 0, every
 * splat of the capture is drawn (the exact 3DGS image). The level of detail is opt-in: it trades
 * fidelity for speed (bench/RESULTS.md measures both per value; 0.25–0.5 are useful).
 */
export const DEFAULT_LOD_PIXEL_FRACTION = 0;

/** Where the coarse levels of a capture are: what a frame needs to choose them (the splats live on the GPU). */
export interface SplatLodLevels {
  /** Voxel edge of each coarse level (level k + 1 of the capture), metres. */
  voxel: number[];
  /** Per level, per cell: first splat in `cloud` and count. */
  start: Uint32Array[];
  count: Uint32Array[];
}

/** Coarse levels of a capture, in the cell order of its spatial cells. */
export interface SplatLod extends SplatLodLevels {
  /** Every coarse splat, level by level, each level cell by cell (level k of cell c: `start[k][c]` …). */
  cloud: SplatCloud;
}

/** Options of {@link buildSplatLod}. */
export interface SplatLodOptions {
  /** Most coarse levels (default 6). */
  maxLevels?: number;
  /** A level is kept only if it has at most this fraction of the splats of the level below (default 0.7). */
  minReduction?: number;
  /** The pixel fraction the levels will be drawn at (sets the dilation the merged opacities match; default 0.5). */
  pixelFraction?: number;
}

/** Scratch for one merge: accumulated weight, mean, second moments, colour, a member's covariance. */
interface Acc {
  w: number;
  mu: Float64Array;
  /** Σ w (Σᵢ + μᵢμᵢᵀ), upper triangle xx, xy, xz, yy, yz, zz. */
  m2: Float64Array;
  dc: Float64Array;
  rest: Float64Array;
  cov: Float64Array;
}

/**
 * Eigen-decomposition of a symmetric 3×3 (upper triangle xx, xy, xz, yy, yz, zz) by cyclic Jacobi
 * rotations: eigenvalues (≥ 0 after clamping) and the rotation whose columns are the eigenvectors,
 * as a unit quaternion (w, x, y, z; quatFromMat3) with a proper rotation (det +1).
 */
export function symmetricEigen3(c: ArrayLike<number>): { values: [number, number, number]; quat: Quat } {
  const a = [[c[0], c[1], c[2]], [c[1], c[3], c[4]], [c[2], c[4], c[5]]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    if (off <= 1e-30 * (a[0][0] ** 2 + a[1][1] ** 2 + a[2][2] ** 2) || off === 0) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const cs = 1 / Math.sqrt(t * t + 1), sn = t * cs;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p], akq = a[k][q];
        a[k][p] = cs * akp - sn * akq;
        a[k][q] = sn * akp + cs * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k], aqk = a[q][k];
        a[p][k] = cs * apk - sn * aqk;
        a[q][k] = sn * apk + cs * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p], vkq = v[k][q];
        v[k][p] = cs * vkp - sn * vkq;
        v[k][q] = sn * vkp + cs * vkq;
      }
    }
  }
  // det(v) = +1 (flip the last column otherwise).
  const det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) - v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) + v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
  if (det < 0) for (let k = 0; k < 3; k++) v[k][2] = -v[k][2];
  const q = quatFromMat3([v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]]);
  return { values: [Math.max(0, a[0][0]), Math.max(0, a[1][1]), Math.max(0, a[2][2])], quat: q };
}

/** {@link faceArea} of the scales grown by the dilation δ (m²): √(s² + δ) per axis; at least 1e-30. */
function dilatedFaceArea(s0: number, s1: number, s2: number, delta: number): number {
  return Math.max(faceArea(Math.sqrt(s0 * s0 + delta), Math.sqrt(s1 * s1 + delta), Math.sqrt(s2 * s2 + delta)), 1e-30);
}

/** Mean face area of the 1σ ellipsoid's bounding box halves, s₁s₂ + s₂s₃ + s₁s₃ over 3 (m²): the merge's weight per unit opacity. */
const faceArea = (s0: number, s1: number, s2: number) => (s0 * s1 + s1 * s2 + s0 * s2) / 3;

/** Per-splat sums over the capture splats a (merged) splat stands for: A = Σ o·faceArea(s), O = Σ o; `merged` = 1 when more than one. */
interface Sums {
  A: Float64Array<ArrayBufferLike>;
  O: Float64Array<ArrayBufferLike>;
  merged: Uint8Array<ArrayBufferLike>;
}

/**
 * Merges the splats `members` of `src` into splat `o` of `dst`, for a level drawn where the 3DGS
 * screen-space dilation (0.3 px²) is `delta` m² in the scene. Weights are each member's α mass at
 * that scale, A + δ·O (the dilation adds about δ of area to every splat, however small: the
 * reference draws a sub-pixel splat as a 0.55 px blob at its full opacity, so N of them carry N
 * times the dilation's mass and the merged one must too). A capture splat alone in its voxel is
 * copied as is; a merged one alone gets its opacity again for this level's δ.
 */
function mergeInto(src: SplatCloud, srcSums: Sums, members: ArrayLike<number>, n: number, dst: SplatCloud, dstSums: Sums, o: number, acc: Acc, delta: number): void {
  const K3 = shRestCount(src.shDegree) * 3;
  if (n === 1) {
    const i = members[0];
    dst.positions.set(src.positions.subarray(3 * i, 3 * i + 3), 3 * o);
    dst.scales.set(src.scales.subarray(3 * i, 3 * i + 3), 3 * o);
    dst.rotations.set(src.rotations.subarray(4 * i, 4 * i + 4), 4 * o);
    dst.opacities[o] = srcSums.merged[i] ? Math.min(0.99, (srcSums.A[i] + delta * srcSums.O[i]) / dilatedFaceArea(src.scales[3 * i], src.scales[3 * i + 1], src.scales[3 * i + 2], delta)) : src.opacities[i];
    dst.shDc.set(src.shDc.subarray(3 * i, 3 * i + 3), 3 * o);
    if (K3) dst.shRest.set(src.shRest.subarray(K3 * i, K3 * i + K3), K3 * o);
    dstSums.A[o] = srcSums.A[i];
    dstSums.O[o] = srcSums.O[i];
    dstSums.merged[o] = srcSums.merged[i];
    return;
  }
  acc.w = 0; acc.mu.fill(0); acc.m2.fill(0); acc.dc.fill(0); acc.rest.fill(0);
  let sumA = 0, sumO = 0;
  const cov = acc.cov;
  for (let m = 0; m < n; m++) {
    const i = members[m];
    // Zero-weight splats (opacity 0) still count a little, so a voxel of them stays well defined.
    const w = Math.max(srcSums.A[i] + delta * srcSums.O[i], 1e-30);
    acc.w += w;
    sumA += srcSums.A[i];
    sumO += srcSums.O[i];
    covarianceFromRotationScale(src.rotations.subarray(4 * i, 4 * i + 4), src.scales.subarray(3 * i, 3 * i + 3), cov);
    const x = src.positions[3 * i], y = src.positions[3 * i + 1], z = src.positions[3 * i + 2];
    acc.mu[0] += w * x; acc.mu[1] += w * y; acc.mu[2] += w * z;
    acc.m2[0] += w * (cov[0] + x * x); acc.m2[1] += w * (cov[1] + x * y); acc.m2[2] += w * (cov[2] + x * z);
    acc.m2[3] += w * (cov[3] + y * y); acc.m2[4] += w * (cov[4] + y * z); acc.m2[5] += w * (cov[5] + z * z);
    for (let c = 0; c < 3; c++) acc.dc[c] += w * src.shDc[3 * i + c];
    for (let k = 0; k < K3; k++) acc.rest[k] += w * src.shRest[K3 * i + k];
  }
  const W = acc.w;
  const mx = acc.mu[0] / W, my = acc.mu[1] / W, mz = acc.mu[2] / W;
  const c6 = [acc.m2[0] / W - mx * mx, acc.m2[1] / W - mx * my, acc.m2[2] / W - mx * mz, acc.m2[3] / W - my * my, acc.m2[4] / W - my * mz, acc.m2[5] / W - mz * mz];
  const { values, quat } = symmetricEigen3(c6);
  const s = [Math.sqrt(values[0]), Math.sqrt(values[1]), Math.sqrt(values[2])];
  dst.positions[3 * o] = mx; dst.positions[3 * o + 1] = my; dst.positions[3 * o + 2] = mz;
  dst.scales[3 * o] = s[0]; dst.scales[3 * o + 1] = s[1]; dst.scales[3 * o + 2] = s[2];
  dst.rotations.set(quat, 4 * o);
  dst.opacities[o] = coverageOpacity(srcSums, members, n, s, delta);
  for (let c = 0; c < 3; c++) dst.shDc[3 * o + c] = acc.dc[c] / W;
  for (let k = 0; k < K3; k++) dst.shRest[K3 * o + k] = acc.rest[k] / W;
  dstSums.A[o] = sumA;
  dstSums.O[o] = sumO;
  dstSums.merged[o] = 1;
}

/**
 * Opacity of a merged splat as the members' union coverage: each member i covers a fraction
 * fᵢ = mᵢ / a of the merged (dilated) footprint a at its opacity, mᵢ = Aᵢ + δOᵢ its α mass, placed
 * independently: α = 1 − Π(1 − fᵢ). Additive (= Σmᵢ/a) while the members rarely overlap, saturating
 * where they stack (a roof scanned by many overlapping splats).
 */
function coverageOpacity(sums: Sums, members: ArrayLike<number>, n: number, s: ArrayLike<number>, delta: number): number {
  const a = dilatedFaceArea(s[0], s[1], s[2], delta);
  let logT = 0;
  for (let m = 0; m < n; m++) {
    const i = members[m];
    logT += Math.log1p(-Math.min(0.999, (sums.A[i] + delta * sums.O[i]) / a));
  }
  return Math.min(0.99, -Math.expm1(logT));
}

/**
 * Splats whose largest σ exceeds this fraction of the voxel edge are not merged at that level: their
 * shape is visible at the pixel size the level is drawn at (a pixel is 2–4 voxels / fraction
 * across), and merging them with their neighbours would blur it.
 */
const MERGE_MAX_SIGMA = 0.5;

/** Median of the largest per-axis scale of each splat (metres). */
function medianExtent(cloud: SplatCloud): number {
  const step = Math.max(1, Math.floor(cloud.count / 65536));
  const xs: number[] = [];
  for (let i = 0; i < cloud.count; i += step) xs.push(Math.max(cloud.scales[3 * i], cloud.scales[3 * i + 1], cloud.scales[3 * i + 2]));
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1] || 1e-3;
}

/**
 * Builds the coarse levels of `cloud`, whose spatial cells are `cells` (the cloud in its own order;
 * `cells.order` gives the cell order). Deterministic: voxels are visited in order of first member.
 * Also grows `cells.bounds` to hold the coarse splats' 3.4σ extent.
 */
export function buildSplatLod(cloud: SplatCloud, cells: SpatialCells, options: SplatLodOptions = {}): SplatLod {
  const maxLevels = options.maxLevels ?? 6;
  const minReduction = options.minReduction ?? 0.7;
  const nCells = cells.count.length;
  const K3 = shRestCount(cloud.shDegree) * 3;
  // Level 0 in cell order: per-splat weight and mass.
  let src = cloud;
  let srcSums: Sums = { A: new Float64Array(cloud.count), O: Float64Array.from(cloud.opacities), merged: new Uint8Array(cloud.count) };
  for (let i = 0; i < cloud.count; i++) srcSums.A[i] = cloud.opacities[i] * faceArea(cloud.scales[3 * i], cloud.scales[3 * i + 1], cloud.scales[3 * i + 2]);
  const pixelFraction = options.pixelFraction ?? 0.5;
  // Level 0's members of cell c are cells.order[start … start + count).
  let srcStart = cells.start, srcCount = cells.count, srcOrder: Uint32Array | null = cells.order;
  const levels: { cloud: SplatCloud; start: Uint32Array; count: Uint32Array }[] = [];
  const voxel: number[] = [];
  let v = 2 * medianExtent(cloud);
  const acc: Acc = { w: 0, mu: new Float64Array(3), m2: new Float64Array(6), dc: new Float64Array(3), rest: new Float64Array(K3), cov: new Float64Array(6) };
  const srcN = () => srcCount.reduce((s, c) => s + c, 0);
  const cellCorner = new Float64Array(3 * nCells);
  for (let c = 0; c < nCells; c++) cellCorner.set(cells.bounds.subarray(6 * c, 6 * c + 3), 3 * c);
  // Voxels too small to merge enough are skipped (the next size is tried), up to 16 sizes.
  for (let attempt = 0; attempt < 16 && levels.length < maxLevels; attempt++, v *= 2) {
    const n = srcN();
    const dst = allocateSplatCloud(n, cloud.shDegree);
    const dstSums: Sums = { A: new Float64Array(n), O: new Float64Array(n), merged: new Uint8Array(n) };
    // A level is drawn where a pixel is 1–2 voxels / pixelFraction across: the dilation at √2 of that.
    const delta = 0.3 * (Math.SQRT2 * v / pixelFraction) ** 2;
    const start = new Uint32Array(nCells), count = new Uint32Array(nCells);
    let o = 0;
    const members = new Uint32Array(Math.max(...srcCount, 1));
    for (let c = 0; c < nCells; c++) {
      start[c] = o;
      // Voxels counted from the cell's corner (small indices at any georeferenced offset).
      const ox = cellCorner[3 * c], oy = cellCorner[3 * c + 1], oz = cellCorner[3 * c + 2];
      const first = srcStart[c];
      // Group the cell's small splats by voxel, in order of first appearance; a splat wider than
      // half a voxel (MERGE_MAX_SIGMA) stays as it is, alone in its group (negative keys).
      const groups = new Map<number, number[]>();
      for (let m = 0; m < srcCount[c]; m++) {
        const i = srcOrder ? srcOrder[first + m] : first + m;
        if (Math.max(src.scales[3 * i], src.scales[3 * i + 1], src.scales[3 * i + 2]) > MERGE_MAX_SIGMA * v) {
          groups.set(-1 - m, [i]);
          continue;
        }
        const kx = Math.floor((src.positions[3 * i] - ox) / v), ky = Math.floor((src.positions[3 * i + 1] - oy) / v), kz = Math.floor((src.positions[3 * i + 2] - oz) / v);
        // Exact for indices below 2^17 per axis (a cell is far fewer voxels across).
        const key = (kx * 262144 + ky) * 262144 + kz;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = []));
        g.push(i);
      }
      for (const g of groups.values()) {
        for (let m = 0; m < g.length; m++) members[m] = g[m];
        mergeInto(src, srcSums, members, g.length, dst, dstSums, o++, acc, delta);
      }
      count[c] = o - start[c];
    }
    if (o > minReduction * n) continue;
    const trimmed = sliceCloud(dst, o);
    levels.push({ cloud: trimmed, start, count });
    voxel.push(v);
    src = trimmed;
    srcSums = { A: dstSums.A.slice(0, o), O: dstSums.O.slice(0, o), merged: dstSums.merged.slice(0, o) };
    srcStart = start;
    srcCount = count;
    srcOrder = null;
  }
  // One cloud of every level, with absolute starts.
  const all = levels.length ? concatSplatClouds(levels.map((l) => l.cloud)) : allocateSplatCloud(0, cloud.shDegree);
  let base = 0;
  const starts: Uint32Array[] = [];
  for (const l of levels) {
    starts.push(l.start.map((s) => s + base));
    base += l.cloud.count;
  }
  // Grow the cell bounds by the coarse splats' extent.
  for (let k = 0; k < levels.length; k++) {
    for (let c = 0; c < nCells; c++) {
      for (let i = starts[k][c]; i < starts[k][c] + levels[k].count[c]; i++) growCellBounds(cells.bounds, c, all, i);
    }
  }
  return { cloud: all, voxel, start: starts, count: levels.map((l) => l.count) };
}

/** A copy of the first `n` splats of a cloud (so the larger scratch cloud can be freed). */
function sliceCloud(c: SplatCloud, n: number): SplatCloud {
  const K3 = shRestCount(c.shDegree) * 3;
  return {
    count: n, shDegree: c.shDegree,
    positions: c.positions.slice(0, 3 * n), scales: c.scales.slice(0, 3 * n), rotations: c.rotations.slice(0, 4 * n),
    opacities: c.opacities.slice(0, n), shDc: c.shDc.slice(0, 3 * n), shRest: c.shRest.slice(0, K3 * n),
  };
}

/**
 * The coarsest level whose voxel is at most `pixelFraction` of a pixel's footprint at distance
 * `distance` (metres) for focal length `focalPx` (pixels): 0 (the capture itself) when none is.
 */
export function lodLevelFor(voxel: readonly number[], distance: number, focalPx: number, pixelFraction: number): number {
  const footprint = (distance / focalPx) * pixelFraction;
  let level = 0;
  for (let k = 0; k < voxel.length; k++) if (voxel[k] <= footprint) level = k + 1;
  return level;
}

/** Distance from `eye` to the axis-aligned box `b[o … o + 5]` = [minX, minY, minZ, maxX, maxY, maxZ] (0 inside), metres. */
function boxDistance(eye: ArrayLike<number>, b: ArrayLike<number>, o: number): number {
  let d2 = 0;
  for (let a = 0; a < 3; a++) {
    const e = eye[a] < b[o + a] ? b[o + a] - eye[a] : eye[a] > b[o + 3 + a] ? eye[a] - b[o + 3 + a] : 0;
    d2 += e * e;
  }
  return Math.sqrt(d2);
}

/**
 * The index ranges a camera draws, as (start, count, prefix, 0) quadruples in `out` (adjacent ones
 * merged): each cell in the frustum at the level {@link lodLevelFor} gives for its nearest point,
 * level 0 being the capture's splats `[0, fineCount)` in cell order and level k ≥ 1 the coarse
 * splats stored after them (`fineCount + lod.start[k − 1][c]`). Returns the number of ranges, of
 * splats in them, and of cells drawn coarse.
 *
 * @param out at least 4 × cell count u32.
 */
export function visibleLodRanges(cells: SpatialCells, lod: SplatLodLevels, fineCount: number, m: CameraModel, pixelFraction: number, out: Uint32Array): { ranges: number; splats: number; coarseCells: number } {
  let ranges = 0, splats = 0, coarseCells = 0;
  const focal = Math.max(m.fx, m.fy);
  for (let c = 0; c < cells.count.length; c++) {
    if (boxOutsideFrustum(m, cells.bounds, 6 * c)) continue;
    // Orthographic: a voxel covers voxel · focal pixels at any depth (distance 1 in lodLevelFor's ratio).
    const distance = m.orthographic ? 1 : boxDistance(m.eye, cells.bounds, 6 * c);
    const level = pixelFraction > 0 ? lodLevelFor(lod.voxel, distance, focal, pixelFraction) : 0;
    const s = level === 0 ? cells.start[c] : fineCount + lod.start[level - 1][c];
    const n = level === 0 ? cells.count[c] : lod.count[level - 1][c];
    if (level > 0) coarseCells++;
    if (n === 0) continue;
    ranges = appendRange(out, ranges, splats, s, n);
    splats += n;
  }
  return { ranges, splats, coarseCells };
}
