import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuPedestrianBatch } from '../crowd/pedestrian-batch';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { runEpisode } from './episode';
import { perSlotPolicy, runEpisodeBatch, type BatchEpisodePolicy } from './episode-batch';
import type { EpisodeRecord } from './episode-record';
import { planJobs, type BenchJob } from './plan';
import { parseScenarios } from '../sim/scenario';
import { scenarioWorld, type ScenarioWorld } from './scenario-world';

const smoke = parseScenarios('smoke.json', readFileSync(resolve(import.meta.dirname, '../../scenes/suites/smoke.json'), 'utf8'));
const ids = ['smoke/straight/000', 'smoke/obstructing/000', 'smoke/gesturing/000', 'smoke/frontal/000', 'smoke/overtaking/000'];
const jobs = planJobs(
  ids.map((id) => smoke.find((s) => s.id === id)!),
  ['expert'],
  1,
  { index: 1, count: 1 },
  new Set(),
).todo;

interface Emitted {
  record: EpisodeRecord;
  job: BenchJob;
  slot: number;
  /** Control steps the policy had taken when the record arrived. */
  steps: number;
  /** Control steps the policy had taken when the episode started. */
  started: number;
}

/** Runs `jobs` over `slots` slots with the expert and the CPU pedestrian batch. */
async function runBatch(slots: number, list: readonly BenchJob[] = jobs): Promise<Emitted[]> {
  const emitted: Emitted[] = [];
  const expert = perSlotPolicy<BenchJob, ScenarioWorld>(() => new ExpertPolicy(DELIVERY_ROBOT), slots);
  let steps = 0;
  const started = new Map<BenchJob, number>();
  const policy: BatchEpisodePolicy<BenchJob, ScenarioWorld> = {
    ...expert,
    reset: (slot, start) => {
      started.set(start.job, steps);
      return expert.reset(slot, start);
    },
    act: (obs) => {
      steps++;
      return expert.act(obs);
    },
  };
  await runEpisodeBatch(list, {
    pedestrians: new CpuPedestrianBatch(slots),
    policy,
    world: (job) => scenarioWorld(job.scenario),
    robot: DELIVERY_ROBOT,
    crowdDt: 0.1,
    onRecord: (record, job, slot) => void emitted.push({ record, job, slot, steps, started: started.get(job)! }),
  });
  return emitted;
}

const byScenario = (list: Emitted[]) => Object.fromEntries(list.map((e) => [e.record.scenarioId, JSON.stringify(e.record)]));

describe('runEpisodeBatch', { timeout: 60_000 }, () => {
  it('gives every episode the record runEpisode gives it, whatever B and slot', async () => {
    const single: Record<string, string> = {};
    for (const job of jobs) {
      const world = scenarioWorld(job.scenario);
      const pedestrians = new ScenarioPedestrians(job.scenario.pedestrians, world.obstacles, job.seed);
      const r = await runEpisode(job.scenario, job.run, job.seed, { world, pedestrians, policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
      single[r.scenarioId] = JSON.stringify(r);
    }
    const one = await runBatch(1);
    const three = await runBatch(3);
    expect(byScenario(one)).toEqual(single);
    expect(byScenario(three)).toEqual(single);
    // B = 1 reports in job order; B = 3 runs episodes in several slots.
    expect(one.map((e) => e.record.scenarioId)).toEqual(ids);
    expect(new Set(three.map((e) => e.slot)).size).toBe(3);
  });

  it('reports each record when its episode ends and refills that slot from the front of the queue', async () => {
    const three = await runBatch(3);
    expect(three).toHaveLength(jobs.length);
    // Records arrive in the order episodes end (by duration; the expert acts at 10 Hz).
    const steps = three.map((e) => e.steps);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    for (const e of three) expect(e.steps - e.started).toBe(Math.ceil(e.record.duration * 10 - 1e-6));
    expect(three[0].steps).toBeLessThan(three[three.length - 1].steps);
    // Slots 0..2 start jobs 0..2; job 3 goes to the slot of the first record, job 4 to that of the second.
    const slotOf = (i: number) => three.find((e) => e.job === jobs[i])!.slot;
    expect([0, 1, 2, 3, 4].map(slotOf)).toEqual([0, 1, 2, three[0].slot, three[1].slot]);
  });

  it('more slots than jobs: the spare slots stay idle', async () => {
    const r = await runBatch(4, jobs.slice(0, 2));
    expect(r.map((e) => e.slot).sort()).toEqual([0, 1]);
  });
});
