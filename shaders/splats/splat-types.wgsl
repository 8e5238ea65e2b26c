// Splat structs shared by preprocess.wgsl and render.wgsl (prepended by the shader loader).
// Host-side layouts: src/splats/gpu-layout.ts, checked by gpu-layout.test.ts.

// One Gaussian, activated parameters (3DGS §4), 64 bytes.
struct Splat {
  position: vec3f,   // centre, metres, scene frame
  opacity: f32,      // sigmoid-activated, [0, 1]
  rotation: vec4f,   // unit quaternion (w, x, y, z)
  scale: vec3f,      // per-axis standard deviation, metres
  pad0: f32,
  shDc: vec3f,       // degree-0 SH coefficient per channel
  pad1: f32,
}

// A splat projected to screen space by the preprocess pass, 48 bytes.
struct ProjectedSplat {
  centerPx: vec2f,   // pixels, origin top-left, y down
  depthNdc: f32,     // WebGPU NDC depth of the centre, [0, 1]
  radiusPx: f32,     // half-size of the drawn square, pixels; 0 when culled
  conic: vec3f,      // inverse 2D covariance (a, b, c), 1/px²
  opacity: f32,
  color: vec4f,      // view-dependent RGB from SH, alpha unused
}

// Per-frame values of the splat passes other than the camera.
struct SplatFrame {
  splatCount: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}
