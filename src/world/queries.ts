/**
 * Point queries on a {@link World}: the zone of a ground point, walkability, ground height and
 * obstacles. Indices are built on first use and cached per world object (not serialised).
 */
import { boxOf, pointInRing, segmentSegmentDistance, type Box, type MultiPolygon, type Vec2 } from './geometry';
import type { StaticObject } from './objects';
import { BoxGrid, MultiPolygonIndex } from './spatial-index';
import type { World } from './world';
import { ZONE_KINDS, type ZonePolygons } from './zones';

/** What is at a ground point: a ground zone, a building footprint, an open lot behind the frontage, or outside the world. */
export type ZoneAt = keyof ZonePolygons | 'building' | 'lot' | 'outside';

/** Lazily built query structures of one world. */
export interface WorldIndex {
  zones: Record<keyof ZonePolygons, MultiPolygonIndex>;
  obstacles: BoxGrid<StaticObject>;
  /** Indices into `world.curbRamps` and `world.crosswalks`, by bounding box (so a point query tests the few nearby). */
  ramps: BoxGrid<number>;
  crosswalks: BoxGrid<number>;
}

const cache = new WeakMap<World, WorldIndex>();

/** The (cached) query index of a world. Mutating the world afterwards leaves the index stale. */
export function worldIndex(world: World): WorldIndex {
  let idx = cache.get(world);
  if (!idx) {
    const zones = {} as Record<keyof ZonePolygons, MultiPolygonIndex>;
    for (const k of ZONE_KINDS) zones[k] = new MultiPolygonIndex(world.zones[k]);
    const obstacles = new BoxGrid<StaticObject>(10);
    for (const o of world.obstacles) obstacles.insert(boxOf(o.footprint), o);
    const ramps = new BoxGrid<number>(10);
    world.curbRamps.forEach((r, i) => ramps.insert(boxOf(r.polygon), i));
    const crosswalks = new BoxGrid<number>(10);
    world.crosswalks.forEach((c, i) => {
      // The crosswalk's extent: ±width/2 along, −reachRight … reachLeft across (as groundHeight tests it).
      const corners: Vec2[] = [];
      for (const lon of [-c.width / 2, c.width / 2]) for (const lat of [-c.reachRight, c.reachLeft]) {
        corners.push([c.centre[0] + lon * c.along[0] + lat * c.across[0], c.centre[1] + lon * c.along[1] + lat * c.across[1]]);
      }
      const b = boxOf(corners);
      crosswalks.insert([b[0] - 1e-3, b[1] - 1e-3, b[2] + 1e-3, b[3] + 1e-3], i);
    });
    idx = { zones, obstacles, ramps, crosswalks };
    cache.set(world, idx);
  }
  return idx;
}

/** Zone lookup order (zones are disjoint; the order only matters on shared boundaries). */
const ORDER: (keyof ZonePolygons)[] = ['crosswalk', 'sidewalk', 'road', 'curb', 'verge', 'frontage'];

/** The zone at ground point (x, y), metres (world frame). Points on a boundary take either side. */
export function zoneAt(world: World, x: number, y: number): ZoneAt {
  const b = world.bounds;
  if (!(x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3])) return 'outside';
  const idx = worldIndex(world);
  for (const k of ORDER) if (idx.zones[k].contains(x, y)) return k;
  for (const o of idx.obstacles.query([x, y, x, y])) if (o.kind === 'building' && pointInRing(x, y, o.footprint)) return 'building';
  return 'lot';
}

/** Whether (x, y) is on walkable ground: a sidewalk (clear path) or a crosswalk. */
export function isWalkable(world: World, x: number, y: number): boolean {
  const idx = worldIndex(world);
  return idx.zones.sidewalk.contains(x, y) || idx.zones.crosswalk.contains(x, y);
}

/**
 * Walkable extent from `p` along the unit vector `n` (left, +) and against it (right), metres: probed
 * every 5 cm, at most `maxReach` each way.
 */
export function walkableExtent(world: World, p: Vec2, n: Vec2, maxReach: number): { left: number; right: number } {
  const probe = (sign: number) => {
    let d = 0;
    while (d < maxReach && isWalkable(world, p[0] + n[0] * sign * (d + 0.05), p[1] + n[1] * sign * (d + 0.05))) d += 0.05;
    return d;
  };
  return { left: probe(1), right: probe(-1) };
}

