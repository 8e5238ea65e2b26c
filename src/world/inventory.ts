/**
 * The inventory of a generated world (issue 16): every named street, intersection, crosswalk,
 * landmark and object, and the pedestrian network with its widths, as plain JSON that tasks, suites
 * and ground truth read (`npm run world -- --seed K --json OUT.json`). World frame, metres, z up
 * (positions are ground-plane [x, y]), rounded to the millimetre; deterministic per seed and size.
 */
import type { Vec2 } from './geometry';
import type { JunctionKind } from './network';
import type { ObjectKind } from './objects';
import { namedStreetLine, STATUE_FIGURES, worldNames } from './names';
import { createRng } from '../core/random';
import { polylineLength, projectOnPolyline } from './polyline';
import { walkableExtent } from './queries';
import { BoxGrid } from './spatial-index';
import type { OsmWorldSource, OsmWorldSummary } from './osm/world-data';
import type { World } from './world';

export const INVENTORY_FORMAT = 'curbside-world-inventory';
export const INVENTORY_VERSION = 1;

/** Landmark kinds: places an agent can be sent to by name. */
export type LandmarkKind = 'storefront' | 'bus-stop' | 'kiosk' | 'statue' | 'fountain';

/** An object of the world with its name (where it has one) and the street it stands on. */
export interface InventoryObject {
  /** `StaticObject.id`. */
  id: number;
  kind: ObjectKind;
  /** Storefront sign text, a bus stop's name, a building's address (buildings facing no sidewalk have no shop); null for unnamed furniture. */
  name: string | null;
  position: Vec2;
  /** Heading of the long axis, rad from +x, CCW. */
  yaw: number;
  height: number;
  /** Named street it belongs to, or null (roundabout islands). */
  street: string | null;
  /** Side of that street's polyline it stands on, or null. */
  side: 'left' | 'right' | null;
}

/** A place an agent can be sent to by name: a storefront, a bus stop, a kiosk, a statue or a fountain. */
export interface Landmark {
  /** The object's id (`InventoryObject.id`). */
  id: number;
  kind: LandmarkKind;
  name: string;
  position: Vec2;
  street: string;
  /** "12 Oak Street" for buildings; null for the others. */
  address: string | null;
  /**
   * Where a pedestrian reaches it: the middle of a storefront's facade (its footprint's extreme
   * point towards the street), the centre of the others.
   */
  entrance: Vec2;
  /** The pedestrian-network node closest to the entrance (`network.nodes` index) and its distance, metres. */
  node: number;
  nodeDistance: number;
  /** Worlds from OSM: the feature it came from (`node/123`, `way/45`) and its OSM kind (`shop=bakery`, `highway=bus_stop`). */
  osm?: { id: string; kind: string };
}

/** The inventory file (`format: curbside-world-inventory`, version 1). */
export interface WorldInventory {
  format: typeof INVENTORY_FORMAT;
  version: typeof INVENTORY_VERSION;
  seed: number;
  size: number;
  /** Worlds from OSM: the file (as given, md5), selection, georeference, attribution, and what the build skipped. */
  osm?: { source: OsmWorldSource; summary: OsmWorldSummary };
  /** `generated`: worlds from OSM, a street OSM leaves unnamed (its name is made up). */
  streets: { id: number; name: string; segments: number[]; closed: boolean; length: number; polyline: Vec2[]; generated?: boolean }[];
  intersections: { id: number; kind: JunctionKind; position: Vec2; streets: string[] }[];
  crosswalks: { id: number; position: Vec2; street: string; width: number }[];
  landmarks: Landmark[];
  objects: InventoryObject[];
  /** Objects per kind. */
  counts: Partial<Record<ObjectKind, number>>;
  /**
   * The pedestrian network (the navigation graph, SidewalkBench's nav graph): nodes [x, y] and
   * undirected edges with their length and the walkable width across the edge at its midpoint
   * (probed every 5 cm, at most 8 m each way).
   */
  network: { nodes: Vec2[]; edges: { a: number; b: number; kind: 'sidewalk' | 'crosswalk'; length: number; width: number }[] };
}

/**
 * Farthest a landmark's entrance may be from a pedestrian-network node, metres: a building facing no
 * sidewalk of the network has no shop, a bus shelter off it is not a landmark.
 */
