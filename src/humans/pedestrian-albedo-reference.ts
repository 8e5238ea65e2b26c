/**
 * Plain TypeScript twin of the pedestrian pass's material (`albedo` and `fabric` in
 * `shaders/humans/pedestrian.wgsl`): the sRGB albedo of a point of a walker from its
 * {@link PedestrianAppearance} and the material coordinates of that point (pedestrian-material.ts).
 * Same constants and branches as the WGSL, in float64; the GPU test compares the two per pixel.
 */
import { FABRIC_PATTERNS, HAIR_STYLES, LOWER_KINDS, UPPER_KINDS, type PedestrianAppearance, type Rgb } from './pedestrian-appearance';

/** Garment and hair cut lines (the WGSL constants of the same names). */
export const MATERIAL_CUTS = {
  WAIST_Z: 2.25, JACKET_HEM_Z: 1.72, DRESS_HEM_Z: 1.02, SKIRT_HEM_Z: 1.08, SHORTS_HEM_Z: 1.32, SHOE_TOP_Z: 0.06,
  SHORT_SLEEVE_T: 0.42, LONG_SLEEVE_T: 1.93, DRESS_SLEEVE_T: 0.2, SHORT_HAIR_T: 0.5, LONG_HAIR_T: 0.3,
} as const;

/** One point's material inputs: rest position (m, body frame), (bodyZ, armT, headU, headBack), weights (arm, hand, head, foot). */
export interface MaterialPoint {
  p: readonly number[];
  coords: readonly number[];
  weights: readonly number[];
}

/** WGSL `hash2`: PCG-style integer hash to [0, 1). */
export function hash2(cx: number, cy: number, seed: number): number {
  let h = (Math.imul(cx >>> 0, 747796405) + Math.imul(cy >>> 0, 2891336453 | 0) + (Math.floor(Math.fround(seed) * 65536) >>> 0)) >>> 0;
  h = Math.imul((h >>> ((h >>> 28) + 4)) ^ h, 277803737) >>> 0;
  h = ((h >>> 22) ^ h) >>> 0;
  return (h & 0xffffff) / 16777216;
}

const fract = (x: number) => x - Math.floor(x);
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => a[i] + t * (b[i] - a[i])) as Rgb;

/** WGSL `fabricUv`. */
export function fabricUv(m: MaterialPoint): [number, number] {
  const { p, coords } = m;
  if (m.weights[0] > 0.5) return [coords[1] * 0.28, p[0] + 0.5 * p[2]];
  if (coords[0] >= 2) return [Math.atan2(p[1], p[0]) * 0.16, p[2]];
  return [Math.atan2(Math.abs(p[1]) - 0.1, p[0]) * 0.08, p[2]];
}

/** WGSL `fabric` (pattern index as in FABRIC_PATTERNS). */
export function fabric(c1: Rgb, c2: Rgb, pattern: number, scale: number, seed: number, uv: readonly number[]): Rgb {
  const s = Math.max(scale, 0.01);
  const q = [uv[0] / s, uv[1] / s];
  if (pattern === 1) return fract(q[1]) < 0.4 ? c2 : c1;
  if (pattern === 2) {
    const a = fract(q[0]) < 0.3, b = fract(q[1]) < 0.3;
    return a && b ? c2 : a || b ? mix(c1, c2, 0.55) : c1;
  }
  if (pattern === 3) {
    const twill = 0.5 + 0.5 * Math.sin((uv[0] + uv[1]) * 900);
    const noise = hash2(Math.floor(uv[0] * 300), Math.floor(uv[1] * 300), seed);
    return c1.map((x) => x * (0.82 + 0.12 * twill + 0.12 * noise)) as Rgb;
  }
  if (pattern === 4) {
    const cx = Math.floor(q[0] * 1.6), cy = Math.floor(q[1] * 1.6);
    const centre = [hash2(cx, cy, seed) * 0.6 + 0.2, hash2(cx + 17, cy + 5, seed) * 0.6 + 0.2];
    return Math.hypot(fract(q[0] * 1.6) - centre[0], fract(q[1] * 1.6) - centre[1]) < 0.22 ? c2 : c1;
  }
  return c1;
}

/**
 * The sRGB albedo of a walker at one material point (WGSL `albedo`): hair above the style's line on
 * the head, skin on hands, shoes on feet, sleeves to the garment's length on arms, then dress,
 * open jacket, shirt above the waist, and the lower garment down to its hem.
 */
export function pedestrianAlbedo(a: PedestrianAppearance, m: MaterialPoint): Rgb {
  const C = MATERIAL_CUTS;
  const [bodyZ, armT, headU, headBack] = m.coords;
  const [arm, hand, head, foot] = m.weights;
  const upperKind = UPPER_KINDS.indexOf(a.upperKind), lowerKind = LOWER_KINDS.indexOf(a.lowerKind);
  const uv = fabricUv(m);
  const upper = fabric(a.upperColor, a.upperColor2, FABRIC_PATTERNS.indexOf(a.upperPattern), a.patternScale, a.patternSeed, uv);
  const lower = fabric(a.lowerColor, a.lowerColor2, FABRIC_PATTERNS.indexOf(a.lowerPattern), a.patternScale, a.patternSeed + 0.5, uv);
  if (head > 0.5) {
    const hairT = headU + 0.45 * headBack;
    const style = HAIR_STYLES.indexOf(a.hairStyle);
    const shortHair = style >= 1 && hairT > C.SHORT_HAIR_T;
    const longHair = style === 2 && (hairT > C.LONG_HAIR_T || (headBack > 0.2 && headU > -0.9));
    return shortHair || longHair ? a.hairColor : a.skinColor;
  }
  if (hand > 0.5) return a.skinColor;
  if (foot > 0.5 || bodyZ < C.SHOE_TOP_Z) return a.shoeColor;
  if (arm > 0.5) {
    const sleeve = upperKind === 1 || upperKind === 2 ? C.LONG_SLEEVE_T : upperKind === 3 ? C.DRESS_SLEEVE_T : C.SHORT_SLEEVE_T;
    return armT < sleeve ? upper : a.skinColor;
  }
  if (upperKind === 3) return bodyZ > C.DRESS_HEM_Z ? upper : a.skinColor;
  if (upperKind === 2 && bodyZ > C.JACKET_HEM_Z) {
    const front = m.p[0] > 0 && Math.abs(m.p[1]) < 0.035 + 0.02 * Math.min(1, Math.max(0, bodyZ - 2.3));
    return front && bodyZ > 2.05 ? a.innerColor : upper;
  }
  if (bodyZ >= C.WAIST_Z) return upper;
  const hem = lowerKind === 1 ? C.SHORTS_HEM_Z : lowerKind === 2 ? C.SKIRT_HEM_Z : 0;
  return bodyZ > hem ? lower : a.skinColor;
}
