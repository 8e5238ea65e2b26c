/**
 * Browser side of `npm run bench:gpu`: names the WebGPU adapter the page gets, so the run can
 * refuse a software adapter before it spends minutes on figures that are not GPU figures.
 */
import { describeAdapter, withAcquiredDevice } from '../src/gpu/device';

/** The adapter's one-line description ({@link describeAdapter}) and whether it renders in software. */
export async function describeGpuAdapter(_req: Record<string, never>): Promise<{ adapter: string; software: boolean }> {
  return withAcquiredDevice({}, async (acquired) => ({ adapter: describeAdapter(acquired), software: acquired.isSoftware }));
}
