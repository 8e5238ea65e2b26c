/**
 * Pipelines once per device (pipeline-cache.ts) and the work counters (gpu-stats.ts) on real WebGPU:
 * sorts of any capacity on one device share the kernels compiled by the first, still sort
 * correctly, and their submission, pass and readback are counted. A fresh device per test, so its
 * counters start at 0.
 */
import { describe, expect, it } from 'vitest';
import { acquireDevice } from './device';
import { gpuStats, gpuStatsDelta, submit } from './gpu-stats';
import { deviceCached } from './pipeline-cache';
import { PrefixScan } from './prefix-scan';
import { RadixSort } from './radix-sort';
import { readBuffer } from './readback';

/** Runs `body` on a fresh device inside a validation error scope; destroys the device after. */
async function withFreshDevice(body: (device: GPUDevice) => Promise<void>): Promise<void> {
  const { device } = await acquireDevice({});
  device.pushErrorScope('validation');
  try {
    await body(device);
    const error = await device.popErrorScope();
    expect(error?.message ?? 'no validation error').toBe('no validation error');
  } finally {
    device.destroy();
  }
}

describe('pipeline cache', () => {
  it('creates the sort and scan pipelines once per device, whatever the capacities', () =>
    withFreshDevice(async (device) => {
      const first = await RadixSort.create(device, 1000, 'first');
      // prepare, histogramBlocks, scatter, and the histogram scan's scanBlocks, addBlockSums.
      expect(gpuStats(device).pipelinesCreated).toBe(5);
      const [second, scan] = await Promise.all([RadixSort.create(device, 100_000, 'second'), PrefixScan.create(device, 50, 'scan')]);
      expect(gpuStats(device).pipelinesCreated).toBe(5);

      const keys = Uint32Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      const keyBuffer = device.createBuffer({ label: 'test.keys', size: keys.byteLength, usage });
      const valueBuffer = device.createBuffer({ label: 'test.values', size: keys.byteLength, usage });
      device.queue.writeBuffer(keyBuffer, 0, keys);
      device.queue.writeBuffer(valueBuffer, 0, Uint32Array.from(keys.keys()));
      const before = gpuStats(device);
      const encoder = device.createCommandEncoder();
      second.encode(encoder, keyBuffer, valueBuffer, keys.length, 12);
      submit(device, encoder);
      const sorted = new Uint32Array(await readBuffer(device, keyBuffer));
      expect(Array.from(sorted)).toEqual(Array.from(keys).sort((a, b) => a - b));
      // The sort's one pass and submission, then the readback's submission of 4000 bytes.
      expect(gpuStatsDelta(gpuStats(device), before)).toEqual({ submissions: 2, computePasses: 1, renderPasses: 0, readbackBytes: keys.byteLength, pipelinesCreated: 0 });

      for (const o of [first, second, scan, keyBuffer, valueBuffer]) o.destroy();
    }));

  it('shares one make between concurrent first calls and forgets a make that failed', () =>
    withFreshDevice(async (device) => {
      let makes = 0;
      const make = async () => ++makes;
      const [a, b] = await Promise.all([deviceCached(device, 'k', make), deviceCached(device, 'k', make)]);
      expect([a, b, makes]).toEqual([1, 1, 1]);
      await expect(deviceCached(device, 'bad', () => Promise.reject(new Error('no such kernel')))).rejects.toThrow('no such kernel');
      expect(await deviceCached(device, 'bad', make)).toBe(2);
      expect(await deviceCached(device, 'k', make)).toBe(1);
    }));
});
