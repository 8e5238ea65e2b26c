/**
 * Pedestrian areas (squares, plazas, station forecourts) as walkable ground: closed ways and
 * multipolygons tagged `highway=pedestrian|footway|path` with `area=yes`, or
 * `area:highway=pedestrian|footway` (OSM wiki "Tag:highway=pedestrian", "Key:area:highway").
 *
 * Each area, grown by {@link AREA_GROW} (OSM outlines are drawn to about a metre, and an inferred
 * sidewalk's frontage strip would otherwise part it from the sidewalk it adjoins), joins the sidewalk
 * zone where no carriageway, curb or crosswalk is: it is taken out of the verge and frontage it
 * covers, and added to the street land buildings are cut back from. The pedestrian network crosses
 * it on a square lattice of lines every {@link AREA_LATTICE} metres, reaching {@link AREA_REACH} metres past its edge so that the lines meet
 * the sidewalks and footways around it (buildNavGraph joins lines where they cross and keeps only
 * edges on walkable ground). An area the network does not reach is reported.
 */
import { difference, union } from '../clipping';
import { boxOf, toCCW, type Box, type MultiPolygon, type Vec2 } from '../geometry';
import { NAV_STEP } from '../navgraph';
import { MultiPolygonIndex } from '../spatial-index';
import type { ZonePolygons } from '../zones';
import { osmAreas, type OsmArea } from './areas';
import type { NodeProjector } from './clip';
import type { OsmData, OsmTags } from './elements';

/** Spacing of the lattice of network lines across a pedestrian area, metres. */
export const AREA_LATTICE = 3;
/** How far past an area's edge its lattice lines reach, metres. */
export const AREA_REACH = 3;

/** How far an area's outline is grown before it joins the sidewalk zone, metres. */
export const AREA_GROW = 1;

const WALK_AREA = new Set(['pedestrian', 'footway', 'path']);

/** Whether a way's or relation's tags describe a pedestrian area (see the module comment). */
export function isPedestrianArea(tags: OsmTags): boolean {
  const area = (tags.area === 'yes' && WALK_AREA.has(tags.highway ?? '')) || tags['area:highway'] === 'pedestrian' || tags['area:highway'] === 'footway';
  if (!area) return false;
  return !(tags.indoor === 'yes' || (tags.tunnel && tags.tunnel !== 'no') || tags.level?.startsWith('-'));
}

/** The pedestrian areas reaching into `box`, and the ones skipped (broken rings …) by OSM id. */
export function pedestrianAreas(data: OsmData, proj: NodeProjector, box: Box): { areas: OsmArea[]; skipped: { id: string; why: string }[] } {
  const { areas, skipped } = osmAreas(data, proj, box, isPedestrianArea);
  return { areas: areas.filter((a) => a.polygon.length > 0), skipped };
}

/**
 * `mp` grown by about `g` metres: unioned with a 2g-wide band along every edge (outer and hole) and
 * a 2g square on every vertex (a buffer with square joins, within √2·g of the exact one).
 */
export function grownBy(mp: MultiPolygon, g: number): MultiPolygon {
  const pieces: MultiPolygon[] = [mp];
  for (const ring of mp.flatMap((p) => [p.outer, ...p.holes])) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i], b = ring[(i + 1) % ring.length];
      const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
      if (l > 1e-9) {
        const n: Vec2 = [(-(b[1] - a[1]) / l) * g, ((b[0] - a[0]) / l) * g];
        pieces.push([{ outer: toCCW([[a[0] - n[0], a[1] - n[1]], [b[0] - n[0], b[1] - n[1]], [b[0] + n[0], b[1] + n[1]], [a[0] + n[0], a[1] + n[1]]]), holes: [] }]);
      }
      pieces.push([{ outer: [[a[0] - g, a[1] - g], [a[0] + g, a[1] - g], [a[0] + g, a[1] + g], [a[0] - g, a[1] + g]], holes: [] }]);
    }
  }
  return union(...pieces);
}

/**
 * Makes `areas` walkable in `zones` (in place; see the module comment) and returns the street land
 * grown by them.
 */
export function mergePedestrianAreas(zones: ZonePolygons, streetLand: MultiPolygon, areas: readonly OsmArea[]): MultiPolygon {
  if (areas.length === 0) return streetLand;
  // Overlapping the sidewalks it meets (not cut against them), so that the union is one piece there.
  const added = difference(union(...areas.map((a) => grownBy(a.polygon, AREA_GROW))), union(zones.road, zones.curb, zones.crosswalk));
  zones.verge = difference(zones.verge, added);
  zones.frontage = difference(zones.frontage, added);
  zones.sidewalk = union(zones.sidewalk, added);
  return union(streetLand, added);
}

/**
 * The lattice lines across `areas` (rows and columns on the world grid every {@link AREA_LATTICE} m,
 * points every NAV_STEP, cut where they leave the area's {@link AREA_REACH} m surround).
 */
export function areaNavLines(areas: readonly OsmArea[]): Vec2[][] {
  const lines: Vec2[][] = [];
  for (const a of areas) {
    const idx = new MultiPolygonIndex(a.polygon);
    const near = (x: number, y: number) => idx.contains(x, y) || idx.distanceToBoundary(x, y, AREA_REACH) < AREA_REACH;
    const bb = boxOf(a.polygon.flatMap((p) => p.outer));
    const lo = [bb[0] - AREA_REACH, bb[1] - AREA_REACH], hi = [bb[2] + AREA_REACH, bb[3] + AREA_REACH];
    for (const axis of [0, 1] as const) {
      const other = 1 - axis;
      for (let c = Math.ceil(lo[other] / AREA_LATTICE) * AREA_LATTICE; c <= hi[other]; c += AREA_LATTICE) {
        let run: Vec2[] = [];
        for (let t = Math.floor(lo[axis] / NAV_STEP) * NAV_STEP; t <= hi[axis] + NAV_STEP; t += NAV_STEP) {
          const p: Vec2 = axis === 0 ? [t, c] : [c, t];
          if (near(p[0], p[1])) run.push(p);
          else {
            if (run.length >= 2) lines.push(run);
            run = [];
          }
        }
        if (run.length >= 2) lines.push(run);
      }
    }
  }
  return lines;
}
