/**
 * The random agent, a lower bound: each step it answers with probability {@link ANSWER_RATE} (a
 * random grid cell, a random count 0–12, a random name of the world, or "here" for the walking
 * tasks) and otherwise draws uniformly among walking (1/3/5 s), rotating (±30/60/90°), tilting
 * (±30°), resetting the view and the branch tokens available where it stands. Seeded per episode.
 */
import { createRng, type Rng } from '../../core/random';
import type { ArenaAction } from '../actions';
import { FORWARD_SECONDS, TURN_DEGREES } from '../actions';
import type { AgentTurn, ArenaAgent, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';

/** Chance of answering at each step. */
export const ANSWER_RATE = 0.04;

export class RandomAgent implements ArenaAgent {
  readonly name = 'random';
  readonly needsImages = false;
  private rng: Rng;
  private family = '';

  /**
   * @param seed the episode's seed.
   * @param names names it may answer with (the world's names: the same list fuzzy_match confuses).
   */
  constructor(seed: number, private readonly names: readonly string[]) {
    this.rng = createRng(seed);
  }

  begin(brief: { family: string }, _privileged: PrivilegedView): void {
    this.family = brief.family;
  }

  private answer(): string {
    const r = this.rng;
    if (this.family === 'localization') return `x:${r.int(0, 4)} y:${r.int(0, 4)}`;
    if (this.family === 'count') return String(r.int(0, 12));
    if (this.family === 'relational') return this.names.length ? r.pick(this.names) : 'unknown';
    return 'here';
  }

  async act(obs: ArenaObservation): Promise<AgentTurn> {
    const r = this.rng;
    if (r.next() < ANSWER_RATE) return { action: { kind: 'answer', text: this.answer() }, thought: 'random' };
    const sizes = ['SMALL', 'MEDIUM', 'LARGE'] as const;
    const options: ArenaAction[] = [
      ...sizes.map((s) => ({ kind: 'forward' as const, seconds: FORWARD_SECONDS[s] })),
      ...sizes.flatMap((s) => [{ kind: 'rotate' as const, deg: TURN_DEGREES[s] }, { kind: 'rotate' as const, deg: -TURN_DEGREES[s] }]),
      { kind: 'tilt', deg: TURN_DEGREES.SMALL }, { kind: 'tilt', deg: -TURN_DEGREES.SMALL }, { kind: 'reset-view' },
      ...obs.branches.flatMap((b) => (b.token ? [{ kind: 'branch' as const, token: b.token }] : [])),
    ];
    return { action: r.pick(options), thought: 'random' };
  }
}
