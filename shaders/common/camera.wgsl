// Camera shared by every pass that projects world points (splats, pedestrians, markers).
//
// Camera-relative rendering: the eye position is split into a high and a low f32 part
// (eyeHigh + eyeLow = eye in f64 on the host), and passes compute `(p - eyeHigh) - eyeLow`
// before rotating, so a point 2 km from the origin keeps sub-millimetre precision near the
// camera. The view matrix has no translation: `viewRotation` maps world directions to the
// camera frame (OpenCV convention: x right, y down, z forward), as in the 3DGS reference.

struct Camera {
  viewRotation: mat4x4f,   // world -> camera rotation (translation part zero)
  eyeHigh: vec3f,          // f32 rounding of the eye position, metres, world frame
  near: f32,               // near plane distance, metres
  eyeLow: vec3f,           // eye - eyeHigh, metres
  far: f32,                // far plane distance, metres
  focal: vec2f,            // (fx, fy) focal lengths, pixels
  principal: vec2f,        // (cx, cy) principal point, pixels (origin top-left)
  viewport: vec2f,         // (width, height), pixels
  tanHalfFov: vec2f,       // (tan(fovX/2), tan(fovY/2))
}

// World point -> camera frame (x right, y down, z forward), camera-relative.
fn worldToCamera(camera: Camera, p: vec3f) -> vec3f {
  let rel = (p - camera.eyeHigh) - camera.eyeLow;
  return (camera.viewRotation * vec4f(rel, 0.0)).xyz;
}

// Camera-frame depth z (> 0 in front) -> WebGPU NDC depth in [0, 1] (reversed-free, z=near -> 0).
fn cameraDepthToNdc(camera: Camera, z: f32) -> f32 {
  return camera.far * (z - camera.near) / (z * (camera.far - camera.near));
}

// Pixel coordinates (origin top-left, y down) -> clip position with w = 1.
fn pixelToClip(camera: Camera, px: vec2f, ndcDepth: f32) -> vec4f {
  let ndc = vec2f(px.x / camera.viewport.x * 2.0 - 1.0, 1.0 - px.y / camera.viewport.y * 2.0);
  return vec4f(ndc, ndcDepth, 1.0);
}

// Camera-frame point -> perspective clip position (w = z, so depth and attributes interpolate
// perspective-correctly): the pinhole projection with the principal point, y flipped to NDC up,
// and cameraDepthToNdc's depth, all multiplied by z.
fn cameraToClip(camera: Camera, t: vec3f) -> vec4f {
  return vec4f(
    2.0 * (camera.focal.x * t.x + camera.principal.x * t.z) / camera.viewport.x - t.z,
    t.z - 2.0 * (camera.focal.y * t.y + camera.principal.y * t.z) / camera.viewport.y,
    camera.far * (t.z - camera.near) / (camera.far - camera.near),
    t.z);
}

// Rotation of a body-frame vector about world +z by `yaw` radians (counter-clockwise).
fn rotateYaw(v: vec3f, yaw: f32) -> vec3f {
  let c = cos(yaw);
  let s = sin(yaw);
  return vec3f(c * v.x - s * v.y, s * v.x + c * v.y, v.z);
}
