import { describe, expect, it } from 'vitest';
import { syntheticSplats } from './synthetic-splats';
import { cameraModel, type PinholeCamera } from '../gpu/camera';
import { projectSplat } from './projection';
import { buildSpatialCells, visibleRanges } from './spatial-cells';

const cloud = syntheticSplats(20_000, 0, 3); // x ∈ [−4, 4], y ∈ [2, 12], z ∈ [−3, 3]
const cells = buildSpatialCells(cloud, 512);
const camera = (target: [number, number, number], eye: [number, number, number] = [0, 0, 0]): PinholeCamera =>
  ({ eye, target, up: [0, 0, 1], fovYDeg: 40, width: 64, height: 48, near: 0.05, far: 100 });

describe('buildSpatialCells', () => {
  it('orders every splat once, cell by cell, keeping the cloud order within a cell', () => {
    expect(new Set(cells.order).size).toBe(cloud.count);
    expect(cells.count.reduce((a, b) => a + b, 0)).toBe(cloud.count);
    for (let k = 0; k < cells.count.length; k++) {
      for (let m = cells.start[k] + 1; m < cells.start[k] + cells.count[k]; m++) expect(cells.order[m]).toBeGreaterThan(cells.order[m - 1]);
    }
    expect(cells.count.length).toBeGreaterThan(100);
  });

  it('bounds every splat of a cell with its extent', () => {
    for (let k = 0; k < cells.count.length; k += 7) {
      const b = cells.bounds.subarray(6 * k, 6 * k + 6);
      for (let m = cells.start[k]; m < cells.start[k] + cells.count[k]; m++) {
        const i = cells.order[m];
        const r = 3.3 * Math.max(...cloud.scales.subarray(3 * i, 3 * i + 3));
        for (let a = 0; a < 3; a++) {
          expect(cloud.positions[3 * i + a] - r).toBeGreaterThanOrEqual(b[a]);
          expect(cloud.positions[3 * i + a] + r).toBeLessThanOrEqual(b[3 + a]);
        }
      }
    }
  });
});

describe('visibleRanges', () => {
  const out = new Uint32Array(cells.count.length * 4);

  it('keeps every splat the camera projects, drops cells behind it, and writes consistent prefixes', () => {
    const cam = cameraModel(camera([3, 6, 0], [-3, 1, 0])); // a narrow view across part of the box
    const { ranges, splats } = visibleRanges(cells, cam, out);
    expect(splats).toBeLessThan(cloud.count * 0.8);
    expect(splats).toBeGreaterThan(0);
    const kept = new Set<number>();
    let prefix = 0;
    for (let r = 0; r < ranges; r++) {
      expect(out[4 * r + 2]).toBe(prefix);
      for (let m = out[4 * r]; m < out[4 * r] + out[4 * r + 1]; m++) kept.add(cells.order[m]);
      prefix += out[4 * r + 1];
    }
    expect(prefix).toBe(splats);
    for (let i = 0; i < cloud.count; i++) if (projectSplat(cloud, i, cam)) expect(kept.has(i), `splat ${i} is in view but culled`).toBe(true);
  });

  it('returns nothing for a camera looking away from the whole capture', () => {
    expect(visibleRanges(cells, cameraModel(camera([0, -1, 0])), out)).toEqual({ ranges: 0, splats: 0 });
  });
});
