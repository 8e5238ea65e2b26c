/**
 * RVO2's example set-ups (snape/RVO2 `examples/Circle.cc`, `examples/Blocks.cc`) as
 * {@link CrowdSpec}s, plus seeded spawn jitter: each start position moved by a uniform random
 * offset in a disc of radius `jitter` (m), drawn from `createRng(seed).fork('crowd.spawnJitter')`.
 * Exactly symmetric set-ups can deadlock in ORCA; the jitter breaks the symmetry (RVO2's Blocks
 * perturbs preferred velocities with `std::rand` each step instead, which is not reproducible).
 */
import { createRng } from '../core/random';
import { type AgentSpec, type CrowdSpec, DEFAULT_AGENT } from './crowd-spec';
import type { ObstaclePolygon } from './obstacles';
import { type Vec2, vec2 } from './vec2';

/** Spawn jitter radius used by the CLI unless told otherwise, m (10 cm: breaks the exact symmetry of RVO2 Circle, see reference-crowd.test.ts). */
export const DEFAULT_SPAWN_JITTER = 0.1;

/** Moves each agent's start by a seeded uniform offset in a disc of radius `jitter`, m. */
export function applySpawnJitter(agents: AgentSpec[], seed: number, jitter: number): void {
  if (jitter <= 0) return;
  const rng = createRng(seed).fork('crowd.spawnJitter');
  for (const a of agents) {
    const r = jitter * Math.sqrt(rng.next());
    const phi = rng.range(0, 2 * Math.PI);
    a.position = vec2(a.position.x + r * Math.cos(phi), a.position.y + r * Math.sin(phi));
  }
}

/**
 * RVO2 Circle: `agents` agents evenly on a circle of radius 200 m, each heading to the antipode;
 * dt 0.25 s; neighborDist 15 m, maxNeighbors 10, timeHorizon 10 s, timeHorizonObst 10 s, radius
 * 1.5 m, maxSpeed 2 m/s, preferred speed 1 m/s; at goal within one radius (Circle.cc `reachedGoal`).
 */
export function circleScenario(agents = 250, seed = 0, jitter = DEFAULT_SPAWN_JITTER, envCount = 1): CrowdSpec {
  const list: AgentSpec[] = [];
  for (let env = 0; env < envCount; env++) {
    for (let i = 0; i < agents; i++) {
      const a = (i * 2 * Math.PI) / agents;
      const position = vec2(200 * Math.cos(a), 200 * Math.sin(a));
      list.push({ ...DEFAULT_AGENT, position, goal: vec2(-position.x, -position.y), env });
    }
  }
  applySpawnJitter(list, seed, jitter);
  return { timeStep: 0.25, envCount, agents: list, obstacles: [] };
}

/** The four CCW square obstacles of Blocks.cc, m. */
export const BLOCKS_OBSTACLES: readonly (readonly Vec2[])[] = [
  [vec2(-10, 40), vec2(-40, 40), vec2(-40, 10), vec2(-10, 10)],
  [vec2(10, 40), vec2(10, 10), vec2(40, 10), vec2(40, 40)],
  [vec2(10, -40), vec2(40, -40), vec2(40, -10), vec2(10, -10)],
  [vec2(-10, -40), vec2(-10, -10), vec2(-40, -10), vec2(-40, -40)],
];

/**
 * RVO2 Blocks: 4 groups of 5×5 agents 10 m apart in the corners (from ±55 m), each group heading to
 * the opposite corner (±75, ±75) through the passages between four 30 m square obstacles; dt 0.25 s;
 * neighborDist 15 m, maxNeighbors 10, timeHorizon 5 s, timeHorizonObst 5 s, radius 2 m, maxSpeed
 * 2 m/s, preferred speed 1 m/s; at goal within 20 m (Blocks.cc `reachedGoal`). `agentsPerGroupSide`
 * (default 5) scales the groups. Agents are added in Blocks.cc's order.
 */
export function blocksScenario(seed = 0, jitter = DEFAULT_SPAWN_JITTER, agentsPerGroupSide = 5): CrowdSpec {
  const params = { ...DEFAULT_AGENT, neighborDist: 15, maxNeighbors: 10, timeHorizon: 5, timeHorizonObst: 5, radius: 2, maxSpeed: 2, goalRadius: 20 };
  const list: AgentSpec[] = [];
  for (let i = 0; i < agentsPerGroupSide; i++) {
    for (let j = 0; j < agentsPerGroupSide; j++) {
      const x = 55 + i * 10;
      const y = 55 + j * 10;
      list.push({ ...params, env: 0, position: vec2(x, y), goal: vec2(-75, -75) });
      list.push({ ...params, env: 0, position: vec2(-x, y), goal: vec2(75, -75) });
      list.push({ ...params, env: 0, position: vec2(x, -y), goal: vec2(-75, 75) });
      list.push({ ...params, env: 0, position: vec2(-x, -y), goal: vec2(75, 75) });
    }
  }
  applySpawnJitter(list, seed, jitter);
  const obstacles: ObstaclePolygon[] = BLOCKS_OBSTACLES.map((vertices) => ({ env: 0, vertices }));
  return { timeStep: 0.25, envCount: 1, agents: list, obstacles };
}

/**
 * Benchmark crowd: `agents` agents (RVO2 Circle parameters, radius 0.5 m) uniformly at random in a
 * square of 25 m² per agent, each heading to the point mirrored through the centre, so the density
 * and per-agent work stay constant as the count grows.
 */
export function crossingCrowd(agents: number, seed = 0): CrowdSpec {
  const rng = createRng(seed).fork('crowd.crossingCrowd');
  const half = Math.sqrt(agents * 25) / 2;
  const list: AgentSpec[] = Array.from({ length: agents }, () => {
    const position = vec2(rng.range(-half, half), rng.range(-half, half));
    return { ...DEFAULT_AGENT, radius: 0.5, env: 0, position, goal: vec2(-position.x, -position.y) };
  });
  return { timeStep: 0.25, envCount: 1, agents: list, obstacles: [] };
}
