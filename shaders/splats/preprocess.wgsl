// Splat preprocess: each invocation walks SPLATS_PER_INVOCATION consecutive splats (compaction: one
// visibility word of 32). SwiftShader pays per invocation far more than per loop iteration: one
// splat per invocation cost Semarang's 4.6 M splats ~550 ms of fixed overhead (bench/RESULTS.md). Prepended: common/camera.wgsl, splats/splat-types.wgsl.
//
// Entry point `preprocess` (Kerbl et al. 2023 §4 eqs. 5–6; reference rasteriser forward.cu:
// preprocessCUDA), per splat j of this frame's visible cell ranges (binding 11: (start, count,
// prefix) per range; splat i = start + j − prefix of the range holding j); per-frame arrays
// (projected, depths, visibility bits, sort values) are indexed by j:
//  1. camera-relative centre, near-plane cull;
//  2. 3D covariance Σ = R S Sᵀ Rᵀ, precomputed at load (the splat record holds its upper triangle);
//  3. EWA projection Σ' = J W Σ Wᵀ Jᵀ with J at the clamped (1.3 × FOV) centre (orthographic:
//     J = diag(focal)), + 0.3 px² dilation;
//  4. eigenbasis of Σ' (λ₂ = det / λ₁), opacity-aware extent k = √(2 ln(o / α_min)) standard
//     deviations (α < 1/255 beyond it), off-screen cull with the ellipse's axis-aligned box, cull
//     of splats whose total α 2π·o·√det Σ' is below frame.minAlphaMass;
//  5. colour from spherical harmonics up to SH_DEGREE along the eye→splat direction (orthographic:
//     the viewing axis), shaded by the frame's conditions (tint, wet ground, fog; splat-shading.ts);
//  6. the raster record projected[i] (extents scaled by k, ln(o / α_min), colour, axis ratio), depths[i] = f32 bits of the camera depth (monotonic for
//     positive floats), bit i of visibleBits.
// Entry point `countBlocks`, per block of BLOCK_SIZE splats: its visible count (popcount of its
// visibleBits words) into blockOffsets[b], the total into visibleCount, and the visible depth
// range by atomicMax on (~bits(min), bits(max)) of the block's visible splats. The caller then scans
// blockOffsets (exclusive prefix sum, PrefixScan).
// Entry point `compact`, per visibleBits word, its set bits in order: visible splat i of block b gets slot blockOffsets[b] + (visible
// splats before it in the block, from the bit masks), in splat order (deterministic, unlike an
// atomic counter), and writes sortKeys[slot] = its depth quantised over the visible [min, max] to
// frame.keyBits bits, the levels spread by the sampled depth distribution (entry point `depthCdf`, after
// `countBlocks` sampled the depths into a histogram), reversed (far first once sorted ascending),
// sortValues[slot] = i; and the
// draw gets 3 vertices (one triangle) per visible splat. The sort then runs on the visibleCount keys alone. No
// entry point uses a workgroup barrier (SwiftShader runs barrier-free workgroups much faster).
//
// Bindings (group 0): 0 camera, 1 frame, 2 splats, 3 SH rest (snorm8, one word per coefficient), 4 projected,
// 5 depths, 6 sort keys, 7 sort values, 8 counters [visibleCount V, ~bits(min depth), bits(max
// depth), 0, then the drawIndirect arguments vertexCount, instanceCount, firstVertex,
// firstInstance, then the depth histogram and its distribution], 9 blockOffsets (visible count per block, then its exclusive scan), 10 visibleBits
// (one bit per splat), 11 cell ranges. Counters 0–4, the depth histogram and visibleBits are
// cleared to 0 by the caller every frame.

