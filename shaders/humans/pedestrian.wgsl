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
// Fragment: albedo by body region (per-vertex attribute from skin weights), optional stripes on
// the upper garment along the rest height, wrap-Lambert sun + hemisphere ambient in linear light
// (sRGB decode/encode, IEC 61966-2-1), then fog by the distance from the eye (the splats' fog,
// splat-shading.ts), alpha 1.
// Reference: pedestrianClipPosition / shadePedestrian in src/humans/pedestrian-reference.ts.

override VERTEX_COUNT: u32 = 1u;

// Body regions (vertexRegions in pedestrian-appearance.ts).
const REGION_SKIN: u32 = 0u;
const REGION_UPPER: u32 = 1u;
const REGION_LOWER: u32 = 2u;
const REGION_HAIR: u32 = 3u;
const REGION_SHOES: u32 = 4u;
const REGION_FOREARM: u32 = 5u;
const REGION_LONG_HAIR: u32 = 6u;

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> lighting: PedestrianLighting;
@group(0) @binding(2) var<storage, read> instances: array<PedestrianInstance>;
@group(0) @binding(3) var<storage, read> skinnedVertices: array<f32>;   // N×V×6: position, normal (body frame)

struct VertexOut {
  @builtin(position) clip: vec4f,
  @location(0) normal: vec3f,                       // world frame
  @location(1) @interpolate(flat) region: u32,
  @location(2) restHeight: f32,
  @location(3) @interpolate(flat) instance: u32,
  @location(4) distance: f32,                       // from the eye, metres (fog)
}

@vertex
fn vertexMain(
  @builtin(vertex_index) v: u32,
  @builtin(instance_index) n: u32,
  @location(0) region: u32,
  @location(1) restHeight: f32,
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
  out.region = region;
  out.restHeight = restHeight;
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

fn albedo(inst: PedestrianInstance, region: u32, restHeight: f32) -> vec3f {
  switch region {
    case REGION_UPPER: {
      if (inst.stripePeriod > 0.0 && fract(restHeight / inst.stripePeriod) < inst.stripeFraction) {
        return inst.stripeColor;
      }
      return inst.upperColor;
    }
    case REGION_LOWER: { return inst.lowerColor; }
    case REGION_HAIR: { return inst.hairColor; }
    case REGION_LONG_HAIR: { return select(inst.skinColor, inst.hairColor, inst.hairLength >= 0.5); }
    case REGION_SHOES: { return mix(vec3f(inst.shoeShade), inst.lowerColor, 0.2); }
    case REGION_FOREARM: { return select(inst.skinColor, inst.upperColor, inst.longSleeves >= 0.5); }
    default: { return inst.skinColor; }
  }
}

@fragment
fn fragmentMain(in: VertexOut) -> @location(0) vec4f {
  let inst = instances[in.instance];
  let base = srgbToLinear(albedo(inst, in.region, in.restHeight));
  let nrm = normalize(in.normal);
  let sun = max(0.0, (dot(nrm, lighting.sunDirection) + lighting.wrap) / (1.0 + lighting.wrap));
  let ambient = mix(lighting.groundColor, lighting.skyColor, 0.5 + 0.5 * nrm.z);
  let lit = base * (lighting.sunColor * sun + ambient) * lighting.exposure;
  // Fog in display RGB, as the splats (splat-shading.ts).
  return vec4f(mix(lighting.fogColor, linearToSrgb(lit), exp(-lighting.fogDensity * in.distance)), 1.0);
}
