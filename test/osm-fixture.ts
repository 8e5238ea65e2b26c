/**
 * Small OpenStreetMap files made in tests: nodes placed in metres east/north of an origin and
 * written as OSM XML 0.6 (the format the openstreetmap.org export and Overpass give).
 */
import { WGS84_A } from '../src/world/georef';

type Tags = Record<string, string>;

const xmlEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const tagXml = (tags: Tags): string => Object.entries(tags).map(([k, v]) => `    <tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>\n`).join('');

/** Builds an OSM file element by element. Ids are positive and increase from 1. */
export class OsmFixture {
  private nodes: string[] = [];
  private ways: string[] = [];
  private relations: string[] = [];
  private next = 1;
  /** Nodes by id: the exact lat/lon written. */
  readonly positions = new Map<number, { lat: number; lon: number }>();

  /** @param lat origin latitude, degrees; @param lon origin longitude, degrees. */
  constructor(readonly lat: number, readonly lon: number) {}

  /** A node `x` m east and `y` m north of the origin (spherical approximation; tests use the lat/lon written). */
  node(x: number, y: number, tags: Tags = {}): number {
    const id = this.next++;
    const lat = this.lat + ((y / WGS84_A) * 180) / Math.PI;
    const lon = this.lon + ((x / (WGS84_A * Math.cos((this.lat * Math.PI) / 180))) * 180) / Math.PI;
    const r = (v: number) => Math.round(v * 1e7) / 1e7;
    this.positions.set(id, { lat: r(lat), lon: r(lon) });
    const body = tagXml(tags);
    this.nodes.push(body ? `  <node id="${id}" lat="${r(lat)}" lon="${r(lon)}">\n${body}  </node>\n` : `  <node id="${id}" lat="${r(lat)}" lon="${r(lon)}"/>\n`);
    return id;
  }

  /** A way through existing (or deliberately missing) node ids. */
  way(nodes: number[], tags: Tags = {}): number {
    const id = this.next++;
    this.ways.push(`  <way id="${id}">\n${nodes.map((n) => `    <nd ref="${n}"/>\n`).join('')}${tagXml(tags)}  </way>\n`);
    return id;
  }

  /** A closed way through new nodes at the given corners (metres). */
  ring(corners: [number, number][], tags: Tags = {}): number {
    const ids = corners.map(([x, y]) => this.node(x, y));
    return this.way([...ids, ids[0]], tags);
  }

  /** A relation. */
  relation(members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[], tags: Tags = {}): number {
    const id = this.next++;
    this.relations.push(`  <relation id="${id}">\n${members.map((m) => `    <member type="${m.type}" ref="${m.ref}" role="${m.role}"/>\n`).join('')}${tagXml(tags)}  </relation>\n`);
    return id;
  }

