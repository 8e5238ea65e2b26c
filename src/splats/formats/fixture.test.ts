/**
 * The MetalSplatter 3-splat fixture (same Gaussians as .ply, .splat and .spz) must load to the same
 * cloud in every format, within each format's quantisation.
 */
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { SH_C0 } from '../splat-cloud';
import { loadSplatFile } from './index';
import { expectCloudsClose, expectSaneCloud } from './test-utils';

const BASE = 'splats/fixtures/test-splat.3-points-from-train';
const load = (ext: string) => loadSplatFile(`test-splat.3-points-from-train.${ext}`, readSharedData(`${BASE}.${ext}`));

describe('3-splat fixture in .ply, .splat and .spz', () => {
  const ply = load('ply');
  const splat = load('splat');
  const spz = load('spz');

  it('loads all three with the right counts and SH degrees', () => {
    expect([ply.count, splat.count, spz.count]).toEqual([3, 3, 3]);
    expect([ply.shDegree, splat.shDegree, spz.shDegree]).toEqual([3, 0, 3]);
    for (const c of [ply, splat, spz]) expectSaneCloud(c);
  });

  it('matches the documented first .splat record', () => {
    [2.0079, 0.0810, 1.3285].forEach((v, i) => expect(splat.positions[i]).toBeCloseTo(v, 4));
    [0.02052, 0.00349, 0.00849].forEach((v, i) => expect(splat.scales[i]).toBeCloseTo(v, 5));
    [208, 182, 132].forEach((v, i) => expect((SH_C0 * splat.shDc[i] + 0.5) * 255).toBeCloseTo(v, 3));
    expect(splat.opacities[0] * 255).toBeCloseTo(179, 3);
  });

  it('.splat agrees with .ply (positions exact f32, 8-bit colour/opacity/rotation)', () => {
    expect(Array.from(splat.positions)).toEqual(Array.from(ply.positions));
    expectCloudsClose(ply, splat, {
      position: 0,
      scaleLog: 1e-6,
      opacity: 1 / 255,
      dc: 1 / 255 / SH_C0, // one colour step
      rotation: 1 / 128 + 0.005, // one 8-bit step, plus renormalisation
    });
  });

  it('.spz agrees with .ply (after RUB → RDF) within SPZ quantisation', () => {
    expectCloudsClose(ply, spz, {
      position: 1 / 2 ** 12, // 12 fractional bits
      scaleLog: 1 / 32 + 1e-6, // log-scale in 1/16 steps
      opacity: 1 / 255,
      dc: 1 / 255 / 0.15, // colour byte step with SPZ's colorScale 0.15
      rotation: 0.002, // smallest-three: 9-bit magnitudes over [0, √½]
    });
  });

  it('.spz SH rest agrees with .ply within the SPZ bucket quantisation', () => {
    // Niantic's packer rounds SH to x·128+128 and then to buckets of 2^(8−bits): sh1Bits = 5 for
    // band 1 (bucket 8) and shRestBits = 4 for bands 2–3 (bucket 16), so the error is half a
    // bucket plus half a step: 4.5/128 and 8.5/128. The fixture's bytes show exactly that bucketing.
    const k = 15;
    let nonZero = 0;
    for (let i = 0; i < 3; i++) {
      for (let c = 0; c < k; c++) {
        const bucket = c < 3 ? 8 : 16;
        for (let ch = 0; ch < 3; ch++) {
          const idx = (i * k + c) * 3 + ch;
          const q = spz.shRest[idx] * 128;
          expect(Math.abs(q - Math.round(q / bucket) * bucket), `bucketing ${idx}`).toBeLessThan(1e-4);
          if (q !== 0) nonZero++;
          expect(Math.abs(spz.shRest[idx] - ply.shRest[idx]), `shRest splat ${i} coeff ${c} ch ${ch}`)
            .toBeLessThanOrEqual((bucket / 2 + 0.5) / 128 + 1e-6);
        }
      }
    }
    // Enough non-zero values that a missing axis flip (sign error ≥ 0.125 − ply) would be caught.
    expect(nonZero).toBeGreaterThanOrEqual(10);
  });
});
