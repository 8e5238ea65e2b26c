/** The ground-plane fit (RANSAC + least squares) on synthetic streets with walls and floaters; the levelling rotation. */
import { describe, expect, it } from 'vitest';
import { quatToMat3 } from '../core/quaternion';
import { createRng } from '../core/random';
import { fitGroundPlane, GroundFitError, levellingRotation } from './ground-plane';
import { allocateSplatCloud, type SplatCloud } from './splat-cloud';

/** A tilted 20 × 20 ground of 4,000 splats (noise σ 1 cm), a 6 m wall of 3,000 and 1,000 random floaters. */
function tiltedStreet(normal: [number, number, number]): SplatCloud {
  const rng = createRng(7);
  const n = normal.map((v) => v / Math.hypot(...normal)) as [number, number, number];
  // Two in-plane axes.
  const u = Math.abs(n[0]) < 0.9 ? [0, n[2], -n[1]] : [n[2], 0, -n[0]];
  const ul = Math.hypot(...u);
  const e1 = u.map((v) => v / ul);
  const e2 = [n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]];
  const cloud = allocateSplatCloud(8000, 0);
  for (let i = 0; i < 8000; i++) {
    let p: number[];
    if (i < 4000) {
      const a = rng.range(-10, 10), b = rng.range(-10, 10), h = 0.01 * rng.normal();
      p = [0, 1, 2].map((k) => a * e1[k] + b * e2[k] + h * n[k] + 5 * n[k]);
    } else if (i < 7000) {
      const a = rng.range(-10, 10), h = rng.range(0, 6);
      p = [0, 1, 2].map((k) => a * e1[k] + 10 * e2[k] + h * n[k] + 5 * n[k]);
    } else {
      p = [rng.range(-10, 10), rng.range(-10, 10), rng.range(-10, 10)];
    }
    cloud.positions.set(p, 3 * i);
    cloud.opacities[i] = 0.9;
    cloud.scales.set([0.05, 0.05, 0.05], 3 * i);
    cloud.rotations.set([1, 0, 0, 0], 4 * i);
  }
  return cloud;
}

describe('fitGroundPlane (RANSAC + least squares)', () => {
  it('finds a tilted ground under a wall and floaters, normal within 0.5°, and levels it with levellingRotation', () => {
    const truth: [number, number, number] = [0.2, -0.9, 0.3];
    const tn = truth.map((v) => v / Math.hypot(...truth));
    const g = fitGroundPlane(tiltedStreet(truth), { upHint: [0, -1, 0], inlierDistance: 0.05 });
    const angle = (Math.acos(Math.min(1, tn[0] * g.normal[0] + tn[1] * g.normal[1] + tn[2] * g.normal[2])) * 180) / Math.PI;
    expect(angle).toBeLessThan(0.5);
    expect(g.offset).toBeCloseTo(5, 1);
    expect(g.inlierFraction).toBeGreaterThan(0.45); // 4,000 ground of 8,000, plus wall feet
    expect(g.rms).toBeLessThan(0.02);
    const R = quatToMat3(levellingRotation(g.normal));
    const up = [0, 1, 2].map((r) => R[3 * r] * g.normal[0] + R[3 * r + 1] * g.normal[1] + R[3 * r + 2] * g.normal[2]);
    expect(up[0]).toBeCloseTo(0, 9);
    expect(up[1]).toBeCloseTo(0, 9);
    expect(up[2]).toBeCloseTo(1, 9);
  });

  it('without a hint takes the largest plane, pointing to the side most splats are on; the same for the same seed', () => {
    const cloud = tiltedStreet([0, 0, 1]);
    const a = fitGroundPlane(cloud, { inlierDistance: 0.05 });
    expect(a.normal[2]).toBeGreaterThan(0.999);
    expect(fitGroundPlane(cloud, { inlierDistance: 0.05 })).toEqual(a);
  });

  it('yaw turns the levelled frame about +z, and an upside-down normal gets a half turn', () => {
    const R = quatToMat3(levellingRotation([0, 0, 1], Math.PI / 2));
    expect([R[0], R[3], R[6]].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 1, 0]); // x → y
    const F = quatToMat3(levellingRotation([0, 0, -1]));
    expect(F[8]).toBeCloseTo(-1, 12);
  });

  it('refuses a capture with no opaque splats, and a hint no plane matches', () => {
    const clear = allocateSplatCloud(10, 0);
    expect(() => fitGroundPlane(clear)).toThrow(GroundFitError);
    expect(() => fitGroundPlane(clear)).toThrow(/only 0 of 10 splats are opaque/);
    const flat = allocateSplatCloud(100, 0);
    for (let i = 0; i < 100; i++) { flat.positions.set([i % 10, Math.floor(i / 10), 0], 3 * i); flat.opacities[i] = 1; }
    expect(() => fitGroundPlane(flat, { upHint: [1, 0, 0], maxTiltDeg: 10 })).toThrow(/no plane within 10°/);
  });
});
