/**
 * A world from an OpenStreetMap extract: the same {@link World} a procedural seed gives (zones,
 * crosswalks, pedestrian network, obstacles, blocks), built from a file's real streets, crossings
 * and buildings, with their real names (`World.osm`). Deterministic: the same file, selection and
 * seed give the same world byte for byte.
 *
 * Pipeline: select and project (selection.ts, clip.ts) → street network (streets.ts) → crosswalks
 * (crossings.ts) → zones, with the pedestrian areas walkable (pedestrian-areas.ts), and the
 * pedestrian network (zones.ts, navgraph.ts, as procedural worlds) →
 * buildings cut back to the building line (buildings.ts) → street furniture mapped in OSM
 * (furniture.ts), then generated furniture in the verges it leaves empty → places (named shops,
 * amenities …) onto their buildings → blocks. Object ids: mapped furniture, generated furniture,
 * buildings.
 */
import { createRng } from '../../core/random';
import { buildBlocks } from '../blocks';
import { boxOf, pointInMultiPolygon, pointInRing, type Box, type MultiPolygon, type Vec2 } from '../geometry';
import { placeFurniture, type StaticObject } from '../objects';
import { CURB_HEIGHT } from '../profile';
import { BoxGrid, MultiPolygonIndex } from '../spatial-index';
import { pruneDeadWalkable, WORLD_FORMAT, WORLD_VERSION, type World } from '../world';
import { buildZones, type ZonePolygons } from '../zones';
import { buildingObstacles, buildOsmBuildings } from './buildings';
import type { OsmArea } from './areas';
import { NodeProjector } from './clip';
import { placeOsmCrosswalks } from './crossings';
import { OsmError, type OsmData, type OsmTags } from './elements';
import { effectiveSelection } from './extract';
import { parseWidth } from './highway-tags';
import { resolveSelection, selectionText, type OsmSelection } from './selection';
import { buildOsmNetwork } from './streets';
import { placeOsmFurniture } from './furniture';
import { areaNavLines, mergePedestrianAreas, pedestrianAreas } from './pedestrian-areas';
import { OSM_ATTRIBUTION, type FurnitureSource, type OsmBuildingLabel } from './world-data';
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
  /** Street furniture from OSM alone, or with generated furniture on the kerbs it leaves empty (default). */
  furniture?: FurnitureSource;
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

/** The street network and the walkable ground of a real place, its pedestrian areas merged. */
interface WalkableGround {
  osmNet: ReturnType<typeof buildOsmNetwork>;
  layout: ReturnType<typeof placeOsmCrosswalks>;
  zones: ZonePolygons;
  /** Everything up to the building line, pedestrian areas included. */
  streetLand: MultiPolygon;
  pruned: ReturnType<typeof pruneDeadWalkable>;
}

/**
 * Streets (streets.ts) → crosswalks (crossings.ts) → zones with `areas` walkable → the pedestrian
 * network.
 *
 * @throws OsmError naming the file when the selection holds no street, or nothing walkable.
 */
