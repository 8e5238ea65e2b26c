/**
 * Seeded pedestrian appearances (the "wardrobe"): skin tone, hair, garments, fabric patterns, shoes
 * and body shape, each a pure function of the seed (fork `appearance` of the project RNG), and the
 * mapping of a {@link BodyShape} onto a body model's shape coefficients β.
 *
 * Skin tones: the 10 tones of the Monk Skin Tone Scale (Monk 2019; Google's published sRGB values),
 * a walker's tone interpolated between two neighbouring tones. Hair colours: black to blond, red,
 * and grey/white with a probability that grows with age. Garment and pattern frequencies are
 * plausible street mixes, not measured statistics.
 */
import { createRng, type Rng } from '../core/random';
import type { BodyModel } from './body-model';
import type { BodyShape, FabricPattern, LowerKind, PedestrianAppearance, Rgb, UpperKind } from './pedestrian-appearance';

const hex = (h: string): Rgb => [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16) / 255) as Rgb;

/** Monk Skin Tone Scale, MST-1 (lightest) … MST-10 (darkest), sRGB. */
export const MONK_SKIN_TONES: readonly Rgb[] = ['f6ede4', 'f3e7db', 'f7ead0', 'eadaba', 'd7bd96', 'a07e56', '825c43', '604134', '3a312a', '292420'].map(hex);

const HAIR: readonly Rgb[] = ['1c1410', '2e1e14', '4a3020', '6e4a2c', 'a47a4a', 'c8a468', '8a3a1c'].map(hex);
const GREY_HAIR: readonly Rgb[] = ['8c8884', 'b8b4ae', 'dcd8d2'].map(hex);
const CLOTH: readonly Rgb[] = [
  '1f2433', 'bf1a1a', '1a4d99', 'e6e6e0', '262626', '4d7340', 'd99a1a', '804d80', '8c8066', '338c99', 'a6a6ad', '663319',
  'f0c8c8', '2d5a5a', 'c86432', '5a2d46', 'f5f0dc', '3c3c50',
].map(hex);
const TROUSERS: readonly Rgb[] = ['1f2640', '1a1a1a', '4d4d52', '736650', '33406b', '8c806b', '2b3d5c', '5c4a3a'].map(hex);
const DENIM: readonly Rgb[] = ['2b3f66', '3d5580', '5a7299', '1e2a44'].map(hex);
const SHOES: readonly Rgb[] = ['141414', '262626', 'e6e6e6', '5c3d24', '8c8c8c', '2b3344', 'b34d33'].map(hex);

const lerp = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => a[i] + t * (b[i] - a[i])) as Rgb;

/** A colour different enough from `c` (at least 0.25 apart in some channel), for pattern contrast. */
function contrasting(rng: Rng, c: Rgb, list: readonly Rgb[]): Rgb {
  for (let i = 0; i < 8; i++) {
    const d = rng.pick(list);
    if (d.some((x, k) => Math.abs(x - c[k]) > 0.25)) return [...d] as Rgb;
  }
  return c.reduce((s, x) => s + x, 0) > 1.5 ? [0.1, 0.1, 0.12] : [0.92, 0.92, 0.9];
}

function weighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1][0];
}

/**
 * A seeded random appearance (same seed → same appearance, whatever body or LOD draws it).
 *
 * @param seed any 32-bit integer.
 */
