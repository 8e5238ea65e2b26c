import { createRng } from '../core/random';
import { afterAll, describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { PrefixScan } from './prefix-scan';
import { RADIX_BITS, RadixSort, type SortCount } from './radix-sort';
import { SplitRadixSort } from './split-radix-sort';
import { exclusiveScanReference } from './radix-sort-reference';

/** Seeded full-range u32 keys, so every run sees the same keys. */
function rng(seed: number): () => number {
  const r = createRng(seed);
  return () => r.int(0, 0xffffffff);
}

const STORAGE_IO = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

function upload(device: GPUDevice, data: Uint32Array, label: string): GPUBuffer {
  const buffer = device.createBuffer({ label, size: Math.max(4, data.byteLength), usage: STORAGE_IO, mappedAtCreation: true });
  new Uint32Array(buffer.getMappedRange()).set(data);
  buffer.unmap();
  return buffer;
}

async function readBack(device: GPUDevice, buffer: GPUBuffer, count: number): Promise<Uint32Array> {
  const staging = device.createBuffer({ size: Math.max(4, count * 4), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0, count * 4));
  staging.destroy();
  return out;
}

/** Fails with the first index where `got` and `want` differ, and both values there. */
function expectSameArray(what: string, got: Uint32Array, want: Uint32Array): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  const i = got.findIndex((v, k) => v !== want[k]);
  expect(i < 0 ? 'equal' : `first mismatch at index ${i}: got ${got[i]}, expected ${want[i]}`, what).toBe('equal');
}

/** Keys and original indices ordered by Array.prototype.sort on (masked key, index): stable. */
function sortedPairs(keys: Uint32Array, bits = 32): { keys: Uint32Array; values: Uint32Array } {
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  const order = Array.from(keys, (_, i) => i).sort((a, b) => ((keys[a] & mask) >>> 0) - ((keys[b] & mask) >>> 0) || a - b);
  return { keys: Uint32Array.from(order, (i) => keys[i]), values: Uint32Array.from(order) };
}

/** Sorts `keys` on the GPU with values = original indices; returns the result and the GPU time. */
async function gpuSort(device: GPUDevice, sorter: RadixSort | SplitRadixSort, keys: Uint32Array, bitsToSort?: number, count: SortCount = keys.length) {
  const keyBuffer = upload(device, keys, 'test.keys');
  const valueBuffer = upload(device, Uint32Array.from(keys, (_, i) => i), 'test.values');
  await device.queue.onSubmittedWorkDone();
  const start = performance.now();
  const encoder = device.createCommandEncoder();
  if (sorter instanceof RadixSort) sorter.encode(encoder, keyBuffer, valueBuffer, count, bitsToSort);
  else sorter.encode(encoder, keyBuffer, valueBuffer, keys.length, bitsToSort);
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  const ms = performance.now() - start;
  const result = { keys: await readBack(device, keyBuffer, keys.length), values: await readBack(device, valueBuffer, keys.length), ms };
  keyBuffer.destroy();
  valueBuffer.destroy();
  return result;
}

async function checkSort(device: GPUDevice, sorter: RadixSort | SplitRadixSort, keys: Uint32Array, bitsToSort?: number): Promise<number> {
  const got = await gpuSort(device, sorter, keys, bitsToSort);
  const want = sortedPairs(keys, bitsToSort === undefined ? 32 : Math.ceil(bitsToSort / RADIX_BITS) * RADIX_BITS);
  expectSameArray(`keys (n = ${keys.length})`, got.keys, want.keys);
  expectSameArray(`values (n = ${keys.length})`, got.values, want.values);
  return got.ms;
}

const CAPACITY = 70_000;
let shared: RadixSort | undefined;
async function sorter(device: GPUDevice): Promise<RadixSort> {
  shared ??= await RadixSort.create(device, CAPACITY);
  return shared;
}
afterAll(() => shared?.destroy());

