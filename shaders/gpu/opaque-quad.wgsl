// Flat-coloured opaque quad in world space, writing colour and depth: the simplest opaque
// geometry, used to show splat/opaque compositing and as a ground or marker primitive.
// Prepended: common/camera.wgsl. Four corners in strip order (c0, c1, c3, c2 of a rectangle).

struct Quad {
  corners: array<vec4f, 4>,   // xyz world position, metres; w unused
  color: vec4f,               // linear RGBA
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> quad: Quad;

@vertex
fn vertexMain(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let t = worldToCamera(camera, quad.corners[vi].xyz);
  return cameraToClip(camera, t);
}

@fragment
fn fragmentMain() -> @location(0) vec4f {
  return quad.color;
}
