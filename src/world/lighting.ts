/**
 * Time-of-day lighting of the city (the demo's slider and the scenario conditions, conditions.ts): the sun's direction and colour, the sky gradient, the scene
 * tint applied to the (pre-lit) splats, and the pedestrian pass's sun/sky uniform. Pure functions.
 *
 * A simple model, not an ephemeris: the sun rises at 06:00 in the east (+x), culminates at 13:00
 * 55° high in the south (−y), and sets at 20:00 in the west; twilight warms and darkens the tint.
 */
import { DEFAULT_PEDESTRIAN_LIGHTING, type PedestrianLighting, type Rgb } from '../humans/pedestrian-appearance';
import { SKY_COLORS } from './bake/sky';

/** Sky and scene tint for the present pass (display RGB). */
export interface SkyLighting {
  zenith: Rgb;
  horizon: Rgb;
  groundHaze: Rgb;
  /** Multiplies the scene colour (splats, pedestrians, markers). */
  tint: Rgb;
  exposure: number;
}

/** Everything the frame needs for one time of day. */
export interface TimeOfDayLighting {
  hour: number;
  /** Sun elevation, radians (negative below the horizon). */
  elevation: number;
  /** Towards the sun (unit), world frame. */
  sunDirection: [number, number, number];
  sunColor: Rgb;
  sky: SkyLighting;
  pedestrians: PedestrianLighting;
}

const mix = (a: readonly number[], b: readonly number[], t: number): Rgb => [0, 1, 2].map((k) => a[k] + (b[k] - a[k]) * t) as Rgb;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Lighting at `hour` (0–24, local solar time).
 *
 * @throws RangeError when hour is outside [0, 24].
 */
export function timeOfDayLighting(hour: number): TimeOfDayLighting {
  if (!(hour >= 0 && hour <= 24)) throw new RangeError(`timeOfDayLighting: hour ${hour} outside [0, 24]`);
  const dayFraction = (hour - 6) / 14; // 0 at sunrise, 1 at sunset
  const elevation = Math.sin(Math.PI * dayFraction) * (55 * Math.PI) / 180;
  const azimuth = Math.PI * dayFraction; // east (0) → south (π/2) → west (π)
  const ce = Math.cos(Math.max(elevation, 0.05));
  const sunDirection: [number, number, number] = [Math.cos(azimuth) * ce, -Math.sin(azimuth) * ce, Math.sin(Math.max(elevation, 0.05))];
  const day = clamp01(elevation / 0.35); // 0 at the horizon, 1 above ~20°
  const night = clamp01(-elevation / 0.2);
  const warm = (1 - day) * (1 - night);
  const sunColor = mix(mix([1.0, 0.62, 0.35], [1.0, 0.95, 0.85], day), [0.25, 0.3, 0.45], night);
  const tint = mix(mix([1.0, 0.78, 0.62], [1, 1, 1], day), [0.28, 0.32, 0.45], night);
  const zenith = mix(mix([0.3, 0.36, 0.6], SKY_COLORS.zenith, day), [0.02, 0.03, 0.08], night);
  const horizon = mix(mix([0.98, 0.66, 0.45], SKY_COLORS.horizon, day), [0.06, 0.07, 0.12], night);
  const groundHaze = mix(SKY_COLORS.groundHaze, [0.05, 0.05, 0.06], night);
  const base = DEFAULT_PEDESTRIAN_LIGHTING;
  const pedestrians: PedestrianLighting = {
    sunDirection,
    sunColor: mix(sunColor, [0, 0, 0], night * 0.8),
    skyColor: mix(base.skyColor, [0.1, 0.12, 0.2], night),
    groundColor: mix(base.groundColor, [0.05, 0.05, 0.05], night),
    exposure: 1 - 0.1 * warm,
    wrap: base.wrap,
  };
  return { hour, elevation, sunDirection, sunColor, sky: { zenith, horizon, groundHaze, tint, exposure: 1 }, pedestrians };
}
