// Splat structs shared by preprocess.wgsl and render.wgsl (prepended by the shader loader).
// Host-side layouts: src/splats/gpu-layout.ts, checked by gpu-layout.test.ts.

// One Gaussian, activated parameters (3DGS §4), 64 bytes.
struct Splat {
  position: vec3f,   // centre, metres, scene frame
  opacity: f32,      // sigmoid-activated, [0, 1]
  rotation: vec4f,   // unit quaternion (w, x, y, z)
  scale: vec3f,      // per-axis standard deviation, metres
  shScale: f32,      // largest |higher-band SH coefficient|: shRest holds snorm8 multiples of it
  shDc: vec3f,       // degree-0 SH coefficient per channel
  pad1: f32,
}

// A splat projected to screen space by the preprocess pass (the raster record), 32 bytes. The
// 2D Gaussian is stored in its eigenbasis: Σ' = λ₁ e₁e₁ᵀ + λ₂ e₂e₂ᵀ with e₂ = (−e₁.y, e₁.x), so
// the raster pass draws a triangle around the ellipse of ±k√λ₁ e₁, ±k√λ₂ e₂ and evaluates the Gaussian from
// coordinates in standard deviations, without the conic (projection.ts: ProjectedSplat).
struct ProjectedSplat {
  centerPx: vec2f,   // pixels, origin top-left, y down
  axisMajor: vec2f,  // √λ₁ e₁, pixels: one standard deviation along the major axis
  sigmaMinor: f32,   // √λ₂, pixels: one standard deviation along e₂
  depthNdc: f32,     // WebGPU NDC depth of the centre, [0, 1]
  colorRG: u32,      // pack2x16float(r, g): view-dependent colour from SH
  colorBO: u32,      // pack2x16float(b, opacity)
}

// Per-frame values of the splat passes other than the camera.
struct SplatFrame {
  splatCount: u32,   // splats in this frame's visible cell ranges (M ≤ the scene's count)
  keyBits: u32,      // depth key width (projection.ts: depthKeyBits)
  rangeCount: u32,   // entries of the cell range table
  minAlphaMass: f32, // px²: splats with less total α are culled (0: none; projection.ts: alphaMass)
}
