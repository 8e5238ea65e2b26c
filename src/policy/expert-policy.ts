/**
 * The privileged expert: knows the map, the route and the pedestrians. It follows the reference
 * route by pure pursuit (a look-ahead point on the route; Coulter 1992) and avoids pedestrians and
 * static obstacles with ORCA (van den Berg et al. 2011), treating itself as a disc that takes full
 * responsibility (pedestrians in SidewalkBench's reactive scenarios do not give way). The ORCA
 * velocity is turned into (v, ω) for the unicycle: ω steers toward its heading, v is its speed
 * scaled by cos of the heading error. The reference upper bound of the benchmark and the source of
 * demonstrations.
 *
 * Small static obstacles (circumradius ≤ `discObstacleRadius`: posts, hydrants, bins) are given to
 * ORCA as standing discs rather than polygon edges: an edge half-plane dead ahead only slows the
 * robot to a stop (ORCA is local), while a disc's velocity-obstacle cone has legs to slide along.
 * Larger obstacles (buildings, shelters) stay polygons. The walkable area's boundary within
 * `edgeRange` is added as two-sided segment obstacles so the expert does not dodge off the
 * sidewalk, and it stops for a pedestrian raising a stop gesture ahead (SidewalkBench's Gesturing).
 *
 * ORCA is local and its disc (the footprint's half-diagonal) asks for more room than a 1.7–3 m
 * sidewalk has beside a queue or a non-yielding oncoming pedestrian, and the unicycle turns slowly.
 * So a lateral plan (expert-lateral.ts) picks, early, the offset across the sidewalk at which to
 * pass the standing groups, slow walkers and oncoming pedestrians ahead; pure pursuit follows the
 * route shifted by it, the speed drops until the sidestep is done (to a stop short of a body that
 * leaves no gap), and the bodies being passed get a tighter ORCA disc consistent with the planned
 * clearance. Last, a command that would swing a footprint corner over the kerb or into a pedestrian
 * within `kerbHorizon` (turning in place sweeps the half-diagonal) loses its turn, or stops.
 */
import { closestOnSegment, type Ring, type Vec2 } from '../core/geometry2d';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import { computeNewVelocity, type OrcaNeighbor } from '../crowd/orca';
import { buildObstacleVertices, obstacleNeighbors, type ObstacleVertex } from '../crowd/obstacles';
import type { RobotSpec } from '../robot/robot-spec';
import { clearOfPedestrians, edgesNearRoute, keepsOnWalkable, planLateral, type LateralPlan } from './expert-lateral';
import { wrapAngle, type VelocityCommand } from '../robot/unicycle';

export interface ExpertOptions {
  /** Control rate, Hz. */
  rateHz: number;
  /** Pure-pursuit look-ahead along the route, metres. */
  lookahead: number;
  /** Cruise speed, m/s (≤ the robot's limit). */
  cruiseSpeed: number;
  /** The robot's ORCA disc radius, metres (covers the footprint's half-diagonal). */
  radius: number;
  /** Extra clearance added to pedestrians' 0.3 m cylinders, metres. */
  pedestrianMargin: number;
  /** ORCA time horizons for pedestrians and obstacles, s. */
  timeHorizon: number;
  timeHorizonObst: number;
  /** Pedestrians farther than this are ignored, metres. */
  neighborDist: number;
  /** Heading gain, 1/s: ω = gain · heading error. */
  headingGain: number;
  /**
   * Rotation of the preferred velocity, radians, so an obstacle dead ahead on the route is passed on
   * one side instead of stalling in ORCA's symmetric case (RVO2's examples perturb for the same reason).
   */
  symmetryBreak: number;
  /** Obstacles with a circumradius up to this, metres, are avoided as discs (see the module doc). */
  discObstacleRadius: number;
  /** Walkable-boundary segments within this distance, metres, are ORCA obstacles. */
  edgeRange: number;
  /** Stop when a pedestrian gesturing stop is ahead within this distance of the front, metres. */
  gestureStopDistance: number;
  /**
   * Caution: with a pedestrian within `cautionLateral` metres of the robot's line and within
   * `cautionAhead` metres ahead, speed is capped at `cautionSpeed` so a pedestrian who steps in
   * (Lateral, Obstructing) can still be avoided within the robot's braking limit.
   */
  cautionAhead: number;
  cautionLateral: number;
  cautionSpeed: number;
  /**
   * Pedestrian margin, metres, for the bodies the lateral plan is passing (negative: the disc is then
   * smaller than the robot's half-diagonal plus the cylinder, as the plan keeps the footprint aligned).
   */
  passingMargin: number;
  /** Speed while the sidestep of the lateral plan is not done, m/s. */
  shiftSpeed: number;
  /** Commands whose footprint would cross the walkable boundary within this time, s, are cut. */
  kerbHorizon: number;
}

