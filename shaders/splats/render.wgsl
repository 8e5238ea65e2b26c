// Splat render pass: one non-instanced draw, one triangle (3 vertices) per visible splat: the
// smallest triangle around its α ≥ 1/255 ellipse (the image, under the splat's eigenbasis, of the
// equilateral triangle around the circle of radius k standard deviations: vertices at 2k from the
// centre, inradius k), in sorted back-to-front order, blended with premultiplied alpha ("over").
// SwiftShader pays per instance and per triangle: one instance of 3·V vertices is far faster there
// than V instanced quads, and one triangle (30 % more fragments, all but the ellipse's giving α = 0)
// is a third faster than the two of a bounding rectangle (bench/RESULTS.md). Depth-tested against
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

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(linear) sigmas: vec2f,   // offset from the centre in standard deviations along (e₁, e₂)
  @location(1) @interpolate(flat) color: vec4f,      // rgb, opacity
};

@vertex
fn vertexMain(@builtin(vertex_index) vertex: u32) -> VertexOut {
  // One triangle (3 vertices) per splat in one non-instanced draw.
  let s = projected[sortedIndices[vertex / 3u]];
  let vi = vertex % 3u;
  let rg = unpack2x16float(s.colorRG);
  let bo = unpack2x16float(s.colorBO);
  // α = o·exp(−r²/2) ≥ α_min inside r ≤ k: the triangle's incircle, radius k (in standard
  // deviations), is that ellipse. Corners at 2k: (0, 2), (√3, −1), (−√3, −1).
  let k = sqrt(2.0 * log(max(bo.y, ALPHA_MIN) / ALPHA_MIN));
  let corner = select(select(vec2f(-1.7320508, -1.0), vec2f(1.7320508, -1.0), vi == 1u), vec2f(0.0, 2.0), vi == 0u) * k;
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