describe('RadixSort', () => {
  for (const n of [1, 255, 256, 257, 1023, 1024, 1025, 5000, CAPACITY]) {
    it(`sorts random full-range keys stably, n = ${n}`, async () => {
      await withDevice(async (device) => {
        const next = rng(n);
        await checkSort(device, await sorter(device), Uint32Array.from({ length: n }, () => next()));
      });
    });
  }

  const patterns: [string, (i: number, next: () => number) => number][] = [
    ['many ties (keys 0..15)', (_, next) => next() & 15],
    ['already sorted', (i) => i * 7919],
    ['reverse sorted', (i) => 0xffffffff - i * 7919],
    ['all equal', () => 0xdeadbeef],
  ];
  for (const [name, make] of patterns) {
    it(`sorts ${name}, n = 5000`, async () => {
      await withDevice(async (device) => {
        const next = rng(99);
        await checkSort(device, await sorter(device), Uint32Array.from({ length: 5000 }, (_, i) => make(i, next) >>> 0));
      });
    });
  }

  // Logs the time only: SwiftShader timings say nothing about GPUs, and tests assert no times.
  it('sorts 70k keys again with warm pipelines and logs the time', async () => {
    await withDevice(async (device) => {
      const next = rng(7);
      const keys = Uint32Array.from({ length: CAPACITY }, () => next());
      const ms = await checkSort(device, await sorter(device), keys);
      console.log(`RadixSort: ${CAPACITY} random keys in ${ms.toFixed(1)} ms (warm)`);
    });
  });

  for (const bits of [16, 8]) {
    it(`sorts the low ${bits} bits only (${bits / RADIX_BITS} passes), stably`, async () => {
      await withDevice(async (device) => {
        const next = rng(bits);
        await checkSort(device, await sorter(device), Uint32Array.from({ length: 5000 }, () => next()), bits);
      });
    });
  }

  it('linearises a 2D dispatch when blocks exceed the per-dimension limit', async () => {
    await withDevice(async (device) => {
      // 5000 keys = 5 blocks; with at most 2 workgroups per dimension they run as a 2 × 3 grid.
      const small = await RadixSort.create(device, 5000, 'RadixSort2D', 2);
      const next = rng(2);
      await checkSort(device, small, Uint32Array.from({ length: 5000 }, () => next()));
      small.destroy();
    });
  });

  it('sorts buffer pairs encoded into one submission, with the same and with different CPU counts', async () => {
    await withDevice(async (device) => {
      const s = await sorter(device);
      const next = rng(5);
      // Each CPU count has its own slot (dynamic offset), so one submission may mix counts.
      const counts = [3000, 3000, 1200, 257];
      const inputs = counts.map((n) => Uint32Array.from({ length: n }, () => next()));
      const buffers = inputs.map((keys) => [upload(device, keys, 'test.keys'), upload(device, Uint32Array.from(keys, (_, i) => i), 'test.values')]);
      const encoder = device.createCommandEncoder();
      for (const [k, [keys, values]] of buffers.entries()) s.encode(encoder, keys, values, counts[k]);
      device.queue.submit([encoder.finish()]);
      for (const [k, [keys, values]] of buffers.entries()) {
        const want = sortedPairs(inputs[k]);
        expectSameArray(`keys of pair ${k}`, await readBack(device, keys, counts[k]), want.keys);
        expectSameArray(`values of pair ${k}`, await readBack(device, values, counts[k]), want.values);
        keys.destroy();
        values.destroy();
      }
    });
  });

  it('throws on a count above capacity or a bad bitsToSort, and sorts nothing for count 0', async () => {
    await withDevice(async (device) => {
      const s = await sorter(device);
      const keys = upload(device, Uint32Array.of(3, 2, 1, ...new Array<number>(CAPACITY - 2).fill(0)), 'test.keys');
      const values = upload(device, new Uint32Array(CAPACITY + 1), 'test.values');
      const encoder = device.createCommandEncoder();
      expect(() => s.encode(encoder, keys, values, CAPACITY + 1)).toThrow(
        `RadixSort.encode: count ${CAPACITY + 1} exceeds capacity ${CAPACITY}`,
      );
      expect(() => s.encode(encoder, keys, values, 10, 33)).toThrow('RadixSort.encode: bitsToSort 33');
      expect(() => s.encode(encoder, keys, keys, 10)).toThrow('RadixSort.encode: keys and values');
      s.encode(encoder, keys, values, 0);
      device.queue.submit([encoder.finish()]);
      expect(Array.from(await readBack(device, keys, 3))).toEqual([3, 2, 1]);
      keys.destroy();
      values.destroy();
    });
  });
});

