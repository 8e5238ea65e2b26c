import { describe, expect, it } from 'vitest';
import { createProceduralBody } from './procedural-body';
import { FABRIC_PATTERNS, HAIR_STYLES, LOWER_KINDS, PEDESTRIAN_INSTANCE_LAYOUT, UPPER_KINDS, packPedestrianInstances, randomAppearance } from './pedestrian-appearance';
import { MONK_SKIN_TONES, pedestrianBetas } from './pedestrian-wardrobe';
import { makeHumanBody } from './makehuman-set';

describe('randomAppearance (the wardrobe)', () => {
  it('is a pure function of the seed', () => {
    for (const seed of [0, 1, 77, 123456789]) expect(randomAppearance(seed)).toEqual(randomAppearance(seed));
    expect(randomAppearance(1)).not.toEqual(randomAppearance(2));
  });

  it('covers the wardrobe over 400 seeds: every hair style, garment kind and pattern; skin tones across the Monk scale', () => {
    const looks = Array.from({ length: 400 }, (_, i) => randomAppearance(i));
    for (const s of HAIR_STYLES) expect(looks.some((a) => a.hairStyle === s), s).toBe(true);
    for (const k of UPPER_KINDS) expect(looks.some((a) => a.upperKind === k), k).toBe(true);
    for (const k of LOWER_KINDS) expect(looks.some((a) => a.lowerKind === k), k).toBe(true);
    for (const p of FABRIC_PATTERNS) expect(looks.some((a) => a.upperPattern === p || a.lowerPattern === p), p).toBe(true);
    const lum = (c: number[]) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    const skin = looks.map((a) => lum(a.skinColor));
    expect(Math.min(...skin)).toBeLessThan(lum(MONK_SKIN_TONES[8]));
    expect(Math.max(...skin)).toBeGreaterThan(lum(MONK_SKIN_TONES[1]));
    for (const a of looks) {
      expect(a.upperColor.some((x, i) => Math.abs(x - a.skinColor[i]) > 0.2 || a.upperPattern === 'denim')).toBe(true);
      expect(a.shape.gender).toBeGreaterThanOrEqual(-1);
      expect(a.shape.gender).toBeLessThanOrEqual(1);
      expect(Math.abs(a.shape.gender)).toBeGreaterThanOrEqual(0.6);
      expect(a.shape.age).toBeGreaterThanOrEqual(0);
      expect(a.shape.age).toBeLessThanOrEqual(1);
    }
  });

  it('maps the shape onto each body: MakeHuman by name, procedural through its own components', () => {
    const shape = { gender: -0.8, age: 0.3, weight: 0.5, muscle: -0.2, height: 0.4 };
    expect(Array.from(pedestrianBetas(makeHumanBody(0), shape))).toEqual(Array.from(Float32Array.of(-0.8, 0.3, 0.5, -0.2, 0.4)));
    const proc = createProceduralBody();
    expect(Array.from(pedestrianBetas(proc, shape))).toEqual(Array.from(Float32Array.of(0.4, 0.4, -0.1 - 0.32, 0.2)));
  });

  it('packs kinds and patterns as indices at the layout offsets', () => {
    const a = randomAppearance(5);
    const out = packPedestrianInstances([{ position: [1, 2, 3], yaw: 0.5 }], [a]);
    const L = PEDESTRIAN_INSTANCE_LAYOUT;
    expect(out.length).toBe(L.size / 4);
    expect(out[L.upperKind / 4]).toBe(UPPER_KINDS.indexOf(a.upperKind));
    expect(out[L.lowerPattern / 4]).toBe(FABRIC_PATTERNS.indexOf(a.lowerPattern));
    expect(out[L.hairStyle / 4]).toBe(HAIR_STYLES.indexOf(a.hairStyle));
    expect(Array.from(out.subarray(L.innerColor / 4, L.innerColor / 4 + 3))).toEqual(Array.from(Float32Array.from(a.innerColor)));
  });
});
