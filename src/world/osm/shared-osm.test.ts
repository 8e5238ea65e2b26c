/**
 * Worlds from the three real OSM files in ../shared/data/osm (small selections; the 800 m Monaco
 * world is a benchmark): the invariants every world keeps, and the real names of each place.
 */
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { expectValidWorld } from '../../../test/world-invariants';
import { worldInventory } from '../inventory';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';

/** The places the tests (and the docs' examples) use. */
const PLACES = [
  { file: 'monaco.osm.pbf', lat: 43.7396, lon: 7.4278, size: 300, streets: ['Place du Casino', 'Avenue des Spélugues', 'Avenue de Monte-Carlo'], places: ['Hôtel de Paris', 'Casino de Monte Carlo'] },
  { file: 'borough_sausage_links.osm', lat: 51.5008, lon: -0.0927, size: 320, streets: ['Borough High Street', 'Marshalsea Road', 'Tabard Street'], places: ['Simply Indian'] },
  { file: 'bristol_sausage_links.osm', lat: 51.4594, lon: -2.5512, size: 300, streets: ['Church Road', 'Chalks Road', 'Blackswarth Road'], places: ['The Fire Engine', 'Sklep Euro UK'] },
];

describe.each(PLACES)('$file, $size m about ($lat, $lon)', (p) => {
  const world = buildOsmWorld(readOsm(readSharedData(`osm/${p.file}`), p.file), { file: p.file, md5: '-', selection: { kind: 'centre', lat: p.lat, lon: p.lon, size: p.size }, seed: 0 });
  const inv = worldInventory(world);

  it('keeps the world invariants', () => {
    expectValidWorld(world, inv, p.file);
    expect(world.crosswalks.length).toBeGreaterThan(10);
    expect(world.obstacles.filter((o) => o.kind === 'building').length).toBeGreaterThan(50);
  }, 60_000);

  it('has the real street and place names of the file', () => {
    const streets = new Set(inv.streets.filter((s) => !s.generated).map((s) => s.name));
    for (const s of p.streets) expect(streets.has(s), `${p.file} lacks street ${s}`).toBe(true);
    const places = new Map(inv.landmarks.map((l) => [l.name, l]));
    for (const n of p.places) {
      expect(places.get(n), `${p.file} lacks landmark ${n}`).toBeDefined();
      expect(places.get(n)!.osm!.id).toMatch(/^(node|way|relation)\/\d+$/);
    }
    expect(world.osm!.summary.crosswalksMapped).toBeGreaterThan(0);
  });
});
