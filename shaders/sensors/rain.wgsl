// Rain streaks over the robot camera's image: one full-screen triangle whose fragments blend a light
// streak colour over the frame (src-alpha over) where a falling streak passes. No prelude.
//
// Per pixel centre (x, y), in image heights u = x / H + SLANT · v, v = y / H (wind slants the streaks):
//   lane c = floor(u / LANE) with hashes h1, h2, h3 ∈ [0, 1) of c (PCG hash, Jarzynski & Olano 2020);
//   phase s = fract(v / PERIOD + time · SPEED · (0.75 + 0.5 h2) + h1): the streak covers s < LENGTH,
//   brightest at its head (α falls linearly along it);
//   across: |fract(u / LANE) − (0.25 + 0.5 h3)| · LANE · H pixels from the streak's centre line, α
//   falls linearly to 0 at WIDTH_PX.
//   α = strength · ALPHA · (1 − s / LENGTH) · max(0, 1 − d / WIDTH_PX).
// Reference: src/sensors/rain-streaks.ts (rainStreakAlpha).

struct Rain {
  color: vec3f,     // display RGB of a streak
  strength: f32,    // [0, 1]
  time: f32,        // seconds since the episode started
  height: f32,      // image height, pixels
  pad0: f32,
  pad1: f32,
}

@group(0) @binding(0) var<uniform> rain: Rain;

const LANE: f32 = 0.012;       // image heights between streak lanes
const PERIOD: f32 = 0.45;      // image heights between streaks of one lane
const LENGTH: f32 = 0.2;       // share of the period a streak covers
const SPEED: f32 = 3.0;        // periods per second
const SLANT: f32 = 0.08;       // horizontal drift per image height
const WIDTH_PX: f32 = 0.9;     // half-width of a streak, pixels
const ALPHA: f32 = 0.35;

fn pcgHash(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

fn unit(h: u32) -> f32 {
  return f32(h >> 8u) / 16777216.0;
}

@vertex
fn vertexMain(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  // One triangle covering the viewport.
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fragmentMain(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  let v = pos.y / rain.height;
  let u = pos.x / rain.height + SLANT * v;
  let c = u32(floor(u / LANE));
  let h1 = unit(pcgHash(c * 3u));
  let h2 = unit(pcgHash(c * 3u + 1u));
  let h3 = unit(pcgHash(c * 3u + 2u));
  let s = fract(v / PERIOD + rain.time * SPEED * (0.75 + 0.5 * h2) + h1);
  let d = abs(fract(u / LANE) - (0.25 + 0.5 * h3)) * LANE * rain.height;
  let alpha = select(0.0, rain.strength * ALPHA * (1.0 - s / LENGTH) * max(0.0, 1.0 - d / WIDTH_PX), s < LENGTH);
  return vec4f(rain.color, alpha);
}
