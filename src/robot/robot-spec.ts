/**
 * The robot embodiment: SidewalkBench's four-wheeled delivery robot (seeds/002, Appendix: max
 * 1.5 m/s and 0.65 rad/s), driven as a unicycle. Footprint and acceleration limits are those of a
 * small delivery robot of that class (≈ 0.7 m × 0.55 m); they are parameters, not constants.
 */

/** Kinematic limits, footprint and physics sub-stepping of a differential-drive robot. */
export interface RobotSpec {
  /** Forward speed limit, m/s (reverse is not allowed: v ∈ [0, maxLinearSpeed]). */
  maxLinearSpeed: number;
  /** Yaw-rate limit, rad/s (ω ∈ [−max, max]). */
  maxAngularSpeed: number;
  /** Linear acceleration limit, m/s² (both speeding up and braking). */
  maxLinearAccel: number;
  /** Angular acceleration limit, rad/s². */
  maxAngularAccel: number;
  /** Footprint rectangle in the robot frame (x forward, y left), metres: length along x, width along y. */
  length: number;
  width: number;
  /** Offset of the footprint centre ahead of the base (rotation centre), metres. */
  footprintOffsetX: number;
  /** Physics sub-step, s (finer than the control step; SidewalkBench uses 0.005 s). */
  physicsDt: number;
}

/** SidewalkBench's delivery robot. */
export const DELIVERY_ROBOT: RobotSpec = {
  maxLinearSpeed: 1.5,
  maxAngularSpeed: 0.65,
  maxLinearAccel: 1.5,
  maxAngularAccel: 2.0,
  length: 0.7,
  width: 0.55,
  footprintOffsetX: 0,
  physicsDt: 0.005,
};
