/**
 * Static objects: street furniture in the verge (furniture zone) and buildings behind the frontage
 * zone. Every footprint is a convex CCW ring (the obstacle form ORCA needs), lies entirely inside its
 * zone with a 0.15 m margin, and keeps 0.15 m from every other footprint.
 *
 * Sizes and spacing (typical values; NACTO "Street Furniture", FHWA Lighting Handbook, MUTCD):
 *
 * | kind        | footprint (m)              | height (m) | placement |
 * |-------------|----------------------------|------------|-----------|
 * | lampPost    | pole r 0.12–0.15           | 6–9        | every 25–35 m, 0.5 m from the curb |
 * | tree        | trunk r 0.15–0.3 (canopy 2–4) | 6–12    | every 7–12 m on 70 % of block faces |
 * | hydrant     | r 0.15–0.2                 | 0.6–0.9    | near corners, 40 % of block-face ends |
 * | bench       | 1.5–2.0 × 0.5–0.7          | 0.8–0.9    | ~1 per 40 m with p 0.3 |
 * | bin         | r 0.25–0.35                | 0.9–1.1    | ~1 per 40 m with p 0.35 |
 * | bollard     | r 0.10–0.13                | 0.8–1.0    | rows of 3–4 at 1.4 m by corners (p 0.25) |
 * | signPost    | r 0.04–0.06                | 2.5–3.2    | ~1 per 50 m with p 0.3 |
 * | stopSign    | r 0.05 (sign at ≥ 2.1 m, MUTCD §2A.18) | 2.1–2.5 | right of the approach at junctions (p 0.6) |
 * | busShelter  | 3–5 × 1.4–1.8              | 2.5–2.8    | 25 % of block faces ≥ 30 m with a wide verge |
 * | building    | 8–24 wide × 10–20 deep     | 2–8 floors × 3.2 + 1 | along every block face, behind the frontage |
 *
 * Landmark furniture ({@link placeLandmarkFurniture}), placed after the buildings from its own random
 * stream (so the objects above keep their ids and places), in the verge clear of everything else:
 *
 * | kind        | footprint (m)              | height (m) | placement |
 * |-------------|----------------------------|------------|-----------|
 * | kiosk       | 2.0–2.4 × 1.2–1.5          | 2.5–2.8    | 25 % of verge stretches ≥ 20 m, from a third along, the first clear place |
 * | statue      | 0.9–1.2 square pedestal    | 3.0–3.6    | 15 % of stretches ≥ 24 m, from two thirds along |
 * | fountain    | r 0.7–1.8 basin (the verge allows) | 1.0–1.4 | 20 % of stretches ≥ 24 m, from halfway |
 * | bikeRack    | 1.8–2.4 × 0.5–0.6          | 0.8–0.9    | ~1 per 45 m with p 0.2 |
 */
import type { Rng } from '../core/random';
import { circleRing, convexRingsOverlap, rectRing, boxOf, type Box, type Ring, type Vec2 } from './geometry';
import type { CrosswalkLayout } from './crosswalks';
import { vergeIntervals } from './crosswalks';
import type { StreetNetwork } from './network';
import { arcLengths, densify, polylineLength, sampleAt } from './polyline';
import { zoneOffsets } from './profile';
import { BoxGrid, type MultiPolygonIndex } from './spatial-index';

/** Kinds of static object. */
export type ObjectKind = 'lampPost' | 'tree' | 'hydrant' | 'bench' | 'bin' | 'bollard' | 'signPost' | 'stopSign' | 'busShelter' | 'building' | 'kiosk' | 'statue' | 'fountain' | 'bikeRack' | 'postBox';

