import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'fflate';
import { readSharedData } from '../../test/shared-data';
import { SMPL_PARENTS, bounds, validateBodyModel, type BodyModel } from './body-model';
import { MAKEHUMAN_BONE_TO_SMPL, loadMakeHuman, parseTarget } from './makehuman';
import { makeHumanBetas } from './makehuman-macros';
import { shapeBlend, skinBody, vertexNormals } from './lbs-reference';

const read = (rel: string) => readSharedData(`humans/makehuman/${rel}`);
const height = (m: BodyModel, betas: ArrayLike<number>) => {
  const b = bounds(shapeBlend(m, betas).vertices);
  return b[5] - b[2];
};

describe('loadMakeHuman (real CC0 data)', async () => {
  const model = await loadMakeHuman(read);
  it('has the 13,380 body vertices, triangles, 24 SMPL joints, a 1.6–1.8 m Z-up body on the ground', () => {
    validateBodyModel(model);
    expect(model.vertexCount).toBe(13380);
    expect(model.faces.length / 3).toBe(13378 * 2);
    expect(Array.from(model.parents)).toEqual(SMPL_PARENTS);
    const b = bounds(model.template);
    expect(b[5] - b[2]).toBeGreaterThan(1.6);
    expect(b[5] - b[2]).toBeLessThan(1.8);
    expect(b[2]).toBeCloseTo(0, 6);
    // Head above pelvis above knees above ankles (z up); left hip on +y; toes forward (+x) of ankles.
    const z = (k: number) => model.jointTemplate[3 * k + 2];
    expect(z(15)).toBeGreaterThan(z(12));
    expect(z(0)).toBeGreaterThan(z(4));
    expect(z(4)).toBeGreaterThan(z(7));
    expect(model.jointTemplate[3 * 1 + 1]).toBeGreaterThan(0.05);
    expect(model.jointTemplate[3 * 10]).toBeGreaterThan(model.jointTemplate[3 * 7] + 0.05);
  });
  it('weights sum to 1 and the bone mapping covers all 24 joints', () => {
    const used = new Set<number>();
    for (let v = 0; v < model.vertexCount; v++) {
      const s = model.skinWeights.subarray(4 * v, 4 * v + 4).reduce((a, b) => a + b, 0);
      expect(Math.abs(s - 1)).toBeLessThan(1e-6);
      for (let i = 0; i < 4; i++) if (model.skinWeights[4 * v + i] > 0) used.add(model.skinIndices[4 * v + i]);
    }
    expect(new Set(Object.values(MAKEHUMAN_BONE_TO_SMPL)).size).toBe(24);
    expect(used.size).toBe(24);
  });
  it('faces wind outward (top of the head has an upward normal)', () => {
    const n = vertexNormals(model.template, model.faces);
    let top = 0;
    for (let v = 0; v < model.vertexCount; v++) if (model.template[3 * v + 2] > model.template[3 * top + 2]) top = v;
    expect(n[3 * top + 2]).toBeGreaterThan(0.8);
  });
  it('macro targets: 232 non-empty components; height and gender sliders act as expected', () => {
    expect(model.shapeCount).toBe(232);
    const base = height(model, makeHumanBetas(model.shapeNames));
    expect(base).toBeGreaterThan(1.55);
    expect(base).toBeLessThan(1.85);
    expect(height(model, makeHumanBetas(model.shapeNames, { height: 1 }))).toBeGreaterThan(base + 0.05);
    expect(height(model, makeHumanBetas(model.shapeNames, { height: 0 }))).toBeLessThan(base - 0.05);
    const male = height(model, makeHumanBetas(model.shapeNames, { gender: 1 }));
    const female = height(model, makeHumanBetas(model.shapeNames, { gender: 0 }));
    expect(male).toBeGreaterThan(female);
    const child = height(model, makeHumanBetas(model.shapeNames, { age: 0.1 }));
    expect(child).toBeLessThan(base - 0.3);
  });
  it('joints follow the shape: a tall body has its head joint higher', () => {
    const tall = shapeBlend(model, makeHumanBetas(model.shapeNames, { height: 1 }));
    const base = shapeBlend(model, makeHumanBetas(model.shapeNames));
    expect(tall.joints[3 * 15 + 2]).toBeGreaterThan(base.joints[3 * 15 + 2] + 0.03);
  });
  it('poses: bending the left knee 90° moves the left ankle backward', () => {
    const pose = new Float64Array(72);
    pose[3 * 4 + 1] = Math.PI / 2; // about +y (left): the shin swings back (−x)
    const posed = skinBody(model, [], pose);
    const ankleRest = model.jointTemplate.slice(21, 24);
    expect(posed.joints[21]).toBeLessThan(ankleRest[0] - 0.3);
  });
});

describe('parseTarget', () => {
  it('reads `index dx dy dz` lines and rejects malformed ones', () => {
    const t = parseTarget(gunzipSync(read('targets/macrodetails/universal-female-young-maxmuscle-maxweight.target.gz')), 19158, 't');
    expect(t).toBeDefined();
    expect(t![749 * 3 + 2]).toBeCloseTo(-0.002, 9);
    expect(parseTarget(new TextEncoder().encode(''), 10, 'e')).toBeUndefined();
    expect(() => parseTarget(new TextEncoder().encode('3 1 2'), 10, 'bad.target')).toThrow(/bad\.target:1/);
    expect(() => parseTarget(new TextEncoder().encode('12 1 2 3'), 10, 'bad.target')).toThrow(/index < 10/);
  });
});
