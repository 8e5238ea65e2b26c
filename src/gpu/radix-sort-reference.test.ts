import { createRng } from '../core/random';
import { describe, expect, it } from 'vitest';
import { exclusiveScanReference, radixSortReference } from './radix-sort-reference';
import { KEYS_PER_BLOCK, RADIX_BITS } from './radix-sort';

/** Seeded full-range u32 keys, so every run sees the same keys. */
function rng(seed: number): () => number {
  const r = createRng(seed);
  return () => r.int(0, 0xffffffff);
}

/** Stable sort of (key, index) pairs by the masked key with Array.prototype.sort. */
function expected(keys: Uint32Array, bits = 32): { keys: Uint32Array; values: Uint32Array } {
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  const order = Array.from(keys, (_, i) => i).sort((a, b) => ((keys[a] & mask) >>> 0) - ((keys[b] & mask) >>> 0) || a - b);
  return { keys: Uint32Array.from(order, (i) => keys[i]), values: Uint32Array.from(order) };
}

describe('radixSortReference', () => {
  const cases: [string, (i: number, next: () => number) => number][] = [
    ['random full-range', (_, next) => next()],
    ['ties (0..15)', (_, next) => next() & 15],
    ['already sorted', (i) => i * 7919],
    ['reverse sorted', (i) => (0xffffffff - i * 7919) >>> 0],
    ['all equal', () => 0xdeadbeef],
  ];
  for (const [name, make] of cases) {
    for (const n of [0, 1, KEYS_PER_BLOCK - 1, KEYS_PER_BLOCK + 1, 5000]) {
      it(`matches Array.prototype.sort: ${name}, n = ${n}`, () => {
        const next = rng(n + 17);
        const keys = Uint32Array.from({ length: n }, (_, i) => make(i, next));
        const values = Uint32Array.from(keys, (_, i) => i);
        const got = radixSortReference(keys, values);
        const want = expected(keys);
        expect(got.keys).toEqual(want.keys);
        expect(got.values).toEqual(want.values);
      });
    }
  }

  it('sorts by the low bits only when bitsToSort < 32, keeping the rest stable', () => {
    const next = rng(3);
    const keys = Uint32Array.from({ length: 3000 }, () => next());
    const values = Uint32Array.from(keys, (_, i) => i);
    for (const bits of [6, 8, 12, 16, 24]) {
      const got = radixSortReference(keys, values, bits);
      const want = expected(keys, Math.ceil(bits / RADIX_BITS) * RADIX_BITS); // whole digits
      expect(got.keys).toEqual(want.keys);
      expect(got.values).toEqual(want.values);
    }
  });

  it('rejects mismatched lengths and bad bitsToSort', () => {
    expect(() => radixSortReference(new Uint32Array(2), new Uint32Array(3))).toThrow(/2 keys but 3 values/);
    expect(() => radixSortReference(new Uint32Array(2), new Uint32Array(2), 0)).toThrow(/bitsToSort 0/);
  });
});

describe('exclusiveScanReference', () => {
  it('shifts the running sum by one and wraps at 2^32', () => {
    expect(Array.from(exclusiveScanReference(Uint32Array.of(3, 1, 4, 1, 5)))).toEqual([0, 3, 4, 8, 9]);
    expect(Array.from(exclusiveScanReference(Uint32Array.of(0xffffffff, 2, 0)))).toEqual([0, 0xffffffff, 1]);
  });
});