export function randomAppearance(seed: number): PedestrianAppearance {
  const rng = createRng(seed).fork('appearance');
  const female = rng.next() < 0.5;
  const shape: BodyShape = {
    gender: (female ? -1 : 1) * rng.range(0.6, 1),
    age: Math.min(1, Math.abs(rng.normal()) * 0.35),
    weight: Math.max(-1, Math.min(1, rng.normal() * 0.45)),
    muscle: Math.max(-1, Math.min(1, rng.normal() * 0.4)),
    // The MakeHuman set's height direction is ≈ 0.55 m per slider unit: σ 0.13 ≈ 7 cm, about the
    // standard deviation of adult height within a sex (NCD-RisC 2016, eLife 5:e13410), clipped at ±2.3 σ.
    height: Math.max(-0.3, Math.min(0.3, rng.normal() * 0.13)),
  };
  const t = rng.next() * (MONK_SKIN_TONES.length - 1);
  const k = Math.min(MONK_SKIN_TONES.length - 2, Math.floor(t));
  const skinColor = lerp(MONK_SKIN_TONES[k], MONK_SKIN_TONES[k + 1], t - k);
  const grey = rng.next() < shape.age * 0.9;
  const hairColor: Rgb = [...rng.pick(grey ? GREY_HAIR : HAIR)] as Rgb;
  const hairStyle = female
    ? weighted(rng, [['long', 0.6], ['short', 0.38], ['bald', 0.02]] as const)
    : weighted(rng, [['long', 0.08], ['short', 0.75 - 0.3 * shape.age], ['bald', 0.17 + 0.3 * shape.age]] as const);
  const upperKind: UpperKind = female
    ? weighted(rng, [['tshirt', 0.3], ['shirt', 0.25], ['jacket', 0.27], ['dress', 0.18]] as const)
    : weighted(rng, [['tshirt', 0.35], ['shirt', 0.3], ['jacket', 0.35]] as const);
  const lowerKind: LowerKind = female
    ? weighted(rng, [['trousers', 0.55], ['shorts', 0.15], ['skirt', 0.3]] as const)
    : weighted(rng, [['trousers', 0.8], ['shorts', 0.2]] as const);
  const upperPattern: FabricPattern = weighted(rng, [['plain', 0.5], ['stripes', 0.18], ['check', 0.14], ['print', 0.12], ['denim', upperKind === 'jacket' ? 0.12 : 0.02]] as const);
  const lowerPattern: FabricPattern = upperKind === 'dress' ? upperPattern : weighted(rng, [['plain', 0.5], ['denim', 0.38], ['check', 0.07], ['stripes', 0.05]] as const);
  // Clothes never in the wearer's own skin tone (they would read as bare skin).
  const notSkin = (list: readonly Rgb[]) => list.filter((c) => c.some((x, i) => Math.abs(x - skinColor[i]) > 0.2));
  const upperColor: Rgb = [...(upperPattern === 'denim' ? rng.pick(DENIM) : rng.pick(notSkin(CLOTH)))] as Rgb;
  const lowerColor: Rgb = upperKind === 'dress' ? upperColor : ([...(lowerPattern === 'denim' ? rng.pick(DENIM) : rng.pick(notSkin(TROUSERS)))] as Rgb);
  const upperColor2 = contrasting(rng, upperColor, CLOTH);
  const lowerColor2 = upperKind === 'dress' ? upperColor2 : contrasting(rng, lowerColor, CLOTH);
  return {
    skinColor, hairColor, hairStyle, upperKind, upperColor, upperColor2, upperPattern, lowerKind, lowerColor, lowerColor2, lowerPattern,
    innerColor: contrasting(rng, upperColor, CLOTH),
    shoeColor: [...rng.pick(SHOES)] as Rgb,
    patternScale: rng.range(0.04, 0.11),
    patternSeed: rng.next(),
    shape,
  };
}

/**
 * β of `model` for a {@link BodyShape}: the MakeHuman set's directions by name (`gender`, `age`,
 * `weight`, `muscle`, `height`); the procedural body's `height`, `girth` (weight), `shoulderWidth`
 * (muscle and gender) and `legLength` (height); 0 for any other component.
 *
 * @returns B values (Float32Array, the skinner's `setShapes` input for one pedestrian).
 */
export function pedestrianBetas(model: BodyModel, shape: BodyShape): Float32Array {
  const value: Record<string, number> = {
    ...shape,
    girth: 0.8 * shape.weight,
    shoulderWidth: 0.5 * shape.muscle + 0.4 * shape.gender,
    legLength: 0.5 * shape.height,
  };
  return Float32Array.from(model.shapeNames, (name) => value[name] ?? 0);
}

/** β of `model` for many appearances, concatenated (count × B). */
export function pedestrianBetasFor(model: BodyModel, appearances: readonly PedestrianAppearance[]): Float32Array {
  const B = model.shapeCount;
  const out = new Float32Array(appearances.length * B);
  appearances.forEach((a, i) => out.set(pedestrianBetas(model, a.shape), i * B));
  return out;
}
