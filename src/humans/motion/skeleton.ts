/**
 * The rest skeleton that motion is computed for: SMPL's 24-joint tree with rest joint positions in
 * the body frame (x forward, y left, z up, metres, feet on z = 0), taken from a {@link BodyModel}
 * (optionally after shape blending, `shapeBlend(model, β).joints`).
 */
import { SMPL_JOINT_COUNT, SMPL_PARENTS, type BodyModel } from '../body-model';
import { makeHumanBody } from '../makehuman-set';
import { createProceduralBody } from '../procedural-body';

/** SMPL joint ids used by motion code (see `SMPL_JOINT_NAMES`). */
export const JOINT = {
  pelvis: 0, leftHip: 1, rightHip: 2, spine1: 3, leftKnee: 4, rightKnee: 5, spine2: 6, leftAnkle: 7,
  rightAnkle: 8, spine3: 9, leftFoot: 10, rightFoot: 11, neck: 12, leftCollar: 13, rightCollar: 14,
  head: 15, leftShoulder: 16, rightShoulder: 17, leftElbow: 18, rightElbow: 19, leftWrist: 20,
  rightWrist: 21, leftHand: 22, rightHand: 23,
} as const;

/** A 24-joint SMPL rest skeleton. */
export interface MotionSkeleton {
  /** 24 parents (SMPL_PARENTS). */
  parents: readonly number[];
  /** 24×3 rest joint positions, metres, body frame. */
  joints: Float64Array;
}

/**
 * The skeleton of a 24-joint SMPL-tree body model.
 *
 * @param joints optional 24×3 shaped joints J(β) (default: the model's `jointTemplate`).
 * @throws Error when the model is not on SMPL's 24-joint tree.
 */
export function skeletonFromModel(model: BodyModel, joints?: ArrayLike<number>): MotionSkeleton {
  if (model.jointCount !== SMPL_JOINT_COUNT || SMPL_PARENTS.some((p, k) => model.parents[k] !== p)) {
    throw new Error(`skeletonFromModel: ${model.name}: motion needs SMPL's 24-joint tree, got ${model.jointCount} joints`);
  }
  return { parents: SMPL_PARENTS, joints: Float64Array.from(joints ?? model.jointTemplate) };
}

let procedural: MotionSkeleton | undefined;
/** The built-in procedural body's rest skeleton (T-pose; cached). */
export function proceduralSkeleton(): MotionSkeleton {
  procedural ??= skeletonFromModel(createProceduralBody());
  return procedural;
}

let makeHuman: MotionSkeleton | undefined;
/**
 * The default pedestrian body's rest skeleton: the shipped MakeHuman set's (A-pose; every LOD has
 * the same joints; cached). Use {@link proceduralSkeleton} to animate the procedural body.
 */
export function defaultSkeleton(): MotionSkeleton {
  makeHuman ??= skeletonFromModel(makeHumanBody(0));
  return makeHuman;
}

/** Rest position of joint `k` as a 3-array. */
export function jointAt(s: MotionSkeleton, k: number): [number, number, number] {
  return [s.joints[3 * k], s.joints[3 * k + 1], s.joints[3 * k + 2]];
}