describe('RadixSort with a GPU-written count (indirect dispatch)', () => {
  /** A STORAGE buffer whose first u32 is `n`, as a pass that counted visible splats leaves it. */
  const countBuffer = (device: GPUDevice, n: number) => upload(device, Uint32Array.of(n), 'test.count');

  it('sorts the first count keys and leaves the rest of the buffers untouched', async () => {
    await withDevice(async (device) => {
      const next = rng(11);
      const keys = Uint32Array.from({ length: CAPACITY }, () => next()); // a GPU count needs capacity-sized buffers
      const count = countBuffer(device, 4097);
      const got = await gpuSort(device, await sorter(device), keys, 32, count);
      const want = sortedPairs(keys.subarray(0, 4097));
      expectSameArray('keys', got.keys.subarray(0, 4097), want.keys);
      expectSameArray('values', got.values.subarray(0, 4097), want.values);
      expectSameArray('keys past the count', got.keys.subarray(4097), keys.subarray(4097));
      count.destroy();
    });
  });

  it('sorts a small count correctly right after a large one (stale histogram columns are zeroed)', async () => {
    await withDevice(async (device) => {
      const s = await sorter(device);
      const next = rng(12);
      const big = Uint32Array.from({ length: CAPACITY }, () => next() & 0xffff);
      const count = countBuffer(device, CAPACITY);
      await gpuSort(device, s, big, 16, count);
      device.queue.writeBuffer(count, 0, Uint32Array.of(1500));
      const small = Uint32Array.from({ length: CAPACITY }, () => next() & 0xffff);
      const got = await gpuSort(device, s, small, 16, count);
      const want = sortedPairs(small.subarray(0, 1500), 16);
      expectSameArray('keys', got.keys.subarray(0, 1500), want.keys);
      expectSameArray('values', got.values.subarray(0, 1500), want.values);
      count.destroy();
    });
  });

  it('sorts nothing for a GPU count of 0 and clamps a count above capacity', async () => {
    await withDevice(async (device) => {
      const s = await RadixSort.create(device, 2000, 'RadixSortClamp');
      const next = rng(13);
      const keys = Uint32Array.from({ length: 2000 }, () => next());
      const zero = countBuffer(device, 0);
      expectSameArray('count 0', (await gpuSort(device, s, keys, 32, zero)).keys, keys);
      const huge = countBuffer(device, 1 << 30);
      expectSameArray('count clamped to capacity', (await gpuSort(device, s, keys, 32, huge)).keys, sortedPairs(keys).keys);
      [zero, huge].forEach((b) => b.destroy());
      s.destroy();
    });
  });

  it('agrees with the split-sort kernel (SplitRadixSort) and Array.prototype.sort on 16-bit depth-like keys with ties', async () => {
    await withDevice(async (device) => {
      const next = rng(14);
      const keys = Uint32Array.from({ length: 20_000 }, () => (next() % 700) + 30_000);
      const split = await SplitRadixSort.create(device, keys.length);
      const a = await gpuSort(device, await sorter(device), keys, 16);
      const b = await gpuSort(device, split, keys, 16);
      expectSameArray('RadixSort vs SplitRadixSort values', a.values, b.values);
      expectSameArray('RadixSort vs Array.prototype.sort', a.values, sortedPairs(keys, 16).values);
      console.log(`20k keys, 16 bits: RadixSort ${a.ms.toFixed(1)} ms, SplitRadixSort ${b.ms.toFixed(1)} ms (SwiftShader, one run)`);
      split.destroy();
    });
  });
});

describe('PrefixScan', () => {
  // 65536 = 256² fits two levels; 65537 needs three. Capping the grid at 3 workgroups per
  // dimension runs every level as a 2D dispatch with padding workgroups.
  const cases: [number, number?][] = [[1], [256], [257], [65536], [65537], [70000], [70000, 3]];
  for (const [n, maxPerDimension] of cases) {
    it(`matches an exclusive scan, n = ${n}${maxPerDimension ? `, 2D grid (≤ ${maxPerDimension} per dimension)` : ''}`, async () => {
      await withDevice(async (device) => {
        const next = rng(n);
        const input = Uint32Array.from({ length: n }, () => next() & 0xff);
        const scan = await PrefixScan.create(device, n, 'PrefixScan', maxPerDimension);
        const data = upload(device, input, 'test.data');
        const encoder = device.createCommandEncoder();
        scan.encode(encoder, data, n);
        device.queue.submit([encoder.finish()]);
        expectSameArray(`scan (n = ${n})`, await readBack(device, data, n), exclusiveScanReference(input));
        data.destroy();
        scan.destroy();
      });
    });
  }
});
