import { describe, expect, it } from 'vitest';
import { boxOutsideFrustum, cameraModel, type OrthographicCamera, type PinholeCamera } from '../gpu/camera';
import { COV2D_DILATION, DEPTH_BINS, DEPTH_LINEAR_SHARE, depthBin, depthBinCdf, depthKeyBits, depthSampleMask, depthSortKey, projectSplat } from './projection';
import { psnr, renderSplatsReference } from './reference-renderer';
import { evalSplatColor } from './spherical-harmonics';
import { allocateSplatCloud, SH_C0 } from './splat-cloud';

/** Camera at the origin looking along +y with z up (Curbside's world frame). */
const camera: PinholeCamera = { eye: [0, 0, 0], target: [0, 1, 0], up: [0, 0, 1], fovYDeg: 60, width: 64, height: 48, near: 0.1, far: 100 };

function isotropicSplat(pos: [number, number, number], scale: number, opacity: number, rgb: [number, number, number]) {
  const c = allocateSplatCloud(1, 0);
  c.positions.set(pos);
  c.scales.set([scale, scale, scale]);
  c.rotations.set([1, 0, 0, 0]);
  c.opacities[0] = opacity;
  c.shDc.set(rgb.map((v) => (v - 0.5) / SH_C0));
  return c;
}

describe('projectSplat (EWA, 3DGS eqs. 5–6)', () => {
  it('projects an isotropic splat on the optical axis to a circle of variance (f·s/d)² + 0.3', () => {
    const d = 5;
    const s = 0.05;
    const cam = cameraModel(camera);
    const p = projectSplat(isotropicSplat([0, d, 0], s, 0.8, [1, 0, 0]), 0, cam)!;
    const variance = (cam.fx * s / d) ** 2 + COV2D_DILATION;
    expect(p.u).toBeCloseTo(32, 10);
    expect(p.v).toBeCloseTo(24, 10);
    expect(p.depth).toBeCloseTo(d, 12);
    // Inputs are stored as f32 (relative error ~6e-8), hence 6 decimals on the conic.
    expect(p.conic[0]).toBeCloseTo(1 / variance, 6);
    expect(p.conic[1]).toBeCloseTo(0, 12);
    expect(p.conic[2]).toBeCloseTo(1 / variance, 6);
    // Opacity-aware extent: α = 0.8 exp(−r²/2) reaches 1/255 at r = √(2 ln(0.8 · 255)) σ.
    const k = Math.sqrt(2 * Math.log(0.8 * 255));
    expect(p.extentSigmas).toBeCloseTo(k, 6);
    expect(p.sigma[0]).toBeCloseTo(Math.sqrt(variance), 6);
    expect(p.sigma[1]).toBeCloseTo(Math.sqrt(variance), 6);
    expect(p.halfExtent[0]).toBeCloseTo(k * Math.sqrt(variance), 6);
  });

  it('gives the eigenbasis of an elongated splat and an extent that holds exactly the α ≥ 1/255 pixels', () => {
    const cam = cameraModel(camera);
    const c = isotropicSplat([0.3, 6, -0.2], 0.02, 0.6, [1, 1, 1]);
    c.scales.set([0.6, 0.02, 0.01]);
    c.rotations.set([Math.cos(0.35), 0, Math.sin(0.35), 0]); // turned about y (the view axis)
    const p = projectSplat(c, 0, cam)!;
    expect(p.sigma[0] / p.sigma[1]).toBeGreaterThan(5);
    const [e1x, e1y] = p.major;
    // Σ' e₁ = λ₁ e₁
    const [a, b, cc] = p.cov;
    expect(a * e1x + b * e1y).toBeCloseTo(p.sigma[0] ** 2 * e1x, 6);
    expect(b * e1x + cc * e1y).toBeCloseTo(p.sigma[0] ** 2 * e1y, 6);
    // Points just inside the extent along each axis have α ≥ 1/255, just outside below it.
    const alphaAt = (dx: number, dy: number) => p.opacity * Math.exp(-0.5 * (p.conic[0] * dx * dx + p.conic[2] * dy * dy) - p.conic[1] * dx * dy);
    for (const [ax, ay, sg] of [[e1x, e1y, p.sigma[0]], [-e1y, e1x, p.sigma[1]]]) {
      expect(alphaAt(ax * sg * p.extentSigmas * 0.999, ay * sg * p.extentSigmas * 0.999)).toBeGreaterThan(1 / 255);
      expect(alphaAt(ax * sg * p.extentSigmas * 1.001, ay * sg * p.extentSigmas * 1.001)).toBeLessThan(1 / 255);
    }
  });

  it('culls a splat too transparent ever to reach α = 1/255', () => {
    const cam = cameraModel(camera);
    expect(projectSplat(isotropicSplat([0, 5, 0], 0.05, 0.003, [1, 1, 1]), 0, cam)).toBeNull();
    expect(projectSplat(isotropicSplat([0, 5, 0], 0.05, 0.005, [1, 1, 1]), 0, cam)).not.toBeNull();
  });

  it('maps world up (+z) to image up (smaller v) and world left to image left', () => {
    const cam = cameraModel(camera);
    const up = projectSplat(isotropicSplat([0, 5, 0.5], 0.01, 1, [1, 1, 1]), 0, cam)!;
    const left = projectSplat(isotropicSplat([-0.5, 5, 0], 0.01, 1, [1, 1, 1]), 0, cam)!;
    expect(up.v).toBeLessThan(24);
    expect(left.u).toBeLessThan(32);
  });

  it('culls splats behind the near plane and entirely off screen', () => {
    const cam = cameraModel(camera);
    expect(projectSplat(isotropicSplat([0, -2, 0], 0.05, 1, [1, 1, 1]), 0, cam)).toBeNull();
    expect(projectSplat(isotropicSplat([0, 0.05, 0], 0.01, 1, [1, 1, 1]), 0, cam)).toBeNull();
    expect(projectSplat(isotropicSplat([40, 5, 0], 0.01, 1, [1, 1, 1]), 0, cam)).toBeNull();
  });
});

