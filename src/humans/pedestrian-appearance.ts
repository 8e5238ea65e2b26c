/**
 * Pedestrian appearance and lighting for the render pass (`shaders/humans/pedestrian.wgsl`):
 * seeded random appearances, body regions per vertex, and the host layouts of the WGSL
 * `PedestrianInstance` and `PedestrianLighting` structs (`shaders/humans/pedestrian-types.wgsl`,
 * checked by `pedestrian-layout.browser.test.ts`).
 */
import { createRng } from '../core/random';
import type { BodyModel } from './body-model';

/** sRGB colour, each channel in [0, 1]. */
export type Rgb = [number, number, number];

/** How one pedestrian looks. */
export interface PedestrianAppearance {
  skinColor: Rgb;
  upperColor: Rgb;
  lowerColor: Rgb;
  hairColor: Rgb;
  stripeColor: Rgb;
  /** Stripe period along the rest-pose height, metres (0 = plain upper garment). */
  stripePeriod: number;
  /** Share of each stripe period in `stripeColor`, [0, 1]. */
  stripeFraction: number;
  longSleeves: boolean;
  longHair: boolean;
  /** Grey level of the shoes, [0, 1]. */
  shoeShade: number;
}

/** Where a pedestrian stands: world position of its body-frame origin (metres) and heading (rad). */
export interface PedestrianPlacement {
  position: [number, number, number];
  yaw: number;
}

/**
 * Byte offsets of WGSL `PedestrianInstance` (96 bytes, 16-byte aligned). Packed by
 * {@link packPedestrianInstances}.
 *
 * | offset | type | field |
 * |---|---|---|
 * | 0 | vec3f | position (m, world) | 12 | f32 | yaw (rad) |
 * | 16 | vec3f | skinColor | 28 | f32 | stripePeriod (m) |
 * | 32 | vec3f | upperColor | 44 | f32 | stripeFraction |
 * | 48 | vec3f | lowerColor | 60 | f32 | longSleeves (0/1) |
 * | 64 | vec3f | hairColor | 76 | f32 | hairLength (0/1) |
 * | 80 | vec3f | stripeColor | 92 | f32 | shoeShade |
 */
export const PEDESTRIAN_INSTANCE_LAYOUT = {
  size: 96,
  position: 0, yaw: 12, skinColor: 16, stripePeriod: 28, upperColor: 32, stripeFraction: 44,
  lowerColor: 48, longSleeves: 60, hairColor: 64, hairLength: 76, stripeColor: 80, shoeShade: 92,
} as const;

/** Byte offsets of WGSL `PedestrianLighting` (80 bytes). */
export const PEDESTRIAN_LIGHTING_LAYOUT = {
  size: 80, sunDirection: 0, exposure: 12, sunColor: 16, wrap: 28, skyColor: 32, pad0: 44, groundColor: 48, pad1: 60, fogColor: 64, fogDensity: 76,
} as const;

/** Sun and sky, in the world frame; colours linear. The city passes its own to match its splats. */
export interface PedestrianLighting {
  /** Direction towards the sun (need not be unit), world frame (Z up). */
  sunDirection: [number, number, number];
  sunColor: Rgb;
  skyColor: Rgb;
  groundColor: Rgb;
  /** Multiplies the lit linear colour. */
  exposure: number;
  /** Wrap-lighting factor, [0, 1] (0 = Lambert). */
  wrap: number;
  /**
   * Fog: the output (display RGB) blends towards `color` by exp(−density · distance from the eye),
   * as the splats do (src/splats/splat-shading.ts). Default none.
   */
  fog?: { color: Rgb; density: number };
}

/** A clear afternoon: sun 40° high from the south-west, bluish sky, grey ground bounce. */
export const DEFAULT_PEDESTRIAN_LIGHTING: PedestrianLighting = {
  sunDirection: [-0.55, -0.45, 0.7],
  sunColor: [1.0, 0.95, 0.85],
  skyColor: [0.42, 0.46, 0.55],
  groundColor: [0.22, 0.21, 0.2],
  exposure: 1,
  wrap: 0.25,
};

/** Packs lighting into a Float32Array of PEDESTRIAN_LIGHTING_LAYOUT.size / 4 (sun direction normalised). */
export function packPedestrianLighting(l: PedestrianLighting): Float32Array<ArrayBuffer> {
  const out = new Float32Array(PEDESTRIAN_LIGHTING_LAYOUT.size / 4);
  const d = l.sunDirection;
  const n = Math.hypot(d[0], d[1], d[2]);
  if (!(n > 0)) throw new Error('packPedestrianLighting: sunDirection is zero');
  out.set(d.map((x) => x / n), 0);
  out[3] = l.exposure;
  out.set(l.sunColor, 4);
  out[7] = l.wrap;
  out.set(l.skyColor, 8);
  out.set(l.groundColor, 12);
  if (l.fog) {
    if (!(Number.isFinite(l.fog.density) && l.fog.density >= 0)) throw new Error(`packPedestrianLighting: fog density ${l.fog.density} is not finite and ≥ 0 (1/m)`);
    out.set(l.fog.color, PEDESTRIAN_LIGHTING_LAYOUT.fogColor / 4);
    out[PEDESTRIAN_LIGHTING_LAYOUT.fogDensity / 4] = l.fog.density;
  }
  return out;
}

/**
 * Packs placements and appearances (same length) into PedestrianInstance records.
 *
 * @throws Error when the two arrays differ in length.
 */
