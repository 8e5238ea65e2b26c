/**
 * Runs one ladder episode with an agent to its end, by the arena's loop (run-episode.ts
 * `playEpisode`), with the same record plus UrbanGround's measures. No wall-clock time in the record.
 */
import type { World } from '../../world/world';
import type { WorldInventory } from '../../world/inventory';
import type { Georeference } from '../../world/georef';
import type { Conditions } from '../../world/conditions';
import type { ObservationImages } from '../agent';
import { playEpisode, type ArenaRecord } from '../run-episode';
import type { ArenaTask } from '../task';
import type { LadderAgent } from './agent';
import { LadderEpisode, type LadderMetrics } from './episode';

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
  const played = await playEpisode(ep, agent, task, () => agent.begin({ taskId: task.id, family: task.family, instruction: task.instruction }, { world, task, session: ep.session }), render && (() => render(ep)));
  return {
    task: task.id, family: task.family, difficulty: task.difficulty, agent: agent.name, seed, ...played.outcome, actions: ep.steps,
    tokens: played.tokens, latencyMs: played.latencyMs, parseErrors: played.parseErrors,
  };
}
