/**
 * Buildings of a world from OSM: real footprints (closed `building=*` ways and `type=multipolygon`
 * relations with their courtyards), clipped to the world and cut back to the building line (no
 * footprint reaches into any street zone), split into convex pieces for the crowd (convex.ts).
 *
 * Height: `height` (metres), else `building:levels` × {@link FLOOR_HEIGHT} + 1 (the ground floor's
 * extra metre, as buildings.ts bakes), else the default storeys of the `building=*` type below with
 * ±1 storey of seeded variation. Storey counts are typical of European city centres (OSM wiki
 * "Key:building:levels"; the 3.2 m storey is bake/buildings.ts's).
 */
import type { Rng } from '../../core/random';
import { difference, intersection } from '../clipping';
import { boxOf, polygonArea, type Box, type MultiPolygon, type Polygon, type Ring, type Vec2 } from '../geometry';
import type { StaticObject } from '../objects';
import { projectOnPolyline } from '../polyline';
import type { StreetNetwork } from '../network';
import type { BoxGrid } from '../spatial-index';
import { osmAreas } from './areas';
import type { NodeProjector } from './clip';
import { convexPieces } from './convex';
import type { OsmData, OsmTags } from './elements';
import { parseWidth } from './highway-tags';

/** Storey height, metres (bake/buildings.ts: FLOOR_HEIGHT). */
export const FLOOR_HEIGHT = 3.2;

/** Default storeys per `building=*` value (others: 4). */
export const DEFAULT_LEVELS: Record<string, number> = {
  house: 2, detached: 2, semidetached_house: 2, terrace: 3, bungalow: 1, residential: 5, apartments: 6,
  commercial: 4, retail: 2, office: 7, hotel: 7, industrial: 2, warehouse: 2, garage: 1, garages: 1, shed: 1,
  roof: 1, kiosk: 1, church: 5, cathedral: 8, chapel: 3, public: 4, civic: 4, school: 3, university: 4, hospital: 5,
  train_station: 3, parking: 4, yes: 4,
};

/** One OSM building as the world keeps it: its pieces (obstacle ids are set by the caller), tags and id. */
export interface OsmBuilding {
  /** `way/123` or `relation/45`. */
  osmId: string;
  tags: OsmTags;
  /** Convex CCW pieces, metres. */
  pieces: Ring[];
  height: number;
  /** Centroid of the whole footprint (after cutting), metres. */
  centre: Vec2;
  /** Area after cutting, m². */
  area: number;
}

/** Output of {@link buildOsmBuildings}. */
export interface OsmBuildings {
  buildings: OsmBuilding[];
  /** Buildings skipped, with why: `way/…` or `relation/…` ids. */
  skipped: { id: string; why: string }[];
}

/** The height of a building from its tags (see the module comment), metres. */
export function buildingHeight(tags: OsmTags, rng: Rng): number {
  const h = parseWidth(tags.height ?? tags['building:height']);
  if (h !== null && h >= 2 && h <= 600) return h;
  const levels = Number.parseFloat(tags['building:levels'] ?? '');
  if (levels >= 1 && levels <= 150) return Math.round(levels) * FLOOR_HEIGHT + 1;
  const base = DEFAULT_LEVELS[tags.building ?? 'yes'] ?? 4;
  return Math.max(1, base + rng.int(-1, 1)) * FLOOR_HEIGHT + 1;
}

/** Side of the tiles street land is cut into for {@link streetLandTiles}, and how far each reaches past its side, metres. */
const LAND_TILE = 100;
const LAND_TILE_MARGIN = 60;

/**
 * The street land that matters to a footprint within box `bb`: the part of `land` in a tile about
 * the box's centre ({@link LAND_TILE} square, grown by {@link LAND_TILE_MARGIN}) when the box lies
 * inside that tile, else all of it. Subtracting the tile's part from a footprint inside it gives
 * the same result as subtracting all of `land`, at a small part of the cost (a city's street land
 * is one polygon with thousands of vertices). Tiles are cut once, on first use.
 */
