import { describe, expect, it } from 'vitest';
import { SMPL_PARENTS, bounds, validateBodyModel } from './body-model';
import { createProceduralBody } from './procedural-body';
import { shapeBlend, skinBody, vertexNormals } from './lbs-reference';

describe('createProceduralBody', () => {
  const body = createProceduralBody();
  it('is a valid 24-joint SMPL-tree body of a few thousand vertices, standing on z = 0', () => {
    validateBodyModel(body);
    expect(Array.from(body.parents)).toEqual(SMPL_PARENTS);
    expect(body.vertexCount).toBeGreaterThan(1000);
    expect(body.vertexCount).toBeLessThan(4000);
    const b = bounds(body.template);
    expect(b[2]).toBeCloseTo(0, 1);
    expect(b[5] - b[2]).toBeGreaterThan(1.6);
    expect(b[5] - b[2]).toBeLessThan(1.9);
  });
  it('has outward normals (closed tubes wound counter-clockwise)', () => {
    const n = vertexNormals(body.template, body.faces);
    // Head top vertex: the highest one; its normal points up.
    let top = 0;
    for (let v = 0; v < body.vertexCount; v++) if (body.template[3 * v + 2] > body.template[3 * top + 2]) top = v;
    expect(n[3 * top + 2]).toBeGreaterThan(0.9);
  });
  it('height and legLength shape components make the body taller', () => {
    const h = (betas: number[]) => { const b = bounds(shapeBlend(body, betas).vertices); return b[5] - b[2]; };
    expect(h([1])).toBeGreaterThan(h([0]) + 0.15);
    expect(h([0, 0, 0, 1])).toBeCloseTo(h([0]) + 0.08, 2);
  });
  it('skins: a 90° left-shoulder rotation about x lifts the left hand', () => {
    const pose = new Float64Array(72);
    pose[3 * 16] = Math.PI / 2;
    const posed = skinBody(body, [], pose);
    const hand = 22;
    expect(posed.joints[3 * hand + 2]).toBeGreaterThan(body.jointTemplate[3 * hand + 2] + 0.5);
  });
});
