// Exclusive prefix sum of a u32 array, one level of a multi-level (recursive) reduce-then-scan
// (Merrill & Grimshaw 2009, "Parallel Scan for Stream Architectures"; Blelloch 1990).
//
// Steps, driven by src/gpu/prefix-scan.ts for levels k = 0 .. L-1, then back down:
//   1. scanBlocks      each workgroup scans one block of PREFIX_SCAN_WORKGROUP_SIZE elements of `data`
//                      in place (exclusive, raking scan) and writes the block's total to
//                      blockSums[block].
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

// Elements each raking invocation scans serially.
const RAKING_SEGMENT = 16u;

var<workgroup> scratch: array<u32, PREFIX_SCAN_WORKGROUP_SIZE>;
var<workgroup> segmentPrefix: array<u32, PREFIX_SCAN_WORKGROUP_SIZE>; // first ⌈n / RAKING_SEGMENT⌉ used

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
  // Raking scan (Merrill & Grimshaw 2009): invocation s < ⌈n / RAKING_SEGMENT⌉ scans segment s
  // serially, invocation 0 scans the segment totals; three barriers instead of 2·log2(n).
  scratch[t] = value;
  workgroupBarrier();
  let segments = (PREFIX_SCAN_WORKGROUP_SIZE + RAKING_SEGMENT - 1u) / RAKING_SEGMENT;
  if (t < segments) {
    let end = min((t + 1u) * RAKING_SEGMENT, PREFIX_SCAN_WORKGROUP_SIZE);
    var sum = 0u;
    for (var k = t * RAKING_SEGMENT; k < end; k++) {
      sum += scratch[k];
      scratch[k] = sum; // inclusive within the segment
    }
  }
  workgroupBarrier();
  if (t == 0u) {
    var sum = 0u;
    for (var s = 0u; s < segments; s++) {
      segmentPrefix[s] = sum;
      sum += scratch[min((s + 1u) * RAKING_SEGMENT, PREFIX_SCAN_WORKGROUP_SIZE) - 1u];
    }
    blockSums[block] = sum;
  }
  workgroupBarrier();
  if (i < params.count) {
    data[i] = scratch[t] - value + segmentPrefix[t / RAKING_SEGMENT];
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