/** A static object on the ground (its base at the local ground height). */
export interface StaticObject {
  id: number;
  kind: ObjectKind;
  /** Footprint, a convex CCW ring, metres. */
  footprint: Ring;
  /** Footprint centre, metres. */
  centre: Vec2;
  /** Heading of the object's long axis (rad from +x, CCW about +z). */
  yaw: number;
  /** Height above its base, metres. */
  height: number;
  /** Radius of the footprint's bounding circle about `centre`, metres. */
  radius: number;
  /** Zone it stands in: `verge` (furniture zone) or `lot` (behind the frontage; worlds from OSM: also a mapped object in the frontage). */
  zone: 'verge' | 'lot';
  /** Street it belongs to (−1 for roundabout islands). */
  streetId: number;
  /** Trees: canopy radius, metres (0 otherwise). */
  canopyRadius: number;
  /** Buildings: unit vector from the building towards its street (the facade's outward normal); [0, 0] otherwise. */
  front: Vec2;
}

/** Clearance kept between footprints and from zone boundaries, metres. */
export const OBJECT_MARGIN = 0.15;

interface Ctx {
  objects: StaticObject[];
  grid: BoxGrid<StaticObject>;
  verge: MultiPolygonIndex;
  /** Street side being furnished (+1 left of the centreline), for `keepOff`. */
  side: 1 | -1;
  keepOff?: (streetId: number, side: 1 | -1, kind: ObjectKind) => boolean;
}

/**
 * The point across the verge of street `st` (its densified centreline `line` with arc lengths `cum`)
 * on `side` at arc length s (lat 0 at the curb side, 1 at the sidewalk side), the street's heading
 * there (rad) and the zone offsets there (profile.ts: zoneOffsets).
 */
function vergePoint(st: StreetNetwork['streets'][number], line: readonly Vec2[], cum: number[], side: 1 | -1, s: number, lat: number): { c: Vec2; yaw: number; d: number[] } {
  const { p, t } = sampleAt(line, s, cum);
  const d = zoneOffsets(st.profile, side, s);
  const y = side * (d[1] + lat * (d[2] - d[1]));
  return { c: [p[0] - t[1] * y, p[1] + t[0] * y], yaw: Math.atan2(t[1], t[0]), d };
}

function tryAdd(ctx: Ctx, o: Omit<StaticObject, 'id'>, check: Ring): boolean {
  if (ctx.keepOff?.(o.streetId, ctx.side, o.kind)) return false;
  if (!ctx.verge.containsRing(check)) return false;
  for (const other of ctx.grid.query(boxOf(check))) if (convexRingsOverlap(check, other.footprint)) return false;
  const obj: StaticObject = { ...o, id: ctx.objects.length };
  ctx.objects.push(obj);
  ctx.grid.insert(boxOf(obj.footprint), obj);
  return true;
}

/** An object to place, and the ring it needs clear (its footprint grown by {@link OBJECT_MARGIN}). */
export type ObjectSpot = [Omit<StaticObject, 'id'>, Ring];

/** A disc-footprint object of radius r (metres) at c in the verge, and its clear ring. */
export function disc(kind: ObjectKind, c: Vec2, r: number, height: number, streetId: number, yaw = 0, canopyRadius = 0): ObjectSpot {
  const n = r >= 0.2 ? 12 : 8;
  return [
    { kind, footprint: circleRing(c[0], c[1], r, n, yaw), centre: c, yaw, height, radius: r, zone: 'verge', streetId, canopyRadius, front: [0, 0] },
    circleRing(c[0], c[1], (r + OBJECT_MARGIN) / Math.cos(Math.PI / n), n, yaw),
  ];
}

/** A box-footprint object (length along `yaw`, width across, metres) at c in the verge, and its clear ring. */
export function box(kind: ObjectKind, c: Vec2, length: number, width: number, yaw: number, height: number, streetId: number): ObjectSpot {
  return [
    { kind, footprint: rectRing(c[0], c[1], length, width, yaw), centre: c, yaw, height, radius: Math.hypot(length, width) / 2, zone: 'verge', streetId, canopyRadius: 0, front: [0, 0] },
    rectRing(c[0], c[1], length + 2 * OBJECT_MARGIN, width + 2 * OBJECT_MARGIN, yaw),
  ];
}

/**
 * Objects mapped in a real place (src/world/osm/furniture.ts) that generated furniture fills around:
 * it keeps clear of them, and off the street sides where `keepOff` says OSM maps that kind.
 */
