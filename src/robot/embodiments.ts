/**
 * SidewalkBench's embodiments (seeds/002, Appendix: "Our simulation platform also supports the
 * evaluation on other robot embodiments such as the robot dog or the humanoid", Fig. 10): the
 * four-wheeled delivery robot (robot-spec.ts), a quadruped robot dog modelled on the Unitree Go2
 * and a humanoid modelled on the Unitree G1, and the registry `--robot` reads.
 *
 * All three are driven as unicycles (v, ω) through the same PD controller, with their own speed,
 * turn-rate and acceleration limits, collision footprint and camera mount; the legged ones add a
 * gait-driven camera motion (gait.ts). Where a number is a published specification the docstring
 * names its source; where it is Curbside's choice it says so.
 */
import { DELIVERY_ROBOT, type RobotName, type RobotSpec } from './robot-spec';

/**
 * The robot dog, modelled on the Unitree Go2.
 *
 * - Footprint 0.70 m × 0.31 m: the Go2's standing size, 0.70 × 0.31 × 0.40 m (Unitree's Go2 product
 *   specifications, e.g. https://www.odisha.pro/unitree-go-2-explained-the-robodog-behind-the-india-ai-impact-summit-controversy
 *   "measures around 70 x 31 x 40 cm").
 * - Camera 0.32 m above the ground, level: the Go2's front camera sits in its head, below the 0.40 m
 *   top of the standing robot; the Go1 sport mode's default body height is 0.28 m
 *   (unitree_legged_msgs HighState.msg: "bodyHeight (unit: m, default: 0.28m)"). 0.32 m is a choice
 *   within the brief's 0.3–0.4 m.
 * - Speed 1.5 m/s: a choice, the delivery robot's limit (a brisk walking pace; the Go2 runs faster),
 *   so that embodiments differ in what they see and fit, not in pace.
 * - Turn rate 1.0 rad/s: the yaw-rate command range that legged locomotion policies for the Go2 are
 *   trained on (legged_gym / unitree_rl_gym `commands.ranges.ang_vel_yaw = [-1, 1]` rad/s).
 * - Accelerations 2.0 m/s² and 3.0 rad/s²: choices (a light robot that starts and stops within a
 *   step or two).
 * - Gait (trot): 0.25 m per footfall (a choice: at 1 m/s that is 4 footfalls of a diagonal pair per
 *   second, a 2 Hz trot cycle), bob ±0.01 m (the Go1's default foot raise is 0.08 m, HighState.msg
 *   "footRaiseHeight … default: 0.08m"; a trotting body moves far less: a choice), sway ±0.005 m,
 *   roll ±1.5°, pitch ±1° (choices), full amplitude from 0.5 m/s (a choice).
 */
export const ROBOT_DOG: RobotSpec = {
  name: 'dog',
  maxLinearSpeed: 1.5,
  maxAngularSpeed: 1.0,
  maxLinearAccel: 2.0,
  maxAngularAccel: 3.0,
  length: 0.7,
  width: 0.31,
  footprintOffsetX: 0,
  physicsDt: 0.005,
  cameraHeight: 0.32,
  cameraPitchDeg: 0,
  gait: { stepLength: 0.25, bobAmplitude: 0.01, swayAmplitude: 0.005, rollAmplitudeDeg: 1.5, pitchAmplitudeDeg: 1, fullAmplitudeSpeed: 0.5 },
};

