/**
 * Adapts a batched {@link Policy} to the episode loops' interfaces, whose observations carry no
 * frame (the loop's caller renders the cameras):
 * - {@link batchedEnvironmentPolicy}: B slots per control step (the lockstep runner,
 *   src/bench/episode-batch.ts): one `Policy.act` over the B frames that `frames.render` drew;
 * - {@link singleEnvironmentPolicy}: B = 1 for `EpisodePolicy` (src/bench/episode.ts: `reset(seed)`,
 *   `act(obs) → VelocityCommand`), asking `frames.current()` for the texture when the policy acts.
 */
import type { RobotState, VelocityCommand } from '../robot/unicycle';
import type { Policy } from './policy';
import type { ClosureNotice } from '../sim/episode-contracts';

/** Where the adapter gets the frames the loop rendered (textures on the policy's device). */
export interface FrameSource {
  /** The robot camera's latest frame (e.g. its OffscreenTarget.color). */
  current(): GPUTexture;
  /** The goal image, for image-goal policies. */
  goalImage?(): GPUTexture;
  /** The map observation, [1, 3, H, W], for policies with a map input. */
  map?(obs: SingleObservation): Float32Array;
}

/** The single-environment observation fields the adapter reads (a subset of the loop's Observation). */
export interface SingleObservation {
  /** Episode time, s. */
  time: number;
  /** Robot state, world frame. */
  state: Readonly<RobotState>;
  /** Goal in the robot frame (x forward, y left), metres. */
  goalRobot: readonly [number, number];
  /** A closure's one-time notice, on the step it arrives. */
  notice?: ClosureNotice;
}

/** Where the batched adapter gets the frames of the B slots (textures on the policy's device). */
export interface BatchFrameSource {
  /**
   * Renders and submits the current frame of every slot whose observation is given, and returns B
   * textures (for an idle slot, null observation: any texture; the policy's answer for it is ignored).
   */
  render(observations: readonly (SingleObservation | null)[]): Promise<readonly GPUTexture[]>;
  /** The goal image of each slot, for image-goal policies. */
  goalImages?(): readonly GPUTexture[];
  /** The map observation of every slot, [B, 3, H, W] (src/sensors/map-observation.ts), for policies with a map input. */
  maps?(observations: readonly (SingleObservation | null)[]): Float32Array;
}

/**
 * Wraps `policy` for B = `policy.batch` slots: `reset(slot, seed)` starts an episode in one slot;
 * `act` returns a command per slot (null for idle slots) and keeps the predicted waypoints per slot
 * in `lastWaypoints`. The policy's `time` is that of the first active slot.
 *
 * @throws Error (from `act`) when the number of observations is not B, no slot is active, or an
 *   image-goal policy has no `frames.goalImages`.
 */
export function batchedEnvironmentPolicy(policy: Policy, frames: BatchFrameSource) {
  const adapter = {
    name: policy.name,
    rateHz: policy.rateHz,
    batch: policy.batch,
    lastWaypoints: [] as (Float32Array | undefined)[],
    reset: (slot: number, seed: number): Promise<void> => policy.reset(seed, [slot]),
    async act(observations: readonly (SingleObservation | null)[]): Promise<(VelocityCommand | null)[]> {
      if (observations.length !== policy.batch) throw new Error(`${policy.name}: ${observations.length} observations for batch ${policy.batch}`);
      const first = observations.find((o) => o !== null);
      if (!first) throw new Error(`${policy.name}: act with no active environment`);
      if (policy.goal === 'image' && !frames.goalImages) throw new Error(`${policy.name}: image-goal policy needs frames.goalImages`);
      const textures = await frames.render(observations);
      const action = await policy.act({
        frames: textures,
        goalRobot: observations.map((o) => (o ? [o.goalRobot[0], o.goalRobot[1]] : [0, 0])),
        goalFrames: frames.goalImages?.(),
        states: observations.map((o) => ({ ...(o ?? first).state })),
        time: first.time,
        ...(observations.some((o) => o?.notice) ? { notices: observations.map((o) => o?.notice ?? null) } : {}),
        ...(frames.maps ? { maps: frames.maps(observations) } : {}),
      });
      adapter.lastWaypoints = observations.map((o, i) => (o ? action.waypoints?.[i] : undefined));
      return action.commands.map((c, i) => (observations[i] ? c : null));
    },
  };
  return adapter;
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
  const batched = batchedEnvironmentPolicy(policy, {
    render: async () => [frames.current()],
    goalImages: frames.goalImage && (() => [frames.goalImage!()]),
    maps: frames.map && ((observations) => frames.map!(observations[0]!)),
  });
  const adapter = {
    name: policy.name,
    rateHz: policy.rateHz,
    lastWaypoints: undefined as Float32Array | undefined,
    reset: (seed: number): Promise<void> => policy.reset(seed),
    async act(obs: SingleObservation): Promise<VelocityCommand> {
      const [cmd] = await batched.act([obs]);
      adapter.lastWaypoints = batched.lastWaypoints[0];
      return cmd!;
    },
  };
  return adapter;
}
