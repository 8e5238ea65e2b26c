/**
 * The pedestrians of a benchmark scenario: each is an ORCA agent (RVO2 semantics, orca.ts) whose
 * preferred velocity and responsibility come from its behaviour controller, stepped in lock step
 * with the episode (double-buffered: every new velocity is computed before anyone moves).
 *
 * Behaviours (SidewalkBench §3.2), each triggered when the robot comes within `triggerDistance`:
 *
 * | behaviour    | before trigger          | after trigger                                                     | responsibility |
 * |--------------|-------------------------|-------------------------------------------------------------------|----------------|
 * | obstructing  | stands beside the path  | steps to `params.target` on the path and stands                   | 0 (never yields) |
 * | conversing   | stands facing the group centre, talking (no trigger)                                         | 0 |
 * | queuing      | stands in line facing `heading`, head (`params.order` 0) in front; the head steps aside to `params.exitSide` and walks off `params.wait` s after it started standing at the front; followers close up, each waiting its own `params.wait` from arrival | 0 |
 * | frontal      | stands                  | walks its `route` toward the robot                                | 0 |
 * | lateral      | stands                  | crosses the path, timed to meet a constant-velocity robot at `crossPoint` | 0 |
 * | overtaking   | stands                  | walks its `route` past the robot                                  | 0.5 |
 * | ped-crossing | stands at the kerb      | walks across the crosswalk                                        | 0.5 |
 * | gesturing    | stands in the path facing the robot; raises a hand (stop gesture) after the trigger           | 0 |
 * | walk / idle  | walks its route / stands                                                                      | 0.5 |
 * | interact     | walks its `route`, then to `params.object` (beside a kiosk, bench, ATM); stands there facing `params.facing` (a point) for `params.duration` s (default 8), then walks the `params.exit` points ([x0, y0, x1, y1, …]) at its speed (no trigger) | 0.5 walking, 0 standing |
 *
 * `interact` is ambient (like walk/idle, no robot trigger; `triggered` stays false unless a
 * `triggerDistance` is given, which changes nothing): it starts its stay once the object is its
 * last waypoint and within the waypoint reach (0.1 m), sets its heading toward `params.facing`
 * every step of the stay (gesture 'none', idle), and leaves on the first step whose clock
 * (dt per step of the stay) is ≥ `duration − dt/2`, i.e. it stands `duration` s rounded to whole steps.
 *
 * Responsibility is toward the robot: a pedestrian with 0 never yields to it (the robot's disc is
 * not among its ORCA neighbours), one with 0.5 does. Every pedestrian, scripted or not, avoids the
 * static obstacles (ORCA obstacle half-planes: props, buildings, fences, closure barriers) and the
 * other pedestrians (reciprocally, 0.5 each), so nobody walks through geometry or through anyone;
 * the suite generator keeps scripted lines clear of geometry so their timing holds.
 *
 * Standing still (the hold rule): whenever its path is empty a pedestrian holds its anchor — its
 * spawn, or where it stood after the last step it walked. Its preferred velocity points back to the
 * anchor (≤ HOLD_SPEED, easing in, zero within HOLD_TOLERANCE), so it may step aside for someone
 * and returns; undisturbed it does not move at all. RVO2's examples do the same for agents at their
 * goal (preferred velocity = goal − position, capped at 1 m/s); with a zero preferred velocity
 * instead, standing agents drift whenever anyone presses on them and never come back.
 *
 * Each pedestrian exposes the animation state the pedestrian renderer needs. Frames: world x-y
 * plane, metres, seconds.
 */
import type { Vec2 as Tuple } from '../core/geometry2d';
import { createRng } from '../core/random';
import type { PedestrianSpec } from '../sim/scenario';
import type { PedestrianSim, PedestrianGesture } from '../sim/episode-contracts';
import type { PedestrianDisc } from '../robot/failure-monitor';
import type { RobotState } from '../robot/unicycle';
import { buildObstacleVertices, ObstacleEdgeGrid, obstacleNeighborsInGrid, type ObstacleVertex } from './obstacles';
import { computeNewVelocity, type OrcaNeighbor } from './orca';

