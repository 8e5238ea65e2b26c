/**
 * Headless-page functions of the crowd (called by `npm run crowd` through the browser harness):
 * plain JSON in, plain JSON out. Both backends run in the page. Progress goes to the page console
 * as `crowd-progress <steps> <reached>/<agents>`.
 */
import { describeAdapter, withAcquiredDevice } from '../gpu/device';
import { fetchBytes } from '../core/bytes';
import type { CrowdSpec } from './crowd-spec';
import { type CrowdRunResult, runCrowd } from './crowd-run';
import { parseScenarioFile } from './scenario-file';
import { blocksScenario, circleScenario } from './scenarios';

/** A run request from `npm run crowd`. */
export interface CrowdRequest {
  scenario: 'circle' | 'blocks' | 'file';
  fileUrl?: string;
  fileName?: string;
  /** Agent count (circle: on the ring; blocks: rounded to 4·k²). */
  agents?: number;
  maxSteps: number;
  backend: 'gpu' | 'cpu';
  seed: number;
  /** Spawn jitter, m (built-in scenarios; files set their own). */
  jitter: number;
}

/** The run's summary plus the scenario name and the adapter. */
export interface CrowdResponse extends CrowdRunResult {
  scenario: string;
  seed: number;
  adapter: string | null;
}

export async function runCrowdScenario(req: CrowdRequest): Promise<CrowdResponse> {
  let spec: CrowdSpec;
  let name: string = req.scenario;
  if (req.scenario === 'circle') spec = circleScenario(req.agents ?? 250, req.seed, req.jitter);
  else if (req.scenario === 'blocks') spec = blocksScenario(req.seed, req.jitter, Math.max(1, Math.round(Math.sqrt((req.agents ?? 100) / 4))));
  else {
    name = req.fileName!;
    spec = parseScenarioFile(req.fileName!, new TextDecoder().decode(await fetchBytes(req.fileUrl!, req.fileName!)), req.seed);
  }
  const n = spec.agents.length;
  const progress = (steps: number, reached: number) => console.log(`crowd-progress ${steps} ${reached}/${n}`);
  if (req.backend === 'cpu') return { ...(await runCrowd(spec, 'cpu', req.maxSteps, undefined, progress)), scenario: name, seed: req.seed, adapter: null };
  return withAcquiredDevice({}, async (acquired) => {
    const result = await runCrowd(spec, 'gpu', req.maxSteps, acquired.device, progress);
    return { ...result, scenario: name, seed: req.seed, adapter: describeAdapter(acquired) };
  });
}
