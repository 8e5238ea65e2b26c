// Splat render pass: one non-instanced draw, one triangle (3 vertices) per visible splat: the
// smallest triangle around its α ≥ 1/255 ellipse (the image, under the splat's eigenbasis, of the
// equilateral triangle around the circle of radius k standard deviations: vertices at 2k from the
// centre, inradius k), in sorted back-to-front order, blended with premultiplied alpha ("over").
// SwiftShader pays per instance and per triangle: one instance of 3·V vertices is far faster there
// than V instanced quads, and one triangle (30 % more fragments, all but the ellipse's giving α = 0)
// is a third faster than the two of a bounding rectangle (bench/RESULTS.md). Depth-tested against
// the caller's opaque depth buffer, never written. Its vertices come from corners.wgsl (no bindings).
//
// Fragment α = min(0.99, o · exp(−½ dᵀ Σ'⁻¹ d)) = min(0.99, α_min·exp(L(1 − |c|²))); below 1/255 the fragment outputs (0, 0, 0, 0),
// which the blend leaves the target unchanged by, exactly as a discard would (a shader without
// discard measured 3 % faster on SwiftShader)
// (Kerbl et al. 2023 eq. 2–3; reference rasteriser forward.cu: renderCUDA).

override ALPHA_MIN: f32 = 0.00392156862745098;
override ALPHA_MAX: f32 = 0.99;

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(linear) corner: vec2f,   // offset from the centre along (e₁, e₂) in units of k standard deviations
  @location(1) @interpolate(flat) colorLog: vec4f,   // rgb, L = ln(o / α_min)
};

@vertex
fn vertexMain(
  @builtin(vertex_index) vertex: u32,
  @location(0) clipLog: vec4f,   // clip x, y, NDC depth, L (corners.wgsl)
  @location(1) colorMinor: vec4f, // rgb, minor/major ratio (unused here)
) -> VertexOut {
  // The corners pass placed the vertex; here only the corner's unit coordinates are derived.
  // α ≥ α_min inside |c| ≤ 1, the triangle's incircle. Corners at 2: (0, 2), (√3, −1), (−√3, −1).
  let vi = vertex % 3u;
  let corner = select(select(vec2f(-1.7320508, -1.0), vec2f(1.7320508, -1.0), vi == 1u), vec2f(0.0, 2.0), vi == 0u);
  var out: VertexOut;
  out.position = vec4f(clipLog.xyz, 1.0);
  out.corner = corner;
  out.colorLog = vec4f(colorMinor.rgb, clipLog.w);
  return out;
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  // o·exp(−½ dᵀ Σ'⁻¹ d) with dᵀ Σ'⁻¹ d = k²|c|² and o = α_min·e^L, ½k² = L.
  let alpha = min(ALPHA_MAX, ALPHA_MIN * exp(in.colorLog.a * (1.0 - dot(in.corner, in.corner))));
  let a = select(alpha, 0.0, alpha < ALPHA_MIN); // no discard: (0, 0, 0, 0) blends to no change
  return vec4f(in.colorLog.rgb * a, a);
}
