/**
 * Pedestrian appearance and lighting for the render pass (`shaders/humans/pedestrian.wgsl`): the
 * per-walker material and body shape (seeded by `randomAppearance`, pedestrian-wardrobe.ts), and the host layouts of the WGSL
 * `PedestrianInstance` and `PedestrianLighting` structs (`shaders/humans/pedestrian-types.wgsl`,
 * checked by `pedestrian-layout.browser.test.ts`).
 */

/** sRGB colour, each channel in [0, 1]. */
export type Rgb = [number, number, number];

/** Hair: none, a short cap, or long (down the back of the head and neck). WGSL `hairStyle` 0, 1, 2. */
export const HAIR_STYLES = ['bald', 'short', 'long'] as const;
export type HairStyle = (typeof HAIR_STYLES)[number];
/** Upper garment: short sleeves, long sleeves, an open jacket over `innerColor`, a dress (upper fabric down to the knees). WGSL `upperKind` 0–3. */
export const UPPER_KINDS = ['tshirt', 'shirt', 'jacket', 'dress'] as const;
export type UpperKind = (typeof UPPER_KINDS)[number];
/** Lower garment: to the ankles, to above the knees, a skirt to the knees. WGSL `lowerKind` 0–2 (ignored under a dress). */
export const LOWER_KINDS = ['trousers', 'shorts', 'skirt'] as const;
export type LowerKind = (typeof LOWER_KINDS)[number];
/** Fabric patterns, computed in the fragment shader from the rest-pose surface position. WGSL 0–4. */
export const FABRIC_PATTERNS = ['plain', 'stripes', 'check', 'denim', 'print'] as const;
export type FabricPattern = (typeof FABRIC_PATTERNS)[number];

/**
 * Body shape in the body set's named directions (β of the MakeHuman set, body-set-build.ts;
 * mapped onto other bodies by `pedestrianBetas`): gender −1 female … +1 male, age 0 = 25 y … 1 ≈ 74 y,
 * weight, muscle and height −1 … +1 (MakeHuman's slider range about its default).
 */
export interface BodyShape {
  gender: number;
  age: number;
  weight: number;
  muscle: number;
  height: number;
}

/** How one pedestrian looks: its material (skin, hair, clothes, shoes) and its body shape. */
export interface PedestrianAppearance {
  skinColor: Rgb;
  hairColor: Rgb;
  hairStyle: HairStyle;
  upperKind: UpperKind;
  /** Main colour of the upper garment (shirt, jacket or dress). */
  upperColor: Rgb;
  /** Second colour of the upper fabric's pattern. */
  upperColor2: Rgb;
  upperPattern: FabricPattern;
  lowerKind: LowerKind;
  lowerColor: Rgb;
  lowerColor2: Rgb;
  lowerPattern: FabricPattern;
  /** The shirt under an open jacket. */
  innerColor: Rgb;
  shoeColor: Rgb;
  /** Pattern period (stripes, check, print cells), metres on the rest-pose body. */
  patternScale: number;
  /** In [0, 1): varies the print's dot placement. */
  patternSeed: number;
  shape: BodyShape;
}

/** Where a pedestrian stands: world position of its body-frame origin (metres) and heading (rad). */
export interface PedestrianPlacement {
  position: [number, number, number];
  yaw: number;
}

/**
 * Byte offsets of WGSL `PedestrianInstance` (144 bytes, 16-byte aligned). Packed by
 * {@link packPedestrianInstances}. Kinds and patterns are indices into {@link HAIR_STYLES},
 * {@link UPPER_KINDS}, {@link LOWER_KINDS}, {@link FABRIC_PATTERNS}, stored as f32.
 *
 * | offset | type | field |
 * |---|---|---|
 * | 0 | vec3f | position (m, world) | 12 | f32 | yaw (rad) |
 * | 16 | vec3f | skinColor | 28 | f32 | hairStyle |
 * | 32 | vec3f | hairColor | 44 | f32 | patternScale (m) |
 * | 48 | vec3f | upperColor | 60 | f32 | upperKind |
 * | 64 | vec3f | upperColor2 | 76 | f32 | upperPattern |
 * | 80 | vec3f | lowerColor | 92 | f32 | lowerKind |
 * | 96 | vec3f | lowerColor2 | 108 | f32 | lowerPattern |
 * | 112 | vec3f | shoeColor | 124 | f32 | patternSeed |
 * | 128 | vec3f | innerColor | 140 | f32 | pad |
 */
export const PEDESTRIAN_INSTANCE_LAYOUT = {
  size: 144,
  position: 0, yaw: 12, skinColor: 16, hairStyle: 28, hairColor: 32, patternScale: 44, upperColor: 48, upperKind: 60,
  upperColor2: 64, upperPattern: 76, lowerColor: 80, lowerKind: 92, lowerColor2: 96, lowerPattern: 108,
  shoeColor: 112, patternSeed: 124, innerColor: 128, pad: 140,
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
 * Packs placements and appearances (same length) into PedestrianInstance records
 * ({@link PEDESTRIAN_INSTANCE_LAYOUT}).
 *
 * @throws Error when the two arrays differ in length.
 */
export function packPedestrianInstances(placements: readonly PedestrianPlacement[], appearances: readonly PedestrianAppearance[]): Float32Array<ArrayBuffer> {
  if (placements.length !== appearances.length) {
    throw new Error(`packPedestrianInstances: ${placements.length} placements but ${appearances.length} appearances`);
  }
  const L = PEDESTRIAN_INSTANCE_LAYOUT;
  const F = L.size / 4;
  const out = new Float32Array(placements.length * F);
  placements.forEach((p, i) => {
    const a = appearances[i];
    const o = i * F;
    const put = (offset: number, v: number | readonly number[]) => (typeof v === 'number' ? (out[o + offset / 4] = v) : out.set(v, o + offset / 4));
    put(L.position, p.position);
    put(L.yaw, p.yaw);
    put(L.skinColor, a.skinColor);
    put(L.hairStyle, HAIR_STYLES.indexOf(a.hairStyle));
    put(L.hairColor, a.hairColor);
    put(L.patternScale, a.patternScale);
    put(L.upperColor, a.upperColor);
    put(L.upperKind, UPPER_KINDS.indexOf(a.upperKind));
    put(L.upperColor2, a.upperColor2);
    put(L.upperPattern, FABRIC_PATTERNS.indexOf(a.upperPattern));
    put(L.lowerColor, a.lowerColor);
    put(L.lowerKind, LOWER_KINDS.indexOf(a.lowerKind));
    put(L.lowerColor2, a.lowerColor2);
    put(L.lowerPattern, FABRIC_PATTERNS.indexOf(a.lowerPattern));
    put(L.shoeColor, a.shoeColor);
    put(L.patternSeed, a.patternSeed);
    put(L.innerColor, a.innerColor);
  });
  return out;
}

export { randomAppearance } from './pedestrian-wardrobe';
