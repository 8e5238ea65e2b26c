// One digit pass of a stable LSD key-value radix sort (u32 keys and values), portable: no subgroup
// operations, no forward-progress assumption between workgroups. Follows Satish, Harris & Garland
// (2009), "Designing efficient sorting algorithms for manycore GPUs" (block-local split sort, then a
// global scatter), with Merrill & Grimshaw's reduce-then-scan between the two (prefix-scan.wgsl).
//
// Per digit pass, driven by src/gpu/radix-sort.ts:
//   1. histogram   each workgroup counts the digits of its block of KEYS_PER_BLOCK keys and writes
//                  histogram[digit * numBlocks + block] (digit-major).
//   2. (prefix-scan.wgsl) exclusive scan of histogram[0 .. RADIX_SIZE * numBlocks): entry
//                  [digit * numBlocks + block] becomes the first output index of that block's keys
//                  with that digit.
//   3. scatter     each workgroup reloads its block, sorts (digit, local index) pairs in workgroup
//                  memory with RADIX_BITS one-bit split steps (stable), finds each digit's first
//                  local position, and writes element i of digit d to
//                  histogram[d * numBlocks + block] + (i - digitStart[d]).
//
// Bindings (group 0, shared by both entry points):
//   0  params     uniform             SortParams   count, numBlocks, shift of this pass
//   1  keysIn     storage, read       array<u32>   keys to sort by this pass's digit
//   2  valuesIn   storage, read       array<u32>   values travelling with keysIn
//   3  keysOut    storage, read_write array<u32>   keys ordered by this digit (stable)
//   4  valuesOut  storage, read_write array<u32>
//   5  histogram  storage, read_write array<u32>   RADIX_SIZE * numBlocks counts, then offsets
//
// Workgroups beyond maxComputeWorkgroupsPerDimension are dispatched in 2D; the block index is
// linearised as workgroup_id.x + workgroup_id.y * num_workgroups.x and checked against numBlocks.
// The last block is partial: keys past `count` are never read or written.

override RADIX_SORT_WORKGROUP_SIZE: u32;
override KEYS_PER_THREAD: u32;
override KEYS_PER_BLOCK: u32; // RADIX_SORT_WORKGROUP_SIZE * KEYS_PER_THREAD, at most 65536
override RADIX_BITS: u32;
override RADIX_SIZE: u32; // 1 << RADIX_BITS

// Split-sort entries pack (digit << LOCAL_INDEX_BITS) | local index.
const LOCAL_INDEX_BITS = 16u;
const LOCAL_INDEX_MASK = 0xffffu;
// Elements each raking invocation scans serially in rakingExclusiveScan.
const RAKING_SEGMENT = 16u;

struct SortParams {
  count: u32,
  numBlocks: u32,
  shift: u32, // bit offset of this pass's digit
  pad0: u32,
}

@group(0) @binding(0) var<uniform> params: SortParams;
@group(0) @binding(1) var<storage, read> keysIn: array<u32>;
@group(0) @binding(2) var<storage, read> valuesIn: array<u32>;
@group(0) @binding(3) var<storage, read_write> keysOut: array<u32>;
@group(0) @binding(4) var<storage, read_write> valuesOut: array<u32>;
@group(0) @binding(5) var<storage, read_write> histogram: array<u32>;

var<workgroup> localHistogram: array<atomic<u32>, RADIX_SIZE>;
var<workgroup> splitA: array<u32, KEYS_PER_BLOCK>;
var<workgroup> splitB: array<u32, KEYS_PER_BLOCK>;
var<workgroup> rakingScan: array<u32, RADIX_SORT_WORKGROUP_SIZE>;
var<workgroup> rakingSegmentPrefix: array<u32, RADIX_SORT_WORKGROUP_SIZE>; // first ⌈n / RAKING_SEGMENT⌉ used
var<workgroup> rakingTotal: u32;
var<workgroup> digitStart: array<u32, RADIX_SIZE>;

fn digitOf(key: u32) -> u32 {
  return (key >> params.shift) & (RADIX_SIZE - 1u);
}

@compute @workgroup_size(RADIX_SORT_WORKGROUP_SIZE)
fn histogramBlocks(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let block = wid.x + wid.y * nwg.x;
  if (block >= params.numBlocks) {
    return; // padding workgroup of a 2D dispatch (workgroup-uniform)
  }
  for (var d = t; d < RADIX_SIZE; d += RADIX_SORT_WORKGROUP_SIZE) {
    atomicStore(&localHistogram[d], 0u);
  }
  workgroupBarrier();
  let blockStart = block * KEYS_PER_BLOCK;
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    let i = blockStart + j * RADIX_SORT_WORKGROUP_SIZE + t;
    if (i < params.count) {
      atomicAdd(&localHistogram[digitOf(keysIn[i])], 1u);
    }
  }
  workgroupBarrier();
  for (var d = t; d < RADIX_SIZE; d += RADIX_SORT_WORKGROUP_SIZE) {
    histogram[d * params.numBlocks + block] = atomicLoad(&localHistogram[d]);
  }
}

fn splitRead(fromA: bool, i: u32) -> u32 {
  if (fromA) {
    return splitA[i];
  }
  return splitB[i];
}

