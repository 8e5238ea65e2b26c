/**
 * Runs one ladder episode with an agent to its end (the ladder's counterpart of run-episode.ts, with
 * the same record, plus UrbanGround's measures): observation → agent → action until the episode
 * ends; a render failure ends it as env_error, an agent failure as agent_error, and the run goes on.
 * No wall-clock time in the record.
 */
import type { World } from '../../world/world';
import type { WorldInventory } from '../../world/inventory';
import type { Georeference } from '../../world/georef';
import type { Conditions } from '../../world/conditions';
import type { ObservationImages } from '../agent';
import type { ArenaRecord } from '../run-episode';
import type { ArenaTask } from '../task';
import type { LadderAgent } from './agent';
import { LadderEpisode, type LadderMetrics, type LadderOutcome } from './episode';

/** Renders the images of a ladder step (the avatar's view, or the map while it is open). */
export type LadderRenderer = (episode: LadderEpisode) => Promise<ObservationImages>;

/** A ladder episode's record: the arena's record and UrbanGround's measures. */
export type LadderRecord = ArenaRecord & { metrics: LadderMetrics };

/**
 * Runs `task` with `agent` (see the module comment).
 *
 * @param seed the episode's seed (recorded; the agent was created with it).
 * @param conditions the time of day and weather of a matched-condition run (src/world/conditions.ts), or null.
 */
export async function runLadderEpisode(world: World, inventory: WorldInventory, georef: Georeference, task: ArenaTask, agent: LadderAgent, seed: number, render?: LadderRenderer, conditions: Conditions | null = null): Promise<LadderRecord> {
  const ep = new LadderEpisode(world, inventory, georef, task, conditions);
  let tokens = 0;
  let latencyMs = 0;
  let parseErrors = 0;
  let outcome: LadderOutcome | null = null;
  try {
    await agent.begin({ taskId: task.id, family: task.family, instruction: task.instruction }, { world, task, session: ep.session });
  } catch (e) {
    outcome = ep.fail('agent_error', (e as Error).message);
  }
  for (let turns = 0; !outcome; turns++) {
    if (turns > task.stepLimit * 4) {
      outcome = ep.fail('agent_error', `more than ${task.stepLimit * 4} turns without reaching the step limit (refused actions)`);
      break;
    }
    let images: ObservationImages | null = null;
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
  return {
    task: task.id, family: task.family, difficulty: task.difficulty, agent: agent.name, seed, ...outcome, actions: ep.steps,
    tokens, latencyMs: Math.round(latencyMs), parseErrors,
  };
}