export const DEFAULT_EXPERT: ExpertOptions = {
  rateHz: 10,
  lookahead: 1.5,
  cruiseSpeed: 1.2,
  radius: 0.45,
  pedestrianMargin: 0.15,
  timeHorizon: 5,
  timeHorizonObst: 2,
  neighborDist: 8,
  headingGain: 2,
  symmetryBreak: 0.05,
  discObstacleRadius: 0.8,
  edgeRange: 4,
  gestureStopDistance: 2.2,
  cautionAhead: 5,
  cautionLateral: 2.5,
  cautionSpeed: 0.6,
  passingMargin: -0.1,
  shiftSpeed: 0.6,
  kerbHorizon: 0.5,
};

/** Standing pedestrians closer than this, metres, form one group the expert passes as a whole. */
export const GROUP_LINK_DISTANCE = 1.8;

/**
 * Pedestrians as ORCA discs. Standing pedestrians (< 0.1 m/s) linked within GROUP_LINK_DISTANCE
 * form a group the expert passes as a whole, never between its members (SidewalkBench's success
 * rule for Conversing and Queuing): a compact group (a conversing circle) becomes one disc around it,
 * so ORCA sees one convex body instead of a cluster to get stuck in; an elongated one (a queue)
 * becomes its members plus a disc between each linked pair, a chain with no gap, since one disc
 * around a queue would block the whole sidewalk.
 */
export function pedestrianDiscs(obs: Pick<Observation, 'pedestrians' | 'pedestrianVelocities'>, margin: number, marginOf: (i: number) => number = () => margin, chained: (i: number) => boolean = () => false): OrcaNeighbor[] {
  const n = obs.pedestrians.length;
  const speed = (i: number) => Math.hypot(obs.pedestrianVelocities[i]?.[0] ?? 0, obs.pedestrianVelocities[i]?.[1] ?? 0);
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = obs.pedestrians[i];
      const b = obs.pedestrians[j];
      if (speed(i) < 0.1 && speed(j) < 0.1 && Math.hypot(a.x - b.x, a.y - b.y) < GROUP_LINK_DISTANCE) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  const out: OrcaNeighbor[] = [];
  for (const members of groups.values()) {
    const ped = (i: number) => obs.pedestrians[i];
    const cx = members.reduce((a, i) => a + ped(i).x, 0) / members.length;
    const cy = members.reduce((a, i) => a + ped(i).y, 0) / members.length;
    const r = Math.max(...members.map((i) => Math.hypot(ped(i).x - cx, ped(i).y - cy) + ped(i).radius));
    const m = Math.min(...members.map(marginOf));
    if (members.length === 1 || (r <= COMPACT_GROUP_RADIUS && !members.some(chained))) {
      const vx = members.length === 1 ? obs.pedestrianVelocities[members[0]]?.[0] ?? 0 : 0;
      const vy = members.length === 1 ? obs.pedestrianVelocities[members[0]]?.[1] ?? 0 : 0;
      out.push({ position: { x: cx, y: cy }, velocity: { x: vx, y: vy }, radius: r + m });
      continue;
    }
    // An elongated group (a queue): its members plus a disc between every linked pair, so the chain
    // has no gap to squeeze through.
    for (const i of members) out.push({ position: { x: ped(i).x, y: ped(i).y }, velocity: { x: 0, y: 0 }, radius: ped(i).radius + m });
    for (const i of members) {
      for (const j of members) {
        if (j <= i || Math.hypot(ped(i).x - ped(j).x, ped(i).y - ped(j).y) >= GROUP_LINK_DISTANCE) continue;
        out.push({ position: { x: (ped(i).x + ped(j).x) / 2, y: (ped(i).y + ped(j).y) / 2 }, velocity: { x: 0, y: 0 }, radius: ped(i).radius + m });
      }
    }
  }
  return out;
}

/** A standing group whose members all lie within this radius of its centre is avoided as one disc, metres. */
export const COMPACT_GROUP_RADIUS = 1.3;

export class ExpertPolicy implements EpisodePolicy {
  readonly name = 'expert';
  readonly rateHz: number;
  private obstacles: Ring[] | null = null;
  private vertices: ObstacleVertex[] = [];
  private range: [number, number] = [0, 0];
  private discs: OrcaNeighbor[] = [];
  private walkableEdges: [Vec2, Vec2][] | null = null;
  private routePoints: Vec2[] | null = null;
  private routeEdges: [Vec2, Vec2][] = [];
  private lastTarget: number | null = null;
  /** The lateral plan of the last control step (null without walkable edges), for inspection. */
  lastPlan: LateralPlan | null = null;