export interface MappedFurniture {
  /** Ids 0 … n−1; the generated objects follow. */
  objects: readonly StaticObject[];
  keepOff: (streetId: number, side: 1 | -1, kind: ObjectKind) => boolean;
}

/**
 * Places street furniture in the verge zone of every street side and on roundabout islands.
 *
 * @param vergeIndex index of the final verge zone polygons.
 * @param mapped objects already placed (a real place's mapped furniture): returned first, with the
 *   generated ones clear of them; the random draws are the same with or without it.
 */
export function placeFurniture(rng: Rng, net: StreetNetwork, layout: CrosswalkLayout, vergeIndex: MultiPolygonIndex, mapped?: MappedFurniture): StaticObject[] {
  const ctx: Ctx = { objects: [...(mapped?.objects ?? [])], grid: new BoxGrid(10), verge: vergeIndex, side: 1, keepOff: mapped?.keepOff };
  for (const o of ctx.objects) ctx.grid.insert(boxOf(o.footprint), o);
  for (const st of net.streets) {
    if (st.closed) continue;
    const line = densify(st.centreline, 2);
    const cum = arcLengths(line);
    const L = cum[cum.length - 1];
    const cuts = layout.junctionCuts.get(st.id) ?? [0, 0];
    for (const side of [1, -1] as const) {
      ctx.side = side;
      const r = rng.fork(`street${st.id}/side${side}`);
      const at = (s: number, lat: number) => vergePoint(st, line, cum, side, s, lat);
      const atCurb = (s: number, off: number): Vec2 => {
        const { p, t } = sampleAt(line, s, cum);
        const y = side * (zoneOffsets(st.profile, side, s)[1] + off);
        return [p[0] - t[1] * y, p[1] + t[0] * y];
      };
      const trees = r.next() < 0.7;
      for (const [a, b] of vergeIntervals(L, layout.vergeGaps.get(st.id), 1)) {
        const startEnd = a > 0 && Math.abs(a - cuts[0]) < 1e-6 && st.startJunction >= 0;
        const endEnd = b < L && Math.abs(L - b - cuts[1]) < 1e-6 && st.endJunction >= 0;
        const jStart = startEnd ? net.junctions[st.startJunction].kind : null;
        const jEnd = endEnd ? net.junctions[st.endJunction].kind : null;
        // Stop signs on the right of traffic approaching a junction (right-hand traffic).
        if (side === 1 && (jStart === 'intersection' || jStart === 'tJunction') && r.next() < 0.6) tryAdd(ctx, ...disc('stopSign', atCurb(a + 0.5, 0.4), 0.05, r.range(2.1, 2.5), st.id));
        if (side === -1 && (jEnd === 'intersection' || jEnd === 'tJunction') && r.next() < 0.6) tryAdd(ctx, ...disc('stopSign', atCurb(b - 0.5, 0.4), 0.05, r.range(2.1, 2.5), st.id));
        // Bollard rows by the corners.
        for (const [end, dir] of [[a, 1], [b, -1]] as const) {
          if (r.next() >= 0.25 || b - a < 8) continue;
          const n = r.int(3, 4);
          for (let i = 0; i < n; i++) {
            const { c } = at(end + dir * (1.2 + i * 1.4), 0.5);
            tryAdd(ctx, ...disc('bollard', c, r.range(0.1, 0.13), r.range(0.8, 1.0), st.id));
          }
        }
        if (startEnd && r.next() < 0.4) tryAdd(ctx, ...disc('hydrant', atCurb(a + r.range(1, 4), 0.45), r.range(0.15, 0.2), r.range(0.6, 0.9), st.id));
        if (b - a >= 30 && r.next() < 0.25) {
          const len = r.range(3, 5), depth = r.range(1.4, 1.8);
          const s = (a + b) / 2;
          const { c, yaw, d } = at(s, 0.5);
          if (d[2] - d[1] >= depth + 2 * OBJECT_MARGIN + 0.1) tryAdd(ctx, ...box('busShelter', c, len, depth, yaw, r.range(2.5, 2.8), st.id));
        }
        for (let s = a + r.range(2, 8); s < b - 1; s += r.range(25, 35)) tryAdd(ctx, ...disc('lampPost', atCurb(s, 0.5), r.range(0.12, 0.15), r.range(6, 9), st.id));
        for (let s = a + 5; s < b - 5; s += 40) {
          if (r.next() < 0.3) {
            const { c, yaw } = at(s + r.range(0, 20), 0.5);
            tryAdd(ctx, ...box('bench', c, r.range(1.5, 2.0), r.range(0.5, 0.7), yaw, r.range(0.8, 0.9), st.id));
          }
          if (r.next() < 0.35) tryAdd(ctx, ...disc('bin', at(s + r.range(0, 20), 0.5).c, r.range(0.25, 0.35), r.range(0.9, 1.1), st.id));
        }
        for (let s = a + 10; s < b - 5; s += 50) if (r.next() < 0.3) tryAdd(ctx, ...disc('signPost', atCurb(s + r.range(0, 20), 0.4), r.range(0.04, 0.06), r.range(2.5, 3.2), st.id));
        if (trees) {
          for (let s = a + r.range(3, 6); s < b - 1; s += r.range(7, 12)) {
            tryAdd(ctx, ...disc('tree', at(s, 0.5).c, r.range(0.15, 0.3), r.range(6, 12), st.id, 0, r.range(2, 4)));
          }
        }
      }
    }
  }
  for (const j of net.junctions) {
    if (j.kind !== 'roundabout' || j.islandRadius < 4) continue;
    const r = rng.fork(`island${j.id}`);
    tryAdd(ctx, ...disc('tree', j.centre, r.range(0.3, 0.5), r.range(8, 14), -1, 0, Math.min(j.islandRadius - 1, r.range(3, 5))));
  }
  return ctx.objects;
}