override WORKGROUP_SIZE: u32 = 256u;
override SPLATS_PER_INVOCATION: u32 = 32u;   // preprocess: consecutive splats per invocation (a divisor of 32)
override SH_DEGREE: u32 = 0u;
override SH_REST_STRIDE: u32 = 1u;   // u32 words of packed snorm8 SH per splat (gpu-layout.ts: shRestStride)
override FRUSTUM_CLAMP: f32 = 1.3;
override COV2D_DILATION: f32 = 0.3;
override ALPHA_MIN: f32 = 0.00392156862745098;   // smallest α that contributes (1/255)
// Orthographic camera (camera.ts: OrthographicCamera): pixel = focal · t.xy + principal with focal in
// pixels per metre, the Jacobian diag(focal) for every splat, SH along the viewing axis.
override ORTHOGRAPHIC: bool = false;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> frame: SplatFrame;
@group(0) @binding(2) var<storage, read> splats: array<Splat>;
@group(0) @binding(3) var<storage, read> shRest: array<u32>;
@group(0) @binding(4) var<storage, read_write> projected: array<ProjectedSplat>;
@group(0) @binding(5) var<storage, read_write> depths: array<u32>;
@group(0) @binding(6) var<storage, read_write> sortKeys: array<u32>;
@group(0) @binding(7) var<storage, read_write> sortValues: array<u32>;
@group(0) @binding(8) var<storage, read_write> counters: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> blockOffsets: array<u32>;
@group(0) @binding(10) var<storage, read_write> visibleBits: array<atomic<u32>>;
@group(0) @binding(11) var<storage, read> ranges: array<vec4u>;   // (start, count, prefix, 0)

// Indices into `counters` (splat-renderer.ts: FRAME_COUNTERS).
const VISIBLE_COUNT = 0u;
const MIN_DEPTH = 1u;   // ~bits(min depth), reduced with atomicMax
const MAX_DEPTH = 2u;
const DRAW_VERTEX_COUNT = 4u;

const BLOCK_WORDS = 8u;               // visibleBits words per compaction block
const BLOCK_SIZE = BLOCK_WORDS * 32u; // splats per compaction block (preprocess-pass.ts: COMPACT_BLOCK_SIZE)

const CULLED = 0xffffffffu;

// Depth key levels (projection.ts: DEPTH_BIN_SHIFT, DEPTH_BINS, DEPTH_LINEAR_SHARE, depthSortKey).
const DEPTH_BIN_SHIFT = 18u;          // bin = f32 bits >> 18: 32 bins per octave of depth
const DEPTH_BINS = 8192u;
// In `counters`: the histogram of sampled visible depths (DEPTH_BINS counts, cleared every frame by
// the caller), then its cumulative distribution as f32 bits (DEPTH_BINS + 1 words, from depthCdf).
const DEPTH_HISTOGRAM = 8u;
const DEPTH_CDF = DEPTH_HISTOGRAM + DEPTH_BINS;
const DEPTH_LINEAR_SHARE: f32 = 0.25; // share of the key levels spread linearly over the range

// Frame splat j is sampled into the depth histogram when (j & mask) == 0: all of them up to 2^18
// splats, then a power-of-two stride (projection.ts: depthSampleMask).
fn depthSampleMask() -> u32 {
  let shift = max(i32(firstLeadingBit(max(frame.splatCount, 1u))) - 17, 0);
  return (1u << u32(shift)) - 1u;
}

const SH_C0: f32 = 0.28209479177387814;
const SH_C1: f32 = 0.4886025119029199;

// Higher-band SH coefficient m < 12 of splat i (rgb in bytes 0–2 of word m, snorm8 multiples of the
// splat's shScale; gpu-layout.ts: packShRest) and the word's byte 3, which for degree 3 carries a
// channel of coefficients 12–14 (word 3(m − 12) + channel).
fn shWord(i: u32, m: u32) -> vec4f {
  return unpack4x8snorm(shRest[i * SH_REST_STRIDE + m]);
}

