/**
 * Street furniture mapped in OSM becomes world objects (osm/furniture.ts): on a small file made in
 * the test (test/osm-fixture.ts: streetFurniture), every mapped kind, a bench on the sidewalk, a bus
 * stop mapped twice and one on the carriageway, a bench inside a building, and `--furniture`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { streetFurniture, type StreetFurniture } from '../../../test/osm-fixture';
import { expectValidWorld } from '../../../test/world-invariants';
import { intersection, union } from '../clipping';
import { multiPolygonArea, type Vec2 } from '../geometry';
import { geodeticToWorld } from '../georef';
import { worldInventory } from '../inventory';
import type { World } from '../world';
import { BUS_STOP_REACH, FURNITURE_REACH } from './furniture';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';
import type { FurnitureSource } from './world-data';

const FILE = 'furniture.osm';
let fx: StreetFurniture;
let world: World;
const build = (furniture?: FurnitureSource) => buildOsmWorld(readOsm(fx.bytes, FILE), { file: FILE, md5: 'test', selection: { kind: 'centre', lat: 45.76, lon: 4.83, size: 300 }, furniture });
const at = (id: number): Vec2 => {
  const q = geodeticToWorld(world.osm!.source.georeference, { ...fx.fixture.positions.get(id)!, height: 0 });
  return [q[0], q[1]];
};
/** The object a node became, and its label. */
const objectOf = (id: number) => {
  const label = world.osm!.furniture.find((l) => l.osmId === `node/${id}`);
  return label ? { label, o: world.obstacles[label.objectId] } : null;
};

beforeAll(() => {
  fx = streetFurniture();
  world = build();
});

describe('street furniture mapped in OSM', () => {
  it('keeps the world invariants, no object on walkable ground', () => {
    expectValidWorld(world, worldInventory(world), FILE);
  });

  it('makes each mapped node its kind of object, first in the obstacle list', () => {
    const kinds: [number, string][] = [[fx.lamp, 'lampPost'], [fx.bench, 'bench'], [fx.platform, 'busShelter'], [fx.mairie, 'busShelter'], [fx.tree, 'tree'], [fx.streetTree, 'tree'], [fx.bin, 'bin'], [fx.postBox, 'postBox'], [fx.bikeParking, 'bikeRack'], [fx.bollard, 'bollard']];
    for (const [id, kind] of kinds) expect(objectOf(id)?.o.kind, `node/${id}`).toBe(kind);
    expect(world.osm!.furniture.map((l) => l.objectId)).toEqual(world.osm!.furniture.map((_, k) => k));
    expect(world.osm!.summary.furnitureMapped).toBe(kinds.length);
    expect(objectOf(fx.lampOutside)).toBeNull();
  });

  it('stands where OSM maps it when that ground is free, else moves to the nearest free ground', () => {
    const lamp = objectOf(fx.lamp)!;
    expect(lamp.label.moved).toBe(0);
    expect(Math.hypot(lamp.o.centre[0] - at(fx.lamp)[0], lamp.o.centre[1] - at(fx.lamp)[1])).toBeLessThan(0.01);
    expect(lamp.o.zone).toBe('verge');
    const tree = objectOf(fx.tree)!;
    expect([tree.label.moved, tree.o.zone, tree.o.height]).toEqual([0, 'lot', 15]);
    expect(tree.o.radius).toBeCloseTo(1.2 / (2 * Math.PI), 6);
    const bench = objectOf(fx.bench)!;
    expect(bench.label.moved).toBeGreaterThan(0.5);
    expect(bench.label.moved).toBeLessThanOrEqual(FURNITURE_REACH);
    expect(objectOf(fx.bikeParking)!.o.footprint.length).toBe(4);
  });

  it('keeps a bus stop mapped twice once, moves one mapped on the carriageway to the kerb, and names both', () => {
    expect(objectOf(fx.stopPosition)).toBeNull();
    expect(world.osm!.summary.furnitureSkipped).toContainEqual({ id: `node/${fx.stopPosition}`, why: `the stop position of node/${fx.platform} (same stop)` });
    const mairie = objectOf(fx.mairie)!;
    expect(mairie.label.moved).toBeGreaterThan(FURNITURE_REACH);
    expect(mairie.label.moved).toBeLessThan(BUS_STOP_REACH);
    const inv = worldInventory(world);
    const stops = inv.landmarks.filter((l) => l.kind === 'bus-stop');
    expect(stops.map((l) => `${l.name} | ${l.street} | ${l.osm?.id} | ${l.osm?.kind}`).sort()).toEqual([
      `Mairie | Avenue des Tilleuls | node/${fx.mairie} | highway=bus_stop`,
      `Tilleuls | Avenue des Tilleuls | node/${fx.platform} | highway=bus_stop`,
    ]);
  });

  it('skips what finds no free ground, saying why', () => {
    expect(objectOf(fx.benchInBuilding)).toBeNull();
    expect(world.osm!.summary.furnitureSkipped).toContainEqual({ id: `node/${fx.benchInBuilding}`, why: `no free ground within ${FURNITURE_REACH} m (it stands on a building)` });
  });

  it('--furniture osm gives only the mapped objects; osm+generated fills around them, never on their ground', () => {
    const osmOnly = build('osm');
    expect(osmOnly.osm!.source.furniture).toBe('osm');
    expect(osmOnly.obstacles.filter((o) => o.kind !== 'building').length).toBe(world.osm!.summary.furnitureMapped);
    const generated = world.obstacles.slice(world.osm!.furniture.length).filter((o) => o.kind !== 'building');
    expect(generated.length).toBeGreaterThan(10);
    expect(generated.some((o) => o.kind === 'busShelter')).toBe(false);
    // No generated tree on the north kerb of the avenue's west piece, where OSM maps one; the south kerb gets them.
    const street = objectOf(fx.streetTree)!.o.streetId;
    const trees = generated.filter((o) => o.kind === 'tree' && o.streetId === street);
    expect(trees.filter((o) => o.centre[1] > 0)).toEqual([]);
    expect(trees.filter((o) => o.centre[1] < 0).length).toBeGreaterThanOrEqual(10);
    const mappedArea = union(...world.obstacles.slice(0, world.osm!.furniture.length).map((o) => [{ outer: o.footprint, holes: [] }]));
    const generatedArea = union(...generated.map((o) => [{ outer: o.footprint, holes: [] }]));
    expect(multiPolygonArea(intersection(mappedArea, generatedArea))).toBe(0);
  });
});
