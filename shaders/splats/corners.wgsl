// Splat corners pass: the three vertices of each visible splat's triangle, once per splat, in draw
// order, so the raster's vertex shader only passes vertex attributes through (render.wgsl). The
// triangle is the image, under the splat's eigenbasis, of the equilateral triangle around the circle
// of radius k standard deviations (vertices at 2k from the centre, inradius k): it holds the whole
// α ≥ 1/255 ellipse. Each invocation writes CORNER_SLOTS consecutive draw slots (SwiftShader pays
// per invocation far more than per loop iteration). Prepended: common/camera.wgsl, splats/splat-types.wgsl.
//
// Vertex record (6 u32, 24 bytes; gpu-layout.ts: SPLAT_VERTEX_LAYOUT): clip x, y, NDC depth and
// L = ln(o / α_min) as f32, then rgb and the minor/major ratio as four f16 (the record's colorRG and
// blueMinor words, copied).

override WORKGROUP_SIZE: u32 = 64u;
override CORNER_SLOTS: u32 = 32u;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read> sortedIndices: array<u32>;
@group(0) @binding(3) var<storage, read> counters: array<u32, 8>;   // [0]: visible count V
@group(0) @binding(4) var<storage, read_write> vertices: array<u32>; // 18 u32 per draw slot, 3V · 6 used

fn writeVertex(base: u32, clip: vec4f, s: ProjectedSplat) {
  vertices[base] = bitcast<u32>(clip.x);
  vertices[base + 1u] = bitcast<u32>(clip.y);
  vertices[base + 2u] = bitcast<u32>(clip.z);
  vertices[base + 3u] = bitcast<u32>(s.alphaLog);
  vertices[base + 4u] = s.colorRG;
  vertices[base + 5u] = s.blueMinor;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn corners(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let invocation = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  let visible = counters[0];
  let first = invocation * CORNER_SLOTS;
  let last = min(first + CORNER_SLOTS, visible);
  for (var slot = first; slot < last; slot++) {
    let s = projected[sortedIndices[slot]];
    let minor = vec2f(-s.extentMajor.y, s.extentMajor.x) * unpack2x16float(s.blueMinor).y;
    // Corners at 2 in units of k standard deviations: (0, 2), (√3, −1), (−√3, −1), summed in the
    // order the vertex shader once used (so the frames are the same to the bit).
    let base = slot * 18u;
    writeVertex(base, pixelToClip(camera, s.centerPx + 0.0 * s.extentMajor + 2.0 * minor, s.depthNdc), s);
    writeVertex(base + 6u, pixelToClip(camera, s.centerPx + 1.7320508 * s.extentMajor + -1.0 * minor, s.depthNdc), s);
    writeVertex(base + 12u, pixelToClip(camera, s.centerPx + -1.7320508 * s.extentMajor + -1.0 * minor, s.depthNdc), s);
  }
}
