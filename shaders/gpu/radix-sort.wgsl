// One digit pass of a stable LSD key-value radix sort (u32 keys and values) whose element count
// may be written by the GPU. Portable: no subgroup operations, no forward-progress assumption
// between workgroups. Structure after Satish, Harris & Garland (2009), "Designing efficient
// sorting algorithms for manycore GPUs" (per-block histograms, a global scan, a per-block
// scatter), with Merrill & Grimshaw's reduce-then-scan between them (prefix-scan.wgsl). The
// scatter ranks keys inside a block with per-digit occupancy bitmasks and population counts
// (one atomicOr per key, one atomicExchange per mask word to snapshot and clear them, then
// countOneBits over at most WORDS_PER_DIGIT plain words), two barriers per round of
// RADIX_SORT_WORKGROUP_SIZE keys, instead of a split sort in workgroup memory.
//
// Driven by src/gpu/radix-sort.ts:
//   prepare    one invocation: numBlocks = ⌈count / KEYS_PER_BLOCK⌉ from the count buffer, written
//              as the indirect dispatch arguments (x, y, 1) of both block kernels (2D when
//              numBlocks exceeds maxWorkgroupsX).
//   per digit pass:
//   1. histogramBlocks  workgroup b counts the digits of keys [b·KEYS_PER_BLOCK, …) and writes
//              histogram[digit * maxBlocks + b]; it also zeroes the columns b + k·numBlocks
//              (k ≥ 1) up to maxBlocks, so columns of blocks not dispatched this time add nothing.
//   2. (prefix-scan.wgsl) exclusive scan of histogram[0 .. RADIX_SIZE * maxBlocks).
//   3. scatter  workgroup b reloads its keys round by round; key i of digit d goes to
//              histogram[d * maxBlocks + b] + (keys of digit d before it in the block).
//
// Bindings (group 0; the block kernels share one layout, prepare has its own):
//   0  params      uniform              SortParams
//   1  keysIn      storage, read        array<u32>
//   2  valuesIn    storage, read        array<u32>
//   3  keysOut     storage, read_write  array<u32>
//   4  valuesOut   storage, read_write  array<u32>
//   5  histogram   storage, read_write  array<u32>  RADIX_SIZE * maxBlocks counts, then offsets
//   6  countIn     storage, read        array<u32>  element count at [0]
// prepare: 0 params, 6 countIn, 7 dispatchArgs (storage, read_write, array<u32, 3>).

override RADIX_SORT_WORKGROUP_SIZE: u32;   // invocations per workgroup, a multiple of 32
override KEYS_PER_THREAD: u32;             // rounds per block
override RADIX_BITS: u32;
override RADIX_SIZE: u32;                  // 1 << RADIX_BITS, at most RADIX_SORT_WORKGROUP_SIZE
override WORDS_PER_DIGIT: u32;             // RADIX_SORT_WORKGROUP_SIZE / 32: one occupancy bit per invocation

struct SortParams {
  shift: u32,           // bit offset of this pass's digit
  maxBlocks: u32,       // ⌈capacity / KEYS_PER_BLOCK⌉: the histogram's row length
  pad0: u32,
  maxWorkgroupsX: u32,  // grid width limit of the indirect dispatch
  capacity: u32,        // counts above it are clamped
  pad1: u32,
  pad2: u32,
  pad3: u32,
}

@group(0) @binding(0) var<uniform> params: SortParams;

fn keysPerBlock() -> u32 {
  return RADIX_SORT_WORKGROUP_SIZE * KEYS_PER_THREAD;
}

// Blocks (workgroups) that cover `count` keys.
fn blocksFor(count: u32) -> u32 {
  return (count + keysPerBlock() - 1u) / keysPerBlock();
}

// ---- prepare -------------------------------------------------------------------------------

@group(0) @binding(6) var<storage, read> countIn: array<u32>;
@group(0) @binding(7) var<storage, read_write> dispatchArgs: array<u32, 3>;

@compute @workgroup_size(1)
fn prepare() {
  let count = min(countIn[0], params.capacity);
  let blocks = blocksFor(count);
  let x = min(blocks, params.maxWorkgroupsX);
  dispatchArgs[0] = x;
  dispatchArgs[1] = select(0u, (blocks + x - 1u) / max(x, 1u), blocks > 0u);
  dispatchArgs[2] = 1u;
}

// ---- block kernels -------------------------------------------------------------------------

@group(0) @binding(1) var<storage, read> keysIn: array<u32>;
@group(0) @binding(2) var<storage, read> valuesIn: array<u32>;
@group(0) @binding(3) var<storage, read_write> keysOut: array<u32>;
@group(0) @binding(4) var<storage, read_write> valuesOut: array<u32>;
@group(0) @binding(5) var<storage, read_write> histogram: array<u32>;

