/**
 * What a world from OpenStreetMap carries beyond a procedural one (plain JSON): where it came
 * from, and the real names of its streets, buildings and places.
 */
import type { BuildingLook } from './building-look';
import type { Georeference } from '../georef';
import type { OsmSelection } from './selection';
import type { OsmStreetInfo } from './streets';

/** ODbL attribution every world, suite and task file made from OSM carries. */
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors, available under the Open Database License 1.0 (ODbL), https://www.openstreetmap.org/copyright';

/** Where an OSM world came from. */
export interface OsmWorldSource {
  /** The file as the user gave it. */
  file: string;
  /** MD5 of the file's bytes (hex). */
  md5: string;
  selection: OsmSelection;
  /** Street furniture: only what OSM maps (`osm`), or that and generated furniture on the kerbs it leaves empty (`osm+generated`). */
  furniture: FurnitureSource;
  /** The world origin: the selection's centre (height 0: OSM has no heights). */
  georeference: Georeference;
  attribution: string;
}

/** Where a real place's street furniture comes from (`--furniture`). */
export type FurnitureSource = 'osm' | 'osm+generated';
export const FURNITURE_SOURCES = ['osm', 'osm+generated'] as const;

/** A mapped piece of street furniture (osm/furniture.ts): the object it became and the node it came from. */
export interface OsmFurnitureLabel {
  objectId: number;
  /** `node/123`. */
  osmId: string;
  /** The tag that made it: `highway=bus_stop`, `natural=tree` … */
  tag: string;
  /** A bus stop's name, else null. */
  name: string | null;
  /** How far it was moved from its mapped spot to free ground, metres. */
  moved: number;
}

/** An OSM building's labels: its obstacle pieces, address and the name on its storefront. */
export interface OsmBuildingLabel {
  /** `way/123` or `relation/45`. */
  osmId: string;
  /** Obstacle ids of its convex pieces; the first is the one facing its street (it carries the sign). */
  objectIds: number[];
  /** `addr:housenumber`, or null. */
  houseNumber: string | null;
  /** `addr:street`, or null. */
  addrStreet: string | null;
  /** Its wall colour and material when tagged (`building:colour`, `building:material`; building-look.ts), else null. */
  look: BuildingLook | null;
  /** The shop or place inside it (a named `shop`/`amenity`/`tourism`/`historic`/`leisure` node or the building's own tags), or null. */
  place: { name: string; nameLatin: string | null; kind: string; osmId: string } | null;
}

/** Counts and OSM ids of what the world could not use (element-level faults a world can live with). */
export interface OsmWorldSummary {
  waysMissingNodes: number[];
  waysDisconnected: number[];
  buildingsSkipped: { id: string; why: string }[];
  /** Named places that fell on no building or could not be placed. */
  placesUnplaced: string[];
  /** Crosswalks mapped in OSM (their node ids) and placed at junctions without one. */
  crosswalksMapped: number;
  crosswalksPlaced: number;
  separateSidewalkSides: number;
  /** Pedestrian areas made walkable, and those skipped (broken rings, or not reached by the network) by OSM id. */
  pedestrianAreas: number;
  pedestrianAreasSkipped: { id: string; why: string }[];
  /** Street furniture mapped in OSM and placed, and what was not (its OSM id and why). */
  furnitureMapped: number;
  furnitureSkipped: { id: string; why: string }[];
}

/** The OSM part of a world (`World.osm`). */
export interface OsmWorldData {
  source: OsmWorldSource;
  /** Per network street id. */
  streets: OsmStreetInfo[];
  buildings: OsmBuildingLabel[];
  /** The mapped street furniture, by object. */
  furniture: OsmFurnitureLabel[];
  summary: OsmWorldSummary;
}
