import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childTreeMemoryBytes, PeakMemorySampler } from './process-memory';

describe('browser memory sampling (process tree PSS)', () => {
  it('sees a child process that holds 200 MB and keeps the peak after it exits', async () => {
    const before = childTreeMemoryBytes();
    expect(before, 'Linux /proc').not.toBeNull();
    const sampler = new PeakMemorySampler(50);
    // A child Node process that touches 200 MB and waits.
    const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(200 * 2 ** 20, 1); setTimeout(() => console.log(b[5]), 1500); process.stdout.write('ready\\n');"]);
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    await new Promise((r) => setTimeout(r, 300));
    sampler.sample();
    const during = childTreeMemoryBytes()!;
    await new Promise<void>((r) => child.once('exit', () => r()));
    sampler.stop();
    expect(during - (before ?? 0)).toBeGreaterThan(180 * 2 ** 20);
    expect(sampler.peak!).toBeGreaterThanOrEqual(during);
    expect(childTreeMemoryBytes()!).toBeLessThan(during - 150 * 2 ** 20);
  });
});
