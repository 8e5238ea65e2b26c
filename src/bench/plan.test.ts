import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { runEpisode } from './episode';
import { episodeKey, type EpisodeRecord } from './episode-record';
import { planJobs, type BenchJob } from './plan';
import { parseScenarios } from '../sim/scenario';
import { scenarioWorld } from './scenario-world';

const smoke = parseScenarios('smoke.json', readFileSync(resolve(import.meta.dirname, '../../scenes/suites/smoke.json'), 'utf8'));
const pick = smoke.filter((s) => ['smoke/straight/000', 'smoke/obstructing/000', 'smoke/frontal/000'].includes(s.id));

/** Runs a job the way the page does for the expert (TypeScript only). */
async function run(job: BenchJob): Promise<EpisodeRecord> {
  const world = scenarioWorld(job.scenario);
  const pedestrians = new ScenarioPedestrians(job.scenario.pedestrians, world.obstacles, job.seed);
  return runEpisode(job.scenario, job.run, job.seed, { world, pedestrians, policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
}

describe('planJobs', () => {
  it('covers scenarios × policies × seeds, shards completely and skips what is done', () => {
    const plan = planJobs(smoke, ['expert', 'onnx:a/model.onnx'], 2, { index: 1, count: 1 }, new Set());
    expect(plan.all).toHaveLength(smoke.length * 2 * 2);
    const shards = [1, 2, 3].map((i) => planJobs(smoke, ['expert'], 2, { index: i, count: 3 }, new Set()).mine);
    expect(shards.flat().map((j) => `${j.scenario.id}#${j.run}`).sort()).toEqual(planJobs(smoke, ['expert'], 2, { index: 1, count: 1 }, new Set()).all.map((j) => `${j.scenario.id}#${j.run}`).sort());
    const done = new Set([episodeKey({ scenarioId: smoke[0].id, policy: 'onnx:a', run: 1 })]);
    expect(planJobs(smoke, ['onnx:a/model.onnx'], 2, { index: 1, count: 1 }, done).todo).toHaveLength(smoke.length * 2 - 1);
    // Runs of a scenario get distinct, reproducible seeds.
    const seeds = planJobs(smoke, ['expert'], 3, { index: 1, count: 1 }, new Set()).all.filter((j) => j.scenario.id === smoke[0].id).map((j) => j.seed);
    expect(new Set(seeds).size).toBe(3);
    expect(planJobs(smoke, ['expert'], 3, { index: 1, count: 1 }, new Set()).all.map((j) => j.seed)).toEqual(planJobs(smoke, ['expert'], 3, { index: 1, count: 1 }, new Set()).all.map((j) => j.seed));
  });

  it('an interrupted run resumed gives the same results as an uninterrupted one', async () => {
    const full = planJobs(pick, ['expert'], 2, { index: 1, count: 1 }, new Set()).todo;
    const uninterrupted = [];
    for (const j of full) uninterrupted.push(await run(j));
    // Interrupted after 2 episodes; the rerun skips what the results file already holds.
    const first = [];
    for (const j of full.slice(0, 2)) first.push(await run(j));
    const rest = planJobs(pick, ['expert'], 2, { index: 1, count: 1 }, new Set(first.map(episodeKey))).todo;
    expect(rest).toHaveLength(full.length - 2);
    const resumed = [...first];
    for (const j of rest) resumed.push(await run(j));
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(uninterrupted));
  }, 120_000);
});
