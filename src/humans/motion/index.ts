/**
 * Pedestrian motion on SMPL's 24 joints: the procedural gait (walk, turn, start/stop, idle, gestures,
 * queue shuffling), CMU BVH and AMASS `.npz` import, clip sampling and blending.
 */
export { gaitParameters, WALK_RATIO, MIN_CADENCE, type GaitParameters } from './gait-parameters';
export { gaitPose, motionStyle, POSE_FLOATS, type GaitFrame, type MotionState, type MotionStyle } from './procedural-gait';
export { PedestrianMotion, motionPose, START_ACCELERATION, STOP_DECELERATION, GESTURE_BLEND_TIME, MAX_WALK_SPEED, type RootPose } from './pedestrian-motion';
export { armFromDirections, gestureArm, hangingArm, type ArmPose, type Gesture } from './arms';
export { legReach, solveLeg, type LegSolution } from './leg-ik';
export { defaultSkeleton, proceduralSkeleton, skeletonFromModel, JOINT, type MotionSkeleton } from './skeleton';
export { parseBvh, bvhGlobalPose, bvhRestPositions, rotationOrder, type BvhClip, type BvhJoint } from './bvh';
export { retargetBvh, detectBvhSkeleton, CGSPEED_MB_TO_SMPL, SNU_MRL_TO_SMPL, BVH_UNIT_SCALE, type BvhJointMap, type BvhRetargetOptions } from './retarget-bvh';
export { loadAmassNpz, writeAmassNpz } from './amass';
export { blendPoses, clipDuration, clipRootSpeed, crossfade, sampleClip, type MotionClip } from './clip';
export * from './rotation';