export const LANDMARK_REACH = 10;

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const p3 = (p: readonly number[]): Vec2 => [r3(p[0]), r3(p[1])];

/** Walkable width across the segment a–b at its midpoint, metres (probes every 5 cm up to 8 m each way). */
function widthAt(world: World, a: Vec2, b: Vec2): number {
  const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const { left, right } = walkableExtent(world, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], [-(b[1] - a[1]) / l, (b[0] - a[0]) / l], 8);
  return left + right;
}

/** The landmark kind of each furniture kind that is one. */
const LANDMARK_OF: Partial<Record<ObjectKind, LandmarkKind>> = { busShelter: 'bus-stop', kiosk: 'kiosk', statue: 'statue', fountain: 'fountain' };

/**
 * The name of a landmark furniture object on `street`: "Oak Way bus stop", "Oak Way kiosk", "Oak Way
 * Fountain", "Statue of Ada Lovelace" (the figure drawn from the object's own stream among those no
 * earlier statue of the world honours, while any remain; `honoured` collects them); null for other
 * furniture.
 */
function furnitureName(o: { id: number; kind: ObjectKind }, street: string, seed: number, honoured: Set<string>): string | null {
  switch (o.kind) {
    case 'busShelter': return `${street} bus stop`;
    case 'kiosk': return `${street} kiosk`;
    case 'fountain': return `${street} Fountain`;
    case 'statue': {
      const free = STATUE_FIGURES.filter((f) => !honoured.has(f));
      const figure = createRng(seed).fork(`statue${o.id}`).pick(free.length > 0 ? free : STATUE_FIGURES);
      honoured.add(figure);
      return `Statue of ${figure}`;
    }
    default: return null;
  }
}