describe('projectSplat through an orthographic camera', () => {
  // Looking straight down (−z) from 50 m at 0.1 m per pixel, image up = world +y.
  const ortho: OrthographicCamera = { projection: 'orthographic', eye: [10, 20, 50], target: [10, 20, 0], up: [0, 1, 0], metresPerPixel: 0.1, width: 64, height: 48, near: 1, far: 100 };

  it('maps world x, y to pixels at metresPerPixel whatever the depth, with a footprint that does not shrink with distance', () => {
    const cam = cameraModel(ortho);
    expect(cam.orthographic).toBe(true);
    expect(cam.fx).toBeCloseTo(10, 12);
    const s = 0.2;
    const low = projectSplat(isotropicSplat([11, 21, 0], s, 0.8, [1, 0, 0]), 0, cam)!;
    const high = projectSplat(isotropicSplat([11, 21, 30], s, 0.8, [1, 0, 0]), 0, cam)!;
    // +1 m in x → 10 px right; +1 m in y (image up) → 10 px up.
    expect(low.u).toBeCloseTo(32 + 10, 6);
    expect(low.v).toBeCloseTo(24 - 10, 6);
    expect(high.u).toBeCloseTo(low.u, 6);
    expect(high.v).toBeCloseTo(low.v, 6);
    expect(low.depth).toBeCloseTo(50, 6);
    expect(high.depth).toBeCloseTo(20, 6);
    const variance = (cam.fx * s) ** 2 + COV2D_DILATION;
    for (const p of [low, high]) {
      expect(p.conic[0]).toBeCloseTo(1 / variance, 6);
      expect(p.conic[1]).toBeCloseTo(0, 9);
      expect(p.conic[2]).toBeCloseTo(1 / variance, 6);
    }
  });

  it('culls beyond the far plane and outside the image rectangle, and its frustum is the box under the image', () => {
    const cam = cameraModel(ortho);
    expect(projectSplat(isotropicSplat([10, 20, -60], 0.1, 0.8, [1, 1, 1]), 0, cam)).toBeNull();
    expect(projectSplat(isotropicSplat([10 + 4, 20, 0], 0.01, 0.8, [1, 1, 1]), 0, cam)).toBeNull(); // 40 px right of centre, image half width 32
    // The image covers x ∈ [6.8, 13.2], y ∈ [17.6, 22.4].
    expect(boxOutsideFrustum(cam, [6, 17, -1, 7, 18, 1])).toBe(false);
    expect(boxOutsideFrustum(cam, [13.3, 17, -1, 14, 18, 1])).toBe(true);
    expect(boxOutsideFrustum(cam, [8, 22.5, -1, 9, 23, 1])).toBe(true);
    expect(() => cameraModel({ ...ortho, metresPerPixel: 0 })).toThrow(/metres per pixel/);
  });

  it('colours every splat along the viewing axis (parallel rays), not the eye → splat direction', () => {
    const cam = cameraModel(ortho);
    const c = isotropicSplat([12, 20, 0], 0.3, 0.9, [0.5, 0.5, 0.5]);
    const withSh = allocateSplatCloud(1, 1);
    withSh.positions.set(c.positions); withSh.scales.set(c.scales); withSh.rotations.set(c.rotations);
    withSh.opacities[0] = 0.9; withSh.shDc.set(c.shDc);
    withSh.shRest.set([0, 0, 0, 0, 0, 0, 1, 1, 1]); // k3 (the −C1·x term) only
    const img = renderSplatsReference(withSh, ortho);
    const p = projectSplat(withSh, 0, cam)!;
    const o = (Math.floor(p.v) * 64 + Math.floor(p.u)) * 4;
    // Along the axis d = (0, 0, −1): x = 0, so the band adds nothing; the eye → splat direction (x = 2 / 50) would darken it by 0.02.
    const expected = new Float64Array(3);
    evalSplatColor(withSh, 0, [0, 0, -1], expected);
    expect(expected[0]).toBeCloseTo(0.5, 9);
    expect(img[o] / img[o + 3]).toBeCloseTo(0.5, 4);
  });
});

