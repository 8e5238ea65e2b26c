// Splat render pass: one non-instanced draw, two triangles (6 vertices) per visible splat: the
// bounding rectangle of its α ≥ 1/255 ellipse in its eigenbasis, in sorted back-to-front order,
// blended with premultiplied alpha ("over"). SwiftShader pays per instance, so one instance of
// 6·V vertices is far faster there than V instanced quads (bench/RESULTS.md). Depth-tested against
// the caller's opaque depth buffer, never written. Prepended: common/camera.wgsl, splats/splat-types.wgsl.
//
// Fragment α = min(0.99, o · exp(−½ dᵀ Σ'⁻¹ d)); below 1/255 the fragment outputs (0, 0, 0, 0),
// which the blend leaves the target unchanged by, exactly as a discard would (a shader without
// discard measured 3 % faster on SwiftShader)
// (Kerbl et al. 2023 eq. 2–3; reference rasteriser forward.cu: renderCUDA).

override ALPHA_MIN: f32 = 0.00392156862745098;
override ALPHA_MAX: f32 = 0.99;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read> sortedIndices: array<u32>;

const QUAD_CORNERS = array<u32, 6>(0u, 1u, 2u, 1u, 3u, 2u);

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(linear) sigmas: vec2f,   // offset from the centre in standard deviations along (e₁, e₂)
  @location(1) @interpolate(flat) color: vec4f,      // rgb, opacity
};

@vertex
fn vertexMain(@builtin(vertex_index) vertex: u32) -> VertexOut {
  // Two triangles (6 vertices) per splat in one non-instanced draw: corners 0 1 2, 1 3 2.
  let s = projected[sortedIndices[vertex / 6u]];
  let vi = QUAD_CORNERS[vertex % 6u];
  let rg = unpack2x16float(s.colorRG);
  let bo = unpack2x16float(s.colorBO);
  // α = o·exp(−r²/2) ≥ α_min inside r ≤ k: the quad is the bounding rectangle of that ellipse.
  let k = sqrt(2.0 * log(max(bo.y, ALPHA_MIN) / ALPHA_MIN));
  let corner = (vec2f(f32(vi & 1u), f32(vi >> 1u)) * 2.0 - 1.0) * k;
  let axisMinor = vec2f(-s.axisMajor.y, s.axisMajor.x) / max(length(s.axisMajor), 1e-30) * s.sigmaMinor;
  let offset = corner.x * s.axisMajor + corner.y * axisMinor;
  var out: VertexOut;
  out.position = pixelToClip(camera, s.centerPx + offset, s.depthNdc);
  out.sigmas = corner;
  out.color = vec4f(rg, bo);
  return out;
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  // dᵀ Σ'⁻¹ d = u² + v² in the eigenbasis, u and v in standard deviations.
  let alpha = min(ALPHA_MAX, in.color.a * exp(-0.5 * dot(in.sigmas, in.sigmas)));
  let a = select(alpha, 0.0, alpha < ALPHA_MIN); // no discard: (0, 0, 0, 0) blends to no change
  return vec4f(in.color.rgb * a, a);
}