/** The walkable map: sidewalk (clear path) and crosswalk polygons. */
export function walkableMap(world: World): { sidewalk: MultiPolygon; crosswalk: MultiPolygon } {
  return { sidewalk: world.zones.sidewalk, crosswalk: world.zones.crosswalk };
}

/**
 * Ground height at (x, y), metres above the road surface: 0 on roads and on the road part of
 * crosswalks, rising linearly over curb ramps, `world.curbHeight` (0.15 m) everywhere else
 * (curb tops, sidewalks, verges, frontages, lots).
 */
export function groundHeight(world: World, x: number, y: number): number {
  const z = zoneAt(world, x, y);
  if (z === 'road') return 0;
  if (z === 'crosswalk' || z === 'curb') {
    // The first ramp / crosswalk in world order that holds the point (the index narrows the search;
    // sorting its hits keeps the order, so the answer is the same as a scan over all of them).
    const idx = worldIndex(world);
    const at: Box = [x, y, x, y];
    for (const i of idx.ramps.query(at).sort((a, b) => a - b)) {
      const r = world.curbRamps[i];
      if (pointInRing(x, y, r.polygon)) {
        const u = ((x - r.low[0]) * r.dir[0] + (y - r.low[1]) * r.dir[1]) / r.run;
        return world.curbHeight * Math.max(0, Math.min(1, u));
      }
    }
    if (z === 'crosswalk') {
      for (const i of idx.crosswalks.query(at).sort((a, b) => a - b)) {
        const c = world.crosswalks[i];
        const dx = x - c.centre[0], dy = y - c.centre[1];
        const lat = dx * c.across[0] + dy * c.across[1], lon = dx * c.along[0] + dy * c.along[1];
        if (Math.abs(lon) <= c.width / 2 + 1e-6 && lat >= -c.reachRight - 1e-6 && lat <= c.reachLeft + 1e-6) return Math.abs(lat) <= c.roadHalfWidth ? 0 : world.curbHeight;
      }
    }
  }
  return world.curbHeight;
}

/** Obstacles whose footprint contains (x, y). */
export function obstaclesAt(world: World, x: number, y: number): StaticObject[] {
  return worldIndex(world).obstacles.query([x, y, x, y]).filter((o) => pointInRing(x, y, o.footprint));
}

/** Obstacles whose footprint's bounding box overlaps `box` (`[minX, minY, maxX, maxY]`, metres), in id order. */
export function obstaclesInBox(world: World, box: Box): StaticObject[] {
  return worldIndex(world).obstacles.query(box).sort((a, b) => a.id - b.id);
}

/** Obstacles within `radius` metres of a point (footprint bounding circle), in id order. */
export function obstaclesNear(world: World, p: Vec2, radius: number): StaticObject[] {
  return obstaclesInBox(world, [p[0] - radius, p[1] - radius, p[0] + radius, p[1] + radius]).filter(
    (o) => Math.hypot(o.centre[0] - p[0], o.centre[1] - p[1]) <= radius + o.radius,
  );
}

/**
 * Whether the polyline `pts` (world frame, metres; one point = a spot) keeps `clearance` metres from
 * every static obstacle footprint of `world`: no segment within `clearance` of a footprint edge, no point
 * inside one.
 */
export function lineClearOfObstacles(world: World, pts: readonly Vec2[], clearance: number): boolean {
  for (let k = 0; k < pts.length; k++) {
    const a = pts[k];
    const b = pts[Math.min(k + 1, pts.length - 1)];
    if (k > 0 && k === pts.length - 1) break;
    const box: Box = [Math.min(a[0], b[0]) - clearance, Math.min(a[1], b[1]) - clearance, Math.max(a[0], b[0]) + clearance, Math.max(a[1], b[1]) + clearance];
    for (const o of obstaclesInBox(world, box)) {
      const ring = o.footprint;
      if (pointInRing(a[0], a[1], ring) || pointInRing(b[0], b[1], ring)) return false;
      for (let e = 0; e < ring.length; e++) {
        if (segmentSegmentDistance(a, b, ring[e] as Vec2, ring[(e + 1) % ring.length] as Vec2) < clearance) return false;
      }
    }
  }
  return true;
}
