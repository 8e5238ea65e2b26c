/**
 * The demo's policies as the episode loop drives them (`EpisodePolicy`): keyboard teleop, the
 * privileged expert, and replay of a recorded action log. No DOM: teleop reads a {@link TeleopKeys}
 * object that the app shell fills from keyboard events.
 */
import type { EpisodePolicy, Observation } from '../bench/episode';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import type { VelocityCommand } from '../robot/unicycle';

/** Policies the picker offers (ONNX models are added when dropped). */
export const POLICY_KINDS = ['teleop', 'expert'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

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
 * Builds a policy of `kind`.
 *
 * @throws Error for an unknown kind.
 */
export function makePolicy(kind: string, keys: TeleopKeys): EpisodePolicy {
  if (kind === 'teleop') return new TeleopPolicy(keys);
  if (kind === 'expert') return new ExpertPolicy(DELIVERY_ROBOT);
  throw new Error(`policy '${kind}': unknown (available: ${POLICY_KINDS.join(', ')})`);
}
