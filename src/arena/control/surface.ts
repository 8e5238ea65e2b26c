/**
 * What the ground and the sky are like where the avatar stands, in UrbanGround's words: the
 * pedestrian-network surface under it (`surface` "Footway - Nathan Road", `on_sidewalk`), whether it
 * has overhead shelter from rain, and what is at a selected map point (`identify_location`).
 */
import type { Vec2 } from '../../world/geometry';
import type { World } from '../../world/world';
import type { WorldInventory } from '../../world/inventory';
import { obstaclesNear, zoneAt, type ZoneAt } from '../../world/queries';
import { pointRingDistance, pointInRing } from '../../core/geometry2d';
import { projectOnPolyline } from '../../world/polyline';

/** Surface kinds by zone: UrbanGround reports OpenStreetMap-like surface classes. */
const SURFACE_OF: Record<ZoneAt, string> = {
  sidewalk: 'Footway',
  frontage: 'Footway',
  verge: 'Verge',
  crosswalk: 'Crossing',
  road: 'Road',
  curb: 'Kerb',
  lot: 'Off network',
  building: 'Building',
  outside: 'Off map',
};

/** How near a bus shelter's roof (its footprint) one stands sheltered, metres. */
export const SHELTER_REACH = 0.6;

/** The surface under a point. */
export interface Surface {
  /** "Footway - Elm Street" (class and the nearest street; the class alone off the streets). */
  surface: string;
  /** On the pedestrian network: a sidewalk's clear path or a crosswalk (UrbanGround's `on_sidewalk`). */
  onSidewalk: boolean;
  /** The nearest named street, or null. */
  street: string | null;
  zone: ZoneAt;
}

/** The named street whose centreline passes nearest to `p`, and its distance, metres (null for a world without streets). */
export function nearestStreet(inventory: WorldInventory, p: Vec2): { name: string; distance: number } | null {
  let best: { name: string; distance: number } | null = null;
  for (const s of inventory.streets) {
    const line = s.closed ? [...s.polyline, s.polyline[0]] : s.polyline;
    if (line.length < 2) continue;
    const d = Math.abs(projectOnPolyline(line, p[0], p[1]).d);
    if (!best || d < best.distance) best = { name: s.name, distance: d };
  }
  return best;
}

/** The surface at `p` (see {@link Surface}). */
export function surfaceAt(world: World, inventory: WorldInventory, p: Vec2): Surface {
  const zone = zoneAt(world, p[0], p[1]);
  const street = zone === 'outside' || zone === 'building' ? null : (nearestStreet(inventory, p)?.name ?? null);
  const kind = SURFACE_OF[zone];
  return { surface: street && zone !== 'lot' ? `${kind} - ${street}` : kind, onSidewalk: zone === 'sidewalk' || zone === 'crosswalk', street, zone };
}

/**
 * Whether something overhead keeps rain off a person at `p`: a tree's canopy (within its radius of
 * the trunk) or a bus shelter's roof (within {@link SHELTER_REACH} of its footprint).
 */
export function hasOverheadShelter(world: World, p: Vec2): boolean {
  for (const o of obstaclesNear(world, p, 5)) {
    if (o.kind === 'tree' && o.canopyRadius > 0 && Math.hypot(p[0] - o.centre[0], p[1] - o.centre[1]) <= o.canopyRadius) return true;
    if (o.kind === 'busShelter' && (pointInRing(p[0], p[1], o.footprint) || pointRingDistance(p[0], p[1], o.footprint) <= SHELTER_REACH)) return true;
  }
  return false;
}

/**
 * What is at a selected map point: its surface and the nearest named place within 40 m (a
 * storefront, bus stop, kiosk, statue or fountain) with its address where it has one, e.g.
 * `Footway - Elm Street; nearest place: Rossi Bakery (storefront, 12 Elm Street), 8 m away`.
 */
export function describeLocation(world: World, inventory: WorldInventory, p: Vec2): string {
  const s = surfaceAt(world, inventory, p);
  let best: { name: string; detail: string; d: number } | null = null;
  for (const l of inventory.landmarks) {
    const d = Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]);
    if (d <= 40 && (!best || d < best.d)) best = { name: l.name, detail: l.address ? `${l.kind}, ${l.address}` : `${l.kind}, ${l.street}`, d };
  }
  return `${s.surface}${best ? `; nearest place: ${best.name} (${best.detail}), ${Math.round(best.d)} m away` : '; no named place within 40 m'}`;
}
