// Splat render pass: one instanced quad (triangle strip, 4 vertices) per visible splat, drawn in
// sorted back-to-front order and blended with premultiplied alpha ("over"). Depth-tested against
// the caller's opaque depth buffer, never written. Prepended: common/camera.wgsl, splats/splat-types.wgsl.
//
// Fragment α = min(0.99, o · exp(−½ dᵀ conic d)), discarded below 1/255
// (Kerbl et al. 2023 eq. 2–3; reference rasteriser forward.cu: renderCUDA).

override ALPHA_MIN: f32 = 0.00392156862745098;
override ALPHA_MAX: f32 = 0.99;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read> sortedIndices: array<u32>;

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(linear) offsetPx: vec2f,
  @location(1) @interpolate(flat) conic: vec3f,
  @location(2) @interpolate(flat) color: vec4f,
};

@vertex
fn vertexMain(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VertexOut {
  let s = projected[sortedIndices[ii]];
  let corner = vec2f(f32(vi & 1u), f32(vi >> 1u)) * 2.0 - 1.0;
  let offset = corner * s.radiusPx;
  var out: VertexOut;
  out.position = pixelToClip(camera, s.centerPx + offset, s.depthNdc);
  out.offsetPx = offset;
  out.conic = s.conic;
  out.color = vec4f(s.color.rgb, s.opacity);
  return out;
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  let d = in.offsetPx;
  let power = -0.5 * (in.conic.x * d.x * d.x + in.conic.z * d.y * d.y) - in.conic.y * d.x * d.y;
  if (power > 0.0) { discard; }
  let alpha = min(ALPHA_MAX, in.color.a * exp(power));
  if (alpha < ALPHA_MIN) { discard; }
  return vec4f(in.color.rgb * alpha, alpha);
}
