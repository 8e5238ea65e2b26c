// Demo marker pass: opaque, lit, yaw-rotated boxes (the robot, the goal post, and stand-in
// pedestrians when no body model is drawn), one instance per box, 36 vertices each from
// @builtin(vertex_index) (no vertex buffers).
//
// Steps: 1. corner of the unit cube for this vertex and its face normal; 2. scale by halfSize,
// rotate by yaw about world Z, translate to centre; 3. camera-relative projection (camera.wgsl)
// into clip space with w = camera z, so the rasteriser clips at the near plane; 4. Lambert + wrap
// lighting by the sun and a sky/ground ambient, in display (sRGB-encoded) colour as the splats are.
//
// Group 0: 0 camera (Camera), 1 lighting (BoxLighting), 2 boxes (array<BoxInstance>).

struct BoxInstance {
  centre: vec3f,     // metres, world frame
  yaw: f32,          // radians about +Z, from +x
  halfSize: vec3f,   // metres, box frame (x forward, y left, z up)
  pad0: f32,
  color: vec4f,      // display RGB in [0, 1]; a unused
}

struct BoxLighting {
  sunDirection: vec3f, // towards the sun, unit, world frame
  ambient: f32,        // ambient share, [0, 1]
  sunColor: vec3f,     // multiplies the lit colour
  pad0: f32,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> lighting: BoxLighting;
@group(0) @binding(2) var<storage, read> boxes: array<BoxInstance>;

struct VertexOut {
  @builtin(position) clip: vec4f,
  @location(0) normal: vec3f,
  @location(1) @interpolate(flat) instance: u32,
}

// Face f (0..5: +x, -x, +y, -y, +z, -z), corner k (0..5 of two CCW triangles seen from outside).
fn cubeCorner(f: u32, k: u32) -> vec3f {
  let quad = array<vec2f, 6>(vec2f(-1, -1), vec2f(1, -1), vec2f(1, 1), vec2f(-1, -1), vec2f(1, 1), vec2f(-1, 1));
  let uv = quad[k];
  let s = select(-1.0, 1.0, f % 2u == 0u);
  switch f / 2u {
    case 0u: { return vec3f(s, s * uv.x, uv.y); }
    case 1u: { return vec3f(-s * uv.x, s, uv.y); }
    default: { return vec3f(uv.x, s * uv.y, s); }
  }
}

fn faceNormal(f: u32) -> vec3f {
  let s = select(-1.0, 1.0, f % 2u == 0u);
  switch f / 2u {
    case 0u: { return vec3f(s, 0, 0); }
    case 1u: { return vec3f(0, s, 0); }
    default: { return vec3f(0, 0, s); }
  }
}

@vertex
fn vertexMain(@builtin(vertex_index) vi: u32, @builtin(instance_index) n: u32) -> VertexOut {
  let box = boxes[n];
  let f = vi / 6u;
  let local = cubeCorner(f, vi % 6u) * box.halfSize;
  let world = box.centre + rotateYaw(local, box.yaw);
  let t = worldToCamera(camera, world);
  var out: VertexOut;
  out.clip = cameraToClip(camera, t);
  out.normal = rotateYaw(faceNormal(f), box.yaw);
  out.instance = n;
  return out;
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  let c = boxes[in.instance].color.rgb;
  let nrm = normalize(in.normal);
  let sun = max(0.0, (dot(nrm, lighting.sunDirection) + 0.3) / 1.3);
  let lit = c * (lighting.sunColor * sun * (1.0 - lighting.ambient) + vec3f(lighting.ambient));
  return vec4f(clamp(lit, vec3f(0.0), vec3f(1.0)), 1.0);
}