/** The inventory of `world` (see {@link WorldInventory}). */
export function worldInventory(world: World): WorldInventory {
  const names = worldNames(world);
  const streetName = (networkStreetId: number): string | null => {
    const id = names.streetOf.get(networkStreetId);
    return id === undefined ? null : names.streets[id].name;
  };
  const addressOf = new Map(names.addresses.map((a) => [a.objectId, a]));
  /** "12 Oak Way": the house number and the street it is on (OSM: `addr:street` where the world has it), or null without a number. */
  const addressText = (a: (typeof names.addresses)[number]): string | null => (a.houseNumber !== null ? `${a.houseNumber} ${names.streets[a.street].name}` : null);
  const sideOf = (o: World['obstacles'][number]): 'left' | 'right' | null => {
    const a = addressOf.get(o.id);
    if (a) return a.side;
    const id = names.streetOf.get(o.streetId);
    if (id === undefined) return null;
    const best = projectOnPolyline(names.streets[id].polyline, o.centre[0], o.centre[1]);
    return best.side > 0 ? 'left' : 'right';
  };
  const honoured = new Set<string>();
  // A real place's mapped furniture: a bus stop keeps its OSM name (a pole as much as a shelter).
  const mapped = new Map((world.osm?.furniture ?? []).map((l) => [l.objectId, l]));
  const isBusStop = (id: number) => mapped.get(id)?.tag === 'highway=bus_stop';
  const objects: InventoryObject[] = world.obstacles.map((o) => {
    const street = streetName(o.streetId);
    const a = addressOf.get(o.id);
    const osmName = mapped.get(o.id)?.name ?? null;
    const name = a ? (a.shop ?? addressText(a)) : osmName ?? (street ? (isBusStop(o.id) ? `${street} bus stop` : furnitureName(o, street, world.seed, honoured)) : null);
    return { id: o.id, kind: o.kind, name, position: p3(o.centre), yaw: r3(o.yaw), height: r3(o.height), street, side: street ? sideOf(o) : null };
  });
  // Named furniture (bus stops, kiosks, fountains, statues) sharing a name gets numbers when there are several.
  const named = new Map<string, InventoryObject[]>();
  for (const o of objects) if ((o.kind in LANDMARK_OF || isBusStop(o.id)) && o.name) named.set(o.name, [...(named.get(o.name) ?? []), o]);
  for (const group of named.values()) if (group.length > 1) group.forEach((o, k) => { o.name = `${o.name} ${k + 1}`; });

  const byId = new Map(world.obstacles.map((o) => [o.id, o]));
  const nodes = new BoxGrid<number>(LANDMARK_REACH);
  world.nav.nodes.forEach(([x, y], i) => nodes.insert([x, y, x, y], i));
  /** The network node nearest to `p` within LANDMARK_REACH, or null. */
  const nearestNode = (p: Vec2): { node: number; nodeDistance: number } | null => {
    let best: { node: number; nodeDistance: number } | null = null;
    for (const i of nodes.query([p[0] - LANDMARK_REACH, p[1] - LANDMARK_REACH, p[0] + LANDMARK_REACH, p[1] + LANDMARK_REACH]).sort((a, b) => a - b)) {
      const d = Math.hypot(world.nav.nodes[i][0] - p[0], world.nav.nodes[i][1] - p[1]);
      if (d <= LANDMARK_REACH && (!best || d < best.nodeDistance)) best = { node: i, nodeDistance: d };
    }
    return best && { node: best.node, nodeDistance: r3(best.nodeDistance) };
  };
  const osmPlaceOf = new Map((world.osm?.buildings ?? []).filter((b) => b.place).map((b) => [b.objectIds[0], b.place!]));
  const landmarks: Landmark[] = objects.flatMap((o): Landmark[] => {
    const a = addressOf.get(o.id);
    const src = byId.get(o.id)!;
    if (a?.shop && o.street) {
      // The facade's middle: the footprint's farthest extent along the outward normal `front`.
      const reach = Math.max(...src.footprint.map(([x, y]) => (x - src.centre[0]) * src.front[0] + (y - src.centre[1]) * src.front[1]));
      const entrance = p3([src.centre[0] + src.front[0] * reach, src.centre[1] + src.front[1] * reach]);
      const near = nearestNode(entrance);
      const place = osmPlaceOf.get(o.id);
      // A real place's shop stands on its address's street (addr:street, or a named street beside it: names.ts nameOsmWorld).
      const street = world.osm ? names.streets[a.street].name : o.street;
      if (near) return [{ id: o.id, kind: 'storefront', name: a.shop, position: o.position, street, address: addressText(a), entrance, ...near, ...(place ? { osm: { id: place.osmId, kind: place.kind } } : {}) }];
      o.name = addressText(a); // faces no sidewalk of the network (a fork's island): no shop sign
      return [];
    }
    const label = mapped.get(o.id);
    const kind = isBusStop(o.id) ? 'bus-stop' : LANDMARK_OF[o.kind];
    const near = kind ? nearestNode(o.position) : null;
    if (kind && near && o.name && o.street) return [{ id: o.id, kind, name: o.name, position: o.position, street: o.street, address: null, entrance: o.position, ...near, ...(label ? { osm: { id: label.osmId, kind: label.tag } } : {}) }];
    return [];
  });
  const counts: Partial<Record<ObjectKind, number>> = {};
  for (const o of [...objects].sort((p, q) => (p.kind < q.kind ? -1 : p.kind > q.kind ? 1 : 0))) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
  return {
    format: INVENTORY_FORMAT,
    version: INVENTORY_VERSION,
    seed: world.seed,
    size: world.size,
    ...(world.osm ? { osm: { source: world.osm.source, summary: world.osm.summary } } : {}),
    streets: names.streets.map((s) => {
      return { id: s.id, name: s.name, segments: s.segments, closed: s.closed, length: r3(polylineLength(namedStreetLine(s))), polyline: s.polyline.map(p3), ...(s.generated ? { generated: true } : {}) };
    }),
    intersections: world.network.junctions
      .filter((j) => j.kind !== 'deadEnd' && j.kind !== 'bend')
      .map((j) => ({ id: j.id, kind: j.kind, position: p3(j.centre), streets: [...new Set(j.arms.map((a) => streetName(a.streetId)).filter((n): n is string => n !== null))].sort() })),
    crosswalks: world.crosswalks.map((c) => ({ id: c.id, position: p3(c.centre), street: streetName(c.streetId) ?? '', width: r3(c.width) })),
    landmarks,
    objects,
    counts,
    network: {
      nodes: world.nav.nodes.map(p3),
      edges: world.nav.edges.map((e) => ({ a: e.a, b: e.b, kind: e.kind, length: r3(e.length), width: r3(widthAt(world, world.nav.nodes[e.a], world.nav.nodes[e.b])) })),
    },
  };
}
