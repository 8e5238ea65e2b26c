/**
 * Failure detection every physics sub-step, as SidewalkBench counts failures (seeds/002 §4.3):
 * collision with a static obstacle, collision with a pedestrian (cylinder, radius 0.3 m),
 * out-of-lane (any part of the footprint off the sidewalk and crosswalk), and freezing (no progress
 * along the route for a set time). Events are edge-triggered: one event when a contact or an
 * excursion begins, none while it lasts.
 */
import { ringIntersectsCircle, ringsIntersect, boxOf, type Ring, type Vec2 } from '../core/geometry2d';
import type { RobotSpec } from './robot-spec';
import { footprintCorners, type RobotState } from './unicycle';

export type FailureKind = 'collision-obstacle' | 'collision-pedestrian' | 'out-of-lane' | 'freezing';

/** One failure: when, where and what. */
export interface FailureEvent {
  kind: FailureKind;
  /** Episode time, s. */
  time: number;
  /** Robot base position, metres, world frame. */
  x: number;
  y: number;
  /** The obstacle or pedestrian index for collisions. */
  with?: number;
}

/** What the monitor needs of the world. */
export interface FailureWorld {
  /** Whether a ground point is on the sidewalk or a crosswalk. */
  isWalkable(x: number, y: number): boolean;
  /** Static obstacles, counter-clockwise polygons, metres. */
  obstacles: Ring[];
}

/** A pedestrian's collision cylinder at this sub-step. */
export interface PedestrianDisc {
  x: number;
  y: number;
  radius: number;
}

export interface FailureMonitorOptions {
  /** Seconds without `freezeProgress` metres of route progress that count as freezing. */
  freezeTime: number;
  freezeProgress: number;
  /** Samples per footprint edge for the out-of-lane test (corners always included). */
  edgeSamples: number;
}

export const DEFAULT_FAILURE_OPTIONS: FailureMonitorOptions = { freezeTime: 10, freezeProgress: 0.5, edgeSamples: 2 };

export class FailureMonitor {
  readonly events: FailureEvent[] = [];
  private bounds: [number, number, number, number][];
  private obstacles: Ring[];
  private touchingObstacles = new Set<number>();
  private touchingPedestrians = new Set<number>();
  private outOfLane = false;
  private lastProgressTime = 0;
  private lastProgress = -Infinity;
  private frozen = false;

  constructor(
    private readonly world: FailureWorld,
    private readonly spec: RobotSpec,
    private readonly options: FailureMonitorOptions = DEFAULT_FAILURE_OPTIONS,
  ) {
    this.obstacles = world.obstacles;
    this.bounds = world.obstacles.map(boxOf);
  }

  /**
   * Replaces the static obstacles (CCW polygons, metres), e.g. the world's plus the fences of a
   * closure that just triggered. Indices in later `with` fields refer to the new list; contacts
   * with obstacles that keep their index carry over.
   */
  setObstacles(obstacles: Ring[]): void {
    this.obstacles = obstacles;
    this.bounds = obstacles.map(boxOf);
  }

  /**
   * Checks the robot at time `t` (s) with route progress `progress` (m) against the world and the
   * pedestrians; appends and returns the events that began at this sub-step.
   */
  check(t: number, state: RobotState, pedestrians: readonly PedestrianDisc[], progress: number): FailureEvent[] {
    const found: FailureEvent[] = [];
    const at = (kind: FailureKind, withIndex?: number) => found.push({ kind, time: t, x: state.x, y: state.y, ...(withIndex === undefined ? {} : { with: withIndex }) });
    const fp = footprintCorners(state, this.spec);
    const reach = Math.hypot(this.spec.length, this.spec.width) / 2 + Math.abs(this.spec.footprintOffsetX);

    const touching = new Set<number>();
    this.obstacles.forEach((poly, i) => {
      const [x0, y0, x1, y1] = this.bounds[i];
      if (state.x + reach < x0 || state.x - reach > x1 || state.y + reach < y0 || state.y - reach > y1) return;
      if (ringsIntersect(fp, poly)) touching.add(i);
    });
    for (const i of touching) if (!this.touchingObstacles.has(i)) at('collision-obstacle', i);
    this.touchingObstacles = touching;

    const touchingPeds = new Set<number>();
    pedestrians.forEach((p, i) => {
      if (Math.hypot(p.x - state.x, p.y - state.y) > reach + p.radius) return;
      if (ringIntersectsCircle(fp, p.x, p.y, p.radius)) touchingPeds.add(i);
    });
    for (const i of touchingPeds) if (!this.touchingPedestrians.has(i)) at('collision-pedestrian', i);
    this.touchingPedestrians = touchingPeds;

    const off = footprintSamples(fp, this.options.edgeSamples).some(([x, y]) => !this.world.isWalkable(x, y));
    if (off && !this.outOfLane) at('out-of-lane');
    this.outOfLane = off;

    if (progress > this.lastProgress + this.options.freezeProgress) {
      this.lastProgress = progress;
      this.lastProgressTime = t;
      this.frozen = false;
    } else if (!this.frozen && t - this.lastProgressTime >= this.options.freezeTime) {
      this.frozen = true;
      at('freezing');
    }
    this.events.push(...found);
    return found;
  }

  /** Clears contact and freezing memory after a reset (long-horizon episodes); keeps the events. */
  resetContacts(t: number, progress: number): void {
    this.touchingObstacles.clear();
    this.touchingPedestrians.clear();
    this.outOfLane = false;
    this.frozen = false;
    this.lastProgress = progress;
    this.lastProgressTime = t;
  }
}

/** Corners plus `n` evenly spaced points inside each edge of a polygon. */
export function footprintSamples(poly: Ring, n: number): Vec2[] {
  const out: Vec2[] = [];
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    for (let k = 0; k <= n; k++) out.push([ax + ((bx - ax) * k) / (n + 1), ay + ((by - ay) * k) / (n + 1)]);
  }
  return out;
}
