/**
 * The contract between the arena and an agent: the arena hands the agent the task brief at the start
 * and an observation each step, the agent replies with one action. Images (the first-person view,
 * the task's map and reference images) are rendered only for agents that ask for them
 * (`needsImages`), so privileged and blind agents run without a renderer.
 */
import type { ArenaAction } from './actions';
import type { ArenaObservation, EpisodeOutcome } from './episode';
import type { ArenaTask } from './task';
import type { WalkerState } from './walker';
import type { World } from '../world/world';

/** PNG images of a step: the first-person view and, where the task has them, its map and reference view. */
export interface ObservationImages {
  view: Uint8Array;
  map: Uint8Array | null;
  reference: Uint8Array | null;
}

/** An agent's reply to one observation. */
export interface AgentTurn {
  action: ArenaAction;
  /** Its reasoning text ('' when none). */
  thought: string;
  /** Tokens used for this turn (prompt + completion), when the agent is a model. */
  tokens?: number;
  /** Milliseconds the agent took. */
  latencyMs?: number;
  /** Replies that did not parse or named an invalid action before this one (retried). */
  parseErrors?: number;
}

/**
 * What a privileged agent may read (the oracle): the world, the task with its truth and the walker's
 * state. Every other agent receives it too and must not read it (it is how the oracle proves a task
 * solvable with the agent's own actions).
 */
export interface PrivilegedView {
  world: World;
  task: ArenaTask;
  walker(): WalkerState;
}

/** An agent (see the module comment). */
export interface ArenaAgent {
  /** As given to `--agent` (`oracle`, `random`, `openai:MODEL`, …). */
  readonly name: string;
  readonly needsImages: boolean;
  /** Starts an episode. `brief` has what the agent is told up front (instruction, family). */
  begin(brief: { taskId: string; family: string; instruction: string }, privileged: PrivilegedView): void | Promise<void>;
  /** One action for the observation (and the images when `needsImages`). Throws when the agent fails (the episode ends as agent_error). */
  act(obs: ArenaObservation, images: ObservationImages | null): Promise<AgentTurn>;
  /** Told how the episode ended (optional: the remote agent passes it on). */
  end?(taskId: string, outcome: EpisodeOutcome): void;
}
