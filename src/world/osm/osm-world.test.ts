/**
 * Worlds from small OSM files made in the test (test/osm-fixture.ts, issue "Real places"): a
 * crossroads with a crossing node, a crossing way, a road whose sidewalks are separate ways, a
 * building with a courtyard, a building over the sidewalk, broken rings and a relation with a
 * missing member, ways that leave the selection or name missing nodes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { crossroads, type Crossroads } from '../../../test/osm-fixture';
import { expectValidWorld } from '../../../test/world-invariants';
import { multiPolygonArea } from '../geometry';
import { union } from '../clipping';
import { geodeticToWorld, worldToGeodetic } from '../georef';
import { worldInventory, type WorldInventory } from '../inventory';
import { zoneAt } from '../queries';
import type { World } from '../world';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';

let fx: Crossroads;
let world: World;
let inv: WorldInventory;
const FILE = 'crossroads.osm';
const build = (seed = 0) => buildOsmWorld(readOsm(fx.bytes, FILE), { file: FILE, md5: 'test', selection: { kind: 'centre', lat: 48.85, lon: 2.35, size: 300 }, seed });
/** A fixture node's position in the world frame (the real projection, not the fixture's approximation). */
const at = (id: number): [number, number] => {
  const p = fx.fixture.positions.get(id)!;
  const q = geodeticToWorld(world.osm!.source.georeference, { ...p, height: 0 });
  return [q[0], q[1]];
};

beforeAll(() => {
  fx = crossroads();
  world = build();
  inv = worldInventory(world);
});

