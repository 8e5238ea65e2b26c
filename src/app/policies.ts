/**
 * The demo's policies as the episode loop drives them (`EpisodePolicy`): keyboard teleop, the
 * privileged expert, and replay of a recorded action log. No DOM: teleop reads a {@link TeleopKeys}
 * object that the app shell fills from keyboard events.
 */
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import type { VelocityCommand } from '../robot/unicycle';

/** Policies the picker offers (a dropped ONNX model is added as {@link DROPPED_ONNX_KIND}). */
export const POLICY_KINDS = ['teleop', 'expert', 'onnx-example', 'onnx-bc-gnm'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Picker value of the last dropped ONNX model. */
export const DROPPED_ONNX_KIND = 'onnx-dropped';

/** Picker labels of {@link POLICY_KINDS}. */
export const POLICY_LABELS: Record<PolicyKind, string> = { teleop: 'teleop', expert: 'expert', 'onnx-example': 'example ONNX (single-frame, untrained)', 'onnx-bc-gnm': 'trained ONNX (bc-gnm)' };

/** Whether a picker value is an ONNX policy (`onnx-…`: a shipped model or the dropped one; built on the GPU by the app shell, not by {@link makePolicy}). */
export function isOnnxKind(kind: string): boolean {
  return kind.startsWith('onnx-');
}

/** Teleop control rate, Hz (the expert's rate, so recordings of either replay at one rate). */
export const TELEOP_RATE_HZ = 10;

/** Which driving keys are held (WASD or arrows). */
export interface TeleopKeys {
  forward: boolean;
  back: boolean;
  left: boolean;
  right: boolean;
}

/** Keyboard teleop: forward/back set v to ±max (back = stop: the robot cannot reverse), left/right set ω = ±max. */
export class TeleopPolicy implements EpisodePolicy {
  readonly name = 'teleop';
  readonly rateHz = TELEOP_RATE_HZ;
  constructor(private readonly keys: TeleopKeys, private readonly spec: RobotSpec = DELIVERY_ROBOT) {}
  async reset(): Promise<void> {}
  async act(): Promise<VelocityCommand> {
    const k = this.keys;
    const v = k.forward && !k.back ? this.spec.maxLinearSpeed : 0;
    const w = (k.left ? 1 : 0) - (k.right ? 1 : 0);
    return { v, w: w * this.spec.maxAngularSpeed };
  }
}

/**
 * Replays a recorded action log at the recording's control rate; after the log it returns (0, 0).
 */
export class ReplayPolicy implements EpisodePolicy {
  readonly name: string;
  private index = 0;
  constructor(private readonly actions: readonly VelocityCommand[], readonly rateHz: number, recordedName = 'recording') {
    if (!(rateHz > 0)) throw new RangeError(`ReplayPolicy: rateHz ${rateHz} must be positive`);
    this.name = `replay(${recordedName})`;
  }
  async reset(): Promise<void> {
    this.index = 0;
  }
  async act(_obs: Observation): Promise<VelocityCommand> {
    const a = this.actions[this.index++];
    return a ? { v: a.v, w: a.w } : { v: 0, w: 0 };
  }
  /** True once every recorded action has been returned. */
  get done(): boolean {
    return this.index >= this.actions.length;
  }
}

/**
 * Builds a CPU policy of `kind` (teleop or expert; ONNX kinds are built by the app shell) for the
 * embodiment `robot` (its speed and turn-rate limits; default the wheeled delivery robot).
 *
 * @throws Error for an unknown or ONNX kind.
 */
export function makePolicy(kind: string, keys: TeleopKeys, robot: RobotSpec = DELIVERY_ROBOT): EpisodePolicy {
  if (kind === 'teleop') return new TeleopPolicy(keys, robot);
  if (kind === 'expert') return new ExpertPolicy(robot);
  if (isOnnxKind(kind)) throw new Error(`policy '${kind}': ONNX policies need the GPU; the app shell builds them`);
  throw new Error(`policy '${kind}': unknown (available: ${POLICY_KINDS.join(', ')})`);
}
