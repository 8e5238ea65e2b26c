/**
 * Pedestrian areas become walkable ground crossed by the pedestrian network (osm/pedestrian-areas.ts),
 * on a small file made in the test (test/osm-fixture.ts: plazas): a square beside a street with a
 * footway reached only across it, a multipolygon with a hole, and an area nothing reaches.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { plazas, type Plazas } from '../../../test/osm-fixture';
import { expectValidWorld } from '../../../test/world-invariants';
import { intersection, union } from '../clipping';
import { multiPolygonArea, pointInRing, type Vec2 } from '../geometry';
import { worldInventory } from '../inventory';
import { zoneAt } from '../queries';
import type { World } from '../world';
import { buildOsmWorld } from './osm-world';
import { AREA_GROW, grownBy, isPedestrianArea } from './pedestrian-areas';
import { readOsm } from './read';

const FILE = 'plazas.osm';
let fx: Plazas;
let world: World;
const inBox = (x0: number, y0: number, x1: number, y1: number) => world.nav.nodes.filter(([x, y]) => x > x0 && x < x1 && y > y0 && y < y1);

beforeAll(() => {
  fx = plazas();
  world = buildOsmWorld(readOsm(fx.bytes, FILE), { file: FILE, md5: 'test', selection: { kind: 'centre', lat: 47.37, lon: 8.54, size: 300 } });
});

describe('pedestrian areas', () => {
  it('reads the tags: area=yes pedestrian/footway/path, area:highway, not indoors or underground', () => {
    expect(isPedestrianArea({ highway: 'pedestrian', area: 'yes' })).toBe(true);
    expect(isPedestrianArea({ 'area:highway': 'footway' })).toBe(true);
    expect(isPedestrianArea({ highway: 'pedestrian' })).toBe(false);
    expect(isPedestrianArea({ highway: 'residential', area: 'yes' })).toBe(false);
    expect(isPedestrianArea({ highway: 'pedestrian', area: 'yes', level: '-1' })).toBe(false);
  });

  it('keeps the world invariants', () => {
    expectValidWorld(world, worldInventory(world), FILE);
  });

  it('makes the square and the courtyard walkable, the courtyard’s hole not', () => {
    for (const p of [[0, 20], [-18, 34], [55, -35], [85, -12]] as Vec2[]) expect(zoneAt(world, p[0], p[1]), `${p}`).toBe('sidewalk');
    expect(zoneAt(world, 70, -24)).not.toBe('sidewalk');
    expect(world.osm!.summary.pedestrianAreas).toBe(2);
  });

  it('crosses each area with the network, joined to the street’s sidewalks: the footway beyond the square is reached', () => {
    expect(inBox(-19, 7, 19, 35).length).toBeGreaterThan(40);
    expect(inBox(51, -39, 89, -7).length).toBeGreaterThan(40);
    expect(inBox(-70, -70, 70, 300).some(([x, y]) => Math.abs(x) < 0.5 && y > 50)).toBe(true);
    // No network node in the courtyard's hole (x 62…78, y −30…−18, less the AREA_GROW the courtyard grows by).
    const g = AREA_GROW + 0.2;
    expect(world.nav.nodes.filter(([x, y]) => pointInRing(x, y, [[62 + g, -30 + g], [78 - g, -30 + g], [78 - g, -18 - g], [62 + g, -18 - g]]))).toEqual([]);
  });

  it('reports the area nothing reaches and leaves it out', () => {
    expect(world.osm!.summary.pedestrianAreasSkipped).toEqual([{ id: `way/${fx.island}`, why: 'not reached by the pedestrian network' }]);
    expect(zoneAt(world, -90, 110)).not.toBe('sidewalk');
  });

  it('no building stands on an area', () => {
    const buildings = union(...world.obstacles.filter((o) => o.kind === 'building').map((o) => [{ outer: o.footprint, holes: [] }]));
    expect(multiPolygonArea(intersection(buildings, world.zones.sidewalk))).toBeLessThan(1e-4);
  });

  it('grownBy grows a square by the margin on every side', () => {
    const sq = [{ outer: [[0, 0], [10, 0], [10, 10], [0, 10]] as Vec2[], holes: [] }];
    expect(multiPolygonArea(grownBy(sq, 1))).toBeCloseTo(144, 6);
  });
});
