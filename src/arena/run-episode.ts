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
  let tokens = 0;
  let latencyMs = 0;
  let parseErrors = 0;
  let outcome: EpisodeOutcome | null = null;
  try {
    await agent.begin({ taskId: task.id, family: task.family, instruction: task.instruction }, { world, task, walker: () => ep.walker.state });
  } catch (e) {
    outcome = ep.fail('agent_error', (e as Error).message);
  }
  // Invalid actions are not steps; bound them so that an agent repeating one cannot hang the run.
  for (let turns = 0; !outcome; turns++) {
    if (turns > task.stepLimit * 4) {
      outcome = ep.fail('agent_error', `more than ${task.stepLimit * 4} turns without reaching the step limit (invalid actions)`);
      break;
    }
    let images = null;
    if (agent.needsImages) {
      if (!render) {
        outcome = ep.fail('env_error', `agent ${agent.name} needs images and no renderer is available`);
        break;
      }
      try {
        images = await render(ep);
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
  try {
    agent.end?.(task.id, outcome);
  } catch {
    // The agent went away after its episode: the record stands.
  }
  return {
    task: task.id, family: task.family, difficulty: task.difficulty, agent: agent.name, seed, ...outcome, actions: ep.steps,
    tokens, latencyMs: Math.round(latencyMs), parseErrors,
  };
}