describe('an OSM crossroads becomes a world', () => {
  it('keeps the world invariants (connected network, convex obstacles, no building on walkable ground)', () => {
    expectValidWorld(world, inv, FILE);
    expect(world.osm!.source).toMatchObject({ file: FILE, md5: 'test', selection: { kind: 'centre', lat: 48.85, lon: 2.35, size: 300 } });
    expect(world.osm!.source.attribution).toMatch(/OpenStreetMap contributors.*ODbL/);
  });

  it('names streets from the file (UTF-8), and marks generated names', () => {
    const real = inv.streets.filter((s) => !s.generated).map((s) => s.name);
    expect(new Set(real)).toEqual(new Set(['Rue Émile Zola', 'Hauptstraße']));
    for (const s of inv.streets.filter((x) => x.generated)) expect(real).not.toContain(s.name);
  });

  it('clips ways at the selection edge: streets reach the edge and never pass it', () => {
    let maxX = -Infinity;
    for (const st of world.network.streets) {
      for (const [x, y] of st.centreline) {
        expect(Math.abs(x)).toBeLessThanOrEqual(150 + 1e-6);
        expect(Math.abs(y)).toBeLessThanOrEqual(150 + 1e-6);
        maxX = Math.max(maxX, x);
      }
    }
    expect(maxX).toBeCloseTo(150, 6);
  });

  it('puts crosswalks at the crossing node and where the crossing way meets the road', () => {
    expect(world.osm!.summary.crosswalksMapped).toBe(2);
    for (const id of [fx.crossingNode, fx.crossingWayNode]) {
      const [x, y] = at(id);
      const near = world.crosswalks.filter((c) => Math.hypot(c.centre[0] - x, c.centre[1] - y) < 0.05);
      expect(near.length, `crosswalk at node ${id}`).toBe(1);
      expect(zoneAt(world, x, y)).toBe('crosswalk');
      // WGS84: the crosswalk's centre is the crossing node's position, to 1 cm.
      const g = worldToGeodetic(world.osm!.source.georeference, [near[0].centre[0], near[0].centre[1], 0]);
      const p = fx.fixture.positions.get(id)!;
      const back = geodeticToWorld(world.osm!.source.georeference, { lat: p.lat, lon: p.lon, height: 0 });
      const again = geodeticToWorld(world.osm!.source.georeference, g);
      expect(Math.hypot(back[0] - again[0], back[1] - again[1])).toBeLessThan(0.01);
    }
    // The crossing way itself is no street: its road part is the crosswalk.
    expect(world.osm!.streets.some((s) => s.ways.includes(fx.crossingWay))).toBe(false);
    expect(world.curbRamps.length).toBe(2 * world.crosswalks.length);
  });

  it('a road whose sidewalks are separate ways gets none of its own: the separate ways are walked, joined to the curb', () => {
    const arm = world.network.streets.filter((_, i) => world.osm!.streets[i].ways.includes(fx.northArm));
    expect(arm.length).toBeGreaterThan(0);
    for (const st of arm) {
      for (const side of [st.profile.left, st.profile.right]) {
        // No sidewalk of its own: only the strip from the curb to the separate way (5 m from the centreline).
        expect(side.verge).toBe(0);
        expect(side.sidewalk).toBeGreaterThan(0);
        expect(st.profile.roadHalfWidth + side.curb + side.sidewalk).toBeLessThan(4.5);
        expect(st.profile.roadHalfWidth + side.curb + side.sidewalk).toBeGreaterThan(4.0);
      }
    }
    expect(world.osm!.summary.separateSidewalkSides).toBe(2);
    // The separate ways are footways named after their road.
    for (const way of fx.sidewalkWays) expect(world.osm!.streets.find((s) => s.ways.includes(way))).toMatchObject({ highway: 'footway', name: 'Hauptstraße' });
    for (const x of [-5, 5]) {
      expect(zoneAt(world, x, 60)).toBe('sidewalk');
      expect(world.nav.nodes.some(([nx, ny]) => Math.hypot(nx - x, ny - 60) < 2)).toBe(true);
    }
  });

  it('builds the courtyard building from its multipolygon: the courtyard stays open, the pieces cover the rest', () => {
    const label = world.osm!.buildings.find((b) => b.osmId === `relation/${fx.courtyardBuilding}`)!;
    expect(label.objectIds.length).toBeGreaterThan(1);
    const pieces = label.objectIds.map((id) => world.obstacles[id]);
    expect(pieces.every((o) => o.kind === 'building')).toBe(true);
    const area = multiPolygonArea(union(...pieces.map((o) => [{ outer: o.footprint, holes: [] }])));
    const sum = pieces.reduce((s, o) => s + multiPolygonArea([{ outer: o.footprint, holes: [] }]), 0);
    expect(Math.abs(area - sum) / sum, 'pieces overlap').toBeLessThan(1e-6);
    expect(Math.abs(area - (40 * 40 - 10 * 10)) / 1500).toBeLessThan(0.01);
    expect(zoneAt(world, fx.courtyardCentre[0], fx.courtyardCentre[1])).not.toBe('building');
    expect(zoneAt(world, 15, 28)).toBe('building');
    // building:levels=4 × 3.2 m storeys (+ 1 m roof).
    for (const o of pieces) expect(o.height).toBeCloseTo(4 * 3.2 + 1, 6);
  });

  it('takes shops from nodes and from buildings’ own tags, with their real names, kinds and addresses', () => {
    const bakery = inv.landmarks.find((l) => l.name === 'Boulangerie Müller')!;
    expect(bakery.osm).toEqual({ id: `node/${fx.bakery}`, kind: 'shop=bakery' });
    expect(bakery.address).toBe('12 Rue Émile Zola');
    const cafe = inv.landmarks.find((l) => l.name === 'Café de Flore')!;
    expect(cafe.osm).toEqual({ id: `way/${fx.overreachingBuilding}`, kind: 'amenity=cafe' });
  });

  it('cuts a building back to the building line where it reaches over a sidewalk', () => {
    const label = world.osm!.buildings.find((b) => b.osmId === `way/${fx.overreachingBuilding}`)!;
    const pieces = label.objectIds.map((id) => world.obstacles[id]);
    // Hauptstraße south: 2.75 m half carriageway, 0.3 curb, 0.5 verge, 2 m sidewalk, 0.4 frontage.
    const east = Math.max(...pieces.flatMap((o) => o.footprint.map((v) => v[0])));
    expect(east).toBeLessThan(-5.9);
    expect(east).toBeGreaterThan(-6.1);
    for (const o of pieces) expect(o.height).toBe(20);
  });

  it('reports what it skipped, by OSM id: broken rings, missing members, missing nodes, ways off the network', () => {
    const s = world.osm!.summary;
    const skipped = new Map(s.buildingsSkipped.map((b) => [b.id, b.why]));
    expect(skipped.get(`way/${fx.unclosed}`)).toMatch(/not closed/);
    expect(skipped.get(`way/${fx.bowtie}`)).toMatch(/intersect/);
    expect(skipped.get(`relation/${fx.missingMember}`)).toMatch(/missing/);
    expect(s.waysMissingNodes).toEqual([fx.missingNodeWay]);
    expect(s.waysDisconnected).toEqual([fx.strayWay]);
  });

  it('WGS84: every node round-trips to 1 cm, and distances match the geodesic to 0.05 %', () => {
    const g = world.osm!.source.georeference;
    for (const [id, p] of fx.fixture.positions) {
      const q = geodeticToWorld(g, { ...p, height: 0 });
      const r = worldToGeodetic(g, q);
      const q2 = geodeticToWorld(g, r);
      expect(Math.hypot(q2[0] - q[0], q2[1] - q[1], q2[2] - q[2]), `node ${id}`).toBeLessThan(0.01);
      expect(Math.abs(r.lat - p.lat) * 111_000).toBeLessThan(0.01);
    }
    // Across the selection: south-west to north-east corners of the far buildings, ~170 m.
    const a = fx.fixture.positions.get(fx.strayWay - 2)!, b = fx.fixture.positions.get(fx.bakery)!;
    const pa = geodeticToWorld(g, { ...a, height: 0 }), pb = geodeticToWorld(g, { ...b, height: 0 });
    const plane = Math.hypot(pb[0] - pa[0], pb[1] - pa[1]);
    const geodesic = vincentyDistance(a.lat, a.lon, b.lat, b.lon);
    expect(geodesic).toBeGreaterThan(100);
    expect(Math.abs(plane - geodesic) / geodesic).toBeLessThan(0.0005);
  });

  it('is byte-identical for the same file, selection and seed; the seed changes only what OSM does not say', () => {
    const again = build();
    expect(JSON.stringify(again) === JSON.stringify(world)).toBe(true);
    const other = build(7);
    expect(JSON.stringify(other.network)).toBe(JSON.stringify(world.network));
    expect(JSON.stringify(other) === JSON.stringify(world)).toBe(false);
  });
});