function walkableGround(data: OsmData, proj: NodeProjector, bounds: Box, areas: OsmArea[], file: string, selection: OsmSelection): WalkableGround {
  const osmNet = buildOsmNetwork(data, proj, bounds, areas);
  const { network } = osmNet;
  if (network.streets.length === 0) throw new OsmError(`${file}: the selection (${selectionText(selection)}) holds no streets or footways`);
  const widthOf = (node: number) => parseWidth(data.nodes.get(node)?.tags['crossing:width']);
  const layout = placeOsmCrosswalks(network, osmNet.crossings, widthOf);
  const street = buildZones(network, layout, bounds);
  const zones = street.zones;
  const streetLand = mergePedestrianAreas(zones, street.streetLand, areas);
  const pruned = pruneDeadWalkable(network, layout, zones, areaNavLines(areas));
  if (pruned.nav.edges.length === 0) throw new OsmError(`${file}: the selection (${selectionText(selection)}) has no walkable street (no sidewalk, footway or pedestrian street)`);
  return { osmNet, layout, zones, streetLand, pruned };
}

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
  const plazas = pedestrianAreas(data, proj, bounds);
  // The pedestrian areas the network reaches: an area it does not is left out and the ground built
  // again without it, so the world is as without it (a few rounds: leaving one out may cut off
  // another reached only through it).
  const areasUnreached: string[] = [];
  let areas = plazas.areas;
  let ground: WalkableGround;
  for (let round = 0; ; round++) {
    ground = walkableGround(data, proj, bounds, areas, file, selection);
    const nodes = ground.pruned.nav.nodes;
    const unreached = areas.filter((a) => !nodes.some(([x, y]) => pointInMultiPolygon(x, y, a.polygon)));
    if (unreached.length === 0 || round === 3) break;
    areasUnreached.push(...unreached.map((a) => a.osmId));
    areas = areas.filter((a) => !unreached.includes(a));
  }
  const { osmNet, layout, zones, streetLand } = ground;
  const { network } = osmNet;
  const { nav, crosswalks, curbRamps, keptCrosswalks } = ground.pruned;
  const built = buildOsmBuildings(data, proj, bounds, streetLand, rng.fork('buildings'));
  const streetGrid = new BoxGrid<number>(50);
  for (const st of network.streets) {
    streetGrid.insert(boxOf(st.centreline), st.id);
  }
  // Building pieces first (ids after the furniture's, set below): mapped furniture keeps off them.
  const pieces = built.buildings.map((b) => {
    const objs = buildingObstacles(b, network, streetGrid, 0);
    // The piece nearest its street first: it carries the storefront sign.
    const front = objs.map((o) => o.centre[0] * o.front[0] + o.centre[1] * o.front[1]);
    const first = front.indexOf(Math.max(...front));
    return [objs[first], ...objs.filter((_, k) => k !== first)];
  });
  const mapped = placeOsmFurniture(data, proj, bounds, network, zones, streetGrid, pieces.flat().map((o) => o.footprint), rng.fork('osm-furniture'));
  const furnitureSource = options.furniture ?? 'osm+generated';
  const obstacles: StaticObject[] = furnitureSource === 'osm' ? [...mapped.objects] : placeFurniture(rng.fork('furniture'), network, layout, new MultiPolygonIndex(zones.verge), mapped);
  const labels: OsmBuildingLabel[] = [];
  const pieceGrid = new BoxGrid<{ label: number; ring: Vec2[] }>(25);
  built.buildings.forEach((b, i) => {
    const ordered = pieces[i].map((o, k) => ({ ...o, id: obstacles.length + k }));
    obstacles.push(...ordered);
    const place = placeOf(b.tags);
    labels.push({ osmId: b.osmId, objectIds: ordered.map((o) => o.id), houseNumber: b.tags['addr:housenumber'] ?? null, addrStreet: b.tags['addr:street'] ?? null, look: buildingLook(b.tags), place: place && { ...place, osmId: b.osmId } });
    for (const o of ordered) {
      pieceGrid.insert(boxOf(o.footprint), { label: labels.length - 1, ring: o.footprint });
    }
  });
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
      source: { file, md5: options.md5, selection, furniture: furnitureSource, georeference: sel.georeference, attribution: OSM_ATTRIBUTION },
      streets: osmNet.info,
      buildings: labels,
      furniture: mapped.labels,
      summary: {
        waysMissingNodes: osmNet.waysMissingNodes,
        waysDisconnected: osmNet.waysDisconnected,
        buildingsSkipped: built.skipped,
        placesUnplaced,
        crosswalksMapped: keptCrosswalks.filter((id) => layout.mappedNode[id] !== null).length,
        crosswalksPlaced: keptCrosswalks.filter((id) => layout.mappedNode[id] === null).length,
        separateSidewalkSides: osmNet.separateSides,
        pedestrianAreas: areas.length,
        pedestrianAreasSkipped: [...plazas.skipped, ...areasUnreached.map((id) => ({ id, why: 'not reached by the pedestrian network' }))],
        furnitureMapped: mapped.objects.length,
        furnitureSkipped: mapped.skipped,
      },
    },
  };
}
