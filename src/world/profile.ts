/**
 * Street cross-sections: the five lateral zones of SidewalkBench §3.1 and their widths.
 *
 * Lateral order from the street centreline outwards, on each side (NACTO Urban Street Design Guide,
 * "Sidewalks": frontage zone | pedestrian through zone | street furniture/curb zone):
 *
 * | zone             | width range (m) | source |
 * |------------------|-----------------|--------|
 * | road (half)      | 3.0 – 7.5       | 1–2 lanes of 3.0–3.5 m per direction (NACTO "Lane Width": 10–11 ft), optional 2.4 m parking lane (NACTO: 7–9 ft) |
 * | curb and gutter  | 0.30 – 0.60     | 0.15 m curb top + 0.15–0.45 m gutter pan (AASHTO Green Book / typical DOT standard plans); curb height 0.15 m (6 in) |
 * | verge (furniture)| 1.2 – 3.0       | NACTO street furniture/curb zone; planting strips up to 3 m |
 * | sidewalk (clear) | 1.5 – 3.5       | ≥ 1.5 m: ADA 2010 §403.5.3 passing space / PROWAG R302.4; NACTO: 1.8–2.4 m residential, 2.4–3.7 m downtown |
 * | frontage         | 0.3 – 2.5       | NACTO frontage zone: ≥ 0.3 m (1 ft) shy distance from buildings, wider for cafés and stoops |
 *
 * A narrowing (bottleneck) block pinches the clear path to 1.2–1.5 m (PROWAG R302.3: 1.2 m minimum
 * continuous width) and may drop the parking lane; the frontage widens by the same amount, so the
 * building line stays straight.
 */
import type { Rng } from '../core/random';

/** Width ranges `[min, max]` in metres, one per zone (see the module table for sources). */
export const ZONE_WIDTH_RANGES = {
  lane: [3.0, 3.5],
  parking: [2.1, 2.7],
  curb: [0.3, 0.6],
  verge: [1.2, 3.0],
  sidewalk: [1.5, 3.5],
  frontage: [0.3, 2.5],
  pinch: [1.2, 1.5],
} as const;

/** Curb height (top of curb above the road surface), metres (6 in). */
export const CURB_HEIGHT = 0.15;

/** Widths of the zones on one side of a street, metres. */
export interface SideProfile {
  curb: number;
  verge: number;
  sidewalk: number;
  frontage: number;
}

/** A bottleneck on a street: between arc lengths `s0` and `s1` (with linear tapers of `taper` m). */
export interface Narrowing {
  s0: number;
  s1: number;
  taper: number;
  /** Clear-path width inside the bottleneck, metres. */
  pinch: number;
  /** How much the road half-width shrinks inside the bottleneck, metres (0 or the parking lane). */
  roadCut: number;
}

/** The cross-section of one street: road half-width and both sides (left = +normal of the centreline). */
export interface StreetProfile {
  roadHalfWidth: number;
  lanesPerDirection: number;
  parking: number;
  left: SideProfile;
  right: SideProfile;
  narrowing: Narrowing | null;
}

/** Cumulative lateral offsets from the centreline, metres: `[road, curb, verge, sidewalk, frontage]` outer edges. */
export type ZoneOffsets = [number, number, number, number, number];

/** Draws one side's widths uniformly within {@link ZONE_WIDTH_RANGES}. */
export function sampleSide(rng: Rng, wide: boolean): SideProfile {
  const r = ZONE_WIDTH_RANGES;
  const sw = wide ? rng.range(2.4, r.sidewalk[1]) : rng.range(r.sidewalk[0], 2.6);
  return {
    curb: rng.range(r.curb[0], r.curb[1]),
    verge: rng.range(r.verge[0], r.verge[1]),
    sidewalk: sw,
    frontage: rng.range(r.frontage[0], r.frontage[1]),
  };
}

/** Draws a street profile; `oneLane` forces a single lane per direction and no parking (fork branches, ring roads). */
export function sampleProfile(rng: Rng, oneLane = false): StreetProfile {
  const lanes = oneLane ? 1 : rng.next() < 0.35 ? 2 : 1;
  const lane = rng.range(ZONE_WIDTH_RANGES.lane[0], ZONE_WIDTH_RANGES.lane[1]);
  const parking = !oneLane && rng.next() < 0.5 ? rng.range(ZONE_WIDTH_RANGES.parking[0], ZONE_WIDTH_RANGES.parking[1]) : 0;
  const wide = rng.next() < 0.4;
  return { roadHalfWidth: lanes * lane + parking, lanesPerDirection: lanes, parking, left: sampleSide(rng, wide), right: sampleSide(rng, wide), narrowing: null };
}

/** Bottleneck weight at arc length s: 0 outside, 1 inside [s0, s1], linear over the tapers. */
export function narrowingWeight(n: Narrowing | null, s: number): number {
  if (!n) return 0;
  if (s <= n.s0 - n.taper || s >= n.s1 + n.taper) return 0;
  if (s >= n.s0 && s <= n.s1) return 1;
  return s < n.s0 ? (s - (n.s0 - n.taper)) / n.taper : (n.s1 + n.taper - s) / n.taper;
}

/** Cumulative zone offsets on `side` (+1 left, −1 right) at arc length s, metres (all positive). */
export function zoneOffsets(p: StreetProfile, side: 1 | -1, s: number): ZoneOffsets {
  const sp = side > 0 ? p.left : p.right;
  const f = narrowingWeight(p.narrowing, s);
  const roadCut = f * (p.narrowing?.roadCut ?? 0);
  const swCut = f * Math.max(0, sp.sidewalk - (p.narrowing?.pinch ?? sp.sidewalk));
  const d1 = p.roadHalfWidth - roadCut;
  const d2 = d1 + sp.curb;
  const d3 = d2 + sp.verge;
  const d4 = d3 + sp.sidewalk - swCut;
  const d5 = d4 + sp.frontage + swCut + roadCut;
  return [d1, d2, d3, d4, d5];
}

/** The largest outer (frontage) offset of a profile on either side, metres. */
export function maxReach(p: StreetProfile): number {
  return p.roadHalfWidth + Math.max(p.left.curb + p.left.verge + p.left.sidewalk + p.left.frontage, p.right.curb + p.right.verge + p.right.sidewalk + p.right.frontage);
}
