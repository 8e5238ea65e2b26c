/**
 * A world from an OpenStreetMap extract: the same {@link World} a procedural seed gives (zones,
 * crosswalks, pedestrian network, obstacles, blocks), built from a file's real streets, crossings
 * and buildings, with their real names (`World.osm`). Deterministic: the same file, selection and
 * seed give the same world byte for byte.
 *
 * Pipeline: select and project (selection.ts, clip.ts) → street network (streets.ts) → crosswalks
 * (crossings.ts) → zones and the pedestrian network (zones.ts, navgraph.ts, as procedural worlds) →
 * generated street furniture in the verges → buildings cut back to the building line
 * (buildings.ts) → places (named shops, amenities …) onto their buildings → blocks.
 */
import { createRng } from '../../core/random';
import { buildBlocks } from '../blocks';
import { boxOf, pointInRing, type Vec2 } from '../geometry';
import { placeFurniture, type StaticObject } from '../objects';
import { CURB_HEIGHT } from '../profile';
import { BoxGrid, MultiPolygonIndex } from '../spatial-index';
import { pruneDeadWalkable, WORLD_FORMAT, WORLD_VERSION, type World } from '../world';
import { buildZones } from '../zones';
import { buildingObstacles, buildOsmBuildings } from './buildings';
import { NodeProjector } from './clip';
import { placeOsmCrosswalks } from './crossings';
import { OsmError, type OsmData, type OsmTags } from './elements';
import { effectiveSelection } from './extract';
import { parseWidth } from './highway-tags';
import { resolveSelection, selectionText, type OsmSelection } from './selection';
import { buildOsmNetwork } from './streets';
import { OSM_ATTRIBUTION, type OsmBuildingLabel } from './world-data';
import { buildingLook } from './building-look';

/** Options of {@link buildOsmWorld}. */
export interface OsmWorldOptions {
  /** The file as the user gave it (recorded, and named in errors). */
  file: string;
  /** MD5 of the file's bytes, hex. */
  md5: string;
  selection: OsmSelection;
  /** Seed of what OSM does not say (default building heights, generated furniture, generated street names); default 0. */
  seed?: number;
}

/** Keys whose named features are places (landmarks). */
export const PLACE_KEYS = ['shop', 'amenity', 'tourism', 'historic', 'leisure'] as const;

/** The place a feature's tags describe (`shop=bakery` and its name), or null when it is unnamed or not one. */
export function placeOf(tags: OsmTags): { name: string; nameLatin: string | null; kind: string } | null {
  const name = tags.name?.trim();
  if (!name) return null;
  for (const k of PLACE_KEYS) {
    const v = tags[k];
    if (v && v !== 'no' && !(k === 'amenity' && ['parking', 'bench', 'waste_basket', 'bicycle_parking', 'post_box', 'parking_space', 'parking_entrance'].includes(v))) {
      return { name, nameLatin: tags['name:en'] ?? tags['name:latn'] ?? null, kind: `${k}=${v}` };
    }
  }
  return null;
}

/** Farthest a named place node may be from a building footprint to be its storefront, metres. */
export const PLACE_REACH = 8;

/**
 * Builds the world of `selection` in `data`.
 *
 * @throws OsmError (naming the file) when the selection is invalid (selection.ts) or holds no street
 *   with a walkable place.
 */
