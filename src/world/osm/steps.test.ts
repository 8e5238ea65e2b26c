/**
 * Steps on a real place: two parallel streets joined by a flight of steps (`highway=steps`) at right
 * angles in the west and a footway ramp in the east (test/osm-fixture.ts stepsAndRamp). The flight
 * is found, walkable and on the pedestrian network; a graph route up the steps is flagged and one
 * along the street past their foot is not (src/bench/steps-routes.test.ts: the suites and
 * `npm run scenario` keep them off wheeled routes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stepsAndRamp } from '../../../test/osm-fixture';
import type { Vec2 } from '../geometry';
import { findRoute } from '../routes';
import { isWalkable } from '../queries';
import type { World } from '../world';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';
import { END_TRIM, stepsFlights, stepsLabel, stepsOnRoute } from './steps';
import type { OsmWorldRef } from './world-ref';

const FILE = 'steps.osm';
const ref: OsmWorldRef = { kind: 'osm', path: FILE, md5: '0'.repeat(32), selection: { kind: 'centre', lat: 43.74, lon: 7.42, size: 300 }, seed: 0, furniture: 'osm+generated' };
let world: World;
let stepsWay: number;

const nearestNode = (world: World, x: number, y: number): Vec2 => world.nav.nodes.reduce((a, b) => (Math.hypot(b[0] - x, b[1] - y) < Math.hypot(a[0] - x, a[1] - y) ? b : a));

beforeAll(() => {
  const fx = stepsAndRamp();
  stepsWay = fx.stepsWay;
  world = buildOsmWorld(readOsm(fx.bytes, FILE), { file: FILE, md5: ref.md5, selection: ref.selection, seed: 0 });
});

describe('steps on a real place', () => {
  it('finds the one flight with its way and name, walkable and on the pedestrian network', () => {
    const flights = stepsFlights(world);
    expect(flights).toHaveLength(1);
    expect(flights[0].ways).toEqual([stepsWay]);
    expect(stepsLabel(flights[0])).toBe(`the steps Escalier du Test (way/${stepsWay})`);
    const mid = flights[0].core[Math.floor(flights[0].core.length / 2)];
    expect(isWalkable(world, mid[0], mid[1])).toBe(true);
    expect(Math.min(...world.nav.nodes.map((p) => Math.hypot(p[0] - mid[0], p[1] - mid[1]))), 'a network node on the flight').toBeLessThan(1.5);
    // Its core starts END_TRIM beyond the streets' outer edges (5.95 m from each centreline: 2.75 m carriageway, 0.3 curb, 0.5 verge, 2 sidewalk, 0.4 frontage).
    const core = flights[0].core;
    expect(core[0][1]).toBeGreaterThan(5.95 + END_TRIM - 0.05);
    expect(core[0][1]).toBeLessThan(5.95 + END_TRIM + 0.05);
    expect(core[core.length - 1][1]).toBeGreaterThan(world.network.streets[0].centreline[0][1] + 59.8 - 5.95 - END_TRIM - 0.1);
  });

  it('flags a route up the steps, and not one along the street past their foot', () => {
    const up = findRoute(world, nearestNode(world, -40, 10), nearestNode(world, -40, 50));
    expect(up).not.toBeNull();
    expect(stepsOnRoute(world, up!.points)?.ways).toEqual([stepsWay]);
    const along = findRoute(world, nearestNode(world, -120, 6), nearestNode(world, 40, 6));
    expect(along).not.toBeNull();
    expect(Math.max(...along!.points.map((p) => p[1]))).toBeLessThan(12);
    expect(stepsOnRoute(world, along!.points)).toBeNull();
  });
});