/** SidewalkBench's pedestrian collision cylinder radius, metres. */
export const PEDESTRIAN_RADIUS = 0.3;
/** The robot's disc as pedestrians see it, metres. */
export const ROBOT_DISC_RADIUS = 0.45;
/** Seeded spawn jitter, metres: breaks ORCA's exactly symmetric deadlocks. */
export const SPAWN_JITTER = 0.005;

/** What the pedestrian renderer needs to animate one pedestrian. */
export interface AnimationState {
  /** Walking speed, m/s (0 standing). */
  walkSpeed: number;
  /** Facing, radians from +x. */
  heading: number;
  gesture: PedestrianGesture;
  idle: boolean;
}

/** Obstacles farther than this from every pedestrian's spawn are left out of its ORCA, m. */
export const OBSTACLE_RANGE = 60;

/**
 * The spawn positions of an episode's pedestrians, world x-y (m): each spec's spawn plus seeded
 * jitter in [−SPAWN_JITTER, SPAWN_JITTER)² drawn from `createRng(seed).fork('pedestrians')`, x then y,
 * pedestrian by pedestrian.
 */
export function jitteredSpawns(specs: readonly PedestrianSpec[], seed: number): Tuple[] {
  const rng = createRng(seed).fork('pedestrians');
  return specs.map((spec) => [spec.spawn[0] + rng.range(-SPAWN_JITTER, SPAWN_JITTER), spec.spawn[1] + rng.range(-SPAWN_JITTER, SPAWN_JITTER)]);
}

/** The polygons with a vertex closer than {@link OBSTACLE_RANGE} to any of `positions` (m). */
export function obstaclesNear<P extends readonly Tuple[]>(obstacles: readonly P[], positions: readonly Tuple[]): P[] {
  return obstacles.filter((poly) => poly.some(([x, y]) => positions.some((p) => Math.hypot(x - p[0], y - p[1]) < OBSTACLE_RANGE)));
}

/** ORCA responsibility of a behaviour: 0.5 for the cooperative walkers, 0 (never yields) otherwise. */
export function initialResponsibility(behaviour: PedestrianSpec['behaviour']): number {
  return behaviour === 'overtaking' || behaviour === 'ped-crossing' || behaviour === 'walk' || behaviour === 'idle' || behaviour === 'interact' ? COOPERATIVE : 0;
}

/**
 * The behaviours' tuning values, one source for this reference and the GPU batch (passed to
 * `shaders/crowd/behaviours.wgsl` as `override` constants of the same names by gpu-pedestrian-batch.ts).
 */
export const BEHAVIOUR_CONSTANTS = {
  /** Waypoints closer than this are reached (consumed), m. */
  WAYPOINT_REACHED: 0.1,
  /** Speed toward the last waypoint is at most distance / EASE_TIME, s. */
  EASE_TIME: 0.5,
  /** Faster than this, m/s, a pedestrian's heading turns to its velocity. */
  MOVING_SPEED: 0.05,
  /** Lateral: the robot speed assumed at least this when timing the crossing, m/s. */
  LATERAL_MIN_ROBOT_SPEED: 0.3,
  /** Queuing: metres walked on after being served (less QUEUE_SERVED_SPACING per place in the original line), and at what speed (m/s). */
  QUEUE_SERVED_WALK: 8,
  QUEUE_SERVED_SPACING: 1.0,
  QUEUE_SERVED_SPEED: 1.2,
  /** Queuing: speed closing up to a freed place, m/s. */
  QUEUE_CLOSE_UP_SPEED: 0.6,
  /** Queuing: a served person first steps this far aside (to `params.exitSide` of its heading) and this far ahead, m. */
  QUEUE_STEP_ASIDE: 0.7,
  QUEUE_STEP_AHEAD: 0.6,
  /** Holding a spot: the fastest a standing pedestrian walks back to its anchor, m/s (RVO2's examples cap the goal vector at 1). */
  HOLD_SPEED: 1.0,
  /** Holding a spot: closer than this to its anchor a standing pedestrian does not move, m. */
  HOLD_TOLERANCE: 0.001,
  /** ORCA responsibility of the cooperative walkers (and of an `interact` pedestrian while it walks). */
  COOPERATIVE: 0.5,
} as const;
const { WAYPOINT_REACHED, EASE_TIME, MOVING_SPEED, LATERAL_MIN_ROBOT_SPEED, QUEUE_SERVED_WALK, QUEUE_SERVED_SPACING, QUEUE_SERVED_SPEED, QUEUE_CLOSE_UP_SPEED, QUEUE_STEP_ASIDE, QUEUE_STEP_AHEAD, HOLD_SPEED, HOLD_TOLERANCE } = BEHAVIOUR_CONSTANTS;
/** ORCA responsibility of the cooperative walkers (and of an `interact` pedestrian while it walks). */
export const COOPERATIVE = BEHAVIOUR_CONSTANTS.COOPERATIVE;
/** `interact`: default stay at the object, s. */
export const INTERACT_DEFAULT_DURATION = 8;

