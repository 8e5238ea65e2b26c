/**
 * Per-frame shading of every splat's colour by the scene's conditions (time of day, fog, rain; the
 * values come from src/world/conditions.ts): the preprocess multiplies the view-dependent colour by a
 * tint, darkens wet ground (splats whose centre lies below a height) and blends towards a fog colour
 * by the splat's distance from the eye, c' = f·c_wet + (1 − f)·fog with f = exp(−σ·d) (Beer–Lambert
 * extinction with a constant coefficient σ, the fog of fixed-function pipelines; Koschmieder's
 * visibility V ≈ 3 / σ, where contrast falls to 5 %). Colours are the splats' display RGB.
 *
 * `shadeSplatColor` is the TypeScript twin of `preprocess.wgsl` step 5's shading, for tests.
 */
import { SPLAT_FRAME_LAYOUT } from './gpu-layout';

type Rgb = readonly [number, number, number];

/** How the preprocess shades splat colours this frame. */
export interface SplatShading {
  /** Multiplies the colour (per channel, ≥ 0). */
  tint: Rgb;
  /** Colour that fog blends towards (display RGB). */
  fogColor: Rgb;
  /** Extinction coefficient σ, 1/m (0: no fog). */
  fogDensity: number;
  /** Splats whose centre's scene z is below this are wet (metres; −Infinity: none). */
  wetBelow: number;
  /** Multiplies a wet splat's colour, [0, 1]. */
  wetFactor: number;
}

/** No change to any colour: the default of a `SplatRenderer`. */
export const NEUTRAL_SPLAT_SHADING: SplatShading = { tint: [1, 1, 1], fogColor: [0, 0, 0], fogDensity: 0, wetBelow: -Infinity, wetFactor: 1 };

/** Largest finite f32, the GPU's stand-in for −Infinity in `wetBelow`. */
const F32_MAX = 3.4028234663852886e38;

/**
 * Checks `s` and writes it into a `SplatFrame` uniform image (`frame`, SPLAT_FRAME_LAYOUT.size / 4
 * floats), leaving the frame's other fields alone.
 *
 * @throws RangeError naming the field when a colour or factor is negative or not finite, the fog
 *   density is negative or not finite, or `wetBelow` is NaN or +Infinity.
 */
export function writeSplatShading(s: SplatShading, frame: Float32Array): void {
  const bad = (field: string, v: unknown) => new RangeError(`SplatShading.${field} ${String(v)}: must be finite and ≥ 0`);
  for (const [field, c] of [['tint', s.tint], ['fogColor', s.fogColor]] as const) {
    if (c.length !== 3 || !c.every((v) => Number.isFinite(v) && v >= 0)) throw bad(field, c);
  }
  if (!(Number.isFinite(s.fogDensity) && s.fogDensity >= 0)) throw bad('fogDensity', s.fogDensity);
  if (!(Number.isFinite(s.wetFactor) && s.wetFactor >= 0)) throw bad('wetFactor', s.wetFactor);
  if (Number.isNaN(s.wetBelow) || s.wetBelow === Infinity) throw new RangeError(`SplatShading.wetBelow ${s.wetBelow}: must be a height in metres or -Infinity`);
  const L = SPLAT_FRAME_LAYOUT;
  frame.set(s.tint, L.tint / 4);
  frame[L.fogDensity / 4] = s.fogDensity;
  frame.set(s.fogColor, L.fogColor / 4);
  frame[L.wetBelow / 4] = Math.max(s.wetBelow, -F32_MAX);
  frame[L.wetFactor / 4] = s.wetFactor;
}

/**
 * The shaded colour of a splat (TS twin of the preprocess): `color` (display RGB from its spherical
 * harmonics) at scene-frame centre `z` metres high and `distance` metres from the eye, with
 * emission `emissive` ∈ [0, 1] (its share of the colour that does not take the tint).
 */
export function shadeSplatColor(color: Rgb, z: number, distance: number, s: SplatShading, emissive = 0): [number, number, number] {
  const wet = z < s.wetBelow ? s.wetFactor : 1;
  const f = Math.exp(-s.fogDensity * distance);
  return [0, 1, 2].map((k) => f * color[k] * (s.tint[k] + (1 - s.tint[k]) * emissive) * wet + (1 - f) * s.fogColor[k]) as [number, number, number];
}
