// Pedestrian render pass: every pedestrian's skinned mesh in one instanced, indexed draw, lit by a
// sun and a sky/ground hemisphere, writing colour and depth (depth32float) so the splat pass that
// follows composites around it. Prepended: common/camera.wgsl, humans/pedestrian-types.wgsl.
//
// Steps (vertex, one invocation per (instance n, vertex v = index value)):
//   1. Body-frame position and normal from PedestrianSkinner.skinnedVertices[n·V + v] (6 f32).
//   2. World placement camera-relative: rel = ((position − eyeHigh) − eyeLow) + R_z(yaw)·p, so
//      pedestrians kilometres from the origin keep sub-millimetre precision (camera.wgsl).
//   3. Pinhole projection written as a linear clip position (w = camera z), so triangles that
//      cross the near plane are clipped by the rasteriser instead of dividing by z ≤ 0:
//        clip.x = 2(fx·x + cx·z)/W − z,  clip.y = z − 2(fy·y + cy·z)/H,
//        clip.z = far·(z − near)/(far − near)   (= cameraDepthToNdc(z)·z).
// Fragment: albedo from the per-walker material (PedestrianInstance) cut by the per-vertex material
// coordinates (pedestrian-material.ts: rest position, body height and arm coordinates, head frame,
// skin-weight sums): skin, hair style, garment kind and sleeves, procedural fabric pattern, shoes;
// wrap-Lambert sun + hemisphere ambient in linear light
// (sRGB decode/encode, IEC 61966-2-1), then fog by the distance from the eye (the splats' fog,
// splat-shading.ts), alpha 1.
// Reference: pedestrianClipPosition / shadePedestrian in src/humans/pedestrian-reference.ts.

override VERTEX_COUNT: u32 = 1u;

// Garment and hair cut lines, in the material coordinates (pedestrian-material.ts): bodyZ (ankle 0,
// knee 1, pelvis 2, neck 3), armT (shoulder 0, elbow 1, wrist 2), headU (head joint 0, crown 1),
// headBack (+1 back of the head, −1 face). Mirrored in pedestrian-albedo-reference.ts (MATERIAL_CUTS).
const WAIST_Z: f32 = 2.25;          // trousers and skirts end / shirts begin (a quarter of pelvis → neck)
const JACKET_HEM_Z: f32 = 1.72;     // jackets cover the hips
const DRESS_HEM_Z: f32 = 1.02;      // just below the knee
const SKIRT_HEM_Z: f32 = 1.08;
const SHORTS_HEM_Z: f32 = 1.32;
const SHOE_TOP_Z: f32 = 0.06;
const SHORT_SLEEVE_T: f32 = 0.42;
const LONG_SLEEVE_T: f32 = 1.93;
const DRESS_SLEEVE_T: f32 = 0.2;
const SHORT_HAIR_T: f32 = 0.5;        // hair line: headU + 0.45·headBack above this
const LONG_HAIR_T: f32 = 0.3;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> lighting: PedestrianLighting;
@group(0) @binding(2) var<storage, read> instances: array<PedestrianInstance>;
@group(0) @binding(3) var<storage, read> skinnedVertices: array<f32>;   // N×V×6: position, normal (body frame)

struct VertexOut {
  @builtin(position) clip: vec4f,
  @location(0) normal: vec3f,                       // world frame
  @location(1) restPosition: vec3f,                 // template, body frame, metres
  @location(2) coords: vec4f,                       // bodyZ, armT, headU, headBack
  @location(3) weights: vec4f,                      // arm, hand, head+neck, foot skin-weight sums
  @location(4) @interpolate(flat) instance: u32,
  @location(5) distance: f32,                       // from the eye, metres (fog)
}

@vertex
fn vertexMain(
  @builtin(vertex_index) v: u32,
  @builtin(instance_index) n: u32,
  @location(0) restPosition: vec3f,
  @location(1) coords: vec4f,
  @location(2) weights: vec4f,
) -> VertexOut {
  let inst = instances[n];
  let o = 6u * (n * VERTEX_COUNT + v);
  let p = vec3f(skinnedVertices[o], skinnedVertices[o + 1u], skinnedVertices[o + 2u]);
  let nb = vec3f(skinnedVertices[o + 3u], skinnedVertices[o + 4u], skinnedVertices[o + 5u]);
  let rel = ((inst.position - camera.eyeHigh) - camera.eyeLow) + rotateYaw(p, inst.yaw);
  let t = (camera.viewRotation * vec4f(rel, 0.0)).xyz;
  var out: VertexOut;
  out.clip = cameraToClip(camera, t);
  out.normal = rotateYaw(nb, inst.yaw);
  out.restPosition = restPosition;
  out.coords = coords;
  out.weights = weights;
  out.instance = n;
  out.distance = length(rel);
  return out;
}

fn srgbToLinear(c: vec3f) -> vec3f {
  return select(pow((c + 0.055) / 1.055, vec3f(2.4)), c / 12.92, c <= vec3f(0.04045));
}

fn linearToSrgb(c: vec3f) -> vec3f {
  let x = clamp(c, vec3f(0.0), vec3f(1.0));
  return select(1.055 * pow(x, vec3f(1.0 / 2.4)) - 0.055, 12.92 * x, x <= vec3f(0.0031308));
}

