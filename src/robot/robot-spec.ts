/**
 * The robot embodiment: what the simulator needs to know of a robot — its name, kinematic limits,
 * collision footprint, camera mount and (legged robots) gait. The default is SidewalkBench's
 * four-wheeled delivery robot (seeds/002, Appendix: max 1.5 m/s and 0.65 rad/s), driven as a
 * unicycle. Footprint and acceleration limits are those of a small delivery robot of that class
 * (≈ 0.7 m × 0.55 m); they are parameters, not constants. The robot dog and the humanoid, and the
 * registry of all three, are in embodiments.ts.
 */
import type { GaitModel } from './gait';

/** The embodiments SidewalkBench evaluates (seeds/002, Appendix: "the robot dog or the humanoid", Fig. 10). */
export type RobotName = 'wheeled' | 'dog' | 'humanoid';

/** Kinematic limits, footprint, camera mount and physics sub-stepping of a robot driven as a unicycle. */
export interface RobotSpec {
  /** The embodiment's name, as `--robot` takes it and records carry it. */
  name: RobotName;
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
  /** Robot camera height above the ground under the base, metres (standing still, gait at rest). */
  cameraHeight: number;
  /** Robot camera pitch, degrees, positive looks down (standing still). */
  cameraPitchDeg: number;
  /**
   * The gait's camera motion (legged robots: bob, sway, roll and pitch by distance travelled, gait.ts);
   * null for a wheeled robot, whose camera rides level.
   */
  gait: GaitModel | null;
}

/**
 * SidewalkBench's delivery robot. Its camera mount is Curbside's assumed one for a robot of its
 * class (0.8 m, level: `DEFAULT_CAMERA_MOUNT` in src/policy/manifest.ts, which a policy manifest
 * may override; the two are kept equal by a test).
 */
export const DELIVERY_ROBOT: RobotSpec = {
  name: 'wheeled',
  maxLinearSpeed: 1.5,
  maxAngularSpeed: 0.65,
  maxLinearAccel: 1.5,
  maxAngularAccel: 2.0,
  length: 0.7,
  width: 0.55,
  footprintOffsetX: 0,
  physicsDt: 0.005,
  cameraHeight: 0.8,
  cameraPitchDeg: 0,
  gait: null,
};
