import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../test/shared-data';
import { bounds, validateBodyModel } from './body-model';
import { loadGltfCharacter } from './gltf-body';
import { skinBody } from './lbs-reference';

const MODELS: [string, number, number][] = [
  // file, joints, vertices (the data README's figures)
  ['SimpleSkin.glb', 2, 10],
  ['RiggedSimple.glb', 2, -1],
  ['RiggedFigure.glb', 19, 370],
  ['CesiumMan.glb', 19, 3273],
  ['Fox.glb', 24, 1728],
];

describe('loadGltfCharacter (Khronos sample models)', () => {
  for (const [file, joints, vertices] of MODELS) {
    it(`${file}: ${joints} joints, valid, with clips`, async () => {
      const c = await loadGltfCharacter(readSharedData(`gltf/${file}`), file);
      validateBodyModel(c.model);
      expect(c.model.jointCount).toBe(joints);
      if (vertices > 0) expect(c.model.vertexCount).toBe(vertices);
      expect(c.clips.length).toBeGreaterThan(0);
      expect(c.clips[0].duration).toBeGreaterThan(0);
      expect(bounds(c.model.template)[2]).toBeCloseTo(0, 6);
    });
  }
  it('the .gltf (embedded) and .glb of SimpleSkin load the same', async () => {
    const a = await loadGltfCharacter(readSharedData('gltf/SimpleSkin.gltf'), 'SimpleSkin.gltf');
    const b = await loadGltfCharacter(readSharedData('gltf/SimpleSkin.glb'), 'SimpleSkin.glb');
    expect(Array.from(a.model.template)).toEqual(Array.from(b.model.template));
  });
  it('CesiumMan stands upright in the body frame (about 1.5 m tall along z, facing +x)', async () => {
    const c = await loadGltfCharacter(readSharedData('gltf/CesiumMan.glb'), 'CesiumMan.glb');
    const b = bounds(c.model.template);
    expect(b[5] - b[2]).toBeGreaterThan(1.3);
    expect(b[5] - b[2]).toBeGreaterThan(2 * (b[3] - b[0]));
  });
  // Exact (1e-4 m) where clips animate rotations only; CesiumMan's clip also animates every joint's
  // translation and scale, which the SMPL form (fixed bone offsets) cannot represent: within 1 cm.
  for (const [file, tolerance] of [['RiggedFigure.glb', 1e-4], ['RiggedSimple.glb', 1e-4], ['SimpleSkin.glb', 1e-4], ['CesiumMan.glb', 0.01]] as const) {
    it(`${file}: SMPL-form poses from the clip reproduce glTF skinning (§3.7.3) within ${tolerance} m`, async () => {
      const c = await loadGltfCharacter(readSharedData(`gltf/${file}`), file);
      let maxErr = 0;
      for (const f of [0.13, 0.37, 0.71]) {
        const time = f * c.clips[0].duration;
        const { pose, trans } = c.samplePose(0, time);
        const ours = skinBody(c.model, [], pose, trans).positions;
        const want = c.skinWithGltfFormula(0, time);
        for (let i = 0; i < want.length; i++) maxErr = Math.max(maxErr, Math.abs(ours[i] - want[i]));
      }
      expect(maxErr).toBeLessThan(tolerance);
    });
  }
  it('rejects a file without a skinned mesh', async () => {
    await expect(loadGltfCharacter(new TextEncoder().encode('{"asset":{"version":"2.0"}}'), 'empty.gltf')).rejects.toThrow(/empty\.gltf: no node/);
  });
});