describe('evalSplatColor', () => {
  it('gives SH_C0·dc + 0.5 at degree 0, clamped at zero', () => {
    const c = isotropicSplat([0, 1, 0], 1, 1, [0.25, 0.5, -0.3]);
    const out = evalSplatColor(c, 0, [0, 1, 0], new Float64Array(3));
    // dc is stored as f32: 7 decimals.
    expect(out[0]).toBeCloseTo(0.25, 7);
    expect(out[1]).toBeCloseTo(0.5, 7);
    expect(out[2]).toBe(0);
  });

  it('adds the degree-1 band as −C1·y·k1 + C1·z·k2 − C1·x·k3', () => {
    const c = allocateSplatCloud(1, 1);
    c.shRest.set([0.1, 0.2, 0.3, 0, 0, 0, 0, 0, 0]); // k1 = (0.1, 0.2, 0.3)
    const out = evalSplatColor(c, 0, [0, 1, 0], new Float64Array(3));
    expect(out[0]).toBeCloseTo(0.5 - 0.4886025119029199 * 0.1, 7);
    expect(out[2]).toBeCloseTo(0.5 - 0.4886025119029199 * 0.3, 7);
  });
});

describe('renderSplatsReference', () => {
  it('gives colour × min(0.99, o·exp(−½dᵀconic d)) at the pixel nearest the centre', () => {
    const cloud = isotropicSplat([0, 5, 0], 0.1, 0.7, [0.2, 0.6, 1.0]);
    const img = renderSplatsReference(cloud, camera);
    const p = projectSplat(cloud, 0, cameraModel(camera))!;
    const dx = 32.5 - p.u;
    const dy = 24.5 - p.v;
    const alpha = 0.7 * Math.exp(-0.5 * (p.conic[0] * dx * dx + p.conic[2] * dy * dy));
    const o = (24 * 64 + 32) * 4;
    expect(img[o]).toBeCloseTo(0.2 * alpha, 6);
    expect(img[o + 1]).toBeCloseTo(0.6 * alpha, 6);
    expect(img[o + 3]).toBeCloseTo(alpha, 6);
    expect(img[0]).toBe(0); // far corner untouched
  });

  it('composites a near splat over a far one (order, not file order, decides)', () => {
    const cloud = allocateSplatCloud(2, 0);
    const set = (i: number, y: number, rgb: number[]) => {
      cloud.positions.set([0, y, 0], i * 3);
      cloud.scales.set([0.3, 0.3, 0.3], i * 3);
      cloud.rotations.set([1, 0, 0, 0], i * 4);
      cloud.opacities[i] = 0.99;
      cloud.shDc.set(rgb.map((v) => (v - 0.5) / SH_C0), i * 3);
    };
    set(0, 3, [1, 0, 0]); // near, red
    set(1, 8, [0, 0, 1]); // far, blue
    const img = renderSplatsReference(cloud, camera);
    const o = (24 * 64 + 32) * 4;
    expect(img[o]).toBeGreaterThan(0.9);
    expect(img[o + 2]).toBeLessThan(0.05);
  });

  it('hides splats behind opaque depth', () => {
    const cloud = isotropicSplat([0, 5, 0], 0.3, 0.9, [1, 1, 1]);
    const limit = new Float32Array(64 * 48).fill(4); // opaque wall 4 m away
    const img = renderSplatsReference(cloud, camera, limit);
    expect(img.every((v) => v === 0)).toBe(true);
  });
});

