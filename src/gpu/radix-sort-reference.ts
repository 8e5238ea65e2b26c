/**
 * Plain TypeScript reference for {@link RadixSort} and {@link PrefixScan}: the same stable LSD
 * radix sort with RADIX_BITS-bit digits, step for step — per-block digit histograms stored
 * digit-major (each block made of KEYS_PER_THREAD-key segments, with every segment's first
 * offset per digit inside its block), an exclusive scan of the histograms, and a scatter that walks
 * each segment in order (Satish, Harris & Garland 2009). GPU tests compare the kernels with these
 * functions.
 */
import { KEY_BITS, KEYS_PER_BLOCK, KEYS_PER_THREAD, RADIX_BITS, RADIX_SIZE } from './radix-sort';

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
    // 1. Per-segment digit counts; per block, each segment's first offset for each digit
    //    (segmentOffsets[segment * RADIX_SIZE + digit]) and the block totals, digit-major:
    //    histogram[digit * numBlocks + block].
    const segments = Math.ceil(count / KEYS_PER_THREAD);
    const segmentOffsets = new Uint32Array(segments * RADIX_SIZE);
    const histogram = new Uint32Array(RADIX_SIZE * numBlocks);
    for (let s = 0; s < segments; s++) {
      const block = Math.floor((s * KEYS_PER_THREAD) / KEYS_PER_BLOCK);
      for (let d = 0; d < RADIX_SIZE; d++) segmentOffsets[s * RADIX_SIZE + d] = histogram[d * numBlocks + block];
      for (let i = s * KEYS_PER_THREAD; i < Math.min(count, (s + 1) * KEYS_PER_THREAD); i++) histogram[digitOf(keysIn[i]) * numBlocks + block]++;
    }
    // 2. Exclusive scan: first output index of each (digit, block).
    const offsets = exclusiveScanReference(histogram);
    // 3. Scatter: block's first slot for the digit + the segment's offset in the block + the
    //    digit's keys before this one in the segment.
    const seen = new Uint32Array(RADIX_SIZE);
    for (let i = 0; i < count; i++) {
      if (i % KEYS_PER_THREAD === 0) seen.fill(0);
      const d = digitOf(keysIn[i]);
      const s = Math.floor(i / KEYS_PER_THREAD);
      const target = offsets[d * numBlocks + Math.floor(i / KEYS_PER_BLOCK)] + segmentOffsets[s * RADIX_SIZE + d] + seen[d]++;
      keysOut[target] = keysIn[i];
      valuesOut[target] = valuesIn[i];
    }
    [keysIn, keysOut] = [keysOut, keysIn];
    [valuesIn, valuesOut] = [valuesOut, valuesIn];
  }
  return { keys: keysIn, values: valuesIn };
}