/**
 * Places the landmark furniture (kiosks, statues, fountains) and bike racks in the verge of every
 * street side (see the module comment), clear of `existing` objects; ids run from `firstId`.
 *
 * @param vergeIndex index of the final verge zone polygons.
 */
export function placeLandmarkFurniture(rng: Rng, net: StreetNetwork, layout: CrosswalkLayout, vergeIndex: MultiPolygonIndex, existing: readonly StaticObject[], firstId: number): StaticObject[] {
  const ctx: Ctx = { objects: [], grid: new BoxGrid(10), verge: vergeIndex, side: 1 };
  for (const o of existing) if (o.zone === 'verge') ctx.grid.insert(boxOf(o.footprint), o);
  for (const st of net.streets) {
    if (st.closed) continue;
    const line = densify(st.centreline, 2);
    const cum = arcLengths(line);
    const L = cum[cum.length - 1];
    for (const side of [1, -1] as const) {
      const r = rng.fork(`street${st.id}/side${side}`);
      // A point halfway across the verge, the street's heading and the verge depth there.
      const at = (s: number, lat: number) => {
        const { c, yaw, d } = vergePoint(st, line, cum, side, s, lat);
        return { c, yaw, depth: d[2] - d[1] };
      };
      for (const [a, b] of vergeIntervals(L, layout.vergeGaps.get(st.id), 1)) {
        const fits = (depth: number, across: number) => depth >= across + 2 * OBJECT_MARGIN + 0.1;
        // The first of a few places along the stretch (from `f` of its length on) that is clear.
        const firstClear = (f: number, make: (s: number) => [Omit<StaticObject, 'id'>, Ring] | null): void => {
          for (let k = 0; k < 6; k++) {
            const s = a + ((f + k * 0.13) % 1) * (b - a);
            const made = s > a + 1 && s < b - 1 ? make(s) : null;
            if (made && tryAdd(ctx, ...made)) return;
          }
        };
        if (b - a >= 20 && r.next() < 0.25) {
          const len = r.range(2.0, 2.4), dep = r.range(1.2, 1.5), h = r.range(2.5, 2.8);
          firstClear(1 / 3, (s) => {
            const { c, yaw, depth } = at(s, 0.5);
            return fits(depth, dep) ? box('kiosk', c, len, dep, yaw, h, st.id) : null;
          });
        }
        if (b - a >= 24 && r.next() < 0.15) {
          const side0 = r.range(0.9, 1.2), h = r.range(3.0, 3.6);
          firstClear(2 / 3, (s) => {
            const { c, yaw, depth } = at(s, 0.5);
            return fits(depth, side0) ? box('statue', c, side0, side0, yaw, h, st.id) : null;
          });
        }
        if (b - a >= 24 && r.next() < 0.2) {
          const h = r.range(1.0, 1.4);
          firstClear(1 / 2, (s) => {
            const { c, depth } = at(s, 0.5);
            const radius = Math.min(1.8, (depth - 2 * OBJECT_MARGIN - 0.1) / 2);
            return radius >= 0.7 ? disc('fountain', c, radius, h, st.id) : null;
          });
        }
        for (let s = a + 6; s < b - 3; s += 45) {
          if (r.next() >= 0.2) continue;
          const { c, yaw, depth } = at(s + r.range(0, 15), 0.5);
          const dep = r.range(0.5, 0.6);
          if (fits(depth, dep)) tryAdd(ctx, ...box('bikeRack', c, r.range(1.8, 2.4), dep, yaw, r.range(0.8, 0.9), st.id));
        }
      }
    }
  }
  return ctx.objects.map((o, i) => ({ ...o, id: firstId + i }));
}

