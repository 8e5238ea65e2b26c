// One digit pass of a stable LSD key-value radix sort (u32 keys and values) whose element count
// may be written by the GPU. Portable: no subgroup operations, no forward-progress assumption
// between workgroups. Structure after Satish, Harris & Garland (2009), "Designing efficient
// sorting algorithms for manycore GPUs" (per-block histograms, a global scan, a per-block
// scatter), with Merrill & Grimshaw's reduce-then-scan between them (prefix-scan.wgsl). Inside a
// block, invocation t owns the contiguous segment of KEYS_PER_THREAD keys starting at
// t · KEYS_PER_THREAD and walks it serially with per-digit counts packed in bytes: one barrier in
// the histogram kernel (to scan the segments' counts per digit), none in the scatter. CPU
// implementations of WebGPU (SwiftShader) pay heavily per barrier; GPUs lose little to the
// serial segments at the key counts sorted here.
//
// Driven by src/gpu/radix-sort.ts:
//   prepare    one invocation: numBlocks = ⌈count / KEYS_PER_BLOCK⌉ from the count buffer, written
//              as the indirect dispatch arguments (x, y, 1) of both block kernels (2D when
//              numBlocks exceeds maxWorkgroupsX).
//   per digit pass:
//   1. histogramBlocks  workgroup b counts the digits of keys [b·KEYS_PER_BLOCK, …) per segment,
//              writes segmentOffsets[(b·RADIX_SIZE + d)·WG + t] (digit-d keys of the block before
//              segment t) and histogram[digit * maxBlocks + b]; it also zeroes the columns
//              b + k·numBlocks (k ≥ 1) up to maxBlocks, so columns of blocks not dispatched this
//              time add nothing.
//   2. (prefix-scan.wgsl) exclusive scan of histogram[0 .. RADIX_SIZE * maxBlocks).
//   3. scatter  invocation t of workgroup b walks its segment again; key i of digit d goes to
//              histogram[d * maxBlocks + b] + segmentOffsets[…] + (digit-d keys before it in the
//              segment).
//
// Bindings (group 0; the block kernels share one layout, prepare has its own):
//   0  params      uniform              SortParams
//   1  keysIn      storage, read        array<u32>
//   2  valuesIn    storage, read        array<u32>
//   3  keysOut     storage, read_write  array<u32>
//   4  valuesOut   storage, read_write  array<u32>
//   5  histogram   storage, read_write  array<u32>  RADIX_SIZE * maxBlocks counts, then offsets
//   6  countIn     storage, read        array<u32>  element count at [0]
//   8  segmentOffsets storage, read_write array<u32> RADIX_SIZE * WG * maxBlocks
// prepare: 0 params, 6 countIn, 7 dispatchArgs (storage, read_write, array<u32, 3>).

override RADIX_SORT_WORKGROUP_SIZE: u32;   // invocations per workgroup (segments per block), at least RADIX_SIZE
override KEYS_PER_THREAD: u32;             // keys of one invocation's contiguous segment, at most 255
override RADIX_BITS: u32;
override RADIX_SIZE: u32;                  // 1 << RADIX_BITS = 16 (packed segment counts), at most RADIX_SORT_WORKGROUP_SIZE

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
@group(0) @binding(8) var<storage, read_write> segmentOffsets: array<u32>;

// Per-digit key counts of one invocation's segment (at most 255 keys), 8 bits each: digit d in
// byte d % 4 of component d / 4. Branch-free selects instead of a dynamically indexed private
// array (slow on CPU implementations such as SwiftShader). Requires RADIX_SIZE = 16.
fn packedIncrement(c: vec4u, d: u32) -> vec4u {
  let inc = 1u << ((d & 3u) * 8u);
  let q = d >> 2u;
  return c + vec4u(select(0u, inc, q == 0u), select(0u, inc, q == 1u), select(0u, inc, q == 2u), select(0u, inc, q == 3u));
}

fn packedCount(c: vec4u, d: u32) -> u32 {
  let q = d >> 2u;
  let w = select(select(c.w, c.z, q == 2u), select(c.y, c.x, q == 0u), q < 2u);
  return (w >> ((d & 3u) * 8u)) & 0xffu;
}

fn digitOf(key: u32) -> u32 {
  return (key >> params.shift) & (RADIX_SIZE - 1u);
}

fn elementCount() -> u32 {
  return min(countIn[0], params.capacity);
}

// Counts of each digit in each invocation's segment of the block: [d * WG + t].
var<workgroup> segmentCounts: array<u32, RADIX_SIZE * RADIX_SORT_WORKGROUP_SIZE>;

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
  // Invocation t counts its contiguous segment [start, end) of the block.
  let start = block * keysPerBlock() + t * KEYS_PER_THREAD;
  let end = min(start + KEYS_PER_THREAD, count);
  var c = vec4u(0u);
  for (var i = start; i < end; i++) {
    c = packedIncrement(c, digitOf(keysIn[i]));
  }
  for (var d = 0u; d < RADIX_SIZE; d++) {
    segmentCounts[d * RADIX_SORT_WORKGROUP_SIZE + t] = packedCount(c, d);
  }
  workgroupBarrier();
  if (t < RADIX_SIZE) {
    // Invocation d scans digit d over the block's segments: each segment's first offset in the
    // block, and the block's total for the global scan.
    let base = (block * RADIX_SIZE + t) * RADIX_SORT_WORKGROUP_SIZE;
    var run = 0u;
    for (var s = 0u; s < RADIX_SORT_WORKGROUP_SIZE; s++) {
      segmentOffsets[base + s] = run;
      run += segmentCounts[t * RADIX_SORT_WORKGROUP_SIZE + s];
    }
    histogram[t * params.maxBlocks + block] = run;
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
  // No barrier: each invocation walks its own segment in order, so the scatter is stable. Key i of
  // digit d goes to (block's first digit-d slot) + (segment's offset in the block) + (digit-d keys
  // before it in the segment).
  let start = block * keysPerBlock() + t * KEYS_PER_THREAD;
  let end = min(start + KEYS_PER_THREAD, count);
  let segmentBase = block * RADIX_SIZE * RADIX_SORT_WORKGROUP_SIZE + t;
  var c = vec4u(0u);
  for (var i = start; i < end; i++) {
    let key = keysIn[i];
    let d = digitOf(key);
    let dst = histogram[d * params.maxBlocks + block] + segmentOffsets[segmentBase + d * RADIX_SORT_WORKGROUP_SIZE] + packedCount(c, d);
    c = packedIncrement(c, d);
    keysOut[dst] = key;
    valuesOut[dst] = valuesIn[i];
  }
}
