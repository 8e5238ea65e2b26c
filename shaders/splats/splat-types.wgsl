// Splat structs shared by preprocess.wgsl and render.wgsl (prepended by the shader loader).
// Host-side layouts: src/splats/gpu-layout.ts, checked by gpu-layout.test.ts.

// One Gaussian, activated parameters (3DGS §4), 64 bytes. The 3D covariance Σ = R S Sᵀ Rᵀ (eq. 6) is
// computed once at load (gpu-layout.ts: packSplats), so the preprocess does not rebuild it from the
// quaternion and scales every frame.
struct Splat {
  position: vec3f,   // centre, metres, scene frame
  opacity: f32,      // sigmoid-activated, [0, 1]
  covA: vec3f,       // Σ xx, xy, xz, m², scene frame
  shScale: f32,      // largest |higher-band SH coefficient|: shRest holds snorm8 multiples of it
  covB: vec3f,       // Σ yy, yz, zz, m²
  emissive: f32,    // share of the colour that does not take the frame's tint (lamps, lit windows)
  shDc: vec3f,       // degree-0 SH coefficient per channel
  pad1: f32,
}

// A splat projected to screen space by the preprocess pass (the raster record), 32 bytes. The
// 2D Gaussian is stored in its eigenbasis, Σ' = λ₁ e₁e₁ᵀ + λ₂ e₂e₂ᵀ with e₂ = (−e₁.y, e₁.x), already
// scaled by the opacity-aware extent k = √(2 L), L = ln(o / α_min), so that the raster pass places the
// triangle around the α ≥ α_min ellipse with multiplies alone: corner c (unit-incircle coordinates)
// at centre + c.x·extentMajor + c.y·minorRatio·perp(extentMajor), α there = α_min·exp(L(1 − |c|²))
// (projection.ts: ProjectedSplat; bench/RESULTS.md measured the vertex work this takes off).
struct ProjectedSplat {
  centerPx: vec2f,     // pixels, origin top-left, y down
  extentMajor: vec2f,  // k√λ₁ e₁, pixels: the α_min ellipse's semi-major axis
  alphaLog: f32,       // L = ln(o / α_min) ≥ 0 (k = √(2L)); negative: culled
  depthNdc: f32,       // WebGPU NDC depth of the centre, [0, 1]
  colorRG: u32,        // pack2x16float(r, g): view-dependent colour from SH
  blueMinor: u32,      // pack2x16float(b, √(λ₂/λ₁)): blue and the minor/major axis ratio, (0, 1]
}

// Per-frame values of the splat passes other than the camera.
struct SplatFrame {
  splatCount: u32,   // splats in this frame's visible cell ranges (M ≤ the scene's count)
  keyBits: u32,      // depth key width (projection.ts: depthKeyBits)
  rangeCount: u32,   // entries of the cell range table
  minAlphaMass: f32, // px²: splats with less total α are culled (0: none; projection.ts: alphaMass)
  // Shading by the scene's conditions (splat-shading.ts: shadeSplatColor):
  // c' = f·c·tint·(wetFactor if z < wetBelow) + (1 − f)·fogColor, f = exp(−fogDensity · distance).
  tint: vec3f,
  fogDensity: f32,   // 1/m
  fogColor: vec3f,
  wetBelow: f32,     // scene z, metres
  wetFactor: f32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
