/**
 * The description of a crowd that both backends (the TypeScript reference and the GPU) simulate:
 * agents with RVO2's per-agent parameters plus a goal, obstacles, and the time step. Several
 * independent environments may share one crowd: agents and obstacles only interact within their
 * own `env`. World frame Z up; the crowd lives in the x-y plane; SI units.
 */
import type { ObstaclePolygon } from './obstacles';
import type { Vec2 } from './vec2';

/** One agent (RVO2 `RVOSimulator::addAgent` parameters, `RVO.h` units) plus goal and env. */
export interface AgentSpec {
  /** Start position, m. */
  position: Vec2;
  /** Start velocity, m/s (RVO2 default 0). */
  velocity?: Vec2;
  /** Goal position, m; the preferred velocity points at it (see {@link preferredVelocity}). */
  goal: Vec2;
  /** Disc radius, m (> 0). */
  radius: number;
  /** Speed limit, m/s (> 0). */
  maxSpeed: number;
  /** Preferred walking speed, m/s (RVO2's examples use 1). */
  prefSpeed: number;
  /** Neighbour search radius, m (> 0). */
  neighborDist: number;
  /** Largest number of agent neighbours considered (integer ≥ 0). */
  maxNeighbors: number;
  /** τ for agents, s (> 0). */
  timeHorizon: number;
  /** τ for obstacles, s (> 0). */
  timeHorizonObst: number;
  /** Share of each pairwise avoidance this agent takes, [0, 1]; 0.5 = ORCA's reciprocal split. */
  responsibility: number;
  /** The agent counts as at its goal within this distance, m (≥ 0). */
  goalRadius: number;
  /** Environment index, integer in [0, envCount). */
  env: number;
}

/** A whole crowd: one or more environments simulated in lock step. */
export interface CrowdSpec {
  /** Simulation step, s (> 0). */
  timeStep: number;
  /** Number of independent environments (≥ 1). */
  envCount: number;
  agents: AgentSpec[];
  obstacles: ObstaclePolygon[];
}

/** Agent parameters with RVO2's example defaults where RVO2 has them (Circle.cc). */
export const DEFAULT_AGENT: Omit<AgentSpec, 'position' | 'goal' | 'env'> = {
  radius: 1.5,
  maxSpeed: 2,
  prefSpeed: 1,
  neighborDist: 15,
  maxNeighbors: 10,
  timeHorizon: 10,
  timeHorizonObst: 10,
  responsibility: 0.5,
  goalRadius: 1.5,
};

/**
 * The preferred velocity of RVO2's examples, generalised to a walking speed s: g = goal − position;
 * g scaled to length s when |g| > s, else g itself (slows to a stop at the goal; with s = 1 this is
 * exactly `setPreferredVelocities` in Circle.cc / Blocks.cc, minus Blocks' random perturbation, for
 * which Curbside uses seeded spawn jitter). Units: m → m/s over one second.
 */
export function preferredVelocity(position: Vec2, goal: Vec2, prefSpeed: number): Vec2 {
  const gx = goal.x - position.x;
  const gy = goal.y - position.y;
  const lenSq = gx * gx + gy * gy;
  if (lenSq > prefSpeed * prefSpeed) {
    const k = prefSpeed / Math.sqrt(lenSq);
    return { x: gx * k, y: gy * k };
  }
  return { x: gx, y: gy };
}

/**
 * Checks a crowd's numbers (the scenario-file loader reports field names itself; this guards the
 * API for programmatic callers).
 *
 * @throws Error `CrowdSpec: agents[i].field: problem` on the first bad value.
 */
export function validateCrowdSpec(spec: CrowdSpec): void {
  const fail = (where: string, what: string) => {
    throw new Error(`CrowdSpec: ${where}: ${what}`);
  };
  if (!(spec.timeStep > 0)) fail('timeStep', `must be > 0, got ${spec.timeStep}`);
  if (!Number.isInteger(spec.envCount) || spec.envCount < 1) fail('envCount', `must be an integer ≥ 1, got ${spec.envCount}`);
  spec.agents.forEach((a, i) => {
    const w = (f: string) => `agents[${i}].${f}`;
    for (const f of ['radius', 'maxSpeed', 'neighborDist', 'timeHorizon', 'timeHorizonObst'] as const) {
      if (!(a[f] > 0 && Number.isFinite(a[f]))) fail(w(f), `must be a finite number > 0, got ${a[f]}`);
    }
    if (!(a.prefSpeed >= 0)) fail(w('prefSpeed'), `must be ≥ 0, got ${a.prefSpeed}`);
    if (!(a.goalRadius >= 0)) fail(w('goalRadius'), `must be ≥ 0, got ${a.goalRadius}`);
    if (!(a.responsibility >= 0 && a.responsibility <= 1)) fail(w('responsibility'), `must be in [0, 1], got ${a.responsibility}`);
    if (!Number.isInteger(a.maxNeighbors) || a.maxNeighbors < 0) fail(w('maxNeighbors'), `must be an integer ≥ 0, got ${a.maxNeighbors}`);
    if (!Number.isInteger(a.env) || a.env < 0 || a.env >= spec.envCount) fail(w('env'), `must be an integer in [0, ${spec.envCount}), got ${a.env}`);
    for (const f of ['position', 'goal'] as const) {
      if (!Number.isFinite(a[f].x) || !Number.isFinite(a[f].y)) fail(w(f), 'non-finite coordinate');
    }
  });
}

/** The largest neighborDist of any agent (at least 1 mm): the neighbour grid's cell size, m. */
export function maxNeighborDist(spec: CrowdSpec): number {
  return spec.agents.reduce((m, a) => Math.max(m, a.neighborDist), 1e-3);
}
