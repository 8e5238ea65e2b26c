/**
 * Steps never on a wheeled robot's route (test/osm-fixture.ts stepsAndRamp: two streets joined by a
 * flight of steps and a footway ramp): `npm run scenario`'s builder refuses a route up the steps,
 * naming them, and the place's suites never draw one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stepsAndRamp } from '../../test/osm-fixture';
import type { Vec2 } from '../world/geometry';
import { buildOsmWorld } from '../world/osm/osm-world';
import { readOsm } from '../world/osm/read';
import { stepsOnRoute } from '../world/osm/steps';
import type { OsmWorldRef } from '../world/osm/world-ref';
import type { World } from '../world/world';
import { customScenario } from './custom-scenario';
import { osmSuite } from './osm-suite';

const ref: OsmWorldRef = { kind: 'osm', path: 'steps.osm', md5: '0'.repeat(32), selection: { kind: 'centre', lat: 43.74, lon: 7.42, size: 300 }, seed: 0, furniture: 'osm+generated' };
let world: World;
let stepsWay: number;
const nearestNode = (x: number, y: number): Vec2 => world.nav.nodes.reduce((a, b) => (Math.hypot(b[0] - x, b[1] - y) < Math.hypot(a[0] - x, a[1] - y) ? b : a));

beforeAll(() => {
  const fx = stepsAndRamp();
  stepsWay = fx.stepsWay;
  world = buildOsmWorld(readOsm(fx.bytes, ref.path), { file: ref.path, md5: ref.md5, selection: ref.selection, seed: 0 });
});

describe('steps off wheeled routes', () => {
  it('npm run scenario refuses a route over the steps, naming them', () => {
    expect(() => customScenario({ world, worldRef: ref, from: nearestNode(-40, 10), to: nearestNode(-40, 50), seed: 0 })).toThrow(`climbs the steps Escalier du Test (way/${stepsWay}), which a wheeled robot cannot`);
    // Between the same streets by the ramp: made.
    const { scenario } = customScenario({ world, worldRef: ref, from: nearestNode(75, 10), to: nearestNode(75, 50), seed: 0 });
    expect(stepsOnRoute(world, scenario.robot.route)).toBeNull();
  });

  it("the place's suites never put a route on the steps", () => {
    const suite = osmSuite(world, ref, 'steps', { perCategory: 6, perBehaviour: 1, longCount: 3 });
    expect(suite.scenarios.length).toBeGreaterThan(10);
    for (const s of suite.scenarios) expect(stepsOnRoute(world, s.robot.route), s.id).toBeNull();
  });
});
