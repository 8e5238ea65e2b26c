/**
 * Browser side of `npm run bench`: runs benchmark episodes in the page and hands each finished
 * episode to the Node side at once (`window.curbsideEpisodeDone`, exposed by src/cli/bench.ts),
 * which appends it to the results file.
 */
import { acquireDevice, describeAdapter } from '../gpu/device';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { runEpisode, type EpisodePolicy } from './episode';
import { policyName, type EpisodeRecord } from './episode-record';
import type { Scenario } from './scenario';
import { scenarioWorld } from './scenario-world';

/** One episode to run: a scenario, its run index and seed, and the `--policy` value. */
export interface BenchJob {
  scenario: Scenario;
  run: number;
  seed: number;
  policy: string;
}

export interface BenchRequest {
  jobs: BenchJob[];
  /** Episodes simulated concurrently. */
  envs: number;
  /** URLs of served ONNX models and manifests, by `--policy` value. */
  modelFiles: Record<string, { model: string; manifest: string }>;
}

/** Crowd step, s. */
export const CROWD_DT = 0.1;

async function makePolicy(policy: string): Promise<EpisodePolicy> {
  if (policy === 'expert') return new ExpertPolicy(DELIVERY_ROBOT);
  throw new Error(`policy ${policy}: not available in this build (available: expert)`);
}

async function runJob(job: BenchJob): Promise<EpisodeRecord> {
  const world = scenarioWorld(job.scenario);
  const policy = await makePolicy(job.policy);
  const near = world.obstacles.filter((poly) => poly.some(([x, y]) => job.scenario.robot.route.some(([rx, ry]) => Math.hypot(x - rx, y - ry) < 40)));
  const pedestrians = new ScenarioPedestrians(job.scenario.pedestrians, near, job.seed);
  const record = await runEpisode(job.scenario, job.run, job.seed, { world, pedestrians, policy, robot: DELIVERY_ROBOT, crowdDt: CROWD_DT });
  return { ...record, policy: policyName(job.policy) };
}

/** Runs the jobs, `envs` at a time, reporting each record as it finishes. */
export async function runBenchEpisodes(req: BenchRequest): Promise<{ adapter: string }> {
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const report = (window as unknown as { curbsideEpisodeDone: (r: EpisodeRecord) => Promise<void> }).curbsideEpisodeDone;
  const queue = [...req.jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await report(await runJob(job));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(req.envs, queue.length)) }, worker));
  const adapter = describeAdapter(acquired);
  acquired.device.destroy();
  return { adapter };
}
