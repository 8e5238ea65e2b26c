import { beforeAll, describe, expect, it } from 'vitest';
import { CONTINUATION_DEG, nameWorld } from './names';
import { LANDMARK_REACH, worldInventory, type WorldInventory } from './inventory';
import { polylineLength } from './polyline';
import { isWalkable } from './queries';
import { generateWorld, type World } from './world';

const SEEDS = [1, 2, 3, 4];
const worlds = new Map<number, { world: World; inv: WorldInventory }>();

beforeAll(() => {
  for (const seed of SEEDS) {
    const world = generateWorld({ seed });
    worlds.set(seed, { world, inv: worldInventory(world) });
  }
}, 120_000);

describe('world names and inventory (4 seeds, 400 m)', () => {
  it('is byte-identical for the same seed, and differs between seeds', () => {
    const again = JSON.stringify(worldInventory(generateWorld({ seed: 1 })));
    expect(again).toBe(JSON.stringify(worlds.get(1)!.inv));
    expect(worlds.get(2)!.inv.streets.map((s) => s.name)).not.toEqual(worlds.get(1)!.inv.streets.map((s) => s.name));
  });

  it('names every network street exactly once, with distinct names, chained straight on through junctions', () => {
    for (const seed of SEEDS) {
      const { world, inv } = worlds.get(seed)!;
      const segments = inv.streets.flatMap((s) => s.segments).sort((a, b) => a - b);
      expect(segments, `seed ${seed}`).toEqual(world.network.streets.map((s) => s.id).sort((a, b) => a - b));
      expect(new Set(inv.streets.map((s) => s.name)).size).toBe(inv.streets.length);
      // Consecutive segments of a named street meet at a junction; its length is theirs.
      const byId = new Map(world.network.streets.map((s) => [s.id, s]));
      for (const s of inv.streets) {
        const total = s.segments.reduce((acc, id) => acc + polylineLength(byId.get(id)!.centreline), 0);
        if (!s.closed) expect(Math.abs(s.length - total), `${s.name} length`).toBeLessThan(0.05);
        for (let i = 1; i < s.segments.length; i++) {
          const [a, b] = [byId.get(s.segments[i - 1])!, byId.get(s.segments[i])!];
          const shared = [a.startJunction, a.endJunction].filter((j) => j >= 0 && (j === b.startJunction || j === b.endJunction));
          expect(shared.length, `${s.name}: segments ${a.id} and ${b.id} do not meet`).toBeGreaterThan(0);
        }
      }
      // At every junction, arms sharing a name meet nearly straight on.
      for (const j of world.network.junctions) {
        const named = new Map<string, number>();
        for (const a of j.arms) {
          const name = inv.streets.find((s) => s.segments.includes(a.streetId))!.name;
          named.set(name, (named.get(name) ?? 0) + 1);
        }
        for (const [name, n] of named) if (!inv.streets.find((s) => s.name === name)!.closed) expect(n, `${name} at junction ${j.id}`).toBeLessThanOrEqual(2);
      }
    }
    expect(CONTINUATION_DEG).toBeLessThan(45);
  });

  it('addresses every building: odd numbers on the left, even on the right, increasing along the street, unique', () => {
    for (const seed of SEEDS) {
      const { world } = worlds.get(seed)!;
      const buildings = world.obstacles.filter((o) => o.kind === 'building');
      const names = nameWorld(world.network, buildings, world.seed);
      expect(names.addresses.length).toBe(buildings.filter((b) => names.streetOf.has(b.streetId)).length);
      const groups = new Map<string, typeof names.addresses>();
      for (const a of names.addresses) {
        expect(a.number % 2, `building ${a.objectId}`).toBe(a.side === 'left' ? 1 : 0);
        groups.set(`${a.street}:${a.side}`, [...(groups.get(`${a.street}:${a.side}`) ?? []), a]);
      }
      for (const g of groups.values()) {
        const bySpot = [...g].sort((p, q) => p.s - q.s || p.objectId - q.objectId);
        for (let i = 1; i < bySpot.length; i++) expect(bySpot[i].number).toBeGreaterThan(bySpot[i - 1].number);
      }
    }
  });

  it('lists every object once, counts by kind, and every landmark reachable from the pedestrian network', () => {
    for (const seed of SEEDS) {
      const { world, inv } = worlds.get(seed)!;
      expect(inv.objects.map((o) => o.id)).toEqual(world.obstacles.map((o) => o.id));
      expect(Object.values(inv.counts).reduce((a, b) => a + (b ?? 0), 0)).toBe(world.obstacles.length);
      expect(inv.landmarks.filter((l) => l.kind === 'storefront').length, `seed ${seed} storefronts`).toBeGreaterThan(30);
      const signs = inv.landmarks.map((l) => l.name);
      expect(new Set(signs).size, 'landmark names are distinct').toBe(signs.length);
      for (const l of inv.landmarks) {
        const n = inv.network.nodes[l.node];
        expect(Math.hypot(n[0] - l.entrance[0], n[1] - l.entrance[1])).toBeCloseTo(l.nodeDistance, 2);
        expect(l.nodeDistance).toBeLessThanOrEqual(LANDMARK_REACH);
        expect(isWalkable(world, n[0], n[1]), `${l.name}'s node`).toBe(true);
      }
      // Bus stops, kiosks and fountains are named after their street, statues after whom they honour.
      for (const o of inv.objects.filter((x) => x.kind === 'busShelter' && x.street)) expect(o.name).toMatch(new RegExp(`^${o.street} bus stop`));
      for (const o of inv.objects.filter((x) => x.kind === 'kiosk' && x.street)) expect(o.name).toMatch(new RegExp(`^${o.street} kiosk`));
      for (const o of inv.objects.filter((x) => x.kind === 'fountain' && x.street)) expect(o.name).toMatch(new RegExp(`^${o.street} Fountain`));
      for (const o of inv.objects.filter((x) => x.kind === 'statue' && x.street)) expect(o.name).toMatch(/^Statue of [A-Z][a-z]+( [A-Z][a-z]+)*$/);
      // Landmarks of every kind, each reachable (above), and countable bike racks.
      for (const kind of ['storefront', 'bus-stop', 'kiosk', 'statue', 'fountain'] as const) expect(inv.landmarks.some((l) => l.kind === kind), `seed ${seed}: a ${kind}`).toBe(true);
      expect(inv.counts.bikeRack ?? 0).toBeGreaterThan(0);
    }
  });

  it('gives every network edge its walkable width (> 0, at most 16 m) and every intersection its streets', () => {
    for (const seed of SEEDS) {
      const { world, inv } = worlds.get(seed)!;
      expect(inv.network.edges.length).toBe(world.nav.edges.length);
      for (const e of inv.network.edges) {
        expect(e.width).toBeGreaterThan(0.5);
        expect(e.width).toBeLessThanOrEqual(16.1);
      }
      for (const j of inv.intersections) expect(j.streets.length, `junction ${j.id}`).toBeGreaterThanOrEqual(j.kind === 'roundabout' ? 1 : 2);
    }
  });
});