fn colorFromSh(i: u32, dc: vec3f, shScale: f32, d: vec3f) -> vec3f {
  var c = SH_C0 * dc;
  if (SH_DEGREE > 0u) {
    let x = d.x; let y = d.y; let z = d.z;
    let w0 = shWord(i, 0u); let w1 = shWord(i, 1u); let w2 = shWord(i, 2u);
    var r = -SH_C1 * y * w0.xyz + SH_C1 * z * w1.xyz - SH_C1 * x * w2.xyz;
    if (SH_DEGREE > 1u) {
      let xx = x * x; let yy = y * y; let zz = z * z;
      let xy = x * y; let yz = y * z; let xz = x * z;
      let w3 = shWord(i, 3u); let w4 = shWord(i, 4u); let w5 = shWord(i, 5u);
      let w6 = shWord(i, 6u); let w7 = shWord(i, 7u);
      r += 1.0925484305920792 * xy * w3.xyz
         - 1.0925484305920792 * yz * w4.xyz
         + 0.31539156525252005 * (2.0 * zz - xx - yy) * w5.xyz
         - 1.0925484305920792 * xz * w6.xyz
         + 0.5462742152960396 * (xx - yy) * w7.xyz;
      if (SH_DEGREE > 2u) {
        let w8 = shWord(i, 8u); let w9 = shWord(i, 9u); let w10 = shWord(i, 10u); let w11 = shWord(i, 11u);
        r += -0.5900435899266435 * y * (3.0 * xx - yy) * w8.xyz
           + 2.890611442640554 * xy * z * w9.xyz
           - 0.4570457994644658 * y * (4.0 * zz - xx - yy) * w10.xyz
           + 0.3731763325901154 * z * (2.0 * zz - 3.0 * xx - 3.0 * yy) * w11.xyz
           - 0.4570457994644658 * x * (4.0 * zz - xx - yy) * vec3f(w0.w, w1.w, w2.w)
           + 1.445305721320277 * z * (xx - yy) * vec3f(w3.w, w4.w, w5.w)
           - 0.5900435899266435 * x * (xx - 3.0 * yy) * vec3f(w6.w, w7.w, w8.w);
      }
    }
    c += shScale * r;
  }
  return max(c + 0.5, vec3f(0.0));
}

fn cull(j: u32) -> bool {
  projected[j].alphaLog = -1.0;
  return false;
}

// The range holding frame splat j: binary search for the last range whose prefix is ≤ j.
fn rangeOf(j: u32) -> u32 {
  var lo = 0u;
  var hi = frame.rangeCount - 1u;
  while (lo < hi) {
    let mid = (lo + hi + 1u) / 2u;
    if (ranges[mid].z <= j) { lo = mid; } else { hi = mid - 1u; }
  }
  return lo;
}