  constructor(private readonly spec: RobotSpec, private readonly opts: ExpertOptions = DEFAULT_EXPERT) {
    this.rateHz = opts.rateHz;
  }

  async reset(): Promise<void> {
    this.lastTarget = null;
  }

  async act(obs: Observation): Promise<VelocityCommand> {
    const o = this.opts;
    const s = obs.state;
    if (obs.obstacles !== this.obstacles) {
      this.obstacles = obs.obstacles;
      const large: Ring[] = [];
      this.discs = [];
      for (const p of obs.obstacles) {
        const cx = p.reduce((a, q) => a + q[0], 0) / p.length;
        const cy = p.reduce((a, q) => a + q[1], 0) / p.length;
        const r = Math.max(...p.map(([x, y]) => Math.hypot(x - cx, y - cy)));
        if (r <= o.discObstacleRadius) this.discs.push({ position: { x: cx, y: cy }, velocity: { x: 0, y: 0 }, radius: r + 0.05 });
        else large.push(p);
      }
      const built = buildObstacleVertices(large.map((p) => ({ env: 0, vertices: p.map(([x, y]) => ({ x, y })) })), 1);
      this.vertices = built.vertices;
      this.range = built.envRanges[0];
    }
    for (let i = 0; i < obs.pedestrians.length; i++) {
      if (obs.pedestrianGestures[i] !== 'stop') continue;
      const p = obs.pedestrians[i];
      const dx = p.x - s.x;
      const dy = p.y - s.y;
      const ahead = dx * Math.cos(s.yaw) + dy * Math.sin(s.yaw);
      const lateral = -dx * Math.sin(s.yaw) + dy * Math.cos(s.yaw);
      const front = this.spec.footprintOffsetX + this.spec.length / 2;
      if (ahead > 0 && Math.abs(lateral) < 1.5 && ahead - front - p.radius <= o.gestureStopDistance) return { v: 0, w: 0 };
    }
    const route = obs.route;
    if (obs.walkableEdges !== this.walkableEdges || route.route !== this.routePoints) {
      // Per world and route (a policy instance may run many episodes).
      this.walkableEdges = obs.walkableEdges;
      this.routePoints = route.route;
      this.routeEdges = edgesNearRoute(obs.walkableEdges, route.route, o.edgeRange + 4);
    }
    // Where across the sidewalk to pass the pedestrians ahead (see expert-lateral.ts).
    const plan = this.routeEdges.length > 0 ? planLateral(obs, this.spec, this.routeEdges, this.lastTarget, this.discs) : null;
    this.lastPlan = plan;
    const passing = plan !== null && plan.bodies.length > 0;
    this.lastTarget = passing && plan.blockedAt === null ? plan.target : null;
    const shift = passing ? plan.target : 0;
    const [px, py] = route.pointAt(route.progress + o.lookahead);
    const tx = px + (plan ? plan.normal[0] * shift : 0);
    const ty = py + (plan ? plan.normal[1] * shift : 0);
    const remaining = route.length - route.progress;
    const dx = tx - s.x;
    const dy = ty - s.y;
    const d = Math.hypot(dx, dy) || 1;
    const c = Math.cos(o.symmetryBreak);
    const sn = Math.sin(o.symmetryBreak);
    const ux = (c * dx - sn * dy) / d;
    const uy = (sn * dx + c * dy) / d;
    let speed = Math.min(o.cruiseSpeed, Math.max(0.3, remaining));
    for (const p of obs.pedestrians) {
      const ax = (p.x - s.x) * Math.cos(s.yaw) + (p.y - s.y) * Math.sin(s.yaw);
      const ay = -(p.x - s.x) * Math.sin(s.yaw) + (p.y - s.y) * Math.cos(s.yaw);
      if (ax > 0 && ax < o.cautionAhead && Math.abs(ay) < o.cautionLateral) speed = Math.min(speed, o.cautionSpeed);
    }
    const planned = new Set<number>();
    if (passing) {
      speed = Math.min(speed, passingSpeed(plan, this.spec, o));
      // Only standing and oncoming bodies: a walker that merely slowed down may turn into the robot.
      const standing = (i: number) => Math.hypot(obs.pedestrianVelocities[i]?.[0] ?? 0, obs.pedestrianVelocities[i]?.[1] ?? 0) < 0.1;
      for (const b of plan.bodies) for (const i of b.members) if (b.oncoming || standing(i)) planned.add(i);
    }
    const position = { x: s.x, y: s.y };
    // Bodies being passed by the plan get a tighter disc, consistent with the planned clearance.
    const neighbors: OrcaNeighbor[] = pedestrianDiscs(obs, o.pedestrianMargin, (i) => (planned.has(i) ? o.passingMargin : o.pedestrianMargin), (i) => planned.has(i))
      .concat(this.discs)
      .filter((n) => Math.hypot(n.position.x - s.x, n.position.y - s.y) < o.neighborDist)
      .sort((a, b) => Math.hypot(a.position.x - s.x, a.position.y - s.y) - Math.hypot(b.position.x - s.x, b.position.y - s.y));
    const rangeSq = (o.timeHorizonObst * this.spec.maxLinearSpeed + o.radius) ** 2;
    // Nearby walkable-boundary segments join the static obstacles for this step.
    const edges = obs.walkableEdges.filter(([a, b]) => closestOnSegment(s.x, s.y, a[0], a[1], b[0], b[1]).dist2 < o.edgeRange ** 2 && (a[0] !== b[0] || a[1] !== b[1]));
    let vertices = this.vertices;
    let range = this.range;
    if (edges.length > 0) {
      const extra = buildObstacleVertices(edges.map(([a, b]) => ({ env: 0, vertices: [{ x: a[0], y: a[1] }, { x: b[0], y: b[1] }] })), 1).vertices;
      const offset = this.vertices.length;
      vertices = [...this.vertices, ...extra.map((v) => ({ ...v, next: v.next + offset, prev: v.prev + offset }))];
      range = [0, vertices.length];
    }
    const result = computeNewVelocity(
      {
        position,
        velocity: { x: s.v * Math.cos(s.yaw), y: s.v * Math.sin(s.yaw) },
        prefVelocity: { x: ux * speed, y: uy * speed },
        radius: o.radius,
        maxSpeed: this.spec.maxLinearSpeed,
        timeHorizon: o.timeHorizon,
        timeHorizonObst: o.timeHorizonObst,
        responsibility: 1,
      },
      neighbors,
      obstacleNeighbors(vertices, range, position, rangeSq),
      vertices,
      1 / this.rateHz,
    );
    const vx = result.velocity.x;
    const vy = result.velocity.y;
    const vmag = Math.hypot(vx, vy);
    if (vmag < 1e-3) return { v: 0, w: 0 };
    const err = wrapAngle(Math.atan2(vy, vx) - s.yaw);
    const cmd = { v: vmag * Math.max(0, Math.cos(err)), w: Math.max(-this.spec.maxAngularSpeed, Math.min(this.spec.maxAngularSpeed, o.headingGain * err)) };
    // Never swing a corner over the kerb or into a pedestrian (turning in place sweeps the
    // half-diagonal): drop the turn, then stop, when the command would.
    const kerbSafe = (c: VelocityCommand) => this.routeEdges.length === 0 || keepsOnWalkable(s, c, this.spec, this.routeEdges, o.kerbHorizon);
    const pedSafe = (c: VelocityCommand) => clearOfPedestrians(s, c, this.spec, obs, o.kerbHorizon, 0.05);
    const options: VelocityCommand[] = [cmd, { v: cmd.v, w: 0 }, { v: 0, w: 0 }];
    return options.find((c) => kerbSafe(c) && pedSafe(c)) ?? options.find(kerbSafe) ?? { v: 0, w: 0 };
  }
}

/** Speed cap while passing the plan's bodies: slow until the sidestep is done, stop short of a body that leaves no gap. */
export function passingSpeed(plan: LateralPlan, spec: RobotSpec, o: ExpertOptions): number {
  const front = spec.footprintOffsetX + spec.length / 2;
  if (plan.blockedAt !== null) return Math.max(0, Math.min(o.cruiseSpeed, 0.8 * (plan.blockedAt - front - 0.6)));
  const err = Math.abs(plan.robotLateral - plan.target);
  // Only bodies the robot is not yet beside (its footprint would overlap them laterally) slow it down.
  const half = spec.width / 2 + 0.1;
  const conflicts = plan.bodies.filter((b) => plan.robotLateral > b.lateral[0] - half && plan.robotLateral < b.lateral[1] + half);
  let speed = Infinity;
  if (err > 0.15 && conflicts.length > 0) speed = o.shiftSpeed;
  for (const b of conflicts) {
    if (!b.oncoming && b.along[0] - front < 1.2) speed = Math.min(speed, 0.25);
    if (b.oncoming && b.meet < 2) speed = Math.min(speed, 0.25);
  }
  return speed;
}
