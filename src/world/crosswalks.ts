/**
 * Crosswalks and curb ramps: where pedestrians cross a street, at every junction arm (placed just
 * clear of the other arms' roads) and mid-block on long straight streets; and the verge gaps they
 * leave (the furniture zone stops before a corner so the corner is paved, as in NACTO's
 * "Intersection Design Elements").
 *
 * Crosswalk width 3.0–4.0 m (NACTO "Crosswalks and Crossings": 10 ft / 3 m minimum; MUTCD §3B.18
 * allows 6 ft / 1.8 m). Curb ramps span the curb-and-gutter zone where a crosswalk lands.
 */
import type { Rng } from '../core/random';
import { rectRing, type Ring, type Vec2 } from './geometry';
import type { Junction, Street, StreetNetwork } from './network';
import { arcLengths, polylineLength, projectOnPolyline, sampleAt } from './polyline';
import { zoneOffsets } from './profile';

/** A zebra crosswalk across one street. */
export interface Crosswalk {
  id: number;
  streetId: number;
  /** Junction it belongs to, or −1 for a mid-block crossing. */
  junctionId: number;
  /** Arc length of its centre along the street's centreline, metres. */
  s: number;
  /** Centre on the street centreline, metres. */
  centre: Vec2;
  /** Unit vector along the street (the direction of traffic). */
  along: Vec2;
  /** Unit vector across the street, from the right side to the left side (the walking direction). */
  across: Vec2;
  /** Extent along the street (the crosswalk's width), metres. */
  width: number;
  /** Lateral extents of the painted-and-ramped area on the left and right, metres (to just inside the sidewalk). */
  reachLeft: number;
  reachRight: number;
  /** Road half-width at the crosswalk (the painted part is |lateral| ≤ this), metres. */
  roadHalfWidth: number;
  /** Rectangle covered (CCW), metres. */
  rect: Ring;
}

/** A curb ramp where a crosswalk meets the curb: ground rises from 0 at `low` to the curb height over `run` along `dir`. */
export interface CurbRamp {
  crosswalkId: number;
  /** Footprint (CCW), metres. */
  polygon: Ring;
  /** Mid-point of the ramp's road-side edge, metres. */
  low: Vec2;
  /** Unit direction up the ramp (towards the sidewalk). */
  dir: Vec2;
  /** Horizontal run of the ramp, metres. */
  run: number;
}

/** How far a crosswalk reaches into the sidewalk past the curb, metres. */
export const CROSSWALK_OVERLAP = 0.5;
/** Verge gap kept on each side of a crosswalk, metres. */
export const VERGE_GAP_MARGIN = 1.5;

/** An arm's centreline oriented away from its junction. */
export function armLine(street: Street, atStart: boolean): Vec2[] {
  return atStart ? street.centreline : street.centreline.slice().reverse();
}

/** Arc length along the street of a distance `t` measured from the junction end. */
export function armToStreetS(street: Street, atStart: boolean, t: number): number {
  return atStart ? t : polylineLength(street.centreline) - t;
}

function maxD2(st: Street, s: number): number {
  return Math.max(zoneOffsets(st.profile, 1, s)[1], zoneOffsets(st.profile, -1, s)[1]);
}

/** Output of {@link placeCrosswalks}. */
export interface CrosswalkLayout {
  crosswalks: Crosswalk[];
  ramps: CurbRamp[];
  /** Per street id: arc-length intervals `[s0, s1]` with no verge (corners and crossings). */
  vergeGaps: Map<number, [number, number][]>;
  /** Per street id: arc length from each end kept clear of mid-block furniture `[start, end]`, metres. */
  junctionCuts: Map<number, [number, number]>;
}

/** A crosswalk of `width` across street `st` centred at arc length `s` (its reach to just inside both sidewalks). */
export function makeCrosswalk(id: number, st: Street, junctionId: number, s: number, width: number): Crosswalk {
  const { p, t } = sampleAt(st.centreline, s);
  const [d1, d2L] = zoneOffsets(st.profile, 1, s);
  const d2R = zoneOffsets(st.profile, -1, s)[1];
  const across: Vec2 = [-t[1], t[0]];
  const reachLeft = d2L + CROSSWALK_OVERLAP, reachRight = d2R + CROSSWALK_OVERLAP;
  const mid = (reachLeft - reachRight) / 2;
  const rect = rectRing(p[0] + across[0] * mid, p[1] + across[1] * mid, width, reachLeft + reachRight, Math.atan2(t[1], t[0]));
  return { id, streetId: st.id, junctionId, s, centre: p, along: t, across, width, reachLeft, reachRight, roadHalfWidth: d1, rect };
}

/** The two curb ramps of crosswalk `c` across street `st`. */
export function rampsOf(c: Crosswalk, st: Street): CurbRamp[] {
  const out: CurbRamp[] = [];
  for (const side of [1, -1] as const) {
    const [d1, d2] = zoneOffsets(st.profile, side, c.s);
    const run = d2 - d1;
    const midLat = side * (d1 + run / 2);
    const cx = c.centre[0] + c.across[0] * midLat, cy = c.centre[1] + c.across[1] * midLat;
    const polygon = rectRing(cx, cy, c.width, run, Math.atan2(c.along[1], c.along[0]));
    const low: Vec2 = [c.centre[0] + c.across[0] * side * d1, c.centre[1] + c.across[1] * side * d1];
    out.push({ crosswalkId: c.id, polygon, low, dir: [c.across[0] * side, c.across[1] * side], run });
  }
  return out;
}