function streetLandTiles(land: MultiPolygon): (bb: Box) => MultiPolygon {
  const tiles = new Map<string, MultiPolygon>();
  return (bb) => {
    const i = Math.floor((bb[0] + bb[2]) / 2 / LAND_TILE), j = Math.floor((bb[1] + bb[3]) / 2 / LAND_TILE);
    const r: Box = [i * LAND_TILE - LAND_TILE_MARGIN, j * LAND_TILE - LAND_TILE_MARGIN, (i + 1) * LAND_TILE + LAND_TILE_MARGIN, (j + 1) * LAND_TILE + LAND_TILE_MARGIN];
    if (bb[0] < r[0] || bb[1] < r[1] || bb[2] > r[2] || bb[3] > r[3]) return land;
    const key = `${i},${j}`;
    let t = tiles.get(key);
    if (!t) {
      t = intersection(land, [{ outer: [[r[0], r[1]], [r[2], r[1]], [r[2], r[3]], [r[0], r[3]]], holes: [] }]);
      tiles.set(key, t);
    }
    return t;
  };
}

/**
 * The buildings inside `box`, cut back from `streetLand` (the union of every ground zone).
 *
 * @param rng the building stream (default heights).
 */
export function buildOsmBuildings(data: OsmData, proj: NodeProjector, box: Box, streetLand: MultiPolygon, rng: Rng): OsmBuildings {
  const isBuilding = (t: OsmTags) => t.building !== undefined && t.building !== 'no';
  const { areas, skipped } = osmAreas(data, proj, box, isBuilding);
  const landNear = streetLandTiles(streetLand);
  const buildings: OsmBuilding[] = [];
  for (const s of areas) {
    if (s.polygon.length === 0) continue;
    const cut = difference(s.polygon, landNear(boxOf(s.polygon.flatMap((p) => p.outer))));
    const polys = cut.filter((p: Polygon) => polygonArea(p) >= 4);
    if (polys.length === 0) continue;
    const area = polys.reduce((a, p) => a + polygonArea(p), 0);
    let cx = 0, cy = 0;
    for (const p of polys) {
      const a = polygonArea(p);
      const c = p.outer.reduce((acc, v) => [acc[0] + v[0] / p.outer.length, acc[1] + v[1] / p.outer.length], [0, 0]);
      cx += (c[0] * a) / area;
      cy += (c[1] * a) / area;
    }
    const pieces = polys.flatMap((p) => convexPieces(p));
    buildings.push({ osmId: s.osmId, tags: s.tags, pieces, height: buildingHeight(s.tags, rng.fork(s.osmId)), centre: [cx, cy], area });
  }
  return { buildings, skipped };
}

/**
 * The building's obstacles: one `building` object per convex piece, ids from `firstId`, each facing
 * (`front`) and belonging to (`streetId`) the street nearest the building's centre.
 */
export function buildingObstacles(b: OsmBuilding, net: StreetNetwork, streets: BoxGrid<number>, firstId: number): StaticObject[] {
  let best = { id: -1, d: Infinity, dir: [0, -1] as Vec2 };
  for (const r of [60, 200, 1000]) {
    for (const sid of streets.query([b.centre[0] - r, b.centre[1] - r, b.centre[0] + r, b.centre[1] + r])) {
      const line = net.streets[sid].centreline;
      const pr = projectOnPolyline(line, b.centre[0], b.centre[1]);
      if (pr.d < best.d) {
        // Direction from the building to the closest point of the centreline.
        let cp: Vec2 = line[0], cd = Infinity;
        for (let i = 0; i + 1 < line.length; i++) {
          const a = line[i], c = line[i + 1];
          const dx = c[0] - a[0], dy = c[1] - a[1];
          const t = Math.max(0, Math.min(1, ((b.centre[0] - a[0]) * dx + (b.centre[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
          const q: Vec2 = [a[0] + t * dx, a[1] + t * dy];
          const d = Math.hypot(q[0] - b.centre[0], q[1] - b.centre[1]);
          if (d < cd) [cp, cd] = [q, d];
        }
        const l = Math.hypot(cp[0] - b.centre[0], cp[1] - b.centre[1]) || 1;
        best = { id: sid, d: pr.d, dir: [(cp[0] - b.centre[0]) / l, (cp[1] - b.centre[1]) / l] };
      }
    }
    if (best.id >= 0) break;
  }
  return b.pieces.map((ring, k) => {
    const c = ring.reduce((acc, v) => [acc[0] + v[0] / ring.length, acc[1] + v[1] / ring.length], [0, 0]) as Vec2;
    const radius = Math.max(...ring.map((v) => Math.hypot(v[0] - c[0], v[1] - c[1])));
    return { id: firstId + k, kind: 'building', footprint: ring, centre: c, yaw: Math.atan2(best.dir[1], best.dir[0]) - Math.PI / 2, height: b.height, radius, zone: 'lot', streetId: best.id, canopyRadius: 0, front: best.dir };
  });
}
