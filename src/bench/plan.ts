/**
 * The episodes of a benchmark run: scenarios × policies × runs, with each run's seed derived from
 * the scenario's seed and the run index, split into shards, minus those already in the results
 * file (resume). Deterministic: the same inputs give the same jobs in the same order.
 */
import { deriveSeed } from '../core/random';
import { episodeKey, policyName } from './episode-record';
import type { Scenario } from '../sim/scenario';

/** One episode to run: a scenario, its run index and seed, and the `--policy` value. */
export interface BenchJob {
  scenario: Scenario;
  run: number;
  seed: number;
  policy: string;
}

/** The episode seed of run `run` of a scenario. */
export const runSeed = (scenario: Scenario, run: number): number => deriveSeed(scenario.seed, run);

/**
 * Plans a run: `all` jobs, this shard's `mine` (every n-th, see shardItems), and `todo` = `mine`
 * without the episodes whose keys are in `done`.
 */
export function planJobs(scenarios: readonly Scenario[], policies: readonly string[], seeds: number, shard: { index: number; count: number }, done: ReadonlySet<string>): { all: BenchJob[]; mine: BenchJob[]; todo: BenchJob[] } {
  const all: BenchJob[] = [];
  for (const policy of policies) for (const scenario of scenarios) for (let run = 0; run < seeds; run++) all.push({ scenario, run, seed: runSeed(scenario, run), policy });
  const mine = all.filter((_, k) => k % shard.count === shard.index - 1);
  const todo = mine.filter((j) => !done.has(episodeKey({ scenarioId: j.scenario.id, policy: policyName(j.policy), run: j.run })));
  return { all, mine, todo };
}
