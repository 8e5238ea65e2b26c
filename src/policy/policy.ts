/**
 * The one interface every policy kind implements (ONNX model, remote over WebSocket, and — from
 * the episode loop's side — the privileged expert and keyboard teleoperation), so the episode loop
 * drives them all the same way: synchronised stepping, as in SidewalkBench (seeds/002: the
 * simulator waits for the policy), once per control step at the policy's rate.
 */
import type { RobotState, VelocityCommand } from '../robot/unicycle';
import type { ClosureNotice } from '../sim/episode-contracts';

/** Where the policy's camera sits on the robot (from the manifest; see DEFAULT_CAMERA_MOUNT). */
export interface CameraMount {
  /** Optical centre above the ground, metres. */
  height: number;
  /** Downward pitch, degrees (0 = level). */
  pitchDeg: number;
  /** Vertical field of view, degrees. */
  fovYDeg: number;
}

/** What the episode loop hands a policy each control step, for B environments at once. */
export interface PolicyObservation {
  /**
   * The current camera frame of each environment, B textures (TEXTURE_BINDING usage, float colour
   * format: `OffscreenTarget.color`, rgba8unorm), on the policy's GPUDevice. Rendered and
   * submitted before `act` is called; the policy reads them on the GPU only.
   */
  frames: readonly GPUTexture[];
  /** Goal of each environment in its robot frame (x forward, y left), metres, [B][2]. Point-goal policies require it. */
  goalRobot?: readonly (readonly [number, number])[];
  /** Goal image of each environment (image-goal policies require it), like `frames`. */
  goalFrames?: readonly GPUTexture[];
  /** Robot state of each environment, world frame (privileged and remote policies may use it). */
  states: readonly RobotState[];
  /** Simulation time, s. */
  time: number;
  /**
   * Closure notices (scenario `closures`), per environment: delivered once, with the first
   * observation after a closure triggered (null: none this step). Absent when no environment has one.
   */
  notices?: readonly (ClosureNotice | null)[];
  /**
   * The map observation of every environment, [B, 3, H, W] float32 RGB in [0, 1]
   * (src/sensors/map-observation.ts), for policies whose manifest has `map`.
   */
  maps?: Float32Array;
}

/** What a policy returns for one control step. */
export interface PolicyAction {
  /** Velocity command per environment (v ∈ [0, maxV] m/s, ω ∈ [−maxW, maxW] rad/s), B entries. */
  commands: VelocityCommand[];
  /**
   * Predicted waypoints per environment, K×D float32 (D = 2: x, y; 4: x, y, cos ψ, sin ψ), robot
   * frame, metres (scale and normalisation applied); absent for command-output policies.
   */
  waypoints?: Float32Array[];
}

/**
 * A navigation policy for B environments.
 *
 * Life cycle: `reset(seed)` before the first step of an episode (per environment when episodes
 * end at different times), then `act` once per control step (1/rateHz s of simulated time),
 * awaiting each result before the next call; `destroy` frees GPU and runtime resources.
 */
export interface Policy {
  /** For logs and reports. */
  readonly name: string;
  /** B: environments served per `act`. */
  readonly batch: number;
  /** Control rate, Hz. */
  readonly rateHz: number;
  /** Camera the policy expects (resolution is the renderer's choice; the policy resizes). */
  readonly camera: CameraMount;
  /** What the observation must carry besides frames and states. */
  readonly goal: 'none' | 'point' | 'image';
  /**
   * Starts an episode with episode seed `seed` in `envs` (all when omitted): forgets their frame
   * history and restarts their random streams (diffusion noise) from the seed.
   */
  reset(seed: number, envs?: readonly number[]): Promise<void>;
  /**
   * One control step for all B environments.
   *
   * @throws Error when the observation lacks what the policy needs (goal, B frames) or the model's
   *   output is not finite.
   */
  act(obs: PolicyObservation): Promise<PolicyAction>;
  /** Frees resources; the policy cannot be used afterwards. */
  destroy(): void;
}
