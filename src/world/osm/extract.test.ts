/**
 * Curbside OSM extracts (scenes/cities/*.json): cutting a selection out of a real file keeps what its
 * world is built from, so the extract's world is the original's (only `osm.source` differs), and a
 * damaged extract is refused naming the file and the field.
 */
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { extractSelection, isExtract } from './extract';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';
import type { OsmSelection } from './selection';

const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
/** A world as JSON without its source (the one field an extract's world may differ in). */
const withoutSource = (w: ReturnType<typeof buildOsmWorld>) => JSON.stringify({ ...w, osm: { ...w.osm!, source: undefined } });

describe('extractSelection', () => {
  const file = 'bristol_sausage_links.osm';
  const data = readOsm(readSharedData(`osm/${file}`), file);
  const selection: OsmSelection = { kind: 'centre', lat: 51.4594, lon: -2.5512, size: 160 };
  const extract = extractSelection(data, selection, file, '0123456789abcdef0123456789abcdef');
  const bytes = enc(extract);

  it('keeps fewer elements than the file, with the attribution and the source', () => {
    expect(isExtract(bytes)).toBe(true);
    expect(extract.attribution).toMatch(/OpenStreetMap contributors.*ODbL/);
    expect(extract.source).toEqual({ file, md5: '0123456789abcdef0123456789abcdef', selection });
    expect(extract.ways.length).toBeLessThan(data.ways.size);
    expect(extract.ways.length).toBeGreaterThan(20);
    for (let i = 1; i < extract.nodes.length; i++) expect(extract.nodes[i][0]).toBeGreaterThan(extract.nodes[i - 1][0]);
  });

  it('builds the same world as the original file, with its own selection by default', () => {
    const original = buildOsmWorld(data, { file, md5: '-', selection, seed: 3 });
    const fromExtract = buildOsmWorld(readOsm(bytes, 'bristol.json'), { file: 'bristol.json', md5: '-', selection: { kind: 'file' }, seed: 3 });
    expect(fromExtract.osm!.source.selection).toEqual(selection);
    expect(fromExtract.osm!.source.file).toBe('bristol.json');
    expect(withoutSource(fromExtract)).toBe(withoutSource(original));
  }, 60_000);

  it('refuses a damaged extract naming the file and the field', () => {
    expect(() => readOsm(enc({ ...extract, version: 2 }), 'c.json')).toThrow(/^c\.json: not a valid curbside-osm-extract file: version: /);
    expect(() => readOsm(enc({ ...extract, ways: [[1, [2, 'x'], {}]] }), 'c.json')).toThrow(/^c\.json: not a valid curbside-osm-extract file: ways\.0\.1\.1: /);
    expect(() => readOsm(bytes.subarray(0, 500), 'c.json')).toThrow(/^c\.json: not valid JSON/);
  });
});
