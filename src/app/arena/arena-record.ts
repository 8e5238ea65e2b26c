/**
 * The record of a human's arena episode: the record `npm run arena` writes to `episodes.jsonl`
 * (src/arena/run-episode.ts, plus the CLI's `run`), with agent `human`, seed and run 0, no tokens,
 * no parse errors and the human's total think time as latency.
 */
import type { ArenaEpisode } from '../../arena/episode';
import type { ArenaRecord } from '../../arena/run-episode';

/** A record line of `episodes.jsonl`. */
export type HumanRecord = ArenaRecord & { run: number };

/** The agent name of human runs. */
export const HUMAN_AGENT = 'human';

/**
 * The record of an ended episode.
 *
 * @param thinkMs milliseconds the human spent choosing actions (summed over steps).
 * @throws Error when the episode has not ended.
 */
export function humanRecord(ep: ArenaEpisode, thinkMs: number): HumanRecord {
  const outcome = ep.outcome;
  if (!outcome) throw new Error(`episode ${ep.task.id} has not ended`);
  const t = ep.task;
  return {
    task: t.id, family: t.family, difficulty: t.difficulty, agent: HUMAN_AGENT, seed: 0, ...outcome, actions: [...ep.steps],
    tokens: 0, latencyMs: Math.round(thinkMs), parseErrors: 0, run: 0,
  };
}

/** The record as one `episodes.jsonl` line (JSON and a newline): append it to a run's log, or read it as JSON. */
export function recordLine(r: HumanRecord): string {
  return `${JSON.stringify(r)}\n`;
}