  /** The file, UTF-8 OSM XML. */
  xml(): Uint8Array {
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="curbside-test">\n${this.nodes.join('')}${this.ways.join('')}${this.relations.join('')}</osm>\n`;
    return new TextEncoder().encode(text);
  }
}

/** What {@link crossroads} made: the file and the ids its tests look for. */
export interface Crossroads {
  fixture: OsmFixture;
  bytes: Uint8Array;
  /** The `highway=crossing` node on the east arm (30 m east of the junction). */
  crossingNode: number;
  /** The `footway=crossing` way over the north arm (100 m north), and its node on the road. */
  crossingWay: number;
  crossingWayNode: number;
  /** The north arm (tagged `sidewalk=separate`) and its two `footway=sidewalk` ways. */
  northArm: number;
  sidewalkWays: [number, number];
  /** The multipolygon building with a courtyard (north-east), its courtyard centre and the bakery inside. */
  courtyardBuilding: number;
  courtyardCentre: [number, number];
  bakery: number;
  /** A building that reaches over the south-west sidewalk. */
  overreachingBuilding: number;
  /** Broken buildings: an unclosed ring, a self-intersecting ring, a relation whose outer way is missing. */
  unclosed: number;
  bowtie: number;
  missingMember: number;
  /** A footway that names a node the file lacks, and one that touches nothing. */
  missingNodeWay: number;
  strayWay: number;
}

/**
 * A crossroads 300 m across about (48.85, 2.35): "Rue Émile Zola" west–east and "Hauptstraße"
 * south–north, both running 250 m from the junction (past a 300 m selection's edge).
 */
export function crossroads(): Crossroads {
  const f = new OsmFixture(48.85, 2.35);
  const c = f.node(0, 0);
  const west = f.node(-250, 0), east = f.node(250, 0);
  const crossingNode = f.node(30, 0, { highway: 'crossing', crossing: 'zebra' });
  f.way([west, c, crossingNode, east], { highway: 'residential', name: 'Rue Émile Zola' });
  const south = f.node(0, -250), n100 = f.node(0, 100, { highway: 'crossing', crossing: 'marked' }), north = f.node(0, 250);
  f.way([south, c], { highway: 'residential', name: 'Hauptstraße', sidewalk: 'both' });
  const northArm = f.way([c, n100, north], { highway: 'residential', name: 'Hauptstraße', sidewalk: 'separate' });
  const lw = [f.node(-5, 8), f.node(-5, 100), f.node(-5, 145)];
  const rw = [f.node(5, 8), f.node(5, 100), f.node(5, 145)];
  const swL = f.way(lw, { highway: 'footway', footway: 'sidewalk' });
  const swR = f.way(rw, { highway: 'footway', footway: 'sidewalk' });
  const crossingWay = f.way([lw[1], n100, rw[1]], { highway: 'footway', footway: 'crossing', crossing: 'marked' });
  const outer = f.ring([[8, 8], [48, 8], [48, 48], [8, 48]]);
  const inner = f.ring([[23, 23], [33, 23], [33, 33], [23, 33]]);
  const courtyardBuilding = f.relation([{ type: 'way', ref: outer, role: 'outer' }, { type: 'way', ref: inner, role: 'inner' }], { type: 'multipolygon', building: 'apartments', 'building:levels': '4', 'addr:housenumber': '12', 'addr:street': 'Rue Émile Zola' });
  const bakery = f.node(12, 20, { shop: 'bakery', name: 'Boulangerie Müller' });
  const overreachingBuilding = f.ring([[-60, -60], [-3, -60], [-3, -20], [-60, -20]], { building: 'yes', height: '20', name: 'Café de Flore', amenity: 'cafe' });
  const a = f.node(30, -30), b = f.node(60, -30), d = f.node(60, -60);
  const unclosed = f.way([a, b, d], { building: 'yes' });
  const p = [f.node(-60, 30), f.node(-30, 60), f.node(-30, 30), f.node(-60, 60)];
  const bowtie = f.way([...p, p[0]], { building: 'yes' });
  const missingMember = f.relation([{ type: 'way', ref: 999_999, role: 'outer' }], { type: 'multipolygon', building: 'yes' });
  const missingNodeWay = f.way([f.node(-100, -8), 888_888, f.node(-100, -40)], { highway: 'footway' });
  const strayWay = f.way([f.node(90, -90), f.node(120, -90)], { highway: 'footway' });
  return {
    fixture: f, bytes: f.xml(), crossingNode, crossingWay, crossingWayNode: n100, northArm, sidewalkWays: [swL, swR],
    courtyardBuilding, courtyardCentre: [28, 28], bakery, overreachingBuilding, unclosed, bowtie, missingMember, missingNodeWay, strayWay,
  };
}

/** What {@link stepsAndRamp} made: the file, and the ids of the flight of steps and the ramp. */
export interface StepsAndRamp {
  bytes: Uint8Array;
  stepsWay: number;
  rampWay: number;
}

/**
 * Two parallel streets 60 m apart (Rue Basse at y = 0, Rue Haute at y = 60, x −140…140 m) joined by a
 * flight of steps (`highway=steps`, "Escalier du Test") at x = −40, meeting both streets at exactly
 * right angles, and a footway ramp in the east (x 60 → 90 → 60); origin 43.74, 7.42.
 */
export function stepsAndRamp(): StepsAndRamp {
  const f = new OsmFixture(43.74, 7.42);
  const low = [f.node(-140, 0), f.node(-40, 0), f.node(60, 0), f.node(140, 0)];
  const high = [f.node(-140, 60), f.node(-40, 60), f.node(60, 60), f.node(140, 60)];
  f.way(low, { highway: 'residential', name: 'Rue Basse' });
  f.way(high, { highway: 'residential', name: 'Rue Haute' });
  const stepsWay = f.way([low[1], f.node(-40, 30), high[1]], { highway: 'steps', name: 'Escalier du Test' });
  const rampWay = f.way([low[2], f.node(90, 30), high[2]], { highway: 'footway', name: 'Rampe du Test' });
  return { bytes: f.xml(), stepsWay, rampWay };
}
