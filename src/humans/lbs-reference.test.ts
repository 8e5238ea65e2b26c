import { describe, expect, it } from 'vitest';
import { SMPL_PARENTS, type BodyModel } from './body-model';
import { createProceduralBody } from './procedural-body';
import { forwardKinematics, poseFeature, rodrigues, skinBody } from './lbs-reference';

describe('rodrigues (SMPL eq. 1)', () => {
  it('rotates 90° about z: x → y; is orthonormal for a random axis', () => {
    const r = rodrigues([0, 0, Math.PI / 2]);
    expect([r[0], r[3], r[6]].map((x) => +x.toFixed(12))).toEqual([0, 1, 0]);
    const q = rodrigues([0.3, -1.1, 0.7]);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const d = q[3 * i] * q[3 * j] + q[3 * i + 1] * q[3 * j + 1] + q[3 * i + 2] * q[3 * j + 2];
        expect(d).toBeCloseTo(i === j ? 1 : 0, 12);
      }
    }
  });
});

describe('forwardKinematics and skinBody (SMPL eqs. 2–4)', () => {
  const body = createProceduralBody();
  // Skin weights are f32 and sum to 1 within ~6e-8, hence 1e-6 m rather than float64 round-off.
  it('zero pose and zero β give the template and the rest joints', () => {
    const posed = skinBody(body, [], new Float64Array(72));
    for (let i = 0; i < posed.positions.length; i++) expect(Math.abs(posed.positions[i] - body.template[i])).toBeLessThan(1e-6);
    for (let i = 0; i < 72; i++) expect(Math.abs(posed.joints[i] - body.jointTemplate[i])).toBeLessThan(1e-12);
    expect(poseFeature(new Float64Array(72), 24).every((x) => x === 0)).toBe(true);
  });
  it('a translation moves everything by it', () => {
    const posed = skinBody(body, [], new Float64Array(72), [1, -2, 0.5]);
    expect(posed.positions[0] - body.template[0]).toBeCloseTo(1, 6);
    expect(posed.positions[1] - body.template[1]).toBeCloseTo(-2, 6);
    expect(posed.positions[2] - body.template[2]).toBeCloseTo(0.5, 6);
  });
  it('a 90° left-elbow rotation about z swings the hand from +y to −x around the elbow', () => {
    const pose = new Float64Array(72);
    pose[3 * 18 + 2] = Math.PI / 2; // left elbow, axis z (up)
    const { world } = forwardKinematics(SMPL_PARENTS, body.jointTemplate, pose);
    const elbow = [0, 1, 2].map((i) => body.jointTemplate[3 * 18 + i]);
    const hand = [0, 1, 2].map((i) => world[12 * 22 + 4 * i + 3]);
    const forearm = body.jointTemplate[3 * 22 + 1] - elbow[1]; // length along +y at rest
    expect(hand[0]).toBeCloseTo(elbow[0] - forearm, 12);
    expect(hand[1]).toBeCloseTo(elbow[1], 12);
    expect(hand[2]).toBeCloseTo(elbow[2], 12);
  });
  it('a vertex bound only to the elbow follows it exactly; pose blend shapes add R − I weighted offsets', () => {
    // One-vertex model on a 3-joint chain, with one pose blend shape direction per feature.
    const model: BodyModel = {
      name: 'chain', source: 'procedural', vertexCount: 1, jointCount: 3, parents: Int32Array.of(-1, 0, 1),
      jointNames: ['a', 'b', 'c'], template: Float32Array.of(0, 2, 0), faces: new Uint32Array(0),
      jointTemplate: Float32Array.of(0, 0, 0, 0, 1, 0, 0, 2, 0), skinIndices: Uint32Array.of(1, 0, 0, 0),
      skinWeights: Float32Array.of(1, 0, 0, 0), shapeCount: 0, shapeNames: [], shapeDirs: new Float32Array(0),
      jointShapeDirs: new Float32Array(0), poseDirs: new Float32Array(18 * 3), sourceToBody: new Float64Array(16),
    };
    model.poseDirs![0 * 3 + 2] = 0.5; // feature 0 = (R_1 − I)[0][0] moves the vertex along z
    const pose = new Float64Array(9);
    pose[3 + 2] = Math.PI / 2; // joint 1 about z: (0, 1) offset → (−1, 0)
    const p = skinBody(model, [], pose).positions;
    // R_1[0][0] − 1 = −1 → z offset −0.5 at rest, then rotated about z (z unchanged).
    expect([p[0], p[1], p[2]].map((x) => +x.toFixed(12))).toEqual([-1, 1, -0.5]);
  });
});