/** The parameters of an `interact` pedestrian (validated): object, facing, stay (s), exit points (m). */
export interface InteractParams {
  object: Tuple;
  facing: Tuple;
  duration: number;
  exit: Tuple[];
}

/**
 * Reads an `interact` spec's params: `object` and `facing` points [x, y], `duration` s (finite,
 * ≥ 0; default 8) and `exit` (optional) as flattened points [x0, y0, x1, y1, …].
 *
 * @throws Error naming the bad parameter.
 */
export function interactParams(spec: PedestrianSpec): InteractParams {
  const pt = (name: string): Tuple => {
    const v = spec.params?.[name];
    if (!Array.isArray(v) || v.length !== 2) throw new Error(`interact pedestrian: params.${name} must be a point [x, y]`);
    return [v[0], v[1]];
  };
  const duration = Number(spec.params?.duration ?? INTERACT_DEFAULT_DURATION);
  if (!(Number.isFinite(duration) && duration >= 0)) throw new Error('interact pedestrian: params.duration must be a finite number ≥ 0');
  const flat = spec.params?.exit ?? [];
  if (!Array.isArray(flat) || flat.length % 2 !== 0) throw new Error('interact pedestrian: params.exit must be flattened points [x0, y0, x1, y1, …]');
  const exit: Tuple[] = [];
  for (let k = 0; k < flat.length; k += 2) exit.push([flat[k], flat[k + 1]]);
  return { object: pt('object'), facing: pt('facing'), duration, exit };
}

interface Ped {
  spec: PedestrianSpec;
  pos: Tuple;
  vel: Tuple;
  heading: number;
  triggered: boolean;
  /** Waypoints still to walk, and the speed to walk them at. */
  path: Tuple[];
  speed: number;
  /**
   * ORCA responsibility toward the robot: 0 = never yields to it (scripted behaviours and
   * standing interact pedestrians); every pedestrian still avoids static geometry and takes
   * {@link COOPERATIVE} of every pedestrian–pedestrian avoidance.
   */
  responsibility: number;
  /** Where it stands while its path is empty: its position after the last step it walked (spawn at first). */
  anchor: Tuple;
  /** Its path was not empty after the last step. */
  walked: boolean;
  /** Queue: time standing at its current place (reset when it starts closing up), s. */
  clock: number;
  /** Queue: the place in line it stands at or walks to (starts at `params.order`). */
  place: number;
  gesture: AnimationState['gesture'];
  /** Lateral: the time at which to start walking (so as to meet the robot), s; Infinity when not set. */
  startAt: number;
  /** Path to walk from `startAt` on. */
  pending: Tuple[];
  /** Interact: walking to the object, staying there (`clock` counts the stay), or walking on. */
  phase: 'approach' | 'stay' | 'leave';
  interact?: InteractParams;
}

/** Every pedestrian's ORCA parameters (m, s, m/s); the GPU batch sets its WGSL overrides from these. */
export const PEDESTRIAN_ORCA = { maxSpeed: 2.0, timeHorizon: 2, timeHorizonObst: 2, neighborDist: 5, maxNeighbors: 10 } as const;
const ORCA = PEDESTRIAN_ORCA;

export class ScenarioPedestrians implements PedestrianSim {
  private readonly peds: Ped[];
  private readonly vertices: ObstacleVertex[];
  private readonly range: [number, number];
  /** The obstacle edges by cell: each pedestrian's obstacle neighbours are looked up nearby, not among all edges. */
  private readonly grid: ObstacleEdgeGrid;
  private time = 0;

