import { describe, expect, it } from 'vitest';
import { createRng } from '../core/random';
import { cameraModel, type PinholeCamera } from '../gpu/camera';
import { allocateSplatCloud } from './splat-cloud';
import { covarianceFromRotationScale } from './projection';
import { buildSplatLod, lodLevelFor, symmetricEigen3, visibleLodRanges } from './splat-lod';
import { buildSpatialCells, visibleRanges } from './spatial-cells';
import { syntheticSplats } from './synthetic-splats';

/** Full 3×3 from the upper triangle. */
const full = (c: ArrayLike<number>) => [[c[0], c[1], c[2]], [c[1], c[3], c[4]], [c[2], c[4], c[5]]];

/** R S² Rᵀ written out from the quaternion's matrix (independent of covarianceFromRotationScale's loop). */
function covarianceByMatrices(q: number[], s: number[]): number[][] {
  const [w, x, y, z] = q;
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const M = R.map((row) => row.map((v, j) => v * s[j]));
  return M.map((ri) => M.map((rj) => ri[0] * rj[0] + ri[1] * rj[1] + ri[2] * rj[2]));
}

const unitQuat = (rng: ReturnType<typeof createRng>) => {
  const q = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
};

describe('covarianceFromRotationScale and symmetricEigen3', () => {
  it('the covariance is R S² Rᵀ, and the eigen-decomposition gives it back as a proper rotation', () => {
    const rng = createRng(5);
    for (let t = 0; t < 50; t++) {
      const q = unitQuat(rng);
      const s = [rng.range(0.01, 2), rng.range(0.01, 2), rng.range(0.001, 0.5)];
      const c = covarianceFromRotationScale(q, s);
      const expected = covarianceByMatrices(q, s);
      full(c).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 12)));
      const { values, quat } = symmetricEigen3(c);
      expect(Math.hypot(...quat)).toBeCloseTo(1, 12);
      const back = covarianceByMatrices(quat, values.map(Math.sqrt));
      full(c).forEach((row, i) => row.forEach((v, j) => expect(back[i][j]).toBeCloseTo(v, 10)));
      expect([...values].sort((a, b) => a - b).map((v) => Math.sqrt(v))).toEqual([...s].sort((a, b) => a - b).map((v) => expect.closeTo(v, 9)));
    }
  });
});

