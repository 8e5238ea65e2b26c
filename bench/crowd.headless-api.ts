/**
 * Browser side of `npm run bench:crowd`: ORCA steps per second against agent count, GPU
 * (`GpuCrowd`) and CPU reference (`ReferenceCrowd`) side by side on the same crossing crowd.
 */
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';
import { GpuCrowd } from '../src/crowd/gpu-crowd';
import { ReferenceCrowd } from '../src/crowd/reference-crowd';
import { crossingCrowd } from '../src/crowd/scenarios';

export interface CrowdBenchRequest {
  counts: number[];
  /** Minimum seconds of timed stepping per backend and count. */
  seconds: number;
  /** Skip the CPU reference above this many agents (null: never). */
  cpuMaxAgents: number | null;
}

export interface CrowdBenchRow {
  agents: number;
  gpuStepsPerSecond: number;
  /** null when skipped. */
  cpuStepsPerSecond: number | null;
}

export interface CrowdBenchResult {
  adapter: string;
  software: boolean;
  rows: CrowdBenchRow[];
}

export async function runCrowdBenchmark(req: CrowdBenchRequest): Promise<CrowdBenchResult> {
  return withAcquiredDevice({}, async (acquired) => {
    const device = acquired.device;
    const rows: CrowdBenchRow[] = [];
    for (const agents of req.counts) {
      const spec = crossingCrowd(agents, 1);
      const crowd = await GpuCrowd.create(device, spec, { maxSteps: 100_000 });
      const submit = async (steps: number) => {
        const encoder = device.createCommandEncoder();
        crowd.encode(encoder, steps);
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
      };
      await submit(1); // warm-up: first-use allocation
      let steps = 0;
      let batch = 1;
      const t0 = performance.now();
      while (performance.now() - t0 < req.seconds * 1000 || steps < 3) {
        await submit(batch);
        steps += batch;
        batch = Math.min(64, batch * 2);
      }
      const gpuStepsPerSecond = steps / ((performance.now() - t0) / 1000);
      crowd.destroy();
      let cpuStepsPerSecond: number | null = null;
      if (req.cpuMaxAgents === null || agents <= req.cpuMaxAgents) {
        const sim = new ReferenceCrowd(spec);
        sim.step();
        const t1 = performance.now();
        let n = 0;
        while (performance.now() - t1 < req.seconds * 1000 || n < 2) {
          sim.step();
          n++;
        }
        cpuStepsPerSecond = n / ((performance.now() - t1) / 1000);
      }
      rows.push({ agents, gpuStepsPerSecond, cpuStepsPerSecond });
    }
    return { adapter: describeAdapter(acquired), software: acquired.isSoftware, rows };
  });
}
