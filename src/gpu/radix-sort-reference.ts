/**
 * Plain TypeScript reference for {@link RadixSort} and {@link PrefixScan}: the same stable LSD
 * radix sort with RADIX_BITS-bit digits, step for step — per-block digit histograms stored
 * digit-major, an exclusive scan of them, and a scatter that keeps each block's order within a
 * digit (Satish, Harris & Garland 2009). GPU tests compare the kernels with these functions.
 */
import { KEY_BITS, KEYS_PER_BLOCK, RADIX_BITS, RADIX_SIZE } from './radix-sort';

/** Exclusive prefix sum of `input` (wrapping at 2³², like the u32 GPU scan). */
export function exclusiveScanReference(input: Uint32Array): Uint32Array {
  const out = new Uint32Array(input.length);
  let sum = 0;
  for (let i = 0; i < input.length; i++) {
    out[i] = sum;
    sum = (sum + input[i]) >>> 0;
  }
  return out;
}

/**
 * Sorts `keys` ascending, carrying `values` along, stably; the inputs are not modified.
 *
 * @param bitsToSort Run ⌈bitsToSort / RADIX_BITS⌉ digit passes, comparing that many whole low
 *   digits of each key (12 → 16 bits), as in `RadixSort.encode`.
 * @throws Error when the arrays differ in length or `bitsToSort` is not an integer in [1, 32].
 */
export function radixSortReference(
  keys: Uint32Array,
  values: Uint32Array,
  bitsToSort = KEY_BITS,
): { keys: Uint32Array; values: Uint32Array } {
  if (keys.length !== values.length) {
    throw new Error(`radixSortReference: ${keys.length} keys but ${values.length} values`);
  }
  if (!Number.isInteger(bitsToSort) || bitsToSort < 1 || bitsToSort > KEY_BITS) {
    throw new Error(`radixSortReference: bitsToSort ${bitsToSort} is not an integer in [1, ${KEY_BITS}]`);
  }
  const count = keys.length;
  const numBlocks = Math.ceil(count / KEYS_PER_BLOCK);
  let keysIn = keys.slice();
  let valuesIn = values.slice();
  let keysOut = new Uint32Array(count);
  let valuesOut = new Uint32Array(count);
  const passes = Math.ceil(bitsToSort / RADIX_BITS);
  for (let pass = 0; pass < passes; pass++) {
    const shift = pass * RADIX_BITS;
    const digitOf = (key: number) => (key >>> shift) & (RADIX_SIZE - 1);
    // 1. Per-block digit histograms, digit-major: histogram[digit * numBlocks + block].
    const histogram = new Uint32Array(RADIX_SIZE * numBlocks);
    for (let i = 0; i < count; i++) {
      histogram[digitOf(keysIn[i]) * numBlocks + Math.floor(i / KEYS_PER_BLOCK)]++;
    }
    // 2. Exclusive scan: first output index of each (digit, block).
    const offsets = exclusiveScanReference(histogram);
    // 3. Scatter; visiting each block in order keeps the rank within a digit stable.
    for (let i = 0; i < count; i++) {
      const slot = digitOf(keysIn[i]) * numBlocks + Math.floor(i / KEYS_PER_BLOCK);
      const target = offsets[slot]++;
      keysOut[target] = keysIn[i];
      valuesOut[target] = valuesIn[i];
    }
    [keysIn, keysOut] = [keysOut, keysIn];
    [valuesIn, valuesOut] = [valuesOut, valuesIn];
  }
  return { keys: keysIn, values: valuesIn };
}
