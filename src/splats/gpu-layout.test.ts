import { describe, expect, it } from 'vitest';
import { syntheticSplats } from './synthetic-splats';
import { packShRest, packSplats, shRestScale, shRestStride, SPLAT_LAYOUT, unpackShRest } from './gpu-layout';
import { shRestCount } from './splat-cloud';
import { splatCovariance3d } from './projection';

describe('packing splats for upload', () => {
  it('packs a slice [from, to) exactly as that part of the whole pack, with and without an upload order', () => {
    const cloud = syntheticSplats(1000, 3, 4);
    const order = Uint32Array.from({ length: cloud.count }, (_, k) => (k * 7919) % cloud.count);
    for (const o of [undefined, order]) {
      const whole = packSplats(cloud, o);
      const sh = packShRest(cloud, o);
      const stride = shRestStride(3);
      for (const [from, to] of [[0, 1000], [0, 1], [300, 701], [999, 1000]]) {
        expect(packSplats(cloud, o, from, to)).toEqual(whole.subarray((from * SPLAT_LAYOUT.size) / 4, (to * SPLAT_LAYOUT.size) / 4));
        expect(packShRest(cloud, o, from, to)).toEqual(sh.subarray(from * stride, to * stride));
      }
    }
    // Record k holds splat order[k]: its position and opacity are where the layout says.
    const p = packSplats(cloud, order, 10, 11);
    expect(Array.from(p.subarray(0, 3))).toEqual(Array.from(cloud.positions.subarray(order[10] * 3, order[10] * 3 + 3)));
    expect(p[SPLAT_LAYOUT.opacity / 4]).toBe(cloud.opacities[order[10]]);
  });

  it('stores each splat\'s 3D covariance Σ = R S Sᵀ Rᵀ (upper triangle, f32 of the f64 product) in covA / covB', () => {
    const cloud = syntheticSplats(300, 0, 9);
    const records = packSplats(cloud);
    for (const i of [0, 1, 137, 299]) {
      const cov = splatCovariance3d(cloud, i);
      const o = i * (SPLAT_LAYOUT.size / 4);
      const stored = [0, 1, 2].map((k) => records[o + SPLAT_LAYOUT.covA / 4 + k]).concat([0, 1, 2].map((k) => records[o + SPLAT_LAYOUT.covB / 4 + k]));
      expect(stored, `splat ${i}`).toEqual(Array.from(cov, Math.fround));
      // Σ is positive definite: its diagonal is the squared scales rotated, never below the smallest scale².
      const sMin = Math.min(...cloud.scales.subarray(3 * i, 3 * i + 3));
      for (const d of [cov[0], cov[3], cov[5]]) expect(d).toBeGreaterThanOrEqual(sMin * sMin * (1 - 1e-9));
    }
    // A known case: a 90° turn about z (q = (cos 45°, 0, 0, sin 45°)) swaps the x and y scales.
    const h = Math.SQRT1_2;
    const one = syntheticSplats(1, 0, 1);
    one.rotations.set([h, 0, 0, h]);
    one.scales.set([2, 0.5, 1]);
    const r = packSplats(one);
    expect(r[SPLAT_LAYOUT.covA / 4]).toBeCloseTo(0.25, 6);
    expect(r[SPLAT_LAYOUT.covB / 4]).toBeCloseTo(4, 6);
    expect(r[SPLAT_LAYOUT.covB / 4 + 2]).toBeCloseTo(1, 6);
    expect(r[SPLAT_LAYOUT.covA / 4 + 1]).toBeCloseTo(0, 6);
  });

  for (const degree of [1, 2, 3]) it(`stores SH degree ${degree} as snorm8 of the splat's scale: decoded within scale / 254, scale in the record`, () => {
    const cloud = syntheticSplats(200, degree, 5);
    const perSplat = shRestCount(degree) * 3;
    // A splat with no view-dependent colour, and one with a single non-zero coefficient.
    cloud.shRest.fill(0, 0, perSplat);
    cloud.shRest.fill(0, perSplat, 2 * perSplat);
    cloud.shRest[perSplat + perSplat - 1] = -0.75;
    const words = packShRest(cloud);
    const records = packSplats(cloud);
    expect(words.length).toBe(200 * shRestStride(degree));
    let worst = 0;
    for (let i = 0; i < cloud.count; i++) {
      const scale = shRestScale(cloud, i);
      expect(records[i * 16 + SPLAT_LAYOUT.shScale / 4]).toBe(Math.fround(scale));
      const back = unpackShRest(words, degree, i, scale);
      for (let h = 0; h < perSplat; h++) {
        const err = Math.abs(back[h] - cloud.shRest[i * perSplat + h]);
        expect(err, `splat ${i} value ${h}`).toBeLessThanOrEqual(scale / 254 + 1e-7);
        worst = Math.max(worst, err / Math.max(scale, 1e-30));
      }
    }
    expect(Array.from(unpackShRest(words, degree, 0, 0))).toEqual(new Array(perSplat).fill(0));
    expect(unpackShRest(words, degree, 1, 0.75)[perSplat - 1]).toBeCloseTo(-0.75, 6);
    // Rounding, not truncation: the worst error is near half a step.
    expect(worst).toBeGreaterThan(0.3 / 127);
  });
});
