/**
 * Per-pedestrian motion over time: integrates the stride phase (cadence from the current speed),
 * ramps speed and gesture weight towards the {@link MotionState}, advances the pedestrian's world
 * position and heading at the speed and turn rate the gait uses (so the feet, planted in the
 * world, do not slide), and writes SMPL poses for the skinner. Deterministic: the same seed and
 * the same sequence of (dt, state) give the same poses.
 */
import { gaitParameters } from './gait-parameters';
import { gaitPose, motionStyle, POSE_FLOATS, type MotionState, type MotionStyle } from './procedural-gait';
import { JOINT, jointAt, type MotionSkeleton } from './skeleton';

/** Acceleration when starting, m/s² (gait initiation takes about two steps). */
export const START_ACCELERATION = 1.0;
/** Deceleration when stopping, m/s². */
export const STOP_DECELERATION = 1.5;
/** Time to raise or lower a gesture, seconds. */
export const GESTURE_BLEND_TIME = 0.4;
/** Largest speed the gait is defined for, m/s. */
export const MAX_WALK_SPEED = 2.0;

/** The pedestrian's body-frame origin in the world: position (metres), heading (rad, from +x, CCW). */
export interface RootPose {
  x: number;
  y: number;
  yaw: number;
}

/** A pedestrian's motion state machine (see the module doc). */
export class PedestrianMotion {
  /** Seconds since creation. */
  time = 0;
  /** Current forward speed, m/s. */
  speed = 0;
  /** Current turn rate, rad/s. */
  turnRate = 0;
  /** Stride phase of the left foot (unbounded; the pose takes it mod 1). */
  phase: number;
  /** Current gesture and its blend weight. */
  gesture: MotionState['gesture'] = 'none';
  gestureWeight = 0;
  idle: MotionState['idle'] = 'stand';
  readonly style: MotionStyle;
  private readonly legLength: number;

  /**
   * @param skeleton rest skeleton of the body this motion drives.
   * @param seed per-pedestrian seed (phase, arm swing, idle timing).
   * @param root initial world pose of the body-frame origin.
   */
  constructor(readonly skeleton: MotionSkeleton, seed: number, readonly root: RootPose = { x: 0, y: 0, yaw: 0 }) {
    this.style = motionStyle(seed);
    this.phase = this.style.phase0;
    this.legLength = jointAt(skeleton, JOINT.leftHip)[2];
  }

  /**
   * Advances by `dt` towards `state`: speed ramps at {@link START_ACCELERATION} /
   * {@link STOP_DECELERATION}, the phase advances by the stride frequency of the current speed,
   * the root moves along its heading (exact arc for a constant turn rate over the step).
   *
   * @param dt seconds, ≥ 0. @throws RangeError when dt is negative or the wanted speed is outside [0, 2] m/s.
   */
  update(dt: number, state: MotionState): void {
    if (!(dt >= 0)) throw new RangeError(`PedestrianMotion.update: dt ${dt} s is negative or NaN`);
    if (!(state.walkSpeed >= 0 && state.walkSpeed <= MAX_WALK_SPEED)) {
      throw new RangeError(`PedestrianMotion.update: walkSpeed ${state.walkSpeed} m/s outside [0, ${MAX_WALK_SPEED}]`);
    }
    const dv = state.walkSpeed - this.speed;
    const maxDv = (dv > 0 ? START_ACCELERATION : STOP_DECELERATION) * dt;
    const v0 = this.speed;
    this.speed += Math.max(-maxDv, Math.min(maxDv, dv));
    this.turnRate = state.turnRate;
    const v = (v0 + this.speed) / 2;
    this.phase += gaitParameters(v, this.legLength).strideFrequency * dt;
    // Root: exact integration of constant (v, ω) over dt.
    const w = this.turnRate, yaw = this.root.yaw;
    if (Math.abs(w * dt) < 1e-9) {
      this.root.x += v * dt * Math.cos(yaw);
      this.root.y += v * dt * Math.sin(yaw);
    } else {
      this.root.x += (v / w) * (Math.sin(yaw + w * dt) - Math.sin(yaw));
      this.root.y += (v / w) * (Math.cos(yaw) - Math.cos(yaw + w * dt));
    }
    this.root.yaw = yaw + w * dt;
    // Gesture: lower the old one before raising a new one.
    if (state.gesture === this.gesture) this.gestureWeight = Math.min(1, this.gestureWeight + dt / GESTURE_BLEND_TIME);
    else {
      this.gestureWeight = Math.max(0, this.gestureWeight - dt / GESTURE_BLEND_TIME);
      if (this.gestureWeight === 0) this.gesture = state.gesture;
    }
    this.idle = state.idle;
    this.time += dt;
  }

  /** Writes the current pose (24×3 axis-angle + root translation, see `gaitPose`) into `out` at `offset`. */
  pose(out: Float32Array = new Float32Array(POSE_FLOATS), offset = 0): Float32Array {
    return gaitPose(this.skeleton, {
      phase: this.phase, speed: this.speed, turnRate: this.turnRate, gesture: this.gesture,
      gestureWeight: this.gestureWeight, idle: this.idle, time: this.time, style: this.style,
    }, out, offset);
  }
}

/**
 * Pose of a pedestrian that has been in the constant `state` forever, at time `t` (seconds):
 * phase = phase₀(seed) + f(v)·t, full gesture weight. Pure and deterministic.
 *
 * @throws RangeError when walkSpeed is outside [0, 2] m/s.
 */
export function motionPose(skeleton: MotionSkeleton, state: MotionState, t: number, seed: number, out?: Float32Array, offset = 0): Float32Array {
  if (!(state.walkSpeed >= 0 && state.walkSpeed <= MAX_WALK_SPEED)) {
    throw new RangeError(`motionPose: walkSpeed ${state.walkSpeed} m/s outside [0, ${MAX_WALK_SPEED}]`);
  }
  const style = motionStyle(seed);
  const f = gaitParameters(state.walkSpeed, jointAt(skeleton, JOINT.leftHip)[2]).strideFrequency;
  return gaitPose(skeleton, {
    phase: style.phase0 + f * t, speed: state.walkSpeed, turnRate: state.turnRate, gesture: state.gesture,
    gestureWeight: state.gesture === 'none' ? 0 : 1, idle: state.idle, time: t, style,
  }, out, offset);
}