var<workgroup> localHistogram: array<atomic<u32>, RADIX_SIZE>;
var<workgroup> digitMasks: array<atomic<u32>, RADIX_SIZE * WORDS_PER_DIGIT>;
var<workgroup> roundMasks: array<u32, RADIX_SIZE * WORDS_PER_DIGIT>;
var<workgroup> digitOffsets: array<u32, 2u * RADIX_SIZE>;

fn digitOf(key: u32) -> u32 {
  return (key >> params.shift) & (RADIX_SIZE - 1u);
}

fn elementCount() -> u32 {
  return min(countIn[0], params.capacity);
}

@compute @workgroup_size(RADIX_SORT_WORKGROUP_SIZE)
fn histogramBlocks(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let count = elementCount();
  let numBlocks = blocksFor(count);
  let block = wid.x + wid.y * nwg.x;
  if (block >= numBlocks) {
    return; // padding workgroup of a 2D grid (uniform: countIn is read-only)
  }
  if (t < RADIX_SIZE) {
    atomicStore(&localHistogram[t], 0u);
  }
  workgroupBarrier();
  let blockStart = block * keysPerBlock();
  for (var r = 0u; r < KEYS_PER_THREAD; r++) {
    let i = blockStart + r * RADIX_SORT_WORKGROUP_SIZE + t;
    if (i < count) {
      atomicAdd(&localHistogram[digitOf(keysIn[i])], 1u);
    }
  }
  workgroupBarrier();
  if (t < RADIX_SIZE) {
    histogram[t * params.maxBlocks + block] = atomicLoad(&localHistogram[t]);
    // Columns of blocks past this count may hold offsets of an earlier, larger sort.
    for (var b = block + numBlocks; b < params.maxBlocks; b += numBlocks) {
      histogram[t * params.maxBlocks + b] = 0u;
    }
  }
}

@compute @workgroup_size(RADIX_SORT_WORKGROUP_SIZE)
fn scatter(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let count = elementCount();
  let numBlocks = blocksFor(count);
  let block = wid.x + wid.y * nwg.x;
  if (block >= numBlocks) {
    return;
  }
  for (var w = t; w < RADIX_SIZE * WORDS_PER_DIGIT; w += RADIX_SORT_WORKGROUP_SIZE) {
    atomicStore(&digitMasks[w], 0u);
  }
  if (t < RADIX_SIZE) {
    digitOffsets[t] = 0u;
  }
  workgroupBarrier();
  let word = t / 32u;
  let bit = 1u << (t % 32u);
  let blockStart = block * keysPerBlock();
  for (var r = 0u; r < KEYS_PER_THREAD; r++) {
    // Round r ranks keys [r·WG, (r + 1)·WG) of the block. Offsets of the digits before this round
    // are in digitOffsets[(r % 2) · RADIX_SIZE + d]; this round writes the other half, so two
    // barriers per round suffice.
    let i = blockStart + r * RADIX_SORT_WORKGROUP_SIZE + t;
    let valid = i < count;
    var key = 0u;
    var digit = 0u;
    if (valid) {
      key = keysIn[i];
      digit = digitOf(key);
      atomicOr(&digitMasks[digit * WORDS_PER_DIGIT + word], bit);
    }
    workgroupBarrier();
    // Snapshot and clear the occupancy masks: one atomic per mask word, then plain reads.
    for (var w = t; w < RADIX_SIZE * WORDS_PER_DIGIT; w += RADIX_SORT_WORKGROUP_SIZE) {
      roundMasks[w] = atomicExchange(&digitMasks[w], 0u);
    }
    workgroupBarrier();
    let current = (r % 2u) * RADIX_SIZE;
    if (valid) {
      // Rank = keys of this digit in earlier rounds + earlier invocations of this round.
      let base = digit * WORDS_PER_DIGIT;
      var rank = digitOffsets[current + digit];
      for (var w = 0u; w < word; w++) {
        rank += countOneBits(roundMasks[base + w]);
      }
      rank += countOneBits(roundMasks[base + word] & (bit - 1u));
      let dst = histogram[digit * params.maxBlocks + block] + rank;
      keysOut[dst] = key;
      valuesOut[dst] = valuesIn[i];
    }
    // Invocation d (< RADIX_SIZE) owns digit d: the next round's offset.
    if (t < RADIX_SIZE) {
      var n = 0u;
      for (var w = 0u; w < WORDS_PER_DIGIT; w++) {
        n += countOneBits(roundMasks[t * WORDS_PER_DIGIT + w]);
      }
      digitOffsets[RADIX_SIZE - current + t] = digitOffsets[current + t] + n;
    }
  }
}
