import { describe, expect, it } from 'vitest';
import { SMPL_PARENTS, Y_UP_TO_BODY, bounds, validateBodyModel } from './body-model';
import { skinBody } from './lbs-reference';
import { loadSmplNpz } from './smpl-npz';
import { writeSyntheticSmplNpz, type SyntheticSmplOptions } from './synthetic-smpl';
import { createRng } from '../core/random';

describe('loadSmplNpz (synthetic file in SMPL layout)', () => {
  const bytes = writeSyntheticSmplNpz({ vertexCount: 200, shapeCount: 10, seed: 7 });
  it('round-trips shapes, parents and the body frame', () => {
    const m = loadSmplNpz(bytes, 'synthetic.npz');
    validateBodyModel(m);
    expect(m.vertexCount).toBe(200);
    expect(m.shapeCount).toBe(10);
    expect(m.poseDirs?.length).toBe(207 * 200 * 3);
    expect(Array.from(m.parents)).toEqual(SMPL_PARENTS);
    const b = bounds(m.template);
    expect(b[2]).toBeCloseTo(0, 6); // feet on the ground
    expect(b[5]).toBeGreaterThan(1.4); // z is up
    expect(m.jointTemplate[0]).toBeCloseTo(0, 6); // pelvis above the origin
    expect(m.jointTemplate[1]).toBeCloseTo(0, 6);
    expect(m.jointTemplate[3 * 1 + 1]).toBeGreaterThan(0); // left hip on +y
  });
  it('maxShapes keeps the first components', () => {
    expect(loadSmplNpz(bytes, 's.npz', { maxShapes: 4 }).shapeCount).toBe(4);
  });
  it('the Y-up → Z-up conversion is exact for LBS with pose blend shapes: M\'(β, Cθ) = C M(β, θ) + t', () => {
    const src = loadSmplNpz(bytes, 'synthetic.npz', { keepSourceFrame: true });
    const body = loadSmplNpz(bytes, 'synthetic.npz');
    const rng = createRng(3);
    const pose = Float64Array.from({ length: 72 }, () => rng.range(-0.6, 0.6));
    const betas = Array.from({ length: 10 }, () => rng.range(-2, 2));
    const C = Y_UP_TO_BODY;
    const poseBody = new Float64Array(72);
    for (let k = 0; k < 24; k++) {
      for (let i = 0; i < 3; i++) poseBody[3 * k + i] = C[3 * i] * pose[3 * k] + C[3 * i + 1] * pose[3 * k + 1] + C[3 * i + 2] * pose[3 * k + 2];
    }
    const a = skinBody(src, betas, pose).positions;
    const b = skinBody(body, betas, poseBody).positions;
    const t = [body.sourceToBody[12], body.sourceToBody[13], body.sourceToBody[14]];
    let maxErr = 0;
    for (let v = 0; v < 200; v++) {
      for (let i = 0; i < 3; i++) {
        const want = C[3 * i] * a[3 * v] + C[3 * i + 1] * a[3 * v + 1] + C[3 * i + 2] * a[3 * v + 2] + t[i];
        maxErr = Math.max(maxErr, Math.abs(want - b[3 * v + i]));
      }
    }
    expect(maxErr).toBeLessThan(1e-5);
  });
  it('rejects wrong shapes and missing keys with an error naming the key', () => {
    const bad = (override: SyntheticSmplOptions['override']) =>
      () => loadSmplNpz(writeSyntheticSmplNpz({ vertexCount: 50, override }), 'bad.npz');
    expect(bad({ shapedirs: [new Float64Array(50 * 3), [50, 3]] })).toThrow(/bad\.npz: shapedirs: shape \[50,3\]/);
    expect(bad({ posedirs: [new Float64Array(50 * 3 * 10), [50, 3, 10]] })).toThrow(/posedirs/);
    expect(bad({ J_regressor: [new Float64Array(24 * 49), [24, 49]] })).toThrow(/J_regressor/);
    expect(bad({ weights: [new Float64Array(50 * 23), [50, 23]] })).toThrow(/weights/);
    expect(bad({ v_template: null })).toThrow(/v_template: missing/);
    expect(bad({ f: [Uint32Array.of(0, 1, 99), [1, 3]] })).toThrow(/f: vertex index 99/);
    expect(() => loadSmplNpz(new Uint8Array([1, 2, 3]), 'junk.npz')).toThrow(/junk\.npz/);
  });
});
