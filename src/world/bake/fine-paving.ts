/**
 * Fine paving for the pedestrian network: the zones people and robots walk on (sidewalk, curb top,
 * frontage, crosswalk) and the verges beside them, baked on a lattice {@link FINE_PAVING_DIVISIONS}
 * times finer than the rest of the ground, with the surface texture a camera 0.5–1.6 m above it sees
 * within a few metres.
 * World frame, Z up, metres.
 *
 * Density by expected viewing distance: every view of the benchmark and the arena stands on the
 * pedestrian network, so its paving is seen from 0.5–10 m while roads, verges and lots are mostly
 * seen from farther. The network and verges are about 16 % of a default world's area (sidewalk
 * 9,800 m², verge 7,200, frontage 5,000, curb 1,500, crosswalk 1,700 of 160,000 on world 1) and
 * about half of its ground splats; at {@link FINE_PAVING_DIVISIONS} = 2 they take 4 × the splats
 * (σ halves). `npm run bench:look` measures the cost per world.
 *
 * | zone      | spacing  | splats/m² | σ (m) | texture |
 * |-----------|----------|-----------|-------|---------|
 * | sidewalk  | 0.125    | 64        | 0.08  | concrete: broad tone (2.5 m fbm), aggregate speckle ±18 %, stains |
 * | curb top  | 0.125    | 64        | 0.08  | granite: speckle ±20 %, dark flecks |
 * | frontage  | 0.125    | 64        | 0.08  | brick pavers 0.2 × 0.1 m running bond, ±20 % per brick |
 * | crosswalk | 0.125    | 64        | 0.08  | asphalt (road level) or concrete (ramp tops), speckle |
 * | verge     | 0.125    | 64        | 0.08  | grass and mulch as the coarse lattice, ±22 % per splat |
 */
import type { Box } from '../geometry';
import { groundHeight, worldIndex } from '../queries';
import type { World } from '../world';
import { GROUND_COLORS, GROUND_SPACING, groundZoneOrder } from './ground';
import { fbm2, hash01, valueNoise } from './noise';
import type { Rgb, SplatBuilder } from './splat-builder';

/** How finely the ground is baked: `fine` (the default) paves the pedestrian network and verges on a finer lattice and the ground floors of facades at half spacing; `coarse` bakes every zone on the 0.25 m lattice (the look before). */
export type SurfaceDetail = 'fine' | 'coarse';
/** Every surface detail. */
export const SURFACE_DETAILS: readonly SurfaceDetail[] = ['fine', 'coarse'];
/** The surface detail the city bakes unless told otherwise. */
export const DEFAULT_SURFACE_DETAIL: SurfaceDetail = 'fine';
/** Zones baked by {@link bakeFinePaving} in the `fine` detail (and skipped by the coarse lattice): the network's paving and the verges beside it. */
export const FINE_ZONES: ReadonlySet<string> = new Set(['crosswalk', 'sidewalk', 'curb', 'frontage']);
/**
 * The fine lattices: divisions of the ground lattice cell (per axis) and the zones each paves. The
 * sidewalk, where the robot and the arena's walker stand, is densest.
 */
export const FINE_LATTICES: readonly { divisions: number; zones: readonly string[] }[] = [
  { divisions: 2, zones: ['sidewalk', 'crosswalk', 'curb', 'frontage', 'verge'] },
];
/** Share of fine lattice points on hard paving that also get a grit splat (an aggregate stone, a dark spot). */
export const GRIT_SHARE = 1;
/** Standard deviation range of a grit splat, metres (1–2 cm stones and spots). */
export const GRIT_SIGMA: readonly [number, number] = [0.01, 0.02];

/**
 * A grit splat near (x, y) on hard paving at height z: with probability {@link GRIT_SHARE}, a round
 * splat of σ in {@link GRIT_SIGMA} at a random point of the lattice cell (spacing G), 1 mm above the
 * surface, darker (55 %) or lighter (130 %) than `base`.
 */
function addGrit(out: SplatBuilder, seed: number, i: number, j: number, ch: number, x: number, y: number, z: number, G: number, base: readonly number[]): void {
  if (hash01(seed, i, j, ch + 5) >= GRIT_SHARE) return;
  const gx = x + (hash01(seed, i, j, ch + 6) - 0.5) * G, gy = y + (hash01(seed, i, j, ch + 7) - 0.5) * G;
  const sigma = GRIT_SIGMA[0] + (GRIT_SIGMA[1] - GRIT_SIGMA[0]) * hash01(seed, i, j, ch + 8);
  out.addFlat(gx, gy, z + 0.001, sigma, scaled(base, hash01(seed, i, j, ch + 9) < 0.6 ? 0.55 : 1.3));
}

const c: Rgb = [0, 0, 0];
function scaled(base: readonly number[], k: number): Rgb {
  c[0] = base[0] * k; c[1] = base[1] * k; c[2] = base[2] * k;
  return c;
}

const bu = [0, 0, 0], bv = [0, 0, 0];
/**
 * A grass blade (or a dry leaf on mulch) near (x, y) at height z: a thin flat splat (σ 2.5 × 0.4 cm)
 * at a random point of the lattice cell, turned to a random heading, darker (65 %) or lighter (125 %)
 * than `base`.
 */
