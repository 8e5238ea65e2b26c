/**
 * The five lateral zones as polygons (SidewalkBench §3.1): road, curb and gutter, verge (furniture
 * zone), sidewalk (clear path) and frontage, plus crosswalks.
 *
 * Construction: for each street and each zone boundary k, the band within offset d_k of the
 * centreline (both sides) is a strip polygon; junctions add a disc of the largest d_k of their arms
 * (filling the wedge between arms, like a round join); roundabouts add annuli around the island.
 * U_k is the union of all level-k shapes, so every point takes the innermost zone of any street:
 *
 *   crosswalk = rects ∩ U_sidewalk − verge       road     = U_road − crosswalk
 *   curb      = U_curb − U_road − crosswalk      verge    = V − U_curb (+ islands)
 *   sidewalk  = U_sidewalk − U_curb − V − crosswalk     frontage = U_frontage − U_sidewalk
 *
 * where V is the union of the verge strips, interrupted by the gaps around crossings and corners.
 * Everything is clipped to the world's bounds.
 */
import { intersection, difference, union } from './clipping';
import type { CrosswalkLayout } from './crosswalks';
import { armToStreetS, vergeIntervals } from './crosswalks';
import { circleRing, type Box, type MultiPolygon, type Polygon, type Ring, type Vec2 } from './geometry';
import type { StreetNetwork, Street } from './network';
import { densify, polylineLength, stripRing, subPolyline } from './polyline';
import { zoneOffsets } from './profile';

/** The ground zones (area kinds) of a world. */
export interface ZonePolygons {
  road: MultiPolygon;
  curb: MultiPolygon;
  verge: MultiPolygon;
  sidewalk: MultiPolygon;
  frontage: MultiPolygon;
  crosswalk: MultiPolygon;
}

/** Names of the ground zones, innermost first. */
export const ZONE_KINDS = ['road', 'curb', 'verge', 'sidewalk', 'frontage', 'crosswalk'] as const;

const toPoly = (r: Ring): Polygon => ({ outer: r, holes: [] });

function streetLine(st: Street): Vec2[] {
  return st.profile.narrowing ? densify(st.centreline, 1) : st.centreline;
}

function strip(line: Vec2[], st: Street, k: number, s0 = 0): Polygon {
  return toPoly(stripRing(line, (s) => zoneOffsets(st.profile, 1, s + s0)[k], (s) => -zoneOffsets(st.profile, -1, s + s0)[k]));
}

/** Output of {@link buildZones}: the zones, and the outer outline of all street land (U_frontage). */
export interface ZoneBuild {
  zones: ZonePolygons;
  /** Union of all zones (everything that is street land, up to the building line). */
  streetLand: MultiPolygon;
}

/**
 * Builds the zone polygons of a network.
 *
 * @param bounds world bounds `[minX, minY, maxX, maxY]`, metres.
 */
export function buildZones(net: StreetNetwork, layout: CrosswalkLayout, bounds: Box): ZoneBuild {
  const levels: Polygon[][] = [[], [], [], [], []];
  const islands: Polygon[] = [];
  const vergeStrips: Polygon[] = [];
  for (const st of net.streets) {
    if (st.closed) continue;
    const line = streetLine(st);
    // A walkway (a footway, pedestrian street; worlds from OSM) has no carriageway, curb or verge.
    const walkway = st.profile.roadHalfWidth === 0;
    for (const k of walkway ? [3, 4] : [0, 1, 3, 4]) levels[k].push(strip(line, st, k));
    if (walkway) continue;
    const L = polylineLength(line);
    for (const [a, b] of vergeIntervals(L, layout.vergeGaps.get(st.id), 1)) {
      vergeStrips.push(strip(subPolyline(line, a, b), st, 2, a));
    }
  }
  for (const j of net.junctions) {
    if (j.kind === 'roundabout') {
      const ring = net.streets[j.ringStreetId];
      const hole = circleRing(j.centre[0], j.centre[1], j.islandRadius, 64).reverse();
      for (const k of [0, 1, 3, 4]) {
        const r = j.ringRadius + zoneOffsets(ring.profile, -1, 0)[k];
        levels[k].push({ outer: circleRing(j.centre[0], j.centre[1], r, 64), holes: [hole] });
      }
      islands.push(toPoly(circleRing(j.centre[0], j.centre[1], j.islandRadius, 64)));
    } else if (j.kind !== 'deadEnd') {
      for (const k of [0, 1, 3, 4]) {
        let r = 0;
        for (const a of j.arms) {
          const st = net.streets[a.streetId];
          const s = armToStreetS(st, a.atStart, 0);
          r = Math.max(r, zoneOffsets(st.profile, 1, s)[k], zoneOffsets(st.profile, -1, s)[k]);
        }
        if (r > 0.01) levels[k].push(toPoly(circleRing(j.centre[0], j.centre[1], r, 32)));
      }
    }
  }
  const box: MultiPolygon = [toPoly([[bounds[0], bounds[1]], [bounds[2], bounds[1]], [bounds[2], bounds[3]], [bounds[0], bounds[3]]])];
  const U = (k: number): MultiPolygon => intersection(union(...levels[k].map((p) => [p])), box);
  const U1 = U(0), U2 = U(1), U4 = U(3), U5 = U(4);
  const ISL = intersection(union(...islands.map((p) => [p])), box);
  const V = vergeStrips.length ? intersection(union(...vergeStrips.map((p) => [p])), box) : [];
  const Vz = difference(V, U2, ISL);
  const rects = union(...layout.crosswalks.map((c) => [toPoly(c.rect)]));
  const CW = difference(intersection(rects, U4), Vz, ISL);
  const zones: ZonePolygons = {
    road: difference(U1, CW, ISL),
    curb: difference(U2, U1, CW, ISL),
    verge: union(Vz, ISL),
    sidewalk: difference(U4, U2, Vz, CW, ISL),
    frontage: difference(U5, U4, ISL),
    crosswalk: CW,
  };
  return { zones, streetLand: union(U5, ISL) };
}