describe('buildSplatLod', () => {
  it('merges the splats of one voxel by moment matching, keeping their α mass', () => {
    // Cell 1: two splats 1 cm apart (one voxel); far away, one lone splat. Fill with more far splats so there are levels.
    const cloud = allocateSplatCloud(2, 1);
    cloud.positions.set([0, 0, 0, 0.01, 0, 0]);
    cloud.scales.set([0.02, 0.02, 0.02, 0.04, 0.01, 0.02]);
    cloud.rotations.set([1, 0, 0, 0, Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    cloud.opacities.set([0.5, 0.25]);
    cloud.shDc.set([1, 0, 0, 0, 1, 0]);
    cloud.shRest.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    // One cell holding both.
    const cells = { order: Uint32Array.of(0, 1), start: Uint32Array.of(0), count: Uint32Array.of(2), bounds: Float64Array.of(-0.2, -0.2, -0.2, 0.2, 0.2, 0.2) };
    const lod = buildSplatLod(cloud, cells, { maxLevels: 1, minReduction: 1, pixelFraction: 0.5 });
    expect(lod.cloud.count).toBe(1);
    expect(lod.voxel[0]).toBeCloseTo(0.08, 7); // twice the median largest σ (0.04)
    // The dilation 0.3 px² at the level's pixel, √2 · voxel / pixel fraction.
    const delta = 0.3 * ((Math.SQRT2 * lod.voxel[0]) / 0.5) ** 2;
    const area = (s: ArrayLike<number>) => (s[0] * s[1] + s[1] * s[2] + s[0] * s[2]) / 3;
    // Weights: each splat's α mass at that scale, o (face area + δ).
    const w = [0.5 * (area([0.02, 0.02, 0.02]) + delta), 0.25 * (area([0.04, 0.01, 0.02]) + delta)];
    const W = w[0] + w[1];
    // Mean and colour: weighted averages.
    expect(lod.cloud.positions[0]).toBeCloseTo((w[1] * 0.01) / W, 7);
    expect(lod.cloud.shDc[0]).toBeCloseTo(w[0] / W, 6);
    expect(lod.cloud.shRest[3]).toBeCloseTo((4 * w[0] + 13 * w[1]) / W, 5);
    // Covariance: Σ w (Σᵢ + dᵢdᵢᵀ) / W with dᵢ the offset from the mean.
    const mu = (w[1] * 0.01) / W;
    const c0 = covarianceByMatrices([1, 0, 0, 0], [0.02, 0.02, 0.02]);
    const c1 = covarianceByMatrices([Math.SQRT1_2, 0, 0, Math.SQRT1_2], [0.04, 0.01, 0.02]);
    const d = [-mu, 0.01 - mu];
    const expected = c0.map((row, i) => row.map((v, j) => (w[0] * (v + (i === 0 && j === 0 ? d[0] * d[0] : 0)) + w[1] * (c1[i][j] + (i === 0 && j === 0 ? d[1] * d[1] : 0))) / W));
    const got = covarianceByMatrices([...lod.cloud.rotations.subarray(0, 4)], [...lod.cloud.scales.subarray(0, 3)]);
    got.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 7)));
    // Opacity: the members' union coverage of the merged, dilated footprint, 1 − Π(1 − mᵢ / a).
    const dilated = [...lod.cloud.scales.subarray(0, 3)].map((s) => Math.sqrt(s * s + delta));
    const a = area(dilated);
    expect(lod.cloud.opacities[0]).toBeLessThan(0.99);
    expect(lod.cloud.opacities[0]).toBeCloseTo(1 - (1 - w[0] / a) * (1 - w[1] / a), 6);
    // Below the α mass Σ mᵢ / a, which it approaches while the members overlap little.
    expect(lod.cloud.opacities[0]).toBeLessThan(W / a);
  });

  const cloud = syntheticSplats(70_000, 1, 2);
  const cells = buildSpatialCells(cloud, 512);
  const lod = buildSplatLod(cloud, cells);

  it('builds levels that shrink, cell by cell, deterministically', () => {
    expect(lod.voxel.length).toBeGreaterThan(0);
    for (let k = 0; k < lod.voxel.length; k++) {
      if (k > 0) expect(lod.voxel[k]).toBeCloseTo(2 * lod.voxel[k - 1], 12);
      const below = k === 0 ? cells.count : lod.count[k - 1];
      let total = 0, totalBelow = 0;
      for (let c = 0; c < cells.count.length; c++) {
        expect(lod.count[k][c]).toBeLessThanOrEqual(below[c]);
        expect(lod.count[k][c]).toBeGreaterThan(0);
        total += lod.count[k][c];
        totalBelow += below[c];
      }
      expect(total).toBeLessThanOrEqual(0.7 * totalBelow);
    }
    const again = buildSplatLod(cloud, buildSpatialCells(cloud, 512));
    expect(again.cloud.positions).toEqual(lod.cloud.positions);
    expect(again.cloud.opacities).toEqual(lod.cloud.opacities);
    for (let i = 0; i < lod.cloud.count; i++) expect(Number.isFinite(lod.cloud.scales[3 * i]) && lod.cloud.opacities[i] >= 0 && lod.cloud.opacities[i] <= 1).toBe(true);
  });

  it('grows the cell bounds to hold the coarse splats', () => {
    for (let k = 0; k < lod.voxel.length; k++) {
      for (let c = 0; c < cells.count.length; c += 5) {
        const b = cells.bounds.subarray(6 * c, 6 * c + 6);
        for (let i = lod.start[k][c]; i < lod.start[k][c] + lod.count[k][c]; i++) {
          for (let a = 0; a < 3; a++) {
            expect(lod.cloud.positions[3 * i + a]).toBeGreaterThanOrEqual(b[a]);
            expect(lod.cloud.positions[3 * i + a]).toBeLessThanOrEqual(b[3 + a]);
          }
        }
      }
    }
  });

  it('lodLevelFor picks the coarsest voxel within the pixel fraction', () => {
    expect(lodLevelFor([0.1, 0.2, 0.4], 10, 100, 0.5)).toBe(0); // footprint 0.05 m
    expect(lodLevelFor([0.1, 0.2, 0.4], 40, 100, 0.5)).toBe(2); // 0.2 m
    expect(lodLevelFor([0.1, 0.2, 0.4], 1000, 100, 0.5)).toBe(3);
    expect(lodLevelFor([0.1, 0.2, 0.4], 1000, 100, 0)).toBe(0);
  });

  it('visibleLodRanges draws far cells coarse and near ones fine, and equals visibleRanges at fraction 0', () => {
    const n = cells.count.length;
    const cam = (eye: [number, number, number]): PinholeCamera => ({ eye, target: [0, 7, 0], up: [0, 0, 1], fovYDeg: 40, width: 64, height: 48, near: 0.05, far: 1000 });
    const a = new Uint32Array(4 * n), b = new Uint32Array(4 * n);
    const far = cameraModel(cam([0, -300, 0]));
    const exact = visibleRanges(cells, far, a);
    expect(visibleLodRanges(cells, lod, cloud.count, far, 0, b)).toEqual({ ...exact, coarseCells: 0 });
    expect(b.subarray(0, 4 * exact.ranges)).toEqual(a.subarray(0, 4 * exact.ranges));
    const coarse = visibleLodRanges(cells, lod, cloud.count, far, 0.5, b);
    expect(coarse.coarseCells).toBeGreaterThan(0);
    expect(coarse.splats).toBeLessThan(exact.splats / 2);
    // Ranges: prefixes add up, coarse ranges lie after the capture's splats.
    let prefix = 0;
    for (let r = 0; r < coarse.ranges; r++) {
      expect(b[4 * r + 2]).toBe(prefix);
      prefix += b[4 * r + 1];
      expect(b[4 * r]).toBeGreaterThanOrEqual(cloud.count);
    }
    expect(prefix).toBe(coarse.splats);
    const near = visibleLodRanges(cells, lod, cloud.count, cameraModel(cam([0, 1, 0])), 0.5, b);
    expect(near.coarseCells).toBeLessThan(coarse.coarseCells);
  });
});