describe('psnr', () => {
  it('is 10·log10(1/MSE) over RGB', () => {
    const a = new Float32Array([0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1]);
    const b = new Float32Array([0.6, 0.5, 0.5, 0, 0.5, 0.5, 0.5, 0]);
    // f32 pixel values: 0.6 − 0.5 ≠ 0.1 exactly, so 4 decimals.
    expect(psnr(a, b)).toBeCloseTo(10 * Math.log10(6 / 0.01), 4);
    expect(psnr(a, a)).toBe(Infinity);
  });
});

describe('depth sort keys', () => {
  it('widen with the splat count in whole 4-bit digits, 12 to 16 bits', () => {
    expect([100, 4721, 90_854, 1_000_000, 2_500_000, 5_000_000, 1e9].map(depthKeyBits)).toEqual([12, 12, 12, 16, 16, 16, 16]);
  });

  it('sample every frame splat into the depth histogram up to 2^18, then at most 2^18 of them', () => {
    expect([1, 4721, 2 ** 18 - 1, 2 ** 18, 2 ** 19, 4_640_000].map(depthSampleMask)).toEqual([0, 0, 0, 1, 3, 31]);
    for (const n of [2 ** 18, 3e6, 1e8]) expect(n / (depthSampleMask(n) + 1)).toBeLessThanOrEqual(2 ** 18);
  });

  it('spread their levels by the depth distribution: a crowded stretch of the range gets most of them, order never inverts', () => {
    // 98 % of the depths in 430–750 m of a 325–1,650 m range (Semarang's bench:peers view).
    const depths: number[] = [];
    for (let i = 0; i < 4900; i++) depths.push(430 + (320 * i) / 4900);
    for (let i = 0; i < 50; i++) depths.push(325 + (105 * i) / 50, 750 + (900 * i) / 49);
    const [lo, hi] = [325, 1650];
    const counts = new Uint32Array(DEPTH_BINS);
    for (const d of depths) counts[depthBin(d)]++;
    const cdf = depthBinCdf(counts, lo, hi);
    const bits = 16;
    const levels = (a: number, b: number, c?: Float32Array) => depthSortKey(a, lo, hi, bits, c) - depthSortKey(b, lo, hi, bits, c);
    // Linear levels give the crowded 320 m a quarter of the keys; weighted, over three quarters.
    expect(levels(430, 750) / (2 ** bits - 2)).toBeCloseTo(320 / 1325, 2);
    expect(levels(430, 750, cdf) / (2 ** bits - 2)).toBeGreaterThan(0.75);
    // The sparse far stretch keeps at least the linear share of its linear levels.
    expect(levels(800, 1600, cdf)).toBeGreaterThanOrEqual(DEPTH_LINEAR_SHARE * levels(800, 1600) - 1);
    // Non-increasing keys with depth, the end points near the extreme keys (a bin's linear
    // interpolation leaves a few levels unused past the nearest and farthest depths).
    const sorted = [...depths].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(depthSortKey(sorted[i], lo, hi, bits, cdf)).toBeLessThanOrEqual(depthSortKey(sorted[i - 1], lo, hi, bits, cdf));
    expect(depthSortKey(hi, lo, hi, bits, cdf)).toBeLessThan(2 ** 8);
    expect(depthSortKey(lo, lo, hi, bits, cdf)).toBeGreaterThan(2 ** bits - 2 - 2 ** 8);
  });

  it('share the bins evenly when nothing was sampled', () => {
    const cdf = depthBinCdf(new Uint32Array(DEPTH_BINS), 1, 4);
    const [b0, b1] = [depthBin(1), depthBin(4)];
    expect(b1 - b0).toBe(64); // two octaves, 32 bins each
    expect(cdf[b0]).toBe(0);
    expect(cdf[b0 + 32]).toBeCloseTo(32 / 65, 6);
    expect(cdf[b1 + 1]).toBe(1);
  });

  it('quantise over the visible depth range, reversed: the farthest splat gets 0, the nearest the largest visible key', () => {
    const bits = 12;
    expect(depthSortKey(500.02, 500, 500.02, bits)).toBe(0);
    expect(depthSortKey(500, 500, 500.02, bits)).toBe(2 ** bits - 2);
    // 1 cm apart at 500 m still get different keys (the range is 2 cm, not near..far).
    expect(depthSortKey(500.01, 500, 500.02, bits)).not.toBe(depthSortKey(500, 500, 500.02, bits));
    // One visible depth: no division by zero, every key the same.
    expect(depthSortKey(7, 7, 7, bits)).toBe(2 ** bits - 2);
  });
});