// Integer hash to [0, 1) (PCG-style mix; Jarzynski & Olano 2020, "Hash Functions for GPU Rendering").
fn hash2(c: vec2i, seed: f32) -> f32 {
  var h = bitcast<u32>(c.x) * 747796405u + bitcast<u32>(c.y) * 2891336453u + u32(seed * 65536.0);
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return f32(h & 0xffffffu) / 16777216.0;
}

// Fabric surface coordinates (metres along the surface, roughly): around the torso, around each
// leg, along each arm; the second coordinate is height (or across the arm).
fn fabricUv(p: vec3f, coords: vec4f, arm: f32) -> vec2f {
  if (arm > 0.5) { return vec2f(coords.y * 0.28, p.x + 0.5 * p.z); }
  if (coords.x >= 2.0) { return vec2f(atan2(p.y, p.x) * 0.16, p.z); }
  return vec2f(atan2(abs(p.y) - 0.1, p.x) * 0.08, p.z);
}

// Procedural fabric: plain, horizontal stripes, check (plaid bands), denim (twill lines and noise),
// print (one dot per cell at a hashed position).
fn fabric(c1: vec3f, c2: vec3f, pattern: f32, scale: f32, seed: f32, uv: vec2f) -> vec3f {
  let k = u32(pattern + 0.5);
  let q = uv / max(scale, 0.01);
  if (k == 1u) { return select(c1, c2, fract(q.y) < 0.4); }
  if (k == 2u) {
    let a = fract(q.x) < 0.3;
    let b = fract(q.y) < 0.3;
    if (a && b) { return c2; }
    if (a || b) { return mix(c1, c2, 0.55); }
    return c1;
  }
  if (k == 3u) {
    let twill = 0.5 + 0.5 * sin((uv.x + uv.y) * 900.0);
    let noise = hash2(vec2i(floor(uv * 300.0)), seed);
    return c1 * (0.82 + 0.12 * twill + 0.12 * noise);
  }
  if (k == 4u) {
    let cell = floor(q * 1.6);
    let centre = vec2f(hash2(vec2i(cell), seed), hash2(vec2i(cell) + vec2i(17, 5), seed)) * 0.6 + 0.2;
    return select(c1, c2, length(fract(q * 1.6) - centre) < 0.22);
  }
  return c1;
}

// sRGB albedo of one fragment of pedestrian `inst`.
fn albedo(inst: PedestrianInstance, p: vec3f, coords: vec4f, w: vec4f) -> vec3f {
  let bodyZ = coords.x;
  let armT = coords.y;
  let upperKind = u32(inst.upperKind + 0.5);
  let lowerKind = u32(inst.lowerKind + 0.5);
  let uv = fabricUv(p, coords, w.x);
  let upper = fabric(inst.upperColor, inst.upperColor2, inst.upperPattern, inst.patternScale, inst.patternSeed, uv);
  let lower = fabric(inst.lowerColor, inst.lowerColor2, inst.lowerPattern, inst.patternScale, inst.patternSeed + 0.5, uv);
  if (w.z > 0.5) {
    // Head and neck: hair above a line that rises towards the face.
    let hairT = coords.z + 0.45 * coords.w;
    let style = u32(inst.hairStyle + 0.5);
    let shortHair = style >= 1u && hairT > SHORT_HAIR_T;
    let longHair = style == 2u && (hairT > LONG_HAIR_T || (coords.w > 0.2 && coords.z > -0.9));
    return select(inst.skinColor, inst.hairColor, shortHair || longHair);
  }
  if (w.y > 0.5) { return inst.skinColor; }
  if (w.w > 0.5 || bodyZ < SHOE_TOP_Z) { return inst.shoeColor; }
  if (w.x > 0.5) {
    var sleeve = SHORT_SLEEVE_T;
    if (upperKind == 1u || upperKind == 2u) { sleeve = LONG_SLEEVE_T; }
    if (upperKind == 3u) { sleeve = DRESS_SLEEVE_T; }
    return select(inst.skinColor, upper, armT < sleeve);
  }
  if (upperKind == 3u) { return select(inst.skinColor, upper, bodyZ > DRESS_HEM_Z); }
  if (upperKind == 2u && bodyZ > JACKET_HEM_Z) {
    // Open jacket: a strip down the front shows the shirt beneath.
    let front = p.x > 0.0 && abs(p.y) < 0.035 + 0.02 * clamp(bodyZ - 2.3, 0.0, 1.0);
    return select(upper, inst.innerColor, front && bodyZ > 2.05);
  }
  if (bodyZ >= WAIST_Z) { return upper; }
  var hem = 0.0;
  if (lowerKind == 1u) { hem = SHORTS_HEM_Z; }
  if (lowerKind == 2u) { hem = SKIRT_HEM_Z; }
  return select(inst.skinColor, lower, bodyZ > hem);
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  let inst = instances[in.instance];
  let base = srgbToLinear(albedo(inst, in.restPosition, in.coords, in.weights));
  let nrm = normalize(in.normal);
  let sun = max(0.0, (dot(nrm, lighting.sunDirection) + lighting.wrap) / (1.0 + lighting.wrap));
  let ambient = mix(lighting.groundColor, lighting.skyColor, 0.5 + 0.5 * nrm.z);
  let lit = base * (lighting.sunColor * sun + ambient) * lighting.exposure;
  // Fog in display RGB, as the splats (splat-shading.ts).
  return vec4f(mix(lighting.fogColor, linearToSrgb(lit), exp(-lighting.fogDensity * in.distance)), 1.0);
}
