/**
 * Failure detection every physics sub-step, as SidewalkBench counts failures (seeds/002 §4.3):
 * collision with a static obstacle, collision with a pedestrian (cylinder, radius 0.3 m),
 * out-of-lane (any part of the footprint off the sidewalk and crosswalk), and freezing (no progress
 * along the route for a set time). Events are edge-triggered: one event when a contact or an
 * excursion begins, none while it lasts — also across a long-horizon reset: what holds at the reset
 * pose (a contact that lasts through it, a walker standing on the waypoint, a footprint overhanging
 * a kerb there) is not a new event (such a pose once counted again at every sub-step). A pedestrian collision
 * records whether the walker walked into the robot: the robot was not driving toward it (its
 * velocity's component toward the pedestrian's centre below {@link STOPPED_SPEED}) when it began.
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
  /** Pedestrian collisions: the walker walked into the robot (it was not driving toward the walker when the contact began). */
  walkedInto?: boolean;
}

/** Below this speed toward a pedestrian, m/s, the robot is not driving into it (a collision then is the walker's doing). */
export const STOPPED_SPEED = 0.05;

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
    const now = this.conditions(state, pedestrians);
    for (const i of now.obstacles) if (!this.touchingObstacles.has(i)) at('collision-obstacle', i);
    for (const i of now.pedestrians) {
      if (this.touchingPedestrians.has(i)) continue;
      at('collision-pedestrian', i);
      const p = pedestrians[i];
      const d = Math.hypot(p.x - state.x, p.y - state.y) || 1;
      const closing = (state.v * (Math.cos(state.yaw) * (p.x - state.x) + Math.sin(state.yaw) * (p.y - state.y))) / d;
      found[found.length - 1].walkedInto = closing < STOPPED_SPEED;
    }
    if (now.offLane && !this.outOfLane) at('out-of-lane');
    this.remember(now);

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

  /**
   * After a reset (long-horizon episodes) to `state`: the contact and lane memory become what holds
   * at the new pose, so a contact or an excursion that lasts through the reset, or that the reset
   * pose itself has (a walker standing on the waypoint, a waypoint whose footprint overhangs a kerb),
   * is not a new event; the freezing clock restarts at `t` with `progress`. Events are kept.
   */
  resetContacts(t: number, progress: number, state: RobotState, pedestrians: readonly PedestrianDisc[]): void {
    this.remember(this.conditions(state, pedestrians));
    this.frozen = false;
    this.lastProgress = progress;
    this.lastProgressTime = t;
  }

  /** The obstacles and pedestrians the footprint touches at `state`, and whether it is off the walkable area. */
  private conditions(state: RobotState, pedestrians: readonly PedestrianDisc[]): { obstacles: Set<number>; pedestrians: Set<number>; offLane: boolean } {
    const fp = footprintCorners(state, this.spec);
    const reach = Math.hypot(this.spec.length, this.spec.width) / 2 + Math.abs(this.spec.footprintOffsetX);
    const obstacles = new Set<number>();
    this.obstacles.forEach((poly, i) => {
      const [x0, y0, x1, y1] = this.bounds[i];
      if (state.x + reach < x0 || state.x - reach > x1 || state.y + reach < y0 || state.y - reach > y1) return;
      if (ringsIntersect(fp, poly)) obstacles.add(i);
    });
    const peds = new Set<number>();
    pedestrians.forEach((p, i) => {
      if (Math.hypot(p.x - state.x, p.y - state.y) > reach + p.radius) return;
      if (ringIntersectsCircle(fp, p.x, p.y, p.radius)) peds.add(i);
    });
    const offLane = footprintSamples(fp, this.options.edgeSamples).some(([x, y]) => !this.world.isWalkable(x, y));
    return { obstacles, pedestrians: peds, offLane };
  }

  private remember(c: { obstacles: Set<number>; pedestrians: Set<number>; offLane: boolean }): void {
    this.touchingObstacles = c.obstacles;
    this.touchingPedestrians = c.pedestrians;
    this.outOfLane = c.offLane;
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
