import { describe, expect, it } from 'vitest';
import { gestureArm, hangingArm, restCorrectedArm } from './arms';
import { quatMul, quatRotate } from './rotation';
import { JOINT, defaultSkeleton, jointAt, proceduralSkeleton } from './skeleton';

const sub = (a: readonly number[], b: readonly number[]) => a.map((x, i) => x - b[i]);
const unit = (v: readonly number[]) => v.map((x) => x / Math.hypot(...v));

describe('restCorrectedArm', () => {
  it('points an A-pose (MakeHuman) arm where the T-pose pose points a T-pose arm', () => {
    const s = defaultSkeleton();
    for (const side of [1, -1] as const) {
      const [sh, el, wr] = side > 0 ? [JOINT.leftShoulder, JOINT.leftElbow, JOINT.leftWrist] : [JOINT.rightShoulder, JOINT.rightElbow, JOINT.rightWrist];
      const restUpper = sub(jointAt(s, el), jointAt(s, sh)), restFore = sub(jointAt(s, wr), jointAt(s, el));
      expect(Math.abs(unit(restUpper)[2])).toBeGreaterThan(0.4); // the A-pose arm points well below horizontal
      for (const pose of [hangingArm(side, 0.3, 0.4), gestureArm('wave', -1, 0.2, 0) ?? hangingArm(side, -0.2, 0.1)]) {
        const c = restCorrectedArm(side, pose, restUpper, restFore);
        const y = [0, side, 0];
        const want = [quatRotate(pose.shoulder, y), quatRotate(quatMul(pose.shoulder, pose.elbow), y)];
        const got = [quatRotate(c.shoulder, unit(restUpper)), quatRotate(quatMul(c.shoulder, c.elbow), unit(restFore))];
        for (let b = 0; b < 2; b++) for (let k = 0; k < 3; k++) expect(got[b][k]).toBeCloseTo(want[b][k], 9);
      }
    }
  });

  it('leaves a T-pose (procedural) arm unchanged', () => {
    const s = proceduralSkeleton();
    const pose = hangingArm(1, 0.3, 0.4);
    const c = restCorrectedArm(1, pose, sub(jointAt(s, JOINT.leftElbow), jointAt(s, JOINT.leftShoulder)), sub(jointAt(s, JOINT.leftWrist), jointAt(s, JOINT.leftElbow)));
    expect(c).toBe(pose);
  });
});
