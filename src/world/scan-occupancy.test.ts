/** Obstacles from a scan: the occupancy grid and its proposals against a baked street whose objects are known. */
import { describe, expect, it } from 'vitest';
import { isConvexRing, pointInRing, signedArea } from '../core/geometry2d';
import { allocateSplatCloud } from '../splats/splat-cloud';
import { assembleChunks, bakeChunk, chunkGrid } from './bake/chunks';
import { isWalkable } from './queries';
import { obstacleProposals, occupancyGrid } from './scan-occupancy';
import { generateWorld } from './world';

describe('occupancyGrid', () => {
  it('occupies cells with enough opaque splats at body height or a roof over no ground; not kerbs, haze or canopies over ground; fills enclosed cells', () => {
    const pts: [number, number, number, number][] = []; // x, y, z, opacity
    for (let k = 0; k < 5; k++) {
      pts.push([0.1, 0.1, 1.0, 0.9]); // a post at (0, 0)
      pts.push([1.1, 0.1, 0.1, 0.9]); // a kerb at (1, 0): too low
      pts.push([2.1, 0.1, 3.0, 0.9], [2.2, 0.2, 0.02, 0.9]); // a canopy at (2, 0) over visible ground
      pts.push([4.1, 0.1, 6.0, 0.9]); // a roof at (4, 0) with no ground under it
      pts.push([3.1, 0.1, 1.0, 0.2]); // haze at (3, 0): too transparent
    }
    // A ring of wall cells around (1, 2) … (1, 2): the enclosed centre fills.
    for (const [c, r] of [[0, 1], [1, 1], [2, 1], [0, 2], [2, 2], [0, 3], [1, 3], [2, 3]]) for (let k = 0; k < 3; k++) pts.push([c + 0.5, r + 0.5, 1.5, 1]);
    const cloud = allocateSplatCloud(pts.length, 0);
    pts.forEach(([x, y, z, o], i) => { cloud.positions.set([x, y, z], 3 * i); cloud.opacities[i] = o; cloud.scales.set([0.01, 0.01, 0.01], 3 * i); });
    const g = occupancyGrid(cloud, [0, 0, 5, 5], 0, { cell: 1, minSplats: 3 });
    const at = (c: number, r: number) => g.occupied[r * g.cols + c];
    expect([at(0, 0), at(1, 0), at(2, 0), at(3, 0), at(4, 0)]).toEqual([1, 0, 0, 0, 1]);
    expect(at(1, 2)).toBe(1); // enclosed
    expect(at(4, 4)).toBe(0);
    expect(g.top[2]).toBeCloseTo(3, 6);
    // A large splat paints every cell its 1.5 σ disc touches.
    const wide = allocateSplatCloud(3, 0);
    for (let i = 0; i < 3; i++) { wide.positions.set([2.5, 2.5, 1], 3 * i); wide.opacities[i] = 1; wide.scales.set([0.6, 0.1, 0.1], 3 * i); }
    const gw = occupancyGrid(wide, [0, 0, 5, 5], 0, { cell: 1 });
    expect(Array.from(gw.occupied).reduce((a, b) => a + b, 0)).toBe(9);
    expect(() => occupancyGrid(cloud, [0, 0, 0, 5], 0)).toThrow(/non-empty bounds/);
  });
});

describe('obstacleProposals on a baked street (world 1, 150 m)', { timeout: 120_000 }, () => {
  const world = generateWorld({ seed: 1, size: 150 });
  const grid = chunkGrid(world);
  const cloud = assembleChunks(Array.from({ length: grid.nx * grid.ny }, (_, id) => bakeChunk(world, grid, id)));
  const occ = occupancyGrid(cloud, world.bounds, 0);
  const proposals = obstacleProposals(occ);

  it('proposes convex polygons that cover the buildings and stay off the walkable network', () => {
    expect(proposals.length).toBeGreaterThan(10);
    for (const p of proposals) {
      expect(isConvexRing(p.polygon)).toBe(true);
      expect(signedArea(p.polygon)).toBeGreaterThan(0);
    }
    const inProposal = (x: number, y: number) => proposals.some((p) => pointInRing(x, y, p.polygon));
    // Recall: points inside building footprints (0.5 m grid, 0.4 m inside their edges) are covered.
    let inside = 0, covered = 0;
    for (const b of world.obstacles.filter((o) => o.kind === 'building')) {
      const xs = b.footprint.map((v) => v[0]), ys = b.footprint.map((v) => v[1]);
      for (let x = Math.min(...xs) + 0.4; x < Math.max(...xs) - 0.4; x += 0.5) for (let y = Math.min(...ys) + 0.4; y < Math.max(...ys) - 0.4; y += 0.5) {
        if (!pointInRing(x, y, b.footprint)) continue;
        inside++;
        if (inProposal(x, y)) covered++;
      }
    }
    expect(inside).toBeGreaterThan(1000);
    expect(covered / inside).toBeGreaterThan(0.97); // measured 1.000
    // Precision on the walkable network: little of the sidewalks and crosswalks is blocked.
    let walkable = 0, blocked = 0;
    for (let x = world.bounds[0]; x < world.bounds[2]; x += 0.5) for (let y = world.bounds[1]; y < world.bounds[3]; y += 0.5) {
      if (!isWalkable(world, x, y)) continue;
      walkable++;
      if (inProposal(x, y)) blocked++;
    }
    expect(blocked / walkable).toBeLessThan(0.02); // measured 0.002
  });
});