export function buildOsmWorld(data: OsmData, options: OsmWorldOptions): World {
  const { file } = options;
  const selection = effectiveSelection(data, options.selection);
  const sel = resolveSelection(data, selection, file);
  const rng = createRng(options.seed ?? 0);
  const bounds = sel.bounds;
  const proj = new NodeProjector(data, sel.georeference);
  const osmNet = buildOsmNetwork(data, proj, bounds);
  const { network } = osmNet;
  if (network.streets.length === 0) throw new OsmError(`${file}: the selection (${selectionText(selection)}) holds no streets or footways`);
  const widthOf = (node: number) => parseWidth(data.nodes.get(node)?.tags['crossing:width']);
  const layout = placeOsmCrosswalks(network, osmNet.crossings, widthOf);
  const { zones, streetLand } = buildZones(network, layout, bounds);
  const { nav, crosswalks, curbRamps, keptCrosswalks } = pruneDeadWalkable(network, layout, zones);
  if (nav.edges.length === 0) throw new OsmError(`${file}: the selection (${selectionText(selection)}) has no walkable street (no sidewalk, footway or pedestrian street)`);
  const vergeIndex = new MultiPolygonIndex(zones.verge);
  const furniture = placeFurniture(rng.fork('furniture'), network, layout, vergeIndex);
  const built = buildOsmBuildings(data, proj, bounds, streetLand, rng.fork('buildings'));
  const streetGrid = new BoxGrid<number>(50);
  for (const st of network.streets) {
    streetGrid.insert(boxOf(st.centreline), st.id);
  }
  const obstacles: StaticObject[] = [...furniture];
  const labels: OsmBuildingLabel[] = [];
  const pieceGrid = new BoxGrid<{ label: number; ring: Vec2[] }>(25);
  for (const b of built.buildings) {
    const objs = buildingObstacles(b, network, streetGrid, obstacles.length);
    // The piece nearest its street first: it carries the storefront sign.
    const front = objs.map((o) => o.centre[0] * o.front[0] + o.centre[1] * o.front[1]);
    const first = front.indexOf(Math.max(...front));
    const ordered = [objs[first], ...objs.filter((_, k) => k !== first)].map((o, k) => ({ ...o, id: obstacles.length + k }));
    obstacles.push(...ordered);
    const place = placeOf(b.tags);
    labels.push({ osmId: b.osmId, objectIds: ordered.map((o) => o.id), houseNumber: b.tags['addr:housenumber'] ?? null, addrStreet: b.tags['addr:street'] ?? null, look: buildingLook(b.tags), place: place && { ...place, osmId: b.osmId } });
    for (const o of ordered) {
      pieceGrid.insert(boxOf(o.footprint), { label: labels.length - 1, ring: o.footprint });
    }
  }
  // Named place nodes onto the building they stand in (or the nearest within PLACE_REACH).
  const placesUnplaced: string[] = [];
  for (const n of [...data.nodes.values()].sort((p, q) => p.id - q.id)) {
    const place = placeOf(n.tags);
    if (!place) continue;
    const p = proj.at(n.id)!;
    if (p[0] < bounds[0] || p[0] > bounds[2] || p[1] < bounds[1] || p[1] > bounds[3]) continue;
    let best = -1, bestD = Infinity;
    for (const c of pieceGrid.query([p[0] - PLACE_REACH, p[1] - PLACE_REACH, p[0] + PLACE_REACH, p[1] + PLACE_REACH])) {
      let d = pointInRing(p[0], p[1], c.ring) ? 0 : Infinity;
      if (d > 0) for (const v of c.ring) d = Math.min(d, Math.hypot(v[0] - p[0], v[1] - p[1]));
      if (labels[c.label].place) d += 1000; // prefer a building without a place yet
      if (d < bestD || (d === bestD && c.label < best)) [best, bestD] = [c.label, d];
    }
    if (best < 0 || bestD >= 1000 + PLACE_REACH || (bestD >= PLACE_REACH && bestD < 1000)) {
      placesUnplaced.push(`node/${n.id}`);
      continue;
    }
    const l = labels[best];
    if (l.place) {
      placesUnplaced.push(`node/${n.id}`);
      continue;
    }
    l.place = { ...place, osmId: `node/${n.id}` };
    l.houseNumber ??= n.tags['addr:housenumber'] ?? null;
    l.addrStreet ??= n.tags['addr:street'] ?? null;
  }
  const size = Math.max(bounds[2] - bounds[0], bounds[3] - bounds[1]);
  return {
    format: WORLD_FORMAT,
    version: WORLD_VERSION,
    seed: rng.seed,
    size,
    bounds,
    zones,
    crosswalks,
    curbRamps,
    obstacles,
    nav,
    blocks: buildBlocks(network, layout),
    network,
    curbHeight: CURB_HEIGHT,
    osm: {
      source: { file, md5: options.md5, selection, georeference: sel.georeference, attribution: OSM_ATTRIBUTION },
      streets: osmNet.info,
      buildings: labels,
      summary: {
        waysMissingNodes: osmNet.waysMissingNodes,
        waysDisconnected: osmNet.waysDisconnected,
        buildingsSkipped: built.skipped,
        placesUnplaced,
        crosswalksMapped: keptCrosswalks.filter((id) => layout.mappedNode[id] !== null).length,
        crosswalksPlaced: keptCrosswalks.filter((id) => layout.mappedNode[id] === null).length,
        separateSidewalkSides: osmNet.separateSides,
      },
    },
  };
}