  /**
   * @param obstacles Static obstacles near the scenario (CCW polygons), shared with the robot's world.
   * @param seed Episode seed: spawn jitter and queue timing derive from it.
   */
  constructor(specs: readonly PedestrianSpec[], obstacles: readonly Tuple[][], seed: number) {
    const spawns = jitteredSpawns(specs, seed);
    this.peds = specs.map((spec, i) => {
      const walksAtOnce = spec.behaviour === 'walk';
      const interact = spec.behaviour === 'interact' ? interactParams(spec) : undefined;
      return {
        spec,
        pos: spawns[i],
        vel: [0, 0],
        heading: spec.heading,
        triggered: false,
        path: interact ? [...(spec.route ?? []), interact.object] : walksAtOnce ? [...(spec.route ?? [])] : [],
        speed: spec.speed,
        responsibility: initialResponsibility(spec.behaviour),
        anchor: spawns[i],
        walked: false,
        clock: 0,
        place: Number(spec.params?.order ?? 0),
        gesture: spec.behaviour === 'conversing' ? 'talk' : 'none',
        startAt: Infinity,
        pending: [],
        phase: 'approach',
        interact,
      } as Ped;
    });
    const near = obstaclesNear(obstacles, spawns);
    const built = buildObstacleVertices(near.map((p) => ({ env: 0, vertices: p.map(([x, y]) => ({ x, y })) })), 1);
    this.vertices = built.vertices;
    this.range = built.envRanges[0];
    this.grid = new ObstacleEdgeGrid(this.vertices, this.range);
  }

  discs(): PedestrianDisc[] {
    return this.peds.map((p) => ({ x: p.pos[0], y: p.pos[1], radius: PEDESTRIAN_RADIUS }));
  }

  velocities(): Tuple[] {
    return this.peds.map((p) => [p.vel[0], p.vel[1]]);
  }

  gestures(): AnimationState['gesture'][] {
    return this.peds.map((p) => p.gesture);
  }

  /** Animation state per pedestrian, in scenario order. */
  animation(): AnimationState[] {
    return this.peds.map((p) => {
      const speed = Math.hypot(p.vel[0], p.vel[1]);
      return { walkSpeed: speed, heading: p.heading, gesture: p.gesture, idle: speed < 0.05 };
    });
  }

  /** Whether pedestrian i's behaviour has been triggered. */
  triggered(i: number): boolean {
    return this.peds[i].triggered;
  }

  /** Whether pedestrian i had a path to walk after the last step (false: it stands, holding its anchor). */
  walking(i: number): boolean {
    return this.peds[i].walked;
  }

