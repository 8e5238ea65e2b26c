import { describe, expect, it } from 'vitest';
import { clockHours, conditionsShading, CONDITION_PRESETS, DEFAULT_CONDITIONS, FOG_VISIBILITY_M, RAIN_VISIBILITY_M, WET_BELOW_M, WET_FACTOR } from './conditions';

const luminance = (c: readonly number[]) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];

describe('conditions', () => {
  it('reads clock times HH:MM and names the bad ones', () => {
    expect(clockHours('00:00')).toBe(0);
    expect(clockHours('07:30')).toBe(7.5);
    expect(clockHours('23:59')).toBeCloseTo(23 + 59 / 60, 12);
    expect(clockHours('24:00')).toBe(24);
    for (const bad of ['7:30', '24:01', '12:60', '1230', '', 'noon']) expect(() => clockHours(bad), bad).toThrow(`time '${bad}': expected HH:MM`);
  });

  it('leaves the splats untouched on a clear afternoon and darkens them at dusk and night', () => {
    const day = conditionsShading(DEFAULT_CONDITIONS);
    for (const v of day.splats.tint) expect(v).toBeCloseTo(1, 12);
    expect(day.splats.fogDensity).toBe(0);
    expect(day.splats.wetBelow).toBe(-Infinity);
    expect(day.rain).toBe(0);
    expect(day.pedestrians.fog).toBeUndefined();
    const dusk = conditionsShading(CONDITION_PRESETS.dusk);
    const night = conditionsShading(CONDITION_PRESETS.night);
    expect(luminance(dusk.splats.tint)).toBeLessThan(0.95);
    // Dusk is warm: red above blue.
    expect(dusk.splats.tint[0]).toBeGreaterThan(dusk.splats.tint[2] + 0.2);
    expect(luminance(night.splats.tint)).toBeLessThan(0.4);
    expect(luminance(night.sky)).toBeLessThan(0.15 * luminance(day.sky));
    expect(luminance(night.pedestrians.sunColor)).toBeLessThan(0.2 * luminance(day.pedestrians.sunColor));
  });

  it('fogs with σ = 3 / visibility, splats and pedestrians alike, before a sky of the fog colour', () => {
    const fog = conditionsShading(CONDITION_PRESETS.fog);
    expect(fog.splats.fogDensity).toBeCloseTo(3 / FOG_VISIBILITY_M, 12);
    // 5 % of the contrast left at the visibility (Koschmieder).
    expect(Math.exp(-fog.splats.fogDensity * FOG_VISIBILITY_M)).toBeCloseTo(0.05, 2);
    expect(fog.pedestrians.fog).toEqual({ color: fog.splats.fogColor, density: fog.splats.fogDensity });
    expect(fog.sky).toEqual(fog.splats.fogColor);
    // Grey: the channels within a few per cent.
    const [r, g, b] = fog.splats.fogColor;
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(0.05);
  });

  it('rains: overcast, hazy, wet ground, streaks', () => {
    const day = conditionsShading(DEFAULT_CONDITIONS);
    const rain = conditionsShading(CONDITION_PRESETS.rain);
    expect(rain.rain).toBe(1);
    // Streaks one step lighter than the sky behind them.
    for (let k = 0; k < 3; k++) expect(rain.rainColor[k]).toBeCloseTo(Math.min(1, 0.35 + 0.9 * rain.sky[k]), 12);
    expect(rain.splats.wetBelow).toBe(WET_BELOW_M);
    expect(rain.splats.wetFactor).toBe(WET_FACTOR);
    expect(rain.splats.fogDensity).toBeCloseTo(3 / RAIN_VISIBILITY_M, 12);
    expect(luminance(rain.splats.tint)).toBeLessThan(luminance(day.splats.tint));
    expect(luminance(rain.pedestrians.sunColor)).toBeCloseTo(0.3 * luminance(day.pedestrians.sunColor), 6);
  });

  it('rejects an unknown weather and a bad time', () => {
    expect(() => conditionsShading({ time: '12:00', weather: 'snow' as never })).toThrow("weather 'snow': expected one of clear, fog, rain");
    expect(() => conditionsShading({ time: '25:00', weather: 'clear' })).toThrow("time '25:00'");
  });
});
