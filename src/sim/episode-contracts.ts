/**
 * The contracts between the episode loop (src/bench/episode.ts), the pedestrians that move in it
 * (src/crowd) and the policies that drive the robot (src/policy): what a policy observes each
 * control step, how it is called, and how the loop steps the crowd. Types only.
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import type { PedestrianDisc } from '../robot/failure-monitor';
import type { RouteTracker } from '../robot/route-tracker';
import type { RobotState, VelocityCommand } from '../robot/unicycle';

/**
 * A pedestrian's gesture as the simulation exchanges it: `stop` is the Gesturing behaviour's raised
 * hand, `talk` a conversation's (the animation's own set, humans/motion/arms.ts `Gesture`, adds `wave`).
 */
export type PedestrianGesture = 'none' | 'stop' | 'talk';

/** The pedestrians of an episode, stepped by the episode loop. */
export interface PedestrianSim {
  /** Advances every pedestrian by `dt` seconds; `robot` drives event triggers and is an obstacle to them. */
  step(dt: number, robot: RobotState): void;
  /** Current collision cylinders (centre, radius 0.3 m in SidewalkBench), world frame. */
  discs(): PedestrianDisc[];
  /** Current velocities, m/s, same order as `discs`. */
  velocities(): Vec2[];
  /** Current gesture of each pedestrian (`stop` is the Gesturing behaviour's raised hand). */
  gestures(): PedestrianGesture[];
}

/**
 * The one-time notice of a closure (scenario `closures`), delivered with the first observation after
 * it triggered: its text and the closed nav segments clipped to the closed area, in the robot frame
 * of that observation (x forward, y left), metres.
 */
export interface ClosureNotice {
  text: string;
  segments: [Vec2, Vec2][];
}

/** What a policy sees each control step. Privileged fields are for the expert only. */
export interface Observation {
  /** Episode time, s. */
  time: number;
  state: Readonly<RobotState>;
  /** Goal in the robot frame (x forward, y left), metres. */
  goalRobot: Vec2;
  /** Privileged: the reference route (world frame; re-planned when a closure cuts it) and the robot's progress along it, metres. */
  route: RouteTracker;
  /** Privileged: pedestrians now. */
  pedestrians: PedestrianDisc[];
  pedestrianVelocities: Vec2[];
  pedestrianGestures: PedestrianGesture[];
  /** Closures that triggered since the last observation (one-time notices; absent when none). */
  notice?: ClosureNotice;
  /** Privileged: the world's static obstacles (CCW polygons), with the fences of the closures in force. */
  obstacles: Ring[];
  /** Privileged: boundary segments of the walkable area (empty when unknown). */
  walkableEdges: [Vec2, Vec2][];
}

/** A policy as the episode loop drives it. */
export interface EpisodePolicy {
  readonly name: string;
  /** Control rate, Hz. */
  readonly rateHz: number;
  /** Called once per episode with the episode seed (diffusion noise, internal state). */
  reset(seed: number): Promise<void>;
  /** The command for this control step. Must not run two calls at once. */
  act(obs: Observation): Promise<VelocityCommand>;
}
