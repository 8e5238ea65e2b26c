/**
 * The sidewalk world: a procedurally generated street network with its zones, crosswalks, static
 * objects, pedestrian navigation graph and blocks, as one plain serialisable object.
 *
 * Frame: world frame of the brief (right-handed, Z up, metres); the ground is the x-y plane, the
 * world is a square centred on the origin. Determinism: every subsystem draws from its own fork of
 * the seed (`src/core/random.ts`), so the same seed gives the same world byte for byte.
 */
import { createRng } from '../core/random';
import { buildBlocks, type Block } from './blocks';
import { difference, intersection, union } from './clipping';
import { placeCrosswalks, type Crosswalk, type CrosswalkLayout, type CurbRamp } from './crosswalks';
import { pointInMultiPolygon, type Box, type Vec2 } from './geometry';
import { buildNavGraph, type NavGraph } from './navgraph';
import { generateNetwork, type StreetNetwork } from './network';
import { placeBuildings, placeFurniture, placeLandmarkFurniture, type StaticObject } from './objects';
import { CURB_HEIGHT } from './profile';
import { MultiPolygonIndex } from './spatial-index';
import type { OsmWorldData } from './osm/world-data';
import { buildZones, type ZonePolygons } from './zones';

/** Options of {@link generateWorld}. */
export interface WorldOptions {
  /** Seed (integer; taken modulo 2³²). */
  seed: number;
  /** Side length of the square world, metres, in [150, 2000]; default {@link DEFAULT_WORLD_SIZE}. */
  size?: number;
}

/** Default world side length, metres (a modest city of about 3 × 3 blocks). */
export const DEFAULT_WORLD_SIZE = 400;

/** Format tag and version of a serialised world. */
export const WORLD_FORMAT = 'curbside-world';
export const WORLD_VERSION = 1;

/**
 * A generated world (plain data: `JSON.stringify` round-trips it). All positions are world-frame
 * metres on the ground plane (x-y, Z up); polygons follow `geometry.ts` (outer CCW, holes CW).
 */
export interface World {
  format: typeof WORLD_FORMAT;
  version: typeof WORLD_VERSION;
  seed: number;
  /** Side length, metres. */
  size: number;
  /** `[minX, minY, maxX, maxY]`, metres. */
  bounds: Box;
  /** Ground zones; together with building footprints and open lots they partition the bounds. */
  zones: ZonePolygons;
  crosswalks: Crosswalk[];
  curbRamps: CurbRamp[];
  /** Street furniture, buildings, then landmark furniture (kiosks, statues, fountains, bike racks); footprints are convex CCW rings (ORCA obstacles); `id` is the index. */
  obstacles: StaticObject[];
  /** Pedestrian navigation graph on sidewalks and crosswalks (one connected component). */
  nav: NavGraph;
  blocks: Block[];
  /** The street network (centrelines, cross-section profiles, junctions) the zones were built from. */
  network: StreetNetwork;
  /** Height of sidewalks, verges and frontages above the road, metres. */
  curbHeight: number;
  /** Worlds from OpenStreetMap (osm/osm-world.ts): the file and selection they came from, and the real names. Absent in procedural worlds. */
  osm?: OsmWorldData;
}

/**
 * Generates a world.
 *
 * @throws RangeError when the seed is not an integer or the size is outside [150, 2000] metres.
 */
export function generateWorld(options: WorldOptions): World {
  const size = options.size ?? DEFAULT_WORLD_SIZE;
  const rng = createRng(options.seed);
  const half = size / 2;
  const bounds: Box = [-half, -half, half, half];
  const network = generateNetwork(rng.fork('network'), { size });
  const layout = placeCrosswalks(rng.fork('crosswalks'), network);
  const { zones, streetLand } = buildZones(network, layout, bounds);
  const { nav, crosswalks, curbRamps } = pruneDeadWalkable(network, layout, zones);
  const vergeIndex = new MultiPolygonIndex(zones.verge);
  const furniture = placeFurniture(rng.fork('furniture'), network, layout, vergeIndex);
  const buildings = placeBuildings(rng.fork('buildings'), network, new MultiPolygonIndex(streetLand), bounds, furniture.length);
  const landmarks = placeLandmarkFurniture(rng.fork('landmarks'), network, layout, vergeIndex, furniture, furniture.length + buildings.length);
  return {
    format: WORLD_FORMAT,
    version: WORLD_VERSION,
    seed: rng.seed,
    size,
    bounds,
    zones,
    crosswalks,
    curbRamps,
    obstacles: [...furniture, ...buildings, ...landmarks],
    nav,
    blocks: buildBlocks(network, layout),
    network,
    curbHeight: CURB_HEIGHT,
  };
}

/**
 * The pedestrian navigation graph of `zones`, and the walkable pieces it does not reach (slivers cut
 * off by other streets) turned into verge (sidewalk) or road (crosswalk) in place; returns the graph
 * and the crosswalks and curb ramps that remain, renumbered.
 *
 * @param extraLines more network lines (buildNavGraph), for a real place's pedestrian areas.
 */
export function pruneDeadWalkable(network: StreetNetwork, layout: CrosswalkLayout, zones: ZonePolygons, extraLines: readonly Vec2[][] = []): { nav: NavGraph; crosswalks: Crosswalk[]; curbRamps: CurbRamp[]; keptCrosswalks: number[] } {
  const pieces = union(zones.sidewalk, zones.crosswalk);
  const nav = buildNavGraph(network, layout.crosswalks, new MultiPolygonIndex(pieces), extraLines);
  // Walkable pieces the graph does not reach (slivers cut off by other streets) become verge/road.
  const dead = pieces.filter((p) => !nav.nodes.some(([x, y]) => pointInMultiPolygon(x, y, [p])));
  let crosswalks = layout.crosswalks;
  let kept = crosswalks.map((c) => c.id);
  let curbRamps = layout.ramps;
  if (dead.length > 0) {
    zones.verge = union(zones.verge, intersection(zones.sidewalk, dead));
    zones.road = union(zones.road, intersection(zones.crosswalk, dead));
    zones.sidewalk = difference(zones.sidewalk, dead);
    zones.crosswalk = difference(zones.crosswalk, dead);
    const crosswalkIdx = new MultiPolygonIndex(zones.crosswalk);
    const keep = crosswalks.filter((c) => crosswalkIdx.contains(c.centre[0], c.centre[1]));
    const renum = new Map(keep.map((c, i) => [c.id, i]));
    kept = keep.map((c) => c.id);
    crosswalks = keep.map((c) => ({ ...c, id: renum.get(c.id)! }));
    curbRamps = curbRamps.filter((r) => renum.has(r.crosswalkId)).map((r) => ({ ...r, crosswalkId: renum.get(r.crosswalkId)! }));
  }
  return { nav, crosswalks, curbRamps, keptCrosswalks: kept };
}
