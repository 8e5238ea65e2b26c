/**
 * The CPU reference simulator (RVO2 `RVOSimulator::doStep` semantics): each step sets preferred
 * velocities toward the goals, finds neighbours, computes every agent's new velocity from the
 * current state, and only then moves all agents (double-buffered: read A, write B, swap).
 */
import { AgentGrid } from './agent-grid';
import { type AgentSpec, type CrowdSpec, maxNeighborDist, preferredVelocity, validateCrowdSpec } from './crowd-spec';
import { OVERLAP_TOLERANCE, type StateMetrics } from './crowd-metrics';
import { buildObstacleVertices, obstacleNeighbors, type ObstacleVertex } from './obstacles';
import { computeNewVelocity, type OrcaNeighbor } from './orca';
import { vec2, type Vec2 } from './vec2';

/** Options shared with the GPU backend. */
export interface CrowdOptions {
  /** Cap on obstacle neighbours per agent (the GPU's fixed capacity); RVO2 has none. */
  maxObstacleNeighbors?: number;
}

/** Plain-TypeScript ORCA crowd (float64). */
export class ReferenceCrowd {
  /** Interleaved x, y positions (m) of the current state. */
  positions: Float64Array;
  /** Interleaved x, y velocities (m/s) of the current state. */
  velocities: Float64Array;
  private nextPositions: Float64Array;
  private nextVelocities: Float64Array;
  private readonly envs: Int32Array;
  private readonly vertices: ObstacleVertex[];
  private readonly envRanges: [number, number][];
  private readonly cellSize: number;
  /** Steps taken. */
  stepCount = 0;
  /** Branch counts of the last computeNewVelocities (for test coverage reports). */
  stats = { obstacleLineAgents: 0, agentLineAgents: 0, linearProgram3Agents: 0 };

  /** @throws Error from {@link validateCrowdSpec} or obstacle building. */
  constructor(readonly spec: CrowdSpec, readonly options: CrowdOptions = {}) {
    validateCrowdSpec(spec);
    const n = spec.agents.length;
    this.positions = new Float64Array(2 * n);
    this.velocities = new Float64Array(2 * n);
    this.nextPositions = new Float64Array(2 * n);
    this.nextVelocities = new Float64Array(2 * n);
    this.envs = Int32Array.from(spec.agents, (a) => a.env);
    spec.agents.forEach((a, i) => {
      this.positions.set([a.position.x, a.position.y], 2 * i);
      this.velocities.set([a.velocity?.x ?? 0, a.velocity?.y ?? 0], 2 * i);
    });
    ({ vertices: this.vertices, envRanges: this.envRanges } = buildObstacleVertices(spec.obstacles, spec.envCount));
    this.cellSize = maxNeighborDist(spec);
  }

  /** Position of agent i, m. */
  position(i: number): Vec2 {
    return vec2(this.positions[2 * i], this.positions[2 * i + 1]);
  }

  /** Velocity of agent i, m/s. */
  velocity(i: number): Vec2 {
    return vec2(this.velocities[2 * i], this.velocities[2 * i + 1]);
  }

  /** New velocity of every agent from the current state (RVO2 computeNeighbors + computeNewVelocity). */
  computeNewVelocities(): Float64Array {
    const grid = this.grid();
    const out = new Float64Array(this.velocities.length);
    this.stats = { obstacleLineAgents: 0, agentLineAgents: 0, linearProgram3Agents: 0 };
    for (let i = 0; i < this.spec.agents.length; i++) {
      const { velocity, lines, numObstLines, lineFail } = this.solveAgent(i, grid);
      if (numObstLines > 0) this.stats.obstacleLineAgents++;
      if (lines.length > numObstLines) this.stats.agentLineAgents++;
      if (lineFail < lines.length) this.stats.linearProgram3Agents++;
      out[2 * i] = velocity.x;
      out[2 * i + 1] = velocity.y;
    }
    return out;
  }

  /** ORCA for agent i in the current state: new velocity, its lines and the LP outcome. */
  solveAgent(i: number, grid = this.grid()): ReturnType<typeof computeNewVelocity> {
    const a = this.spec.agents[i];
    const position = this.position(i);
    const neighbors: OrcaNeighbor[] = grid
      .kNearest(i, a.neighborDist * a.neighborDist, a.maxNeighbors)
      .map((j) => ({ position: this.position(j), velocity: this.velocity(j), radius: this.spec.agents[j].radius }));
    const obstRange = (a.timeHorizonObst * a.maxSpeed + a.radius) ** 2;
    const obst = obstacleNeighbors(this.vertices, this.envRanges[a.env], position, obstRange, this.options.maxObstacleNeighbors);
    return computeNewVelocity(
      { ...orcaParams(a), position, velocity: this.velocity(i), prefVelocity: preferredVelocity(position, a.goal, a.prefSpeed) },
      neighbors, obst, this.vertices, this.spec.timeStep,
    );
  }

  private grid(): AgentGrid {
    return new AgentGrid(this.positions, this.envs, this.cellSize);
  }

  /** One simulation step: all new velocities first, then all moves (RVO2 `doStep`). */
  step(): void {
    const v = this.computeNewVelocities();
    const dt = this.spec.timeStep;
    for (let k = 0; k < v.length; k++) {
      this.nextVelocities[k] = v[k];
      this.nextPositions[k] = this.positions[k] + v[k] * dt;
    }
    [this.positions, this.nextPositions] = [this.nextPositions, this.positions];
    [this.velocities, this.nextVelocities] = [this.nextVelocities, this.velocities];
    this.stepCount++;
  }

  /** Metrics of the current state (see crowd-metrics.ts). */
  measure(): StateMetrics {
    const grid = this.grid();
    const m: StateMetrics = { minPairDistance: Infinity, overlapAgents: 0, reachedAgents: 0, speedSum: 0 };
    this.spec.agents.forEach((a, i) => {
      let overlap = false;
      grid.forEachCandidate(i, (j, d) => {
        if (d >= a.neighborDist * a.neighborDist) return;
        m.minPairDistance = Math.min(m.minPairDistance, Math.sqrt(d));
        if (Math.sqrt(d) < a.radius + this.spec.agents[j].radius - OVERLAP_TOLERANCE) overlap = true;
      });
      if (overlap) m.overlapAgents++;
      const p = this.position(i);
      if ((p.x - a.goal.x) ** 2 + (p.y - a.goal.y) ** 2 <= a.goalRadius * a.goalRadius) m.reachedAgents++;
      m.speedSum += Math.hypot(this.velocities[2 * i], this.velocities[2 * i + 1]);
    });
    return m;
  }
}

/** The ORCA parameters of an agent spec. */
export function orcaParams(a: AgentSpec) {
  return {
    radius: a.radius, maxSpeed: a.maxSpeed, timeHorizon: a.timeHorizon,
    timeHorizonObst: a.timeHorizonObst, responsibility: a.responsibility,
  };
}
