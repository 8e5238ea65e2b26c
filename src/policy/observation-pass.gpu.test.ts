/**
 * The observation pass on real WebGPU against its TypeScript reference: resize/normalise of frames
 * of several sizes (stretch and centre crop), the ring of past frames and the chronological
 * context assembly over several steps, with one environment reset mid-way.
 */
import { expectWgslLayout } from '../gpu/wgsl-layout-check';
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import observationWgsl from '../../shaders/policy/observation.wgsl?raw';
import { OBSERVATION_PARAMS_LAYOUT, ObservationPass } from './observation-pass';
import { ObservationRingReference, type ObservationConfig } from './observation-reference';
import { makeTestImage, readFloats, uploadRgba16f } from './test-frames';

/**
 * Tolerance of GPU vs reference, absolute, after normalisation. The reference rounds every f32
 * step in the kernel's order; the GPU may contract a·b + c into one FMA (WGSL §15.7.4 allows it)
 * and compute `floor` and division to its own accuracy (division: 2.5 ulp, WGSL §15.7.4.1). The
 * sample coordinate u ≈ maxSrcDim then differs by up to ~2 ulp(maxSrcDim) = 2^-22·maxSrcDim per
 * axis; the bilinear weight moves by as much and the value by that times the texel step (≤ 1, the
 * texels being clamped to [0, 1]); the three lerps add ≤ 6 ulp(1); normalising divides by std and
 * adds 3 ulp of the result (|x| ≤ 1/minStd).
 */
function tolerance(maxSrcDim: number, minStd: number): number {
  const coord = 2 * 2 ** -22 * maxSrcDim;
  const blend = 6 * 2 ** -24;
  return (coord + blend) / minStd + 3 * 2 ** -23 * (1 / minStd);
}

function expectClose(what: string, got: Float32Array, want: Float32Array, tol: number): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  let worst = -1;
  let worstErr = 0;
  for (let i = 0; i < got.length; i++) {
    const e = Math.abs(got[i] - want[i]);
    if (!(e <= worstErr)) {
      worstErr = e;
      worst = i;
    }
  }
  const msg = worstErr <= tol ? 'within tolerance' : `worst at index ${worst}: got ${got[worst]}, expected ${want[worst]} (|err| ${worstErr} > ${tol})`;
  expect(msg, what).toBe('within tolerance');
}

describe('ObservationPass', () => {
  it('ObservationParams matches OBSERVATION_PARAMS_LAYOUT', () => expectWgslLayout(observationWgsl, 'ObservationParams', OBSERVATION_PARAMS_LAYOUT));

  const cases: { name: string; config: ObservationConfig; sizes: [number, number][] }[] = [
    {
      name: 'T = 3, stride 2, stretch, normalised (ImageNet)',
      config: { width: 27, height: 18, crop: 'none', mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], normalize: true, frames: 3, stride: 2 },
      sizes: [[67, 45], [40, 40]],
    },
    {
      name: 'T = 1, centre crop, not normalised (graph applies it)',
      config: { width: 16, height: 12, crop: 'center', mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5], normalize: false, frames: 1, stride: 1 },
      sizes: [[50, 20], [13, 31], [8, 6]],
    },
  ];

  for (const { name, config, sizes } of cases) {
    it(`equals the CPU reference: ${name}`, () =>
      withDevice(async (device) => {
        const batch = sizes.length;
        const pass = await ObservationPass.create(device, config, batch, 'test.ObservationPass');
        const ref = new ObservationRingReference(config, batch);
        const tol = tolerance(Math.max(...sizes.flat()), config.normalize ? Math.min(...config.std) : 1);
        const count = batch * config.frames * 3 * config.width * config.height;
        try {
          for (let step = 0; step < 5; step++) {
            if (step === 3) {
              pass.reset([0]);
              ref.reset([0]);
            }
            const images = sizes.map(([w, h], b) => makeTestImage(w, h, 1000 * step + b));
            const textures = images.map((img, b) => uploadRgba16f(device, img, `test.frame${b}`));
            const encoder = device.createCommandEncoder({ label: 'test.observation' });
            pass.encode(encoder, textures);
            device.queue.submit([encoder.finish()]);
            const got = await readFloats(device, pass.input, count);
            expectClose(`step ${step}`, got, ref.push(images), tol);
            for (const t of textures) t.destroy();
          }
        } finally {
          pass.destroy();
        }
      }));
  }

  it('refuses a wrong frame count', () =>
    withDevice(async (device) => {
      const config: ObservationConfig = { width: 8, height: 8, crop: 'none', mean: [0, 0, 0], std: [1, 1, 1], normalize: false, frames: 1, stride: 1 };
      const pass = await ObservationPass.create(device, config, 2);
      try {
        expect(() => pass.encode(device.createCommandEncoder(), [])).toThrow(/0 frames for batch 2/);
      } finally {
        pass.destroy();
      }
    }));
});
