// Demo present pass: composites the procedural sky under the offscreen frame (rgba16float,
// premultiplied, alpha = coverage of splats and opaque geometry), applies the time-of-day scene
// tint, and writes the canvas (its preferred format; values are display-encoded already).
//
// Steps: 1. a full-screen triangle; 2. per pixel, the world ray's elevation e from the camera
// (ray = viewRotationᵀ · ((x − cx)/fx, (y − cy)/fy, 1)); 3. sky = horizon→zenith by sqrt(2.2 e)
// above the horizon, horizon→ground haze by 12|e| below (as src/world/bake/sky.ts on the CPU);
// 4. out = tint · colour + (1 − alpha) · sky.
//
// Group 0: 0 camera (Camera), 1 sky (PresentParams), 2 frame (texture_2d<f32>, same size as the canvas).

struct PresentParams {
  zenith: vec3f,
  exposure: f32,     // multiplies the tinted scene colour
  horizon: vec3f,
  pad0: f32,
  groundHaze: vec3f,
  pad1: f32,
  tint: vec3f,       // time-of-day colour of the scene (sun and sky light on the splats)
  pad2: f32,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> params: PresentParams;
@group(0) @binding(2) var frame: texture_2d<f32>;

@vertex
fn vertexMain(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((vi << 1u) & 2u), f32(vi & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

fn skyColor(px: vec2f) -> vec3f {
  let rc = vec3f((px.x - camera.principal.x) / camera.focal.x, (px.y - camera.principal.y) / camera.focal.y, 1.0);
  // viewRotation maps world → camera; column 2 holds the world z components of the camera's
  // x, y and z axes, so the ray's world z is their dot product with the camera-frame ray.
  let dz = dot(camera.viewRotation[2].xyz, rc);
  let e = dz / length(rc);
  if (e >= 0.0) {
    return mix(params.horizon, params.zenith, min(1.0, sqrt(e * 2.2)));
  }
  return mix(params.horizon, params.groundHaze, min(1.0, -e * 12.0));
}

@fragment
fn fragmentMain(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  let c = textureLoad(frame, vec2i(pos.xy), 0);
  let a = clamp(c.a, 0.0, 1.0);
  let rgb = c.rgb * params.tint * params.exposure + (1.0 - a) * skyColor(pos.xy);
  return vec4f(clamp(rgb, vec3f(0.0), vec3f(1.0)), 1.0);
}
