/**
 * Runs a crowd to completion on either backend and summarises it (used by `npm run crowd` through
 * headless-api.ts, and by tests). Both backends measure every state with the same definitions
 * (crowd-metrics.ts) and stop at the first state in which every agent is at its goal.
 */
import { submit } from '../gpu/gpu-stats';
import { type RunSummary, type StateMetrics, summarize } from './crowd-metrics';
import type { CrowdSpec } from './crowd-spec';
import { GpuCrowd, STEP_SLOTS } from './gpu-crowd';
import { ReferenceCrowd } from './reference-crowd';

/** Result of {@link runCrowd}. */
export interface CrowdRunResult extends RunSummary {
  backend: 'gpu' | 'cpu';
  agents: number;
  /** Steps simulated (= allReachedGoalAtStep when everyone arrived). */
  steps: number;
  /** Time step, s. */
  dt: number;
  /** Wall-clock time of the simulation loop, s. */
  wallSeconds: number;
}

/** Progress callback: steps done, agents at their goal in the latest measured state. */
export type Progress = (steps: number, reached: number) => void;

const firstAllReached = (states: readonly StateMetrics[], n: number) => states.findIndex((s) => s.reachedAgents === n);

/**
 * Simulates `spec` for at most `maxSteps` steps.
 *
 * @param device Required for the GPU backend.
 * @throws Error when the GPU backend is asked for without a device, and from the backends.
 */
export async function runCrowd(
  spec: CrowdSpec, backend: 'gpu' | 'cpu', maxSteps: number, device?: GPUDevice, progress: Progress = () => {},
): Promise<CrowdRunResult> {
  const n = spec.agents.length;
  const t0 = performance.now();
  let states: StateMetrics[];
  if (backend === 'cpu') {
    const sim = new ReferenceCrowd(spec);
    states = [sim.measure()];
    while (sim.stepCount < maxSteps && states[states.length - 1].reachedAgents < n) {
      sim.step();
      states.push(sim.measure());
      if (sim.stepCount % 500 === 0) progress(sim.stepCount, states[states.length - 1].reachedAgents);
    }
  } else {
    if (!device) throw new Error('runCrowd: the gpu backend needs a device');
    const crowd = await GpuCrowd.create(device, spec, { maxSteps });
    try {
      let batches = 0;
      for (;;) {
        const steps = Math.min(STEP_SLOTS, maxSteps - crowd.stepCount);
        const last = steps === maxSteps - crowd.stepCount;
        const encoder = device.createCommandEncoder({ label: 'runCrowd' });
        crowd.encode(encoder, steps, last);
        submit(device, encoder);
        batches++;
        if (last || batches % 4 === 0) {
          // Readback on request: progress and the early stop read the per-state metrics.
          states = await crowd.readMetrics();
          const k = firstAllReached(states, n);
          progress(crowd.stepCount, states[states.length - 1]?.reachedAgents ?? 0);
          if (k >= 0 || last) break;
        }
      }
    } finally {
      crowd.destroy();
    }
  }
  const k = firstAllReached(states, n);
  if (k >= 0) states = states.slice(0, k + 1);
  return {
    backend, agents: n, steps: states.length - 1, dt: spec.timeStep,
    ...summarize(states, n), wallSeconds: (performance.now() - t0) / 1000,
  };
}