  /**
   * Gives pedestrian `i` a new path (world frame, metres, any length) to walk at `speed` m/s from
   * the next step on (ambient walkers: a new destination on arrival).
   *
   * @throws RangeError when `i` is not a pedestrian; Error for a non-finite point or speed.
   */
  setRoute(i: number, route: readonly Tuple[], speed: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.peds.length) throw new RangeError(`ScenarioPedestrians.setRoute: pedestrian ${i} is outside 0..${this.peds.length - 1}`);
    if (!(Number.isFinite(speed) && speed >= 0) || route.some((p) => !(Number.isFinite(p[0]) && Number.isFinite(p[1])))) throw new Error('ScenarioPedestrians.setRoute: non-finite point or speed');
    const p = this.peds[i];
    p.path = route.map((q) => [q[0], q[1]]);
    p.speed = speed;
  }

  /**
   * One step: behaviours (scenario order), then every new velocity from the current state (ORCA:
   * static obstacles and the other pedestrians for everyone, the robot's disc only for those that
   * yield to it), then every move. A pedestrian that walked this step (its path was not empty)
   * moves its anchor to where it now stands.
   */
  step(dt: number, robot: RobotState): void {
    this.time += dt;
    for (const p of this.peds) this.control(p, robot, dt);
    const robotDisc: OrcaNeighbor = { position: { x: robot.x, y: robot.y }, velocity: { x: robot.v * Math.cos(robot.yaw), y: robot.v * Math.sin(robot.yaw) }, radius: ROBOT_DISC_RADIUS };
    const next = this.peds.map((p, i) => {
      const pref = this.preferred(p);
      const yieldsToRobot = p.responsibility > 0;
      const neighbors: OrcaNeighbor[] = yieldsToRobot ? [robotDisc] : [];
      this.peds.forEach((q, j) => {
        if (j !== i && Math.hypot(q.pos[0] - p.pos[0], q.pos[1] - p.pos[1]) < ORCA.neighborDist) {
          neighbors.push({ position: { x: q.pos[0], y: q.pos[1] }, velocity: { x: q.vel[0], y: q.vel[1] }, radius: PEDESTRIAN_RADIUS });
        }
      });
      const position = { x: p.pos[0], y: p.pos[1] };
      neighbors.sort((a, b) => Math.hypot(a.position.x - position.x, a.position.y - position.y) - Math.hypot(b.position.x - position.x, b.position.y - position.y));
      const rangeSq = (ORCA.timeHorizonObst * ORCA.maxSpeed + PEDESTRIAN_RADIUS) ** 2;
      const v = computeNewVelocity(
        {
          position, velocity: { x: p.vel[0], y: p.vel[1] }, prefVelocity: { x: pref[0], y: pref[1] }, radius: PEDESTRIAN_RADIUS, maxSpeed: ORCA.maxSpeed,
          timeHorizon: ORCA.timeHorizon, timeHorizonObst: ORCA.timeHorizonObst, responsibility: yieldsToRobot ? p.responsibility : COOPERATIVE,
        },
        neighbors.slice(0, ORCA.maxNeighbors),
        obstacleNeighborsInGrid(this.grid, position, rangeSq),
        this.vertices,
        dt,
      ).velocity;
      return [v.x, v.y] as Tuple;
    });
    this.peds.forEach((p, i) => {
      p.vel = next[i];
      p.pos = [p.pos[0] + p.vel[0] * dt, p.pos[1] + p.vel[1] * dt];
      if (Math.hypot(p.vel[0], p.vel[1]) > MOVING_SPEED) p.heading = Math.atan2(p.vel[1], p.vel[0]);
      p.walked = p.path.length > 0;
      if (p.walked) p.anchor = p.pos;
    });
  }

  /**
   * Preferred velocity toward the next waypoint of the path; with an empty path, back toward the
   * anchor (at most HOLD_SPEED, easing in over EASE_TIME; zero within HOLD_TOLERANCE), so a
   * standing pedestrian that stepped aside for someone returns to its spot (as an RVO2 agent whose
   * preferred velocity points at its goal, capped at 1 m/s in RVO2's examples).
   */
  private preferred(p: Ped): Tuple {
    while (p.path.length > 0 && Math.hypot(p.path[0][0] - p.pos[0], p.path[0][1] - p.pos[1]) < WAYPOINT_REACHED) p.path.shift();
    if (p.path.length === 0) {
      const d = Math.hypot(p.anchor[0] - p.pos[0], p.anchor[1] - p.pos[1]);
      if (d < HOLD_TOLERANCE) return [0, 0];
      const speed = Math.min(HOLD_SPEED, d / EASE_TIME);
      return [((p.anchor[0] - p.pos[0]) / d) * speed, ((p.anchor[1] - p.pos[1]) / d) * speed];
    }
    const [tx, ty] = p.path[0];
    const d = Math.hypot(tx - p.pos[0], ty - p.pos[1]);
    const speed = p.path.length === 1 ? Math.min(p.speed, d / EASE_TIME) : p.speed; // ease into the last waypoint
    return [((tx - p.pos[0]) / d) * speed, ((ty - p.pos[1]) / d) * speed];
  }

  /** The behaviour state machine: triggers and the path each behaviour walks. */
  private control(p: Ped, robot: RobotState, dt: number): void {
    const s = p.spec;
    const distance = Math.hypot(robot.x - p.pos[0], robot.y - p.pos[1]);
    const fire = !p.triggered && s.triggerDistance !== undefined && distance <= s.triggerDistance;
    if (fire) p.triggered = true;
    switch (s.behaviour) {
      case 'obstructing':
        if (fire) p.path = [s.params?.target as Tuple];
        break;
      case 'frontal':
      case 'overtaking':
      case 'ped-crossing':
        if (fire) p.path = [...(s.route ?? [])].slice(1);
        break;
      case 'lateral':
        if (fire) {
          // Time the crossing to reach the crossing point when the robot would if it kept its
          // velocity: walk at the pedestrian's own speed, starting after the difference in arrival times.
          const cross = s.params?.crossPoint as Tuple;
          const robotTime = Math.hypot(cross[0] - robot.x, cross[1] - robot.y) / Math.max(robot.v, LATERAL_MIN_ROBOT_SPEED);
          const pedTime = Math.hypot(cross[0] - p.pos[0], cross[1] - p.pos[1]) / p.speed;
          p.startAt = this.time + Math.max(0, robotTime - pedTime);
          p.pending = [cross, s.params?.exit as Tuple];
        }
        if (this.time >= p.startAt) {
          p.path = p.pending;
          p.startAt = Infinity;
        }
        break;
      case 'gesturing':
        if (fire) p.gesture = 'stop';
        if (p.triggered) p.heading = Math.atan2(robot.y - p.pos[1], robot.x - p.pos[0]);
        break;
      case 'queuing':
        this.queue(p, dt);
        break;
      case 'interact':
        this.interact(p, p.interact!, dt);
        break;
      default:
        break;
    }
  }

  /**
   * Interact: once the object is reached (the last waypoint, within reach), stand there facing
   * `facing` (responsibility 0) for `duration` s rounded to whole steps, then walk the exit points
   * cooperatively.
   */
  private interact(p: Ped, a: InteractParams, dt: number): void {
    if (p.phase === 'approach') {
      const reached = p.path.length === 0 || (p.path.length === 1 && Math.hypot(a.object[0] - p.pos[0], a.object[1] - p.pos[1]) < WAYPOINT_REACHED);
      if (reached) {
        p.phase = 'stay';
        p.path = [];
        p.clock = 0;
        p.responsibility = 0;
      }
    }
    if (p.phase === 'stay') {
      if (p.clock >= a.duration - 0.5 * dt) {
        p.phase = 'leave';
        p.responsibility = COOPERATIVE;
        p.path = [...a.exit];
      } else {
        p.clock += dt;
        p.heading = Math.atan2(a.facing[1] - p.pos[1], a.facing[0] - p.pos[0]);
      }
    }
  }

  /**
   * Queue: members stand at their places (place 0, the head, at the front in the direction the
   * line faces). Only the head is served: `params.wait` s after it started standing at the front
   * it steps aside (QUEUE_STEP_ASIDE to `params.exitSide` of the line's direction `spec.heading`, +1
   * left by default, and QUEUE_STEP_AHEAD on) and walks QUEUE_SERVED_WALK − QUEUE_SERVED_SPACING · order on along that
   * direction (each stops short of those served before it, so nobody stands on anyone). When a place ahead frees,
   * a standing follower closes up to the first free place of the original line; its clock restarts
   * when it arrives (its path empties), so each member waits its own time from arrival.
   */
  private queue(p: Ped, dt: number): void {
    if (p.triggered) return;
    const order = Number(p.spec.params?.order ?? 0);
    const members = this.peds.filter((q) => q.spec.behaviour === 'queuing' && q.spec.group === p.spec.group);
    const ahead = members.filter((q) => Number(q.spec.params?.order ?? 0) < order && !q.triggered).length;
    if (ahead < p.place && p.path.length === 0) {
      // A place ahead freed: close up to the first free place of the original line.
      const place = members.find((q) => Number(q.spec.params?.order ?? 0) === ahead);
      if (place) {
        p.path = [place.spec.spawn as Tuple];
        p.speed = QUEUE_CLOSE_UP_SPEED;
        p.place = ahead;
      }
    }
    if (p.path.length > 0) {
      p.clock = 0; // walking to its place: the wait starts on arrival
      return;
    }
    p.clock += dt;
    if (p.place === 0 && p.clock >= Number(p.spec.params?.wait ?? 10)) {
      p.triggered = true;
      const side = Number(p.spec.params?.exitSide ?? 1) < 0 ? -1 : 1;
      const [c, s] = [Math.cos(p.spec.heading), Math.sin(p.spec.heading)]; // the line's direction
      const aside: Tuple = [p.pos[0] + QUEUE_STEP_AHEAD * c - side * QUEUE_STEP_ASIDE * s, p.pos[1] + QUEUE_STEP_AHEAD * s + side * QUEUE_STEP_ASIDE * c];
      const walk = QUEUE_SERVED_WALK - QUEUE_SERVED_SPACING * order; // stops short of those served before
      p.path = [aside, [aside[0] + walk * c, aside[1] + walk * s]];
      p.speed = QUEUE_SERVED_SPEED;
    }
  }
}