/**
 * Places buildings along every street side, their facades just behind the frontage zone, inside the
 * world bounds, clear of all street land and of each other.
 *
 * @param streetLand index of the union of every ground zone (everything up to the building line).
 * @param firstId id of the first building (after the furniture).
 */
export function placeBuildings(rng: Rng, net: StreetNetwork, streetLand: MultiPolygonIndex, bounds: Box, firstId: number): StaticObject[] {
  const out: StaticObject[] = [];
  const grid = new BoxGrid<StaticObject>(25);
  const inBounds = (ring: Ring): boolean => ring.every(([x, y]) => x >= bounds[0] && x <= bounds[2] && y >= bounds[1] && y <= bounds[3]);
  for (const st of net.streets) {
    if (st.closed) continue;
    const line = densify(st.centreline, 2);
    const cum = arcLengths(line);
    const L = polylineLength(line);
    for (const side of [1, -1] as const) {
      const r = rng.fork(`street${st.id}/side${side}`);
      let s = r.range(0, 4);
      while (s < L - 4) {
        const bw = r.range(8, 24), bd = r.range(10, 20), floors = r.int(2, 8);
        let placed = false;
        for (const [fw, fd] of [[1, 1], [1, 0.6], [0.6, 1], [0.5, 0.5]]) {
          const w = bw * fw, dep = bd * fd;
          if (s + w > L) continue;
          const { p, t } = sampleAt(line, s + w / 2, cum);
          const front = zoneOffsets(st.profile, side, s + w / 2)[4] + 0.05;
          const y = side * (front + dep / 2);
          const c: Vec2 = [p[0] - t[1] * y, p[1] + t[0] * y];
          const yaw = Math.atan2(t[1], t[0]);
          const ring = rectRing(c[0], c[1], w, dep, yaw);
          if (!inBounds(ring) || streetLand.overlapsRing(ring)) continue;
          if (grid.query(boxOf(ring)).some((o) => convexRingsOverlap(ring, o.footprint, 1e-6))) continue;
          const o: StaticObject = {
            id: firstId + out.length, kind: 'building', footprint: ring, centre: c, yaw, height: floors * 3.2 + 1, radius: Math.hypot(w, dep) / 2,
            zone: 'lot', streetId: st.id, canopyRadius: 0, front: [t[1] * side, -t[0] * side],
          };
          out.push(o);
          grid.insert(boxOf(ring), o);
          s += w + r.range(0, 3);
          placed = true;
          break;
        }
        if (!placed) s += 3;
      }
    }
  }
  return out;
}
