/**
 * Steps on a real place (`highway=steps`): walkable for pedestrians and legged robots, never on a
 * wheeled robot's route. A flight is a network street marked `steps` (`World.osm.streets[i]`); a
 * route climbs it when a point of the route, sampled every {@link ROUTE_SAMPLE} metres, lies within
 * the flight's half-width of its centreline away from the flight's two ends. An end at a junction
 * is trimmed by the widest cross-section of the junction's other streets (OSM joins steps to a
 * road's centreline node, so their first metres lie over the road's sidewalk, which a route walks
 * along without climbing) plus {@link END_TRIM}; a flight too short for both trims keeps its middle
 * half metre. Procedural worlds have no steps.
 */
import { pointSegmentDistance } from '../../core/geometry2d';
import type { Vec2 } from '../geometry';
import { arcLengths, polylineLength, subPolyline } from '../polyline';
import { zoneOffsets } from '../profile';
import type { World } from '../world';

/** Route sampling step, metres. */
export const ROUTE_SAMPLE = 0.25;
/** Length of each end of a flight, beyond the streets it joins, where a route may pass without climbing it, metres. */
export const END_TRIM = 0.5;

/** One flight of steps: the network street, its OSM ways and name, and the part a route may not touch. */
export interface StepsFlight {
  streetId: number;
  ways: number[];
  name: string | null;
  /** The flight's centreline less its ends, world frame, metres. */
  core: Vec2[];
  /** Half the flight's walkable width, metres. */
  halfWidth: number;
  /** [minX, minY, maxX, maxY] of `core` grown by `halfWidth`. */
  box: [number, number, number, number];
}

const flightsOf = new WeakMap<World, StepsFlight[]>();

/** The world's flights of steps (none for a procedural world); computed once per world. */
export function stepsFlights(world: World): StepsFlight[] {
  let flights = flightsOf.get(world);
  if (flights) return flights;
  flights = [];
  const info = world.osm?.streets ?? [];
  for (const street of world.network.streets) {
    const s = info[street.id];
    if (!s?.steps) continue;
    const line = street.centreline;
    const length = polylineLength(line);
    // How far the other streets at a junction reach over the flight: their outer (frontage) edge.
    const reach = (junction: number): number => {
      const j = world.network.junctions[junction];
      if (!j) return 0;
      let r = 0;
      for (const a of j.arms) {
        if (a.streetId === street.id) continue;
        const p = world.network.streets[a.streetId].profile;
        r = Math.max(r, zoneOffsets(p, 1, 0)[4], zoneOffsets(p, -1, 0)[4]);
      }
      return r > 0 ? r + END_TRIM : 0;
    };
    let t0 = reach(street.startJunction), t1 = length - reach(street.endJunction);
    if (t1 - t0 < 0.5) [t0, t1] = [Math.max(0, length / 2 - 0.25), Math.min(length, length / 2 + 0.25)];
    const core = subPolyline(line, t0, t1, arcLengths(line));
    const halfWidth = Math.max(street.profile.left.sidewalk, street.profile.right.sidewalk, 0.5);
    const xs = core.map((p) => p[0]), ys = core.map((p) => p[1]);
    flights.push({ streetId: street.id, ways: s.ways, name: s.name, core, halfWidth, box: [Math.min(...xs) - halfWidth, Math.min(...ys) - halfWidth, Math.max(...xs) + halfWidth, Math.max(...ys) + halfWidth] });
  }
  flightsOf.set(world, flights);
  return flights;
}

/**
 * The first flight of steps a route climbs (see the module comment), or null.
 *
 * @param route route points, world frame, metres (a polyline).
 */
export function stepsOnRoute(world: World, route: readonly Vec2[]): StepsFlight | null {
  const flights = stepsFlights(world);
  if (flights.length === 0) return null;
  for (let i = 0; i + 1 < route.length; i++) {
    const [ax, ay] = route[i], [bx, by] = route[i + 1];
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / ROUTE_SAMPLE));
    for (const f of flights) {
      if (Math.max(ax, bx) < f.box[0] || Math.min(ax, bx) > f.box[2] || Math.max(ay, by) < f.box[1] || Math.min(ay, by) > f.box[3]) continue;
      for (let k = 0; k <= n; k++) {
        const x = ax + ((bx - ax) * k) / n, y = ay + ((by - ay) * k) / n;
        for (let j = 0; j + 1 < f.core.length; j++) if (pointSegmentDistance(x, y, f.core[j], f.core[j + 1]) < f.halfWidth) return f;
      }
    }
  }
  return null;
}

/** How messages name a flight: `the steps Escalier Sainte-Cécile (way/123)` or `unnamed steps (way/123)`. */
export function stepsLabel(f: StepsFlight): string {
  return `${f.name ? `the steps ${f.name}` : 'unnamed steps'} (${f.ways.map((w) => `way/${w}`).join(', ')})`;
}
