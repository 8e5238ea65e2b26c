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

/** What {@link streetFurniture} made: the file and the ids of its furniture nodes. */
export interface StreetFurniture {
  fixture: OsmFixture;
  bytes: Uint8Array;
  /** A street lamp in the north verge of the avenue (stays where mapped). */
  lamp: number;
  /** A bench mapped on the north sidewalk (moved off it). */
  bench: number;
  /** Bus stop "Tilleuls": its platform at the back of the south sidewalk, and its stop position on the carriageway (dropped). */
  platform: number;
  stopPosition: number;
  /** Bus stop "Mairie", mapped only as a stop position on the avenue's centreline (moved to the kerb). */
  mairie: number;
  /** A tree in the garden north of the avenue (`height=15`, `circumference=1.2`). */
  tree: number;
  /** A street tree in the avenue's north verge (no generated trees on that kerb then). */
  streetTree: number;
  bin: number;
  postBox: number;
  bikeParking: number;
  bollard: number;
  /** A bench mapped inside a building (skipped). */
  benchInBuilding: number;
  /** A street lamp outside a 300 m selection (ignored). */
  lampOutside: number;
}

/**
 * "Avenue des Tilleuls" (`highway=secondary`, 4 lanes: carriageway 12.8 m) west–east through
 * (45.76, 4.83), x −200…200 m, crossed by "Rue du Parc" (residential) at x = 100, a building north
 * of the avenue at x 60–90, y 12–30, and street furniture of every mapped kind.
 */
export function streetFurniture(): StreetFurniture {
  const f = new OsmFixture(45.76, 4.83);
  const j = f.node(100, 0);
  f.way([f.node(-200, 0), f.node(-60, 0), j, f.node(200, 0)], { highway: 'secondary', lanes: '4', name: 'Avenue des Tilleuls' });
  f.way([f.node(100, -200), j, f.node(100, 200)], { highway: 'residential', name: 'Rue du Parc' });
  f.ring([[60, 12], [90, 12], [90, 30], [60, 30]], { building: 'yes' });
  const made = {
    fixture: f,
    lamp: f.node(10, 7.1, { highway: 'street_lamp' }),
    bench: f.node(20, 8.5, { amenity: 'bench' }),
    platform: f.node(42, -9.3, { highway: 'bus_stop', name: 'Tilleuls', public_transport: 'platform' }),
    stopPosition: f.node(40, -2, { highway: 'bus_stop', name: 'Tilleuls', public_transport: 'stop_position' }),
    mairie: f.node(-60, 0.5, { highway: 'bus_stop', name: 'Mairie', public_transport: 'stop_position' }),
    tree: f.node(0, 30, { natural: 'tree', height: '15', circumference: '1.2' }),
    streetTree: f.node(-100, 7.1, { natural: 'tree' }),
    bin: f.node(-20, 8.8, { amenity: 'waste_basket' }),
    postBox: f.node(-30, -9.8, { amenity: 'post_box' }),
    bikeParking: f.node(-40, 14, { amenity: 'bicycle_parking', capacity: '10' }),
    bollard: f.node(-50, 7.1, { barrier: 'bollard' }),
    benchInBuilding: f.node(75, 20, { amenity: 'bench' }),
    lampOutside: f.node(-175, 7.1, { highway: 'street_lamp' }),
  };
  return { ...made, bytes: f.xml() };
}

/** What {@link plazas} made: the file and the ids of its pedestrian areas. */
export interface Plazas {
  bytes: Uint8Array;
  /** "Place du Marché" (closed way, `highway=pedestrian` `area=yes`), x −20…20, y 6…36, north of Marktgasse. */
  square: number;
  /** A multipolygon `area:highway=pedestrian`, x 50…90, y −40…−6.5, south of Marktgasse (0.55 m past its frontage), with a garden hole x 62…78, y −30…−18. */
  courtyard: number;
  /** A pedestrian area 60 m north of everything (reached by nothing). */
  island: number;
  /** A footway from the square's north edge to a dead end 30 m on (walked only through the square). */
  footway: number;
}

/**
 * "Marktgasse" (residential, x −150…150 at y = 0, a zebra crossing at x = 35) with pedestrian areas on both sides, one closed
 * way and one multipolygon with a hole, a footway that reaches the street only across the square, and
 * an area the network cannot reach; origin 47.37, 8.54.
 */
export function plazas(): Plazas {
  const f = new OsmFixture(47.37, 8.54);
  f.way([f.node(-150, 0), f.node(0, 0), f.node(35, 0, { highway: 'crossing', crossing: 'zebra' }), f.node(150, 0)], { highway: 'residential', name: 'Marktgasse' });
  const square = f.ring([[-20, 6], [20, 6], [20, 36], [-20, 36]], { highway: 'pedestrian', area: 'yes', name: 'Place du Marché' });
  const footway = f.way([f.node(0, 34), f.node(0, 64)], { highway: 'footway' });
  const outer = f.ring([[50, -40], [90, -40], [90, -6.5], [50, -6.5]]);
  const inner = f.ring([[62, -30], [78, -30], [78, -18], [62, -18]]);
  const courtyard = f.relation([{ type: 'way', ref: outer, role: 'outer' }, { type: 'way', ref: inner, role: 'inner' }], { type: 'multipolygon', 'area:highway': 'pedestrian' });
  const island = f.ring([[-100, 100], [-80, 100], [-80, 120], [-100, 120]], { highway: 'pedestrian', area: 'yes' });
  return { bytes: f.xml(), square, courtyard, island, footway };
}
