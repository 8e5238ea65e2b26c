/**
 * OpenStreetMap data as Curbside reads it: nodes, ways and relations with their tags, in the
 * OSM data model (https://wiki.openstreetmap.org/wiki/Elements), whatever file encoding they came
 * from. Positions are WGS84 degrees.
 */
import { UserError } from '../../core/user-error';
import type { OsmSelection } from './selection';

/** Tags of an element (`key → value`, UTF-8). */
export type OsmTags = Record<string, string>;

/** A node: a WGS84 point. */
export interface OsmNode {
  id: number;
  lat: number;
  lon: number;
  tags: OsmTags;
}

/** A way: an ordered list of node ids (closed when first = last). */
export interface OsmWay {
  id: number;
  nodes: number[];
  tags: OsmTags;
}

/** A relation member. */
export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

/** A relation: members with roles (multipolygons: `outer`/`inner` ways). */
export interface OsmRelation {
  id: number;
  members: OsmMember[];
  tags: OsmTags;
}

/** A latitude-longitude box, degrees. */
export interface LatLonBox {
  minlat: number;
  minlon: number;
  maxlat: number;
  maxlon: number;
}

/** The elements of one OSM file, by id. */
export interface OsmData {
  nodes: Map<number, OsmNode>;
  ways: Map<number, OsmWay>;
  relations: Map<number, OsmRelation>;
  /** The file's declared bounds (PBF header bbox, XML `<bounds>`), else the extent of its nodes; null when it has no nodes. */
  bounds: LatLonBox | null;
  /** Whether `bounds` was declared by the file (false: the extent of its nodes). */
  declaredBounds: boolean;
  /** A Curbside extract's own selection (extract.ts): what a tool uses when given none. */
  selection?: OsmSelection;
}

/** An OSM file that cannot be read or a selection that cannot be made: the message names the file or option. */
export class OsmError extends UserError {}

/** The extent of a set of nodes, or null when there are none. */
export function nodeExtent(nodes: Iterable<OsmNode>): LatLonBox | null {
  let b: LatLonBox | null = null;
  for (const n of nodes) {
    if (!b) b = { minlat: n.lat, minlon: n.lon, maxlat: n.lat, maxlon: n.lon };
    else {
      b.minlat = Math.min(b.minlat, n.lat);
      b.maxlat = Math.max(b.maxlat, n.lat);
      b.minlon = Math.min(b.minlon, n.lon);
      b.maxlon = Math.max(b.maxlon, n.lon);
    }
  }
  return b;
}