/** Vincenty's inverse formula on WGS84 (Vincenty 1975, Survey Review 23(176)): geodesic distance, metres. */
function vincentyDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = 6_378_137, f = 1 / 298.257223563, b = a * (1 - f);
  const rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad)), U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const [sU1, cU1, sU2, cU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L, sinS = 0, cosS = 0, sigma = 0, cos2A = 0, cos2Sm = 0;
  for (let i = 0; i < 100; i++) {
    const sl = Math.sin(lambda), cl = Math.cos(lambda);
    sinS = Math.hypot(cU2 * sl, cU1 * sU2 - sU1 * cU2 * cl);
    cosS = sU1 * sU2 + cU1 * cU2 * cl;
    sigma = Math.atan2(sinS, cosS);
    const sinA = (cU1 * cU2 * sl) / sinS;
    cos2A = 1 - sinA * sinA;
    cos2Sm = cosS - (2 * sU1 * sU2) / cos2A;
    const C = (f / 16) * cos2A * (4 + f * (4 - 3 * cos2A));
    const prev = lambda;
    lambda = L + (1 - C) * f * sinA * (sigma + C * sinS * (cos2Sm + C * cosS * (-1 + 2 * cos2Sm * cos2Sm)));
    if (Math.abs(lambda - prev) < 1e-13) break;
  }
  const u2 = (cos2A * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const dS = B * sinS * (cos2Sm + (B / 4) * (cosS * (-1 + 2 * cos2Sm * cos2Sm) - (B / 6) * cos2Sm * (-3 + 4 * sinS * sinS) * (-3 + 4 * cos2Sm * cos2Sm)));
  return b * A * (sigma - dS);
}
