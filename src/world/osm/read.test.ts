/**
 * Reading OSM files and making selections (issue "Real places", bad input): both encodings of
 * the real shared files, and one clear line naming the file or option for every fault.
 */
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { OsmFixture } from '../../../test/osm-fixture';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';
import { parseBbox, parseLatLon, resolveSelection } from './selection';

const xml = (body: string) => new TextEncoder().encode(`<?xml version="1.0"?>\n<osm version="0.6">\n${body}\n</osm>\n`);

describe('readOsm', () => {
  it('reads the whole Monaco .osm.pbf: every node, way and relation, with UTF-8 tags', () => {
    const d = readOsm(readSharedData('osm/monaco.osm.pbf'), 'monaco.osm.pbf');
    // Counts from ../shared/data/osm/SOURCE.md.
    expect(d.nodes.size).toBe(180_118);
    expect(d.ways.size).toBe(27_377);
    expect(d.relations.size).toBe(212);
    expect(d.declaredBounds).toBe(true);
    expect(d.bounds!.minlat).toBeCloseTo(43.71, 1);
    const names = new Set([...d.ways.values()].map((w) => w.tags.name));
    expect(names.has('Avenue des Spélugues')).toBe(true);
  }, 60_000);

  it('reads OSM XML (Overpass export): nodes, ways with their node lists, relations with roles', () => {
    const d = readOsm(readSharedData('osm/bristol_sausage_links.osm'), 'bristol.osm');
    expect(d.nodes.size).toBeGreaterThan(500);
    const church = [...d.ways.values()].find((w) => w.tags.name === 'Church Road')!;
    expect(church.nodes.length).toBeGreaterThan(1);
    for (const n of church.nodes) expect(d.nodes.has(n)).toBe(true);
    expect([...d.relations.values()].some((r) => r.members.some((m) => m.role !== ''))).toBe(true);
    expect(d.declaredBounds).toBe(false);
  });

  it('refuses what is not OSM, truncated PBFs and broken XML with one line naming the file', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(() => readOsm(png, 'photo.png')).toThrow(/^photo\.png: not an OpenStreetMap file/);
    expect(() => readOsm(new TextEncoder().encode('{"type":"FeatureCollection"}'), 'x.geojson')).toThrow(/^x\.geojson: not an OpenStreetMap file/);
    const pbf = readSharedData('osm/monaco.osm.pbf');
    expect(() => readOsm(pbf.slice(0, 3), 'cut.osm.pbf')).toThrow(/^cut\.osm\.pbf: not an OpenStreetMap file/);
    for (const cut of [20, 5000, 800_000, pbf.length - 1]) {
      expect(() => readOsm(pbf.slice(0, cut), 'cut.osm.pbf'), `cut at ${cut}`).toThrow(/^cut\.osm\.pbf: (truncated|not a readable|corrupt)/);
    }
    expect(() => readOsm(new TextEncoder().encode('<?xml version="1.0"?><osm version="0.6"><node id="1" lat="1" lon="2"'), 'half.osm')).toThrow(/^half\.osm: /);
    expect(() => readOsm(xml(''), 'empty.osm')).toThrow(/^empty\.osm: holds no OSM nodes/);
    expect(() => readOsm(xml('<node id="1" lat="95" lon="2"/>'), 'bad.osm')).toThrow(/^bad\.osm: node 1 has an invalid position/);
  }, 60_000);
});

describe('selections', () => {
  const f = new OsmFixture(48.85, 2.35);
  const a = f.node(-400, -400), b = f.node(400, 400);
  f.way([a, b], { highway: 'residential' });
  const small = readOsm(f.xml(), 'small.osm');

  it('parse options, naming them when malformed', () => {
    expect(parseLatLon('43.7396,7.4278')).toEqual({ lat: 43.7396, lon: 7.4278 });
    expect(() => parseLatLon('43.7')).toThrow(/--centre/);
    expect(() => parseLatLon('95,7')).toThrow(/--centre/);
    expect(parseBbox('7.42,43.73,7.43,43.74')).toEqual({ west: 7.42, south: 43.73, east: 7.43, north: 43.74 });
    expect(() => parseBbox('7.43,43.73,7.42,43.74')).toThrow(/--bbox/);
  });

  it('a centre and size is a square about the centre, the georeference its origin', () => {
    const s = resolveSelection(small, { kind: 'centre', lat: 48.85, lon: 2.35, size: 300 }, 'small.osm');
    expect(s.bounds).toEqual([-150, -150, 150, 150]);
    expect(s.georeference).toEqual({ lat: 48.85, lon: 2.35, height: 0 });
  });

  it('without a selection the file’s extent is used when at most 2 km across, else it names the options to give', () => {
    const s = resolveSelection(small, { kind: 'file' }, 'small.osm');
    expect(s.bounds[2] - s.bounds[0]).toBeGreaterThan(790);
    expect(s.bounds[2] - s.bounds[0]).toBeLessThan(810);
    const monaco = readOsm(readSharedData('osm/monaco.osm.pbf'), 'monaco.osm.pbf');
    expect(() => resolveSelection(monaco, { kind: 'file' }, 'monaco.osm.pbf')).toThrow(/^monaco\.osm\.pbf: the file's bounds .* over 2 km across: give --centre LAT,LON --size M/);
  }, 60_000);

  it('refuses sizes out of 150–2000 m, boxes over 2 km, selections outside the file and empty ones', () => {
    expect(() => resolveSelection(small, { kind: 'centre', lat: 48.85, lon: 2.35, size: 100 }, 'small.osm')).toThrow(/--size 100: must be 150–2000/);
    expect(() => resolveSelection(small, { kind: 'centre', lat: 48.85, lon: 2.35, size: 2500 }, 'small.osm')).toThrow(/--size 2500/);
    expect(() => resolveSelection(small, { kind: 'bbox', west: 2.3, south: 48.8, east: 2.4, north: 48.9 }, 'small.osm')).toThrow(/^--bbox .* over 2 km across/);
    expect(() => resolveSelection(small, { kind: 'centre', lat: 10, lon: 10, size: 300 }, 'small.osm')).toThrow(/^small\.osm: the selection .* lies outside the file's extent/);
    // Inside the file, but no street passes through the corner.
    expect(() => buildOsmWorld(small, { file: 'small.osm', md5: '-', selection: { kind: 'centre', lat: 48.85 + 0.0027, lon: 2.35 - 0.0041, size: 150 }, seed: 0 })).toThrow(/^small\.osm: the selection .* holds no streets/);
  });
});
