/**
 * Runs one arena episode with an agent to its end and returns its record: observation → agent →
 * action, until the episode ends (episode.ts). Images are rendered through `render` only for agents
 * that need them; a render failure ends the episode as env_error, an agent failure as agent_error,
 * and neither stops the run. The record holds no wall-clock time (the same task and actions give the
 * same record byte for byte); model agents' latencies are theirs.
 */
import type { World } from '../world/world';
import type { ArenaAgent, ObservationImages } from './agent';
import { ArenaEpisode, type EpisodeOutcome, type NameList, type StepRecord } from './episode';
import type { ArenaTask } from './task';
import type { JudgeVerdictRecord } from './judge';

/** Renders the images of a step (the arena CLI's renderer in the page; the arena page's own). */
export type StepRenderer = (episode: ArenaEpisode) => Promise<ObservationImages>;

/** One episode's record: a line of `episodes.jsonl`. */
export interface ArenaRecord extends EpisodeOutcome {
  task: string;
  family: string;
  difficulty: string;
  agent: string;
  /** Seed of the agent's episode (random agents). */
  seed: number;
  steps: number;
  actions: StepRecord[];
  /** Summed over turns, where the agent reports them. */
  tokens: number;
  latencyMs: number;
  parseErrors: number;
  /** The LLM judge's verdict on a fuzzy_match answer (`--judge`), which then decides the score. */
  judge?: JudgeVerdictRecord;
}

/**
 * Runs `task` with `agent` (see the module comment).
 *
 * @param others names a fuzzy answer may be confused with.
 * @param seed the episode's seed (recorded; the agent was created with it).
 */
export async function runArenaEpisode(world: World, task: ArenaTask, agent: ArenaAgent, others: NameList, seed: number, render?: StepRenderer): Promise<ArenaRecord> {
  const ep = new ArenaEpisode(world, task, others);
  const played = await playEpisode(ep, agent, task, () => agent.begin({ taskId: task.id, family: task.family, instruction: task.instruction }, { world, task, walker: () => ep.walker.state }), render && (() => render(ep)));
  try {
    agent.end?.(task.id, played.outcome);
  } catch {
    // The agent went away after its episode: the record stands.
  }
  return {
    task: task.id, family: task.family, difficulty: task.difficulty, agent: agent.name, seed, ...played.outcome, actions: ep.steps,
    tokens: played.tokens, latencyMs: played.latencyMs, parseErrors: played.parseErrors,
  };
}

/** An episode the loop can play: its observation, an action applied, a failure recorded (360CityArena's and the ladder's). */
export interface PlayableEpisode<O, A, R extends EpisodeOutcome> {
  observation(): O;
  act(action: A, thought: string): R | null;
  fail(status: 'agent_error' | 'env_error', error: string): R;
}

/** An agent the loop can ask: whether it needs images, and one turn for an observation. */
export interface TurnAgent<O, A> {
  readonly name: string;
  readonly needsImages: boolean;
  act(obs: O, images: ObservationImages | null): Promise<{ action: A; thought: string; tokens?: number; latencyMs?: number; parseErrors?: number }>;
}

/**
 * Plays an episode to its end: `begin`, then observation → images (only for agents that need them)
 * → agent → action until it ends. A failing `begin` or turn ends it as agent_error, a failing render
 * as env_error; refused actions are not steps, so turns are bounded at four times the step limit.
 *
 * @returns the outcome and the agent's summed tokens, latency (ms, rounded) and parse errors.
 */
export async function playEpisode<O, A, R extends EpisodeOutcome>(ep: PlayableEpisode<O, A, R>, agent: TurnAgent<O, A>, task: Pick<ArenaTask, 'stepLimit'>, begin: () => void | Promise<void>, render?: () => Promise<ObservationImages>): Promise<{ outcome: R; tokens: number; latencyMs: number; parseErrors: number }> {
  let tokens = 0;
  let latencyMs = 0;
  let parseErrors = 0;
  let outcome: R | null = null;
  try {
    await begin();
  } catch (e) {
    outcome = ep.fail('agent_error', (e as Error).message);
  }
  for (let turns = 0; !outcome; turns++) {
    if (turns > task.stepLimit * 4) {
      outcome = ep.fail('agent_error', `more than ${task.stepLimit * 4} turns without reaching the step limit (invalid actions)`);
      break;
    }
    let images: ObservationImages | null = null;
    if (agent.needsImages) {
      if (!render) {
        outcome = ep.fail('env_error', `agent ${agent.name} needs images and no renderer is available`);
        break;
      }
      try {
        images = await render();
      } catch (e) {
        outcome = ep.fail('env_error', `render: ${(e as Error).message}`);
        break;
      }
    }
    try {
      const turn = await agent.act(ep.observation(), images);
      tokens += turn.tokens ?? 0;
      latencyMs += turn.latencyMs ?? 0;
      parseErrors += turn.parseErrors ?? 0;
      outcome = ep.act(turn.action, turn.thought);
    } catch (e) {
      outcome = ep.fail('agent_error', (e as Error).message);
    }
  }
  return { outcome, tokens, latencyMs: Math.round(latencyMs), parseErrors };
}