/**
 * The humanoid, modelled on the Unitree G1.
 *
 * - Footprint 0.20 m deep × 0.45 m wide: the G1's standing size, 1.32 × 0.45 × 0.20 m (Unitree G1
 *   product page, as tabulated at https://gitea.opentesla.org/epilectrik/unitree-g1/raw/branch/master/context/hardware-specs.md:
 *   "Height (standing) 1.32 m, Width 0.45 m, Depth 0.20 m").
 * - Camera 1.2 m above the ground, 10° down: the G1's head camera is near the top of a 1.32 m robot
 *   (1.2 m is a choice, inside the brief's 1.2–1.6 m head height); the pitch is a choice so that the
 *   sidewalk from ≈ 1.4 m ahead is in a 60° view.
 * - Speed 1.2 m/s: a choice under the G1's 2.0 m/s maximum walking speed (Unitree's G1 spec sheet, as
 *   tabulated at https://git.bibbit.duckdns.org/epilectrik/unitree-g1/src/commit/ddde0f3f453e136b376ba6195fadde22fc9da1ac/context/equations-and-bounds.md:
 *   "Max walking speed v_max 2.0 m/s") and near a person's preferred 1.1–1.65 m/s (seeds/002's pedestrian speeds).
 * - Turn rate 1.0 rad/s: the yaw-rate command range of the G1 locomotion policies (unitree_rl_gym
 *   `commands.ranges.ang_vel_yaw = [-1, 1]` rad/s).
 * - Accelerations 1.0 m/s² and 2.0 rad/s²: choices (a biped changes speed over a step or two).
 * - Gait (biped): 0.4 m per footfall (unitree_rl_gym's G1 gait period is 0.8 s per stride, two
 *   steps; at 1 m/s that is 0.4 m per step, 2.5 steps/s), bob ±0.015 m (an inverted pendulum over
 *   the G1's 0.60 m leg with 0.4 m steps rises 0.6 − √(0.6² − 0.2²) ≈ 0.034 m peak to peak: ±0.017 m;
 *   rounded down because a robot walks with bent knees — a choice), sway ±0.02 m (a person's head
 *   sways about ±2 cm: a choice), roll ±1.5° and pitch ±1° (choices), full amplitude from 0.5 m/s.
 */
export const HUMANOID: RobotSpec = {
  name: 'humanoid',
  maxLinearSpeed: 1.2,
  maxAngularSpeed: 1.0,
  maxLinearAccel: 1.0,
  maxAngularAccel: 2.0,
  length: 0.2,
  width: 0.45,
  footprintOffsetX: 0,
  physicsDt: 0.005,
  cameraHeight: 1.2,
  cameraPitchDeg: 10,
  gait: { stepLength: 0.4, bobAmplitude: 0.015, swayAmplitude: 0.02, rollAmplitudeDeg: 1.5, pitchAmplitudeDeg: 1, fullAmplitudeSpeed: 0.5 },
};

/** Every embodiment by its `--robot` name. */
export const ROBOTS: Readonly<Record<RobotName, RobotSpec>> = Object.freeze({ wheeled: DELIVERY_ROBOT, dog: ROBOT_DOG, humanoid: HUMANOID });

/** The accepted `--robot` values, in order. */
export const ROBOT_NAMES = Object.keys(ROBOTS) as RobotName[];

/**
 * The embodiment called `name`.
 *
 * @throws RangeError naming the accepted values when `name` is not one of them.
 */
export function robotSpec(name: string): RobotSpec {
  if (!Object.hasOwn(ROBOTS, name)) throw new RangeError(`unknown robot '${name}': expected one of ${ROBOT_NAMES.join(', ')}`);
  return ROBOTS[name as RobotName];
}

/** A camera mount: height above the ground (m), pitch (degrees, positive looks down), vertical field of view (degrees). */
export interface MountLike {
  height: number;
  pitchDeg: number;
  fovYDeg: number;
}

/**
 * The camera mount a policy sees through on `robot`. A policy manifest's mount (or the default one)
 * describes the wheeled robot it was trained on: on the wheeled robot it is returned unchanged (as
 * before embodiments existed, so records do not change); on a legged robot the embodiment's height
 * and pitch replace it and the manifest's field of view stays.
 */
export function embodiedMount<M extends MountLike>(robot: RobotSpec, mount: M): M {
  if (robot.name === 'wheeled') return mount;
  return { ...mount, height: robot.cameraHeight, pitchDeg: robot.cameraPitchDeg };
}
