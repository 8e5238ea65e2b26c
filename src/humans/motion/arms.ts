/**
 * Arm and head poses for walking and for gestures (stop, wave, talk), as local SMPL rotations.
 *
 * Each arm is given by the wanted directions of its upper arm and forearm in the chest (spine3)
 * frame; the shoulder takes the shortest rotation from its rest direction (T-pose: ±y) to the upper
 * arm direction, and the elbow the shortest rotation that then brings the forearm onto its
 * direction. Collars stay at rest, so the shoulder's local rotation equals its chest-frame rotation.
 */
import { quatBetween, quatConj, quatMul, quatRotate, type Quat } from './rotation';

/** Gestures a pedestrian can make while standing or walking. */
export type Gesture = 'none' | 'stop' | 'talk' | 'wave';

/** Local rotations of one arm. */
export interface ArmPose {
  shoulder: Quat;
  elbow: Quat;
  wrist: Quat;
}

const unit = (v: readonly number[]) => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};

/**
 * Arm rotations from chest-frame directions.
 *
 * @param side +1 left arm (rest direction +y), −1 right arm (−y).
 * @param upper wanted upper-arm direction, chest frame (any length > 0).
 * @param fore wanted forearm direction, chest frame.
 * @param wristPitch rotation of the hand about the forearm-perpendicular horizontal axis, radians.
 */
export function armFromDirections(side: 1 | -1, upper: readonly number[], fore: readonly number[], wristPitch = 0): ArmPose {
  const rest = [0, side, 0];
  const shoulder = quatBetween(rest, unit(upper));
  const foreNow = quatRotate(shoulder, rest);
  const elbowGlobal = quatMul(quatBetween(foreNow, unit(fore)), shoulder);
  const elbow = quatMul(quatConj(shoulder), elbowGlobal);
  const s = Math.sin(wristPitch / 2);
  const wrist: Quat = [Math.cos(wristPitch / 2), -side * s, 0, 0];
  return { shoulder, elbow, wrist };
}

/**
 * Walking arm swing: arms hang (≈ 12° from the body) and swing in the sagittal plane.
 *
 * @param swing forward swing angle of the upper arm, radians (positive = forward).
 * @param elbowFlex extra forward angle of the forearm relative to the upper arm, radians.
 */
export function hangingArm(side: 1 | -1, swing: number, elbowFlex: number): ArmPose {
  const spread = 0.2; // radians from vertical, sideways
  const s = Math.cos(spread), c = Math.sin(spread);
  const upper = [s * Math.sin(swing), side * c, -s * Math.cos(swing)];
  const a = swing + elbowFlex;
  const fore = [s * Math.sin(a), side * c * 0.6, -s * Math.cos(a)];
  return armFromDirections(side, upper, fore);
}

/**
 * Gesture arm for the right (−1) or left (+1) side at time `t` (seconds), or null when the
 * gesture leaves that arm to the walking swing.
 *
 * - `stop`: right arm raised forward at shoulder height, forearm up, palm towards the viewer.
 * - `wave`: right upper arm out and up, forearm swinging side to side at 2 Hz.
 * - `talk`: both forearms forward, hands moving at 0.6–0.9 Hz with per-pedestrian phases.
 */
export function gestureArm(gesture: Gesture, side: 1 | -1, t: number, phase: number): ArmPose | null {
  const tau = 2 * Math.PI;
  switch (gesture) {
    case 'stop':
      return side < 0 ? armFromDirections(side, [0.92, -0.35, 0.15], [0.4, -0.12, 0.9], 1.2) : null;
    case 'wave':
      return side < 0 ? armFromDirections(side, [0.15, -0.8, 0.5], [0.1, -0.25 + 0.5 * Math.sin(tau * 2 * t + phase), 0.95]) : null;
    case 'talk': {
      const f = side > 0 ? 0.6 : 0.85;
      const p = phase + (side > 0 ? 0 : 2.1);
      const lift = 0.2 + 0.3 * Math.sin(tau * f * t + p) + 0.1 * Math.sin(tau * 1.7 * f * t + 2 * p);
      return armFromDirections(side, [0.35, side * 0.3, -0.9], [0.85, side * (0.15 + 0.12 * Math.sin(tau * 0.4 * t + p)), lift]);
    }
    default:
      return null;
  }
}

/**
 * Re-expresses a T-pose {@link ArmPose} for a skeleton whose rest arm is not along ±y (e.g.
 * MakeHuman's A-pose, arms ≈ 45° down): with C_u the shortest rotation taking the rest upper-arm
 * direction `restUpper` onto ±y and C_f the one taking the rest forearm direction `restFore` onto ±y,
 * shoulder' = shoulder·C_u, elbow' = C_u⁻¹·elbow·C_f, wrist' = C_f⁻¹·wrist·C_f, so every bone ends
 * up pointing where the T-pose pose points it. A rest arm already along ±y (within 1e-9) is returned
 * unchanged.
 *
 * @param restUpper shoulder → elbow, @param restFore elbow → wrist: rest directions, body frame.
 */
export function restCorrectedArm(side: 1 | -1, pose: ArmPose, restUpper: readonly number[], restFore: readonly number[]): ArmPose {
  const y = [0, side, 0];
  const u = unit(restUpper), f = unit(restFore);
  if (Math.abs(u[1] - side) < 1e-9 && Math.abs(f[1] - side) < 1e-9) return pose;
  const cu = quatBetween(u, y), cf = quatBetween(f, y);
  return {
    shoulder: quatMul(pose.shoulder, cu),
    elbow: quatMul(quatConj(cu), quatMul(pose.elbow, cf)),
    wrist: quatMul(quatConj(cf), quatMul(pose.wrist, cf)),
  };
}