/**
 * Distance from the junction (along the arm) at which a crosswalk of `width` fits: its cross-line,
 * from one sidewalk to the other, keeps 0.5 m from every other arm's road and curb, from the
 * junction's paved disc and from a roundabout's ring. Returns null when none fits in the first half
 * of the arm.
 */
export function crosswalkDistance(net: StreetNetwork, j: Junction, armIdx: number, width: number): number | null {
  const arm = j.arms[armIdx];
  const st = net.streets[arm.streetId];
  const line = armLine(st, arm.atStart);
  const cum = arcLengths(line);
  const L = cum[cum.length - 1];
  const others = j.arms.filter((_, i) => i !== armIdx).map((a) => {
    const o = net.streets[a.streetId];
    const ol = armLine(o, a.atStart);
    return { line: ol, cum: arcLengths(ol), reach: Math.max(maxD2(o, 0), maxD2(o, polylineLength(o.centreline))) };
  });
  const ring = j.ringStreetId >= 0 ? net.streets[j.ringStreetId] : null;
  const ringReach = ring ? j.ringRadius + maxD2(ring, 0) : 0;
  const discReach = j.kind === 'roundabout' ? 0 : Math.max(...j.arms.map((a) => maxD2(net.streets[a.streetId], armToStreetS(net.streets[a.streetId], a.atStart, 0))));
  const clearAt = (t: number): boolean => {
    const { p, t: tan } = sampleAt(line, t, cum);
    const s = armToStreetS(st, arm.atStart, t);
    const n: Vec2 = [-tan[1], tan[0]];
    const reachL = zoneOffsets(st.profile, arm.atStart ? 1 : -1, s);
    const reachR = zoneOffsets(st.profile, arm.atStart ? -1 : 1, s);
    const lo = -(reachR[1] + (reachR[3] - reachR[2])), hi = reachL[1] + (reachL[3] - reachL[2]);
    for (let y = lo; y <= hi + 1e-9; y += 0.5) {
      const x = p[0] + n[0] * y, yy = p[1] + n[1] * y;
      if (ring && Math.hypot(x - j.centre[0], yy - j.centre[1]) < ringReach + 0.5) return false;
      if (!ring && Math.hypot(x - j.centre[0], yy - j.centre[1]) < discReach + 0.5) return false;
      for (const o of others) if (projectOnPolyline(o.line, x, yy, o.cum).d < o.reach + 0.5) return false;
    }
    return true;
  };
  for (let t = width / 2 + 0.5; t < L / 2 - width / 2; t += 0.5) {
    if (clearAt(t - width / 2) && clearAt(t) && clearAt(t + width / 2)) return t;
  }
  return null;
}

/**
 * Places crosswalks (with curb ramps) at every arm of every intersection, T-junction, roundabout
 * and fork, and mid-block on some long straight streets; returns them with the verge gaps.
 *
 * @param rng the crosswalk stream (widths, mid-block choices).
 */
export function placeCrosswalks(rng: Rng, net: StreetNetwork): CrosswalkLayout {
  const crosswalks: Crosswalk[] = [];
  const ramps: CurbRamp[] = [];
  const vergeGaps = new Map<number, [number, number][]>();
  const junctionCuts = new Map<number, [number, number]>();
  const gap = (sid: number, a: number, b: number): void => {
    if (!vergeGaps.has(sid)) vergeGaps.set(sid, []);
    vergeGaps.get(sid)!.push([a, b]);
  };
  const add = (st: Street, jid: number, s: number, w: number): void => {
    const c = makeCrosswalk(crosswalks.length, st, jid, s, w);
    crosswalks.push(c);
    ramps.push(...rampsOf(c, st));
  };
  for (const st of net.streets) if (!st.closed) junctionCuts.set(st.id, [0, 0]);
  for (const j of net.junctions) {
    if (j.kind === 'deadEnd' || j.kind === 'bend') continue;
    j.arms.forEach((arm, i) => {
      const st = net.streets[arm.streetId];
      const L = polylineLength(st.centreline);
      const w = rng.range(3, 4);
      const t = crosswalkDistance(net, j, i, w);
      const cut = t === null ? Math.min(L / 2, 15) : t + w / 2 + VERGE_GAP_MARGIN;
      if (t !== null) add(st, j.id, armToStreetS(st, arm.atStart, t), w);
      const cuts = junctionCuts.get(st.id)!;
      if (arm.atStart) {
        gap(st.id, 0, cut);
        cuts[0] = cut;
      } else {
        gap(st.id, L - cut, L);
        cuts[1] = cut;
      }
    });
  }
  for (const st of net.streets) {
    if (st.kind !== 'straight' || st.closed) continue;
    const L = polylineLength(st.centreline);
    if (L < 130 || rng.next() < 0.5) continue;
    const w = rng.range(3, 4), s = L / 2 + rng.range(-0.1, 0.1) * L;
    add(st, -1, s, w);
    gap(st.id, s - w / 2 - VERGE_GAP_MARGIN, s + w / 2 + VERGE_GAP_MARGIN);
  }
  return { crosswalks, ramps, vergeGaps, junctionCuts };
}

/** Complement of `gaps` within [0, L]: the intervals where the verge exists (each at least `minLen` long). */
export function vergeIntervals(L: number, gaps: [number, number][] | undefined, minLen = 1): [number, number][] {
  const g = (gaps ?? []).map(([a, b]) => [Math.max(0, a), Math.min(L, b)] as [number, number]).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let s = 0;
  for (const [a, b] of g) {
    if (a - s >= minLen) out.push([s, a]);
    s = Math.max(s, b);
  }
  if (L - s >= minLen) out.push([s, L]);
  return out;
}