function addBlade(out: SplatBuilder, seed: number, i: number, j: number, ch: number, x: number, y: number, z: number, G: number, base: readonly number[]): void {
  const a = 2 * Math.PI * hash01(seed, i, j, ch + 10);
  bu[0] = Math.cos(a); bu[1] = Math.sin(a);
  bv[0] = -bu[1]; bv[1] = bu[0];
  const gx = x + (hash01(seed, i, j, ch + 11) - 0.5) * G, gy = y + (hash01(seed, i, j, ch + 12) - 0.5) * G;
  out.add(gx, gy, z, bu, bv, 0.025, 0.004, scaled(base, hash01(seed, i, j, ch + 13) < 0.5 ? 0.65 : 1.25));
}

/**
 * Paves the fine zones inside `box` (half-open) on the world-anchored lattices of
 * {@link FINE_LATTICES}, each point classified by zone in the same order as
 * the coarse lattice (crosswalk, sidewalk, road, curb, verge, frontage), so a point in the road keeps
 * to the coarse lattice. Deterministic: a pure function of the world, box and seed.
 */
export function bakeFinePaving(world: World, box: Box, seed: number, out: SplatBuilder): void {
  for (const { divisions, zones } of FINE_LATTICES) bakeFineLattice(world, box, seed, divisions, new Set(zones), out);
}

/** One fine lattice of {@link FINE_LATTICES}: GROUND_SPACING / divisions, emitting points of `emit`'s zones only. */
function bakeFineLattice(world: World, box: Box, seed: number, divisions: number, emit: ReadonlySet<string>, out: SplatBuilder): void {
  const idx = worldIndex(world);
  const G = GROUND_SPACING / divisions;
  const ch = 20 * divisions;
  const ox = world.bounds[0], oy = world.bounds[1];
  const i0 = Math.round((box[0] - ox) / G), i1 = Math.round((box[2] - ox) / G);
  const j0 = Math.round((box[1] - oy) / G), j1 = Math.round((box[3] - oy) / G);
  const order = groundZoneOrder(world, box);
  if (!order.some((k) => emit.has(k))) return;
  const h = world.curbHeight;
  const s = 0.64 * G;
  for (let j = j0; j < j1; j++) {
    for (let i = i0; i < i1; i++) {
      const x = ox + (i + 0.2 + 0.6 * hash01(seed, i, j, ch + 1)) * G;
      const y = oy + (j + 0.2 + 0.6 * hash01(seed, i, j, ch + 2)) * G;
      let zone: string | null = null;
      for (const k of order) if (idx.zones[k].contains(x, y)) { zone = k; break; }
      if (zone === null || !emit.has(zone)) continue;
      const speckle = hash01(seed, i, j, ch + 3);
      switch (zone) {
        case 'sidewalk': {
          const stain = valueNoise(seed + 9, x, y, 0.7) < 0.1 ? 0.86 : 1;
          const k = (0.9 + 0.15 * fbm2(seed + 2, x, y, 2.5)) * (0.82 + 0.36 * speckle) * stain;
          out.addFlat(x, y, h, s, scaled(GROUND_COLORS.sidewalk, k));
          addGrit(out, seed, i, j, ch, x, y, h, G, GROUND_COLORS.sidewalk);
          break;
        }
        case 'curb': {
          const fleck = hash01(seed, i, j, ch + 4) < 0.12 ? 0.7 : 1;
          out.addFlat(x, y, h, s, scaled(GROUND_COLORS.curb, (0.8 + 0.4 * speckle) * fleck));
          addGrit(out, seed, i, j, ch, x, y, h, G, GROUND_COLORS.curb);
          break;
        }
        case 'frontage': {
          const row = Math.floor(y / 0.1);
          const brick = Math.floor(x / 0.2 + (row % 2) * 0.5);
          const k = (0.8 + 0.4 * hash01(seed, brick, row, 5)) * (0.92 + 0.16 * speckle);
          out.addFlat(x, y, h, s, scaled(GROUND_COLORS.frontage, k));
          addGrit(out, seed, i, j, ch, x, y, h, G, GROUND_COLORS.frontage);
          break;
        }
        case 'verge':
          // The verge keeps its coarse lattice (its grass colour, ground.ts); blades on top.
          addBlade(out, seed, i, j, ch, x, y, h + 0.02, G, valueNoise(seed + 4, x, y, 6) > 0.82 ? GROUND_COLORS.mulch : GROUND_COLORS.grass);
          break;
        case 'crosswalk': {
          const z = groundHeight(world, x, y);
          const k = z > h * 0.99 ? 0.82 + 0.36 * speckle : (0.8 + 0.35 * fbm2(seed + 1, x, y, 4)) * (0.8 + 0.4 * speckle);
          const base = z > h * 0.99 ? GROUND_COLORS.sidewalk : GROUND_COLORS.asphalt;
          out.addFlat(x, y, z, s, scaled(base, k));
          addGrit(out, seed, i, j, ch, x, y, z, G, base);
          break;
        }
      }
    }
  }
}