export function packPedestrianInstances(placements: readonly PedestrianPlacement[], appearances: readonly PedestrianAppearance[]): Float32Array<ArrayBuffer> {
  if (placements.length !== appearances.length) {
    throw new Error(`packPedestrianInstances: ${placements.length} placements but ${appearances.length} appearances`);
  }
  const F = PEDESTRIAN_INSTANCE_LAYOUT.size / 4;
  const out = new Float32Array(placements.length * F);
  placements.forEach((p, i) => {
    const a = appearances[i];
    const o = i * F;
    out.set(p.position, o);
    out[o + 3] = p.yaw;
    out.set(a.skinColor, o + 4);
    out[o + 7] = a.stripePeriod;
    out.set(a.upperColor, o + 8);
    out[o + 11] = a.stripeFraction;
    out.set(a.lowerColor, o + 12);
    out[o + 15] = a.longSleeves ? 1 : 0;
    out.set(a.hairColor, o + 16);
    out[o + 19] = a.longHair ? 1 : 0;
    out.set(a.stripeColor, o + 20);
    out[o + 23] = a.shoeShade;
  });
  return out;
}

/** Skin tones (sRGB), light to dark, after the Fitzpatrick range as rendered in common skin palettes. */
const SKIN = [[0.96, 0.8, 0.69], [0.92, 0.72, 0.58], [0.8, 0.6, 0.45], [0.67, 0.47, 0.33], [0.5, 0.34, 0.23], [0.36, 0.24, 0.16]] as const;
const HAIR = [[0.08, 0.06, 0.05], [0.22, 0.14, 0.08], [0.42, 0.28, 0.15], [0.7, 0.56, 0.35], [0.55, 0.55, 0.55], [0.5, 0.2, 0.1]] as const;
const CLOTH = [
  [0.12, 0.14, 0.2], [0.75, 0.1, 0.1], [0.1, 0.3, 0.6], [0.9, 0.9, 0.88], [0.15, 0.15, 0.15], [0.3, 0.45, 0.25],
  [0.85, 0.6, 0.1], [0.5, 0.3, 0.5], [0.55, 0.5, 0.4], [0.2, 0.55, 0.6], [0.65, 0.65, 0.68], [0.4, 0.2, 0.1],
] as const;
const TROUSERS = [[0.12, 0.15, 0.25], [0.1, 0.1, 0.1], [0.3, 0.3, 0.32], [0.45, 0.4, 0.3], [0.2, 0.25, 0.4], [0.55, 0.5, 0.42]] as const;

/** A seeded random appearance (fork `appearance` of the project RNG; same seed → same look). */
export function randomAppearance(seed: number): PedestrianAppearance {
  const rng = createRng(seed).fork('appearance');
  const pick = <T extends readonly (readonly number[])[]>(list: T) => [...rng.pick(list)] as Rgb;
  const upper = pick(CLOTH);
  let stripe = pick(CLOTH);
  if (stripe.every((c, i) => Math.abs(c - upper[i]) < 0.1)) stripe = [0.95, 0.95, 0.95];
  const striped = rng.next() < 0.3;
  return {
    skinColor: pick(SKIN),
    upperColor: upper,
    lowerColor: pick(TROUSERS),
    hairColor: pick(HAIR),
    stripeColor: stripe,
    stripePeriod: striped ? rng.range(0.05, 0.12) : 0,
    stripeFraction: rng.range(0.3, 0.55),
    longSleeves: rng.next() < 0.5,
    longHair: rng.next() < 0.35,
    shoeShade: rng.pick([0.08, 0.15, 0.85, 0.45]),
  };
}

/** Body regions per vertex (values of the WGSL `REGION_*` constants). */
export const REGION = { skin: 0, upper: 1, lower: 2, hair: 3, shoes: 4, forearm: 5, longHair: 6 } as const;

/** SMPL joint → region of the vertices it dominates (head refined by position, see {@link vertexRegions}). */
const JOINT_REGION: readonly number[] = [
  REGION.lower, REGION.lower, REGION.lower, REGION.upper, REGION.lower, REGION.lower, REGION.upper, REGION.shoes,
  REGION.shoes, REGION.upper, REGION.shoes, REGION.shoes, REGION.skin, REGION.upper, REGION.upper, REGION.skin,
  REGION.upper, REGION.upper, REGION.forearm, REGION.forearm, REGION.skin, REGION.skin, REGION.skin, REGION.skin,
];

/**
 * Per-vertex region and rest height, the pass's static vertex buffer.
 *
 * Region from the vertex's strongest skin weight (table above: pelvis/legs lower, spine/collars/
 * upper arms upper, forearms sleeve-dependent, hands/neck/face skin, ankles/feet shoes). Head
 * vertices become hair above 0.14 m over the head joint (the crown) or behind it above 0.04 m,
 * and long hair behind the head down to the neck. Needs SMPL's 24 joints; other models get `skin`.
 *
 * @returns `regions` (V u32) and `restHeight` (V f32, template z in metres).
 */
export function vertexRegions(model: BodyModel): { regions: Uint32Array; restHeight: Float32Array } {
  const V = model.vertexCount;
  const regions = new Uint32Array(V);
  const restHeight = new Float32Array(V);
  const smpl = model.jointCount === 24;
  const hx = model.jointTemplate[45], hz = model.jointTemplate[47];
  for (let v = 0; v < V; v++) {
    const x = model.template[3 * v], z = model.template[3 * v + 2];
    restHeight[v] = z;
    if (!smpl) continue;
    const j = model.skinIndices[4 * v]; // strongest first
    let r = JOINT_REGION[j];
    if (j === 15) {
      if (z > hz + 0.14 || (x < hx - 0.03 && z > hz + 0.04)) r = REGION.hair;
      else if (x < hx - 0.02) r = REGION.longHair;
    }
    regions[v] = r;
  }
  return { regions, restHeight };
}
