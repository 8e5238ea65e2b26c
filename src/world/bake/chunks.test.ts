/** Chunk layout, view selection and assembly of the visible set. */
import { describe, expect, it } from 'vitest';
import type { PinholeCamera } from '../../gpu/camera';
import { generateWorld } from '../world';
import { assembleChunks, bakeChunk, chunkGrid, chunkOf, chunkSquare, ChunkedWorld, selectChunks } from './chunks';

const world = generateWorld({ seed: 1 });
const grid = chunkGrid(world, 32);

const cam = (eye: [number, number, number], target: [number, number, number]): PinholeCamera => ({ eye, target, up: [0, 0, 1], fovYDeg: 60, width: 64, height: 48, near: 0.05, far: 300 });

describe('chunkGrid', () => {
  it('covers the world with 32 m chunks whose squares partition it', () => {
    expect(grid.nx).toBe(13);
    expect(grid.ny).toBe(13);
    const id = chunkOf(grid, 0.5, -3.2);
    const sq = chunkSquare(grid, id);
    expect(0.5 >= sq[0] && 0.5 < sq[2] && -3.2 >= sq[1] && -3.2 < sq[3]).toBe(true);
    expect(chunkOf(grid, 1e4, 0)).toBe(-1);
    expect(() => chunkGrid(world, 2)).toThrow(/chunkSize/);
  });
});

describe('selectChunks', () => {
  const c = cam([0, 0, 1], [10, 0, 0.8]);
  const ids = selectChunks(grid, c, { viewDistance: 60 });

  it('returns the chunk under the eye first and nearby chunks ahead', () => {
    expect(ids[0]).toBe(chunkOf(grid, 0, 0));
    expect(ids).toContain(chunkOf(grid, 30, 0));
    expect(ids).toContain(chunkOf(grid, 50, 10));
  });

  it('excludes chunks beyond the view distance and behind the camera', () => {
    expect(ids).not.toContain(chunkOf(grid, 150, 0));
    expect(ids).not.toContain(chunkOf(grid, -60, 0));
    expect(ids.length).toBeLessThan(20);
    // Without the frustum test the chunks behind come back.
    expect(selectChunks(grid, c, { viewDistance: 60, noFrustum: true })).toContain(chunkOf(grid, -50, 0));
  });
});

describe('assembleChunks / ChunkedWorld', { timeout: 60_000 }, () => {
  it('adds each chunk origin back to its local positions', () => {
    const a = bakeChunk(world, grid, 84), b = bakeChunk(world, grid, 85);
    const all = assembleChunks([a, b]);
    expect(all.count).toBe(a.cloud.count + b.cloud.count);
    const i = a.cloud.count + 5;
    expect(all.positions[3 * i]).toBeCloseTo(b.cloud.positions[15] + b.origin[0], 3);
    expect(all.positions[3 * i + 1]).toBeCloseTo(b.cloud.positions[16] + b.origin[1], 3);
  });

  it('re-packs only when the visible set changes, and bakes only what was seen', () => {
    const cw = new ChunkedWorld(world, 32);
    const v1 = cw.view(cam([0, 0, 1], [10, 0, 0.8]), { viewDistance: 40 });
    expect(v1.changed).toBe(true);
    const v2 = cw.view(cam([0.2, 0, 1], [10.2, 0, 0.8]), { viewDistance: 40 });
    expect(v2.changed).toBe(false);
    expect(v2.cloud).toBe(v1.cloud);
    const v3 = cw.view(cam([0, 0, 1], [-10, 0, 0.8]), { viewDistance: 40 });
    expect(v3.changed).toBe(true);
    expect(cw.bakedCount).toBeLessThan(grid.nx * grid.ny / 4);
  });
});