// Steps 1–6 for frame splat j (scene splat i); true when it is visible.
fn project(j: u32, i: u32) -> bool {
  let s = splats[i];

  // 1. Camera-relative centre.
  let rel = (s.position - camera.eyeHigh) - camera.eyeLow;
  let t = (camera.viewRotation * vec4f(rel, 0.0)).xyz;
  if (t.z <= camera.near || t.z >= camera.far) { return cull(j); }

  // 2.–3. EWA projection Σ' = T Σ Tᵀ with T = J W; only the first two rows of T are non-zero, so
  // Σ' takes the two rows t0, t1 and Σ's upper triangle (precomputed at load): Σ'_ab = t_a · Σ t_b.
  let lim = FRUSTUM_CLAMP * camera.tanHalfFov;
  let tx = clamp(t.x / t.z, -lim.x, lim.x) * t.z;
  let ty = clamp(t.y / t.z, -lim.y, lim.y) * t.z;
  let fx = camera.focal.x; let fy = camera.focal.y;
  // Rows of W (viewRotation's rotation part; WGSL matrices are column-major).
  let w0 = vec3f(camera.viewRotation[0].x, camera.viewRotation[1].x, camera.viewRotation[2].x);
  let w1 = vec3f(camera.viewRotation[0].y, camera.viewRotation[1].y, camera.viewRotation[2].y);
  let w2 = vec3f(camera.viewRotation[0].z, camera.viewRotation[1].z, camera.viewRotation[2].z);
  // J = [[fx/z, 0, −fx·tx/z²], [0, fy/z, −fy·ty/z²]] (orthographic: diag(fx, fy)).
  let iz = 1.0 / t.z;
  var t0 = (fx * iz) * (w0 - (tx * iz) * w2);
  var t1 = (fy * iz) * (w1 - (ty * iz) * w2);
  if (ORTHOGRAPHIC) { t0 = fx * w0; t1 = fy * w1; }
  let sigma = mat3x3f(s.covA, vec3f(s.covA.y, s.covB.x, s.covB.y), vec3f(s.covA.z, s.covB.y, s.covB.z));
  let st0 = sigma * t0;
  let st1 = sigma * t1;
  let a = dot(t0, st0) + COV2D_DILATION;
  let b = dot(t0, st1);
  let c = dot(t1, st1) + COV2D_DILATION;

  // 4. Eigenbasis and opacity-aware extent.
  let det = a * c - b * b;
  if (!(det > 0.0) || !(s.opacity >= ALPHA_MIN)) { return cull(j); }
  // Total α over the image below the frame's threshold (0: keep all; projection.ts: alphaMass).
  if (6.283185307179586 * s.opacity * sqrt(det) < frame.minAlphaMass) { return cull(j); }
  let alphaLog = log(s.opacity / ALPHA_MIN);
  let k = sqrt(2.0 * alphaLog);
  let mid = 0.5 * (a + c);
  let lambda1 = mid + sqrt(max(0.0, mid * mid - det));
  let lambda2 = det / lambda1;
  var e1 = select(vec2f(b, lambda1 - a), vec2f(lambda1 - c, b), a >= c);
  let n = length(e1);
  e1 = select(vec2f(1.0, 0.0), e1 / n, n > 0.0);
  let half = k * sqrt(vec2f(a, c));
  let center = select(vec2f(fx * t.x * iz, fy * t.y * iz), vec2f(fx * t.x, fy * t.y), ORTHOGRAPHIC) + camera.principal;
  if (center.x + half.x < 0.0 || center.x - half.x > camera.viewport.x ||
      center.y + half.y < 0.0 || center.y - half.y > camera.viewport.y) { return cull(j); }

  // 5. View-dependent colour.
  // Orthographic: along the camera's forward axis in world, w2 (the third row of W).
  let viewDir = select(normalize(rel), w2, ORTHOGRAPHIC);
  // Conditions (splat-shading.ts): tint, wet ground, fog by the distance from the eye.
  let wet = select(1.0, frame.wetFactor, s.position.z < frame.wetBelow);
  let fog = exp(-frame.fogDensity * length(rel));
  // Emissive splats (lamps, lit windows) keep their own colour where the tint darkens the rest.
  let lit = mix(frame.tint, vec3f(1.0), s.emissive);
  let color = mix(frame.fogColor, colorFromSh(i, s.shDc, s.shScale, viewDir) * lit * wet, fog);

  // 6. Outputs.
  projected[j] = ProjectedSplat(center, e1 * (k * sqrt(lambda1)), alphaLog, cameraDepthToNdc(camera, t.z),
                                pack2x16float(color.rg), pack2x16float(vec2f(color.b, sqrt(lambda2 / lambda1))));
  depths[j] = bitcast<u32>(t.z);
  return true;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn preprocess(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  // SPLATS_PER_INVOCATION consecutive frame splats (all in one visibleBits word): SwiftShader pays
  // per invocation far more than per loop iteration.
  let first = (gid.x + gid.y * nwg.x * WORKGROUP_SIZE) * SPLATS_PER_INVOCATION;
  if (first >= frame.splatCount) { return; }
  let last = min(first + SPLATS_PER_INVOCATION, frame.splatCount);
  var r = rangeOf(first);
  var range = ranges[r];
  var mask = 0u;
  for (var j = first; j < last; j++) {
    // Next cell range (ranges are in prefix order; a range may be empty).
    while (r + 1u < frame.rangeCount && ranges[r + 1u].z <= j) { r++; range = ranges[r]; }
    if (project(j, range.x + (j - range.z))) { mask |= 1u << (j % 32u); }
  }
  if (mask != 0u) { atomicOr(&visibleBits[first / 32u], mask); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn countBlocks(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let b = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (b * BLOCK_SIZE >= frame.splatCount) { return; }
  // Visible count and depth range of the block, then one atomic each into the frame's counters
  // (two global atomics per visible splat in the preprocess cost more on CPU implementations).
  var n = 0u;
  var nearBits = 0xffffffffu;
  var farBits = 0u;
  let sampleMask = depthSampleMask();
  for (var w = 0u; w < BLOCK_WORDS; w++) {
    var mask = atomicLoad(&visibleBits[b * BLOCK_WORDS + w]);
    n += countOneBits(mask);
    while (mask != 0u) {
      let j = (b * BLOCK_WORDS + w) * 32u + firstTrailingBit(mask);
      let d = depths[j];
      nearBits = min(nearBits, d);
      farBits = max(farBits, d);
      if ((j & sampleMask) == 0u) { atomicAdd(&counters[DEPTH_HISTOGRAM + min(d >> DEPTH_BIN_SHIFT, DEPTH_BINS - 1u)], 1u); }
      mask &= mask - 1u;
    }
  }
  blockOffsets[b] = n;
  if (n > 0u) {
    atomicAdd(&counters[VISIBLE_COUNT], n);
    atomicMax(&counters[MIN_DEPTH], ~nearBits);
    atomicMax(&counters[MAX_DEPTH], farBits);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn depthCdf(@builtin(global_invocation_id) gid: vec3u) {
  // One invocation: the histogram's bins from the nearest to the farthest visible depth (a few
  // dozen for a street capture, at most DEPTH_BINS), cumulated in u32 and divided once each.
  if (gid.x != 0u || atomicLoad(&counters[VISIBLE_COUNT]) == 0u) { return; }
  let b0 = min((~atomicLoad(&counters[MIN_DEPTH])) >> DEPTH_BIN_SHIFT, DEPTH_BINS - 1u);
  let b1 = min(atomicLoad(&counters[MAX_DEPTH]) >> DEPTH_BIN_SHIFT, DEPTH_BINS - 1u);
  var total = 0u;
  for (var b = b0; b <= b1; b++) { total += atomicLoad(&counters[DEPTH_HISTOGRAM + b]); }
  var cum = 0u;
  for (var b = b0; b <= b1; b++) {
    let share = select(f32(cum) / f32(max(total, 1u)), f32(b - b0) / f32(b1 - b0 + 1u), total == 0u);
    atomicStore(&counters[DEPTH_CDF + b], bitcast<u32>(share));
    cum += atomicLoad(&counters[DEPTH_HISTOGRAM + b]);
  }
  atomicStore(&counters[DEPTH_CDF + b1 + 1u], bitcast<u32>(1.0));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn compact(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  // One visibleBits word (32 frame splats) per invocation, its visible splats in order.
  let word = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (word * 32u >= frame.splatCount) { return; }
  if (word == 0u) { atomicStore(&counters[DRAW_VERTEX_COUNT], 3u * atomicLoad(&counters[VISIBLE_COUNT])); }
  var mask = atomicLoad(&visibleBits[word]);
  if (mask == 0u) { return; }
  let block = word / BLOCK_WORDS;
  var slot = blockOffsets[block];
  for (var w = block * BLOCK_WORDS; w < word; w++) { slot += countOneBits(atomicLoad(&visibleBits[w])); }
  let minDepth = bitcast<f32>(~atomicLoad(&counters[MIN_DEPTH]));
  let maxDepth = bitcast<f32>(atomicLoad(&counters[MAX_DEPTH]));
  let maxKey = (1u << frame.keyBits) - 2u;
  while (mask != 0u) {
    let i = word * 32u + firstTrailingBit(mask);
    mask &= mask - 1u;
    let db = depths[i];
    let u = clamp((bitcast<f32>(db) - minDepth) / max(maxDepth - minDepth, 1e-30), 0.0, 1.0);
    // The place among the visible depths: the sampled distribution (linear in the mantissa inside
    // a bin) mixed with the linear place, so no part of the range is left without levels.
    let bin = min(db >> DEPTH_BIN_SHIFT, DEPTH_BINS - 1u);
    let lo = bitcast<f32>(atomicLoad(&counters[DEPTH_CDF + bin]));
    let hi = bitcast<f32>(atomicLoad(&counters[DEPTH_CDF + bin + 1u]));
    let frac = f32(db & ((1u << DEPTH_BIN_SHIFT) - 1u)) / f32(1u << DEPTH_BIN_SHIFT);
    let w = clamp((1.0 - DEPTH_LINEAR_SHARE) * (lo + frac * (hi - lo)) + DEPTH_LINEAR_SHARE * u, 0.0, 1.0);
    sortKeys[slot] = maxKey - u32(round(w * f32(maxKey)));
    sortValues[slot] = i;
    slot++;
  }
}
