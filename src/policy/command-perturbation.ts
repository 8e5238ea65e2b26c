/**
 * Recovery data for behaviour cloning (DART, Laskey et al. 2017, "DART: Noise Injection for Robust
 * Imitation Learning"; the recovery idea of DAgger without a second pass): while the expert drives
 * and the camera records, short bursts of a constant turn-rate offset push the robot off the
 * expert's line, and the expert, which sees the state the burst left it in, steers back. Frames
 * after a burst show the robot off its line with the expert's recovery as their future waypoints,
 * which clean expert drives never contain. Training skips the samples whose label window
 * overlaps a burst (their future holds the injected turn, not the expert's).
 *
 * The schedule is a function of the episode time alone, drawn from a seeded stream, so the same
 * episode seed gives the same bursts and a recording is reproducible.
 */
import { createRng, type Rng } from '../core/random';
import type { VelocityCommand } from '../robot/unicycle';

/** The burst schedule; times in seconds, turn rates in rad/s. */
export interface PerturbationOptions {
  /** No burst before this episode time. */
  startS: number;
  /** Quiet time between bursts, drawn uniformly in [lo, hi]. */
  gapS: readonly [number, number];
  /** Burst length, uniform in [lo, hi]. */
  durationS: readonly [number, number];
  /** Magnitude of the turn-rate offset, uniform in [lo, hi]; its sign is a fair coin. */
  omega: readonly [number, number];
}

/**
 * Bursts of about 20° of heading (0.4–0.8 rad/s for 0.4–0.8 s) every 2.5–5 s after the first
 * second: the robot leaves its line by a few decimetres, which the unit suite's sidewalks (≥ 1.8 m)
 * leave room to recover from.
 */
export const DEFAULT_PERTURBATION: PerturbationOptions = { startS: 1, gapS: [2.5, 5], durationS: [0.4, 0.8], omega: [0.4, 0.8] };

/** One episode's bursts: [start, end) in episode seconds and the turn-rate offset. */
export interface PerturbationBurst {
  start: number;
  end: number;
  omega: number;
}

/**
 * The bursts of one episode, drawn lazily as time advances.
 *
 * @throws RangeError when an interval is empty, reversed or not finite, or a gap or duration is not positive.
 */
export class CommandPerturbation {
  private readonly rng: Rng;
  private readonly bursts: PerturbationBurst[] = [];

  constructor(seed: number, private readonly options: PerturbationOptions = DEFAULT_PERTURBATION) {
    for (const [name, [lo, hi]] of [['gapS', options.gapS], ['durationS', options.durationS], ['omega', options.omega]] as const) {
      if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi && (name === 'omega' ? lo >= 0 : lo > 0))) {
        throw new RangeError(`CommandPerturbation: ${name} [${lo}, ${hi}] is not an interval of ${name === 'omega' ? 'non-negative' : 'positive'} numbers`);
      }
    }
    if (!Number.isFinite(options.startS)) throw new RangeError(`CommandPerturbation: startS ${options.startS} is not finite`);
    this.rng = createRng(seed);
  }

  /** The burst covering episode time `time` (s), or null between bursts. */
  burstAt(time: number): PerturbationBurst | null {
    const o = this.options;
    while (this.bursts.length === 0 || this.bursts[this.bursts.length - 1].end <= time) {
      const prevEnd = this.bursts.length ? this.bursts[this.bursts.length - 1].end : o.startS;
      const start = prevEnd + this.rng.range(o.gapS[0], o.gapS[1]);
      const end = start + this.rng.range(o.durationS[0], o.durationS[1]);
      const omega = this.rng.range(o.omega[0], o.omega[1]) * (this.rng.next() < 0.5 ? -1 : 1);
      this.bursts.push({ start, end, omega });
    }
    for (let i = this.bursts.length - 1; i >= 0; i--) {
      const b = this.bursts[i];
      if (b.start <= time && time < b.end) return b;
      if (b.end <= time) break;
    }
    return null;
  }

  /** `cmd` with the turn-rate offset of the burst at `time` added (the command itself when none). */
  apply(time: number, cmd: VelocityCommand): VelocityCommand {
    const b = this.burstAt(time);
    return b ? { v: cmd.v, w: cmd.w + b.omega } : cmd;
  }
}
