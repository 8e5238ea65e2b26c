// Exclusive prefix sum of a u32 array, one level of a multi-level (recursive) reduce-then-scan
// (Merrill & Grimshaw 2009, "Parallel Scan for Stream Architectures"; Blelloch 1990).
//
// Steps, driven by src/gpu/prefix-scan.ts for levels k = 0 .. L-1, then back down:
//   1. scanBlocks      each workgroup scans one block of PREFIX_SCAN_WORKGROUP_SIZE elements of `data`
//                      in place (exclusive) and writes the block's total to blockSums[block].
//                      Level k's blockSums is level k+1's data; the top level has a single block.
//   2. addBlockSums    data[i] += blockSums[block], once the block sums themselves are scanned.
//
// Bindings (group 0, shared by both entry points):
//   0  params     uniform  ScanParams  element count of this level
//   1  data       storage  array<u32>  this level's values, scanned in place
//   2  blockSums  storage  array<u32>  one u32 per block of this level
//
// Workgroups beyond maxComputeWorkgroupsPerDimension are dispatched in 2D; the block index is
// linearised as workgroup_id.x + workgroup_id.y * num_workgroups.x. Every kernel guards `count`.

override PREFIX_SCAN_WORKGROUP_SIZE: u32;

struct ScanParams {
  count: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(0) var<uniform> params: ScanParams;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> blockSums: array<u32>;

var<workgroup> scratch: array<u32, PREFIX_SCAN_WORKGROUP_SIZE>;

@compute @workgroup_size(PREFIX_SCAN_WORKGROUP_SIZE)
fn scanBlocks(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let block = wid.x + wid.y * nwg.x;
  let blockStart = block * PREFIX_SCAN_WORKGROUP_SIZE;
  if (blockStart >= params.count) {
    return; // padding workgroup of a 2D dispatch (workgroup-uniform)
  }
  let i = blockStart + t;
  var value = 0u;
  if (i < params.count) {
    value = data[i];
  }
  // Hillis & Steele inclusive scan in workgroup memory.
  scratch[t] = value;
  workgroupBarrier();
  for (var offset = 1u; offset < PREFIX_SCAN_WORKGROUP_SIZE; offset <<= 1u) {
    var addend = 0u;
    if (t >= offset) {
      addend = scratch[t - offset];
    }
    workgroupBarrier();
    scratch[t] += addend;
    workgroupBarrier();
  }
  if (i < params.count) {
    data[i] = scratch[t] - value; // inclusive -> exclusive
  }
  if (t == PREFIX_SCAN_WORKGROUP_SIZE - 1u) {
    blockSums[block] = scratch[t];
  }
}

@compute @workgroup_size(PREFIX_SCAN_WORKGROUP_SIZE)
fn addBlockSums(
  @builtin(local_invocation_index) t: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let block = wid.x + wid.y * nwg.x;
  let i = block * PREFIX_SCAN_WORKGROUP_SIZE + t;
  if (i < params.count) {
    data[i] += blockSums[block];
  }
}