fn splitWrite(toB: bool, i: u32, entry: u32) {
  if (toB) {
    splitB[i] = entry;
  } else {
    splitA[i] = entry;
  }
}

// Exclusive scan of one value per invocation with a raking scan (Merrill & Grimshaw 2009): three
// barriers instead of the 2·log2(n) of a Hillis & Steele scan, which matters where barriers are
// expensive (SwiftShader runs a workgroup as coroutines). Invocation s < ⌈n / RAKING_SEGMENT⌉
// scans segment s serially; invocation 0 then scans the segment totals. Also sets rakingTotal.
fn rakingExclusiveScan(t: u32, value: u32) -> u32 {
  rakingScan[t] = value;
  workgroupBarrier();
  let segments = (RADIX_SORT_WORKGROUP_SIZE + RAKING_SEGMENT - 1u) / RAKING_SEGMENT;
  if (t < segments) {
    let end = min((t + 1u) * RAKING_SEGMENT, RADIX_SORT_WORKGROUP_SIZE);
    var sum = 0u;
    for (var i = t * RAKING_SEGMENT; i < end; i++) {
      sum += rakingScan[i];
      rakingScan[i] = sum; // inclusive within the segment
    }
  }
  workgroupBarrier();
  if (t == 0u) {
    var sum = 0u;
    for (var s = 0u; s < segments; s++) {
      rakingSegmentPrefix[s] = sum;
      sum += rakingScan[min((s + 1u) * RAKING_SEGMENT, RADIX_SORT_WORKGROUP_SIZE) - 1u];
    }
    rakingTotal = sum;
  }
  workgroupBarrier();
  return rakingScan[t] - value + rakingSegmentPrefix[t / RAKING_SEGMENT];
}

// One stable split on digit bit `bit`, the primitive of Satish et al.'s (2009) block-local sort:
// entries whose bit is 0 keep their order and move to the front, entries whose bit is 1 follow in
// order. Thread t owns the contiguous positions [t * KEYS_PER_THREAD, (t + 1) * KEYS_PER_THREAD).
fn splitStep(t: u32, bit: u32, fromA: bool) {
  let first = t * KEYS_PER_THREAD;
  let bitShift = LOCAL_INDEX_BITS + bit;
  var zeros = 0u;
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    zeros += 1u - ((splitRead(fromA, first + j) >> bitShift) & 1u);
  }
  let zerosBefore = rakingExclusiveScan(t, zeros);
  let totalZeros = rakingTotal;
  var zeroPos = zerosBefore; // zeros before this thread's first entry
  var onePos = totalZeros + first - zerosBefore; // ones go after all zeros, in order
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    let entry = splitRead(fromA, first + j);
    if (((entry >> bitShift) & 1u) == 0u) {
      splitWrite(fromA, zeroPos, entry);
      zeroPos++;
    } else {
      splitWrite(fromA, onePos, entry);
      onePos++;
    }
  }
  workgroupBarrier();
}

fn sortedAt(i: u32) -> u32 {
  return splitRead((RADIX_BITS & 1u) == 0u, i);
}

@compute @workgroup_size(RADIX_SORT_WORKGROUP_SIZE)
fn scatter(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let block = wid.x + wid.y * nwg.x;
  if (block >= params.numBlocks) {
    return; // padding workgroup of a 2D dispatch (workgroup-uniform)
  }
  let blockStart = block * KEYS_PER_BLOCK;
  let blockCount = min(KEYS_PER_BLOCK, params.count - blockStart);
  // Load in coalesced order. Tail padding takes the largest digit, and since the split is stable
  // it stays behind every real key: sorted positions [0, blockCount) are exactly the real keys.
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    let local = j * RADIX_SORT_WORKGROUP_SIZE + t;
    var digit = RADIX_SIZE - 1u;
    if (local < blockCount) {
      digit = digitOf(keysIn[blockStart + local]);
    }
    splitA[local] = (digit << LOCAL_INDEX_BITS) | local;
  }
  workgroupBarrier();
  for (var bit = 0u; bit < RADIX_BITS; bit++) {
    splitStep(t, bit, (bit & 1u) == 0u);
  }
  // Each digit's first position in the block-sorted order.
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    let local = j * RADIX_SORT_WORKGROUP_SIZE + t;
    let digit = sortedAt(local) >> LOCAL_INDEX_BITS;
    if (local == 0u || (sortedAt(local - 1u) >> LOCAL_INDEX_BITS) != digit) {
      digitStart[digit] = local;
    }
  }
  workgroupBarrier();
  for (var j = 0u; j < KEYS_PER_THREAD; j++) {
    let local = j * RADIX_SORT_WORKGROUP_SIZE + t;
    if (local < blockCount) {
      let entry = sortedAt(local);
      let digit = entry >> LOCAL_INDEX_BITS;
      let inIndex = blockStart + (entry & LOCAL_INDEX_MASK);
      let outIndex = histogram[digit * params.numBlocks + block] + local - digitStart[digit];
      keysOut[outIndex] = keysIn[inIndex];
      valuesOut[outIndex] = valuesIn[inIndex];
    }
  }
}
