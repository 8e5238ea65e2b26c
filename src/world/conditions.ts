/**
 * The city's conditions (UrbanGround's dynamic city, issue #16): a time of day and a weather, and what
 * they do to the robot camera's image. A scenario's `conditions` field, `npm run render -- --time
 * HH:MM --weather W` and every episode record carry a {@link Conditions}; {@link conditionsShading}
 * turns it into the splat shading (tint, fog, wet ground; src/splats/splat-shading.ts), the
 * pedestrians' lighting (sun, sky, fog), the sky colour behind everything and the rain streaks'
 * strength (src/sensors/rain-pass.ts).
 *
 * The models are deliberately simple and documented, not physically calibrated:
 * - time of day: `timeOfDayLighting` (lighting.ts): the splats' baked colours are multiplied by the
 *   sky tint (night ≈ 0.3), the pedestrians get that hour's sun and sky;
 * - fog: Beer–Lambert extinction towards a grey of the sky's brightness with visibility
 *   {@link FOG_VISIBILITY_M} (σ = 3 / V: 5 % contrast left at V, Koschmieder);
 * - rain: overcast (a dimmer, greyer tint, sun × 0.3), a light haze (visibility
 *   {@link RAIN_VISIBILITY_M}), wet ground (splats below {@link WET_BELOW_M} darkened ×
 *   {@link WET_FACTOR}) and falling streaks over the image.
 */
import type { PedestrianLighting, Rgb } from '../humans/pedestrian-appearance';
import type { SplatShading } from '../splats/splat-shading';
import { timeOfDayLighting, type TimeOfDayLighting } from './lighting';

export const WEATHERS = ['clear', 'fog', 'rain'] as const;
export type Weather = (typeof WEATHERS)[number];

/** A time of day and a weather. */
export interface Conditions {
  /** Local solar time, "HH:MM" (00:00–24:00). */
  time: string;
  weather: Weather;
}

/** A clear early afternoon: what every scenario without a `conditions` field runs in. */
export const DEFAULT_CONDITIONS: Conditions = { time: '13:00', weather: 'clear' };

/** Named conditions for matched runs (`bench --conditions day,dusk,night,fog,rain`). */
export const CONDITION_PRESETS: Readonly<Record<string, Conditions>> = {
  day: DEFAULT_CONDITIONS,
  dusk: { time: '19:40', weather: 'clear' },
  night: { time: '23:00', weather: 'clear' },
  fog: { time: '13:00', weather: 'fog' },
  rain: { time: '13:00', weather: 'rain' },
};

/** Fog's visibility, metres (σ = 3 / V). */
export const FOG_VISIBILITY_M = 45;
/** Rain's haze visibility, metres. */
export const RAIN_VISIBILITY_M = 250;
/** Splats whose centre is below this height (world z, metres) are wet ground in rain: road, sidewalk, curb. */
export const WET_BELOW_M = 0.2;
/** Wet ground's colour factor (wet asphalt and concrete are about half as bright). */
export const WET_FACTOR = 0.55;

/** The pattern of {@link Conditions.time}. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/**
 * Hours since midnight of a clock time "HH:MM" (00:00–24:00).
 *
 * @throws RangeError naming the text when it is not such a time.
 */
export function clockHours(time: string): number {
  const m = CLOCK_TIME.exec(time);
  if (!m) throw new RangeError(`time '${time}': expected HH:MM between 00:00 and 24:00`);
  return time === '24:00' ? 24 : Number(m[1]) + Number(m[2]) / 60;
}

/** What the renderers need for one set of conditions. */
export interface ConditionsShading {
  conditions: Conditions;
  lighting: TimeOfDayLighting;
  splats: SplatShading;
  pedestrians: PedestrianLighting;
  /** Behind everything (the render target's clear colour), display RGB. */
  sky: Rgb;
  /** Rain streak strength, [0, 1] (0: none). */
  rain: number;
  /** Rain streaks' colour: the sky's, lightened (bright by day, dim at night), display RGB. */
  rainColor: Rgb;
}

const scale = (c: readonly number[], k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];
const luminance = (c: readonly number[]) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
const grey = (c: readonly number[], amount: number): Rgb => {
  const y = luminance(c);
  return [0, 1, 2].map((k) => c[k] + (y - c[k]) * amount) as Rgb;
};

/**
 * The shading of `c` (see the module comment).
 *
 * @throws RangeError for a bad time or weather.
 */
export function conditionsShading(c: Conditions): ConditionsShading {
  if (!WEATHERS.includes(c.weather)) throw new RangeError(`weather '${c.weather}': expected one of ${WEATHERS.join(', ')}`);
  const lighting = timeOfDayLighting(clockHours(c.time));
  const rain = c.weather === 'rain';
  // Overcast in rain: a greyer, dimmer scene.
  const tint = rain ? scale(grey(lighting.sky.tint, 0.5), 0.8) : lighting.sky.tint;
  const horizon = rain ? scale(grey(lighting.sky.horizon, 0.7), 0.75) : lighting.sky.horizon;
  // Fog takes the brightness of the sky it scatters: grey at the horizon's luminance.
  const fogColor = grey(horizon, 0.85);
  const visibility = c.weather === 'fog' ? FOG_VISIBILITY_M : rain ? RAIN_VISIBILITY_M : Infinity;
  const fogDensity = Number.isFinite(visibility) ? 3 / visibility : 0;
  const splats: SplatShading = { tint, fogColor, fogDensity, wetBelow: rain ? WET_BELOW_M : -Infinity, wetFactor: rain ? WET_FACTOR : 1 };
  const p = lighting.pedestrians;
  const pedestrians: PedestrianLighting = {
    ...p,
    sunColor: rain ? scale(p.sunColor, 0.3) : p.sunColor,
    fog: fogDensity > 0 ? { color: fogColor, density: fogDensity } : undefined,
  };
  const sky = fogDensity > 0 && !rain ? fogColor : horizon;
  const rainColor = sky.map((v) => Math.min(1, 0.35 + 0.9 * v)) as Rgb;
  return { conditions: c, lighting, splats, pedestrians, sky, rain: rain ? 1 : 0, rainColor };
}
