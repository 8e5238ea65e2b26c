/**
 * Adapts a batched {@link Policy} (B = 1) to the episode loop's single-environment interface
 * (`EpisodePolicy` in src/bench/episode.ts: `reset(seed)`, `act(obs) → VelocityCommand`), whose
 * observation carries no frame: the loop renders the camera in `afterControlStep`, and the adapter
 * asks `frames.current()` for that texture when the policy acts.
 */
import type { RobotState, VelocityCommand } from '../robot/unicycle';
import type { Policy } from './policy';

/** Where the adapter gets the frames the loop rendered (textures on the policy's device). */
export interface FrameSource {
  /** The robot camera's latest frame (e.g. its OffscreenTarget.color). */
  current(): GPUTexture;
  /** The goal image, for image-goal policies. */
  goalImage?(): GPUTexture;
}

/** The single-environment observation fields the adapter reads (a subset of the loop's Observation). */
export interface SingleObservation {
  /** Episode time, s. */
  time: number;
  /** Robot state, world frame. */
  state: Readonly<RobotState>;
  /** Goal in the robot frame (x forward, y left), metres. */
  goalRobot: readonly [number, number];
}

/**
 * Wraps `policy` (batch 1) for the episode loop. `act` returns the one environment's command and
 * keeps the predicted waypoints (robot frame, metres) in `lastWaypoints` for overlays and logs.
 *
 * @throws Error when `policy.batch` is not 1, or (from `act`) an image-goal policy has no
 *   `frames.goalImage`.
 */
export function singleEnvironmentPolicy(policy: Policy, frames: FrameSource) {
  if (policy.batch !== 1) throw new Error(`singleEnvironmentPolicy: ${policy.name} serves ${policy.batch} environments, expected 1`);
  const adapter = {
    name: policy.name,
    rateHz: policy.rateHz,
    lastWaypoints: undefined as Float32Array | undefined,
    reset: (seed: number): Promise<void> => policy.reset(seed),
    async act(obs: SingleObservation): Promise<VelocityCommand> {
      if (policy.goal === 'image' && !frames.goalImage) throw new Error(`${policy.name}: image-goal policy needs frames.goalImage`);
      const action = await policy.act({
        frames: [frames.current()],
        goalRobot: [[obs.goalRobot[0], obs.goalRobot[1]]],
        goalFrames: frames.goalImage ? [frames.goalImage()] : undefined,
        states: [{ ...obs.state }],
        time: obs.time,
      });
      adapter.lastWaypoints = action.waypoints?.[0];
      return action.commands[0];
    },
  };
  return adapter;
}
