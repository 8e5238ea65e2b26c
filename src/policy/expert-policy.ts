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
 * Larger obstacles (buildings, shelters) stay polygons.
 */
import type { Polygon } from '../core/geometry2d';
import type { EpisodePolicy, Observation } from '../bench/episode';
import { computeNewVelocity, type OrcaNeighbor } from '../crowd/orca';
import { buildObstacleVertices, obstacleNeighbors, type ObstacleVertex } from '../crowd/obstacles';
import type { RobotSpec } from '../robot/robot-spec';
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
}

export const DEFAULT_EXPERT: ExpertOptions = {
  rateHz: 10,
  lookahead: 1.5,
  cruiseSpeed: 1.2,
  radius: 0.45,
  pedestrianMargin: 0.15,
  timeHorizon: 3,
  timeHorizonObst: 2,
  neighborDist: 8,
  headingGain: 2,
  symmetryBreak: 0.05,
  discObstacleRadius: 0.8,
};

export class ExpertPolicy implements EpisodePolicy {
  readonly name = 'expert';
  readonly rateHz: number;
  private obstacles: Polygon[] | null = null;
  private vertices: ObstacleVertex[] = [];
  private range: [number, number] = [0, 0];
  private discs: OrcaNeighbor[] = [];

  constructor(private readonly spec: RobotSpec, private readonly opts: ExpertOptions = DEFAULT_EXPERT) {
    this.rateHz = opts.rateHz;
  }

  async reset(): Promise<void> {}

  async act(obs: Observation): Promise<VelocityCommand> {
    const o = this.opts;
    const s = obs.state;
    if (obs.obstacles !== this.obstacles) {
      this.obstacles = obs.obstacles;
      const large: Polygon[] = [];
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
    const route = obs.route;
    const [tx, ty] = route.pointAt(route.progress + o.lookahead);
    const remaining = route.length - route.progress;
    const dx = tx - s.x;
    const dy = ty - s.y;
    const d = Math.hypot(dx, dy) || 1;
    const c = Math.cos(o.symmetryBreak);
    const sn = Math.sin(o.symmetryBreak);
    const ux = (c * dx - sn * dy) / d;
    const uy = (sn * dx + c * dy) / d;
    const speed = Math.min(o.cruiseSpeed, Math.max(0.3, remaining));
    const position = { x: s.x, y: s.y };
    const neighbors: OrcaNeighbor[] = obs.pedestrians
      .map((p, i) => ({ position: { x: p.x, y: p.y }, velocity: { x: obs.pedestrianVelocities[i]?.[0] ?? 0, y: obs.pedestrianVelocities[i]?.[1] ?? 0 }, radius: p.radius + o.pedestrianMargin }))
      .concat(this.discs)
      .filter((n) => Math.hypot(n.position.x - s.x, n.position.y - s.y) < o.neighborDist)
      .sort((a, b) => Math.hypot(a.position.x - s.x, a.position.y - s.y) - Math.hypot(b.position.x - s.x, b.position.y - s.y));
    const rangeSq = (o.timeHorizonObst * this.spec.maxLinearSpeed + o.radius) ** 2;
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
      obstacleNeighbors(this.vertices, this.range, position, rangeSq),
      this.vertices,
      1 / this.rateHz,
    );
    const vx = result.velocity.x;
    const vy = result.velocity.y;
    const vmag = Math.hypot(vx, vy);
    if (vmag < 1e-3) return { v: 0, w: 0 };
    const err = wrapAngle(Math.atan2(vy, vx) - s.yaw);
    return { v: vmag * Math.max(0, Math.cos(err)), w: Math.max(-this.spec.maxAngularSpeed, Math.min(this.spec.maxAngularSpeed, o.headingGain * err)) };
  }
}
