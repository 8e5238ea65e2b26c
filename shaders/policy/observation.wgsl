// Observation pass: one rendered frame of one environment → one ring slot of the policy input.
//
// Steps (one invocation per output pixel (i, j) of the W×H model image):
//   1. u = x0 + (i + ½)·scaleX − ½ and v = y0 + (j + ½)·scaleY − ½ in source pixels (half-pixel
//      centres, as PyTorch F.interpolate(bilinear, align_corners=False) and OpenCV INTER_LINEAR),
//      clamped to the source; (x0, y0) and scale come from the crop rectangle.
//   2. Bilinear blend of the four texels (each clamped to [0, 1]) with f32 weights from textureLoad,
//      not a sampler: hardware filtering may quantise weights to 8 bits (WebGPU spec §23.3.3).
//   3. (x − mean)/stdDev per channel when `normalize` is set (manifest normalization.appliedBy = curbside).
//   4. Planar write into ring[slot][envIndex][c][j][i] (float32).
//
// Bindings (group 0):
//   0  uniform                ObservationParams (per environment)
//   1  texture_2d<f32>        the frame (rgba16float from OffscreenTarget; any float colour format)
//   2  storage, read_write    ring: array<f32>, S × B × 3 × H × W
//
// The plain TypeScript twin is resizeNormalizeReference in src/policy/observation-reference.ts;
// it rounds every step to f32 in this order.

struct ObservationParams {
  cropOrigin: vec2f,  // source pixels
  scale: vec2f,       // crop size / output size (source pixels per output pixel)
  srcSize: vec2u,     // source frame, pixels
  dstSize: vec2u,     // W, H
  mean: vec4f,        // rgb, w unused
  stdDev: vec4f,      // rgb, w unused
  envIndex: u32,
  batch: u32,         // B
  slot: u32,          // ring slot written
  normalize: u32,     // 1: apply (x − mean)/std
}

override WORKGROUP_SIZE_X: u32 = 8u;
override WORKGROUP_SIZE_Y: u32 = 8u;

@group(0) @binding(0) var<uniform> params: ObservationParams;
@group(0) @binding(1) var frame: texture_2d<f32>;
@group(0) @binding(2) var<storage, read_write> ring: array<f32>;

fn texel(x: u32, y: u32) -> vec3f {
  return clamp(textureLoad(frame, vec2u(x, y), 0).rgb, vec3f(0.0), vec3f(1.0));
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y)
fn resizeNormalize(@builtin(global_invocation_id) gid: vec3u) {
  let dst = params.dstSize;
  if (gid.x >= dst.x || gid.y >= dst.y) {
    return;
  }
  let srcMax = vec2f(params.srcSize - vec2u(1u));
  let centre = vec2f(gid.xy) + vec2f(0.5);
  let uv = clamp(params.cropOrigin + centre * params.scale - vec2f(0.5), vec2f(0.0), srcMax);
  let a = vec2u(floor(uv));
  let b = min(a + vec2u(1u), params.srcSize - vec2u(1u));
  let w = uv - vec2f(a);
  let t00 = texel(a.x, a.y);
  let t10 = texel(b.x, a.y);
  let t01 = texel(a.x, b.y);
  let t11 = texel(b.x, b.y);
  let top = t00 + w.x * (t10 - t00);
  let bottom = t01 + w.x * (t11 - t01);
  var rgb = top + w.y * (bottom - top);
  if (params.normalize == 1u) {
    rgb = (rgb - params.mean.rgb) / params.stdDev.rgb;
  }
  let plane = dst.x * dst.y;
  let base = (params.slot * params.batch + params.envIndex) * 3u * plane + gid.y * dst.x + gid.x;
  if (base + 2u * plane >= arrayLength(&ring)) {
    return;
  }
  ring[base] = rgb.r;
  ring[base + plane] = rgb.g;
  ring[base + 2u * plane] = rgb.b;
}
