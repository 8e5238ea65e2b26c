/**
 * What every task family's generator reads from a world: the inventory (names, landmarks, objects,
 * intersections), the network's adjacency, and small geometric helpers (the side of the street a
 * point is on as seen walking, the travel direction at a waypoint). Built once per world.
 */
import type { Vec2 } from '../../world/geometry';
import { worldInventory, type Landmark, type WorldInventory } from '../../world/inventory';
import { navIndex, type NavNeighbour } from '../../world/nav-index';
import type { World } from '../../world/world';

/** Farthest a landmark's entrance may be from its waypoint for a task to target it, metres (seen and reached from the sidewalk). */
export const TARGET_REACH = 6;

/** A world prepared for task generation. */
export interface TaskWorld {
  world: World;
  inventory: WorldInventory;
  adj: readonly NavNeighbour[][];
  /** Landmarks a task may target: entrance within {@link TARGET_REACH} of the network, a unique name. */
  targets: Landmark[];
  /** Every name an answer may be confused with: landmark and named-object names. */
  names: string[];
}

/** Prepares `world` for task generation. */
export function taskWorld(world: World): TaskWorld {
  const inventory = worldInventory(world);
  const count = new Map<string, number>();
  for (const l of inventory.landmarks) count.set(l.name, (count.get(l.name) ?? 0) + 1);
  const targets = inventory.landmarks.filter((l) => l.nodeDistance <= TARGET_REACH && count.get(l.name) === 1);
  const names = [...new Set([...inventory.landmarks.map((l) => l.name), ...inventory.objects.flatMap((o) => (o.name ? [o.name] : []))])].sort();
  return { world, inventory, adj: navIndex(world.nav).adj, targets, names };
}

/** Direction of the edge a→b, rad from +x. */
export function edgeYaw(w: TaskWorld, a: number, b: number): number {
  const p = w.world.nav.nodes[a];
  const q = w.world.nav.nodes[b];
  return Math.atan2(q[1] - p[1], q[0] - p[0]);
}

/** Which side of a walker heading `yaw` at `at` the point `p` lies on. */
export function sideOf(at: Vec2, yaw: number, p: Vec2): 'left' | 'right' {
  const cross = Math.cos(yaw) * (p[1] - at[1]) - Math.sin(yaw) * (p[0] - at[0]);
  return cross >= 0 ? 'left' : 'right';
}

/** English ordinal of 1..10 ("first", "second", …). */
export function ordinal(n: number): string {
  return ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'][n] ?? `${n}th`;
}

/** The kind an OSM tag value names, as a person says it: `place_of_worship` → "place of worship". */
export function osmKindWord(kind: string): string {
  const value = kind.slice(kind.indexOf('=') + 1).replace(/_/g, ' ').toLowerCase();
  return value === 'yes' ? kind.slice(0, kind.indexOf('=')) : value;
}

/**
 * The lower-case kind of a landmark as a person says it ("bakery", "bus stop", "statue"); a real
 * place's from its OSM kind (`amenity=pharmacy` → "pharmacy", `shop=yes` → "shop").
 */
export function landmarkKindWord(l: Landmark): string {
  if (l.osm) return osmKindWord(l.osm.kind);
  if (l.kind === 'storefront') return l.name.split(' ').slice(1).join(' ').toLowerCase() || 'shop';
  return l.kind === 'bus-stop' ? 'bus stop' : l.kind;
}

/** Where a landmark is, as a task says it: its address ("12 Oak Street"), else its street. */
export function landmarkWhere(l: Landmark): string {
  return l.address ?? l.street;
}

/** A landmark as a task names it: "Rossi Bakery, the bakery at 12 Oak Street", "Spar, the supermarket on Avenue de Grande-Bretagne". */
export function describeLandmark(l: Landmark): string {
  return l.address ? `${l.name}, the ${landmarkKindWord(l)} at ${l.address}` : `${l.name}, the ${landmarkKindWord(l)} on ${l.street}`;
}
