/**
 * Invariants every world must keep, procedural or built from OpenStreetMap, as vitest assertions:
 * valid CCW zones and convex obstacles, one connected pedestrian network reaching every walkable
 * piece, no building or furniture on a sidewalk or crosswalk, and landmarks reachable from the network.
 */
import { expect } from 'vitest';
import { intersection, union } from '../src/world/clipping';
import { multiPolygonArea, orient, pointInMultiPolygon, polygonProblem, ringProblem, signedArea } from '../src/world/geometry';
import type { WorldInventory } from '../src/world/inventory';
import { largestComponent } from '../src/world/navgraph';
import type { World } from '../src/world/world';
import { ZONE_KINDS } from '../src/world/zones';

/** Asserts the invariants on `w` (and its inventory); `label` names the world in failures. */
export function expectValidWorld(w: World, inv: WorldInventory, label: string): void {
  for (const k of ZONE_KINDS) for (const p of w.zones[k]) expect(polygonProblem(p), `${label}: ${k} polygon`).toBeNull();
  for (const o of w.obstacles) {
    const f = o.footprint;
    expect(ringProblem(f), `${label}: obstacle ${o.id} (${o.kind})`).toBeNull();
    expect(signedArea(f), `${label}: obstacle ${o.id} is not CCW`).toBeGreaterThan(0);
    for (let i = 0; i < f.length; i++) expect(orient(f[i], f[(i + 1) % f.length], f[(i + 2) % f.length]), `${label}: obstacle ${o.id} is not convex`).toBeGreaterThan(0);
    expect(Number.isFinite(o.height) && o.height > 0, `${label}: obstacle ${o.id} height ${o.height}`).toBe(true);
  }
  // One connected pedestrian network, with a waypoint on every walkable piece.
  const { nodes } = w.nav;
  expect(nodes.length, `${label}: pedestrian network`).toBeGreaterThan(50);
  for (const [x, y] of nodes) expect(Number.isFinite(x) && Number.isFinite(y)).toBe(true);
  expect(largestComponent(w.nav).nodes.length, `${label}: pedestrian network not connected`).toBe(nodes.length);
  const walk = union(w.zones.sidewalk, w.zones.crosswalk);
  for (const p of walk) expect(nodes.some(([x, y]) => pointInMultiPolygon(x, y, [p])), `${label}: walkable piece without waypoint`).toBe(true);
  // No building or street furniture on a sidewalk or crosswalk.
  const buildings = union(...w.obstacles.filter((o) => o.kind === 'building').map((o) => [{ outer: o.footprint, holes: [] }]));
  expect(multiPolygonArea(intersection(buildings, walk)), `${label}: building on the walkable map`).toBeLessThan(1e-4);
  const furniture = union(...w.obstacles.filter((o) => o.kind !== 'building').map((o) => [{ outer: o.footprint, holes: [] }]));
  expect(multiPolygonArea(intersection(furniture, walk)), `${label}: street furniture on the walkable map`).toBeLessThan(1e-4);
  // Landmarks: an entrance within reach of a network waypoint.
  for (const l of inv.landmarks) {
    expect(l.node, `${label}: landmark ${l.name}`).toBeGreaterThanOrEqual(0);
    expect(l.node).toBeLessThan(nodes.length);
    expect(l.nodeDistance, `${label}: landmark ${l.name} is ${l.nodeDistance} m from the network`).toBeLessThan(15);
  }
}
