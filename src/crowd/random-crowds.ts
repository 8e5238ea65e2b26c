/**
 * Seeded random ORCA configurations for testing the GPU against the reference: many small
 * environments, each a handful of agents with random positions, velocities, goals and parameters
 * among random convex and non-convex polygons. Values are rounded to float32 so both backends start
 * from identical inputs.
 */
import { createRng, type Rng } from '../core/random';
import type { AgentSpec, CrowdSpec } from './crowd-spec';
import type { ObstaclePolygon } from './obstacles';
import { type Vec2, vec2 } from './vec2';

const f = Math.fround;
const fv = (x: number, y: number): Vec2 => vec2(f(x), f(y));

/** Rectangle, triangle or L-shape (one non-convex vertex), CCW, around (cx, cy), m. */
function randomPolygon(rng: Rng, cx: number, cy: number): Vec2[] {
  const s = rng.range(0.5, 2);
  const kind = rng.int(0, 2);
  const pts: [number, number][] =
    kind === 0 ? [[0, 0], [s, 0], [s, s * 0.6], [0, s * 0.6]]
      : kind === 1 ? [[0, 0], [s, 0], [s * 0.3, s]]
        : [[0, 0], [s, 0], [s, s * 0.4], [s * 0.4, s * 0.4], [s * 0.4, s], [0, s]];
  return pts.map(([x, y]) => fv(cx + x, cy + y));
}

/**
 * `envCount` environments of `agentsPerEnv` agents in a square box of half-width `boxHalfWidth` (m),
 * with 0–2 obstacles each near the centre.
 * Agents never start overlapping an obstacle's bounding box by more than they would in use; some
 * start overlapping each other (the collision branch).
 */
export function randomCrowd(seed: number, envCount: number, agentsPerEnv: number, boxHalfWidth = 6, maxNeighbors = 10): CrowdSpec {
  const rng = createRng(seed).fork('crowd.randomCrowd');
  const agents: AgentSpec[] = [];
  const obstacles: ObstaclePolygon[] = [];
  for (let env = 0; env < envCount; env++) {
    const polys = rng.int(0, 2);
    for (let k = 0; k < polys; k++) obstacles.push({ env, vertices: randomPolygon(rng, rng.range(-5, 3), rng.range(-5, 3)) });
    for (let i = 0; i < agentsPerEnv; i++) {
      const maxSpeed = f(rng.range(1, 2));
      const speed = rng.range(0, maxSpeed);
      const phi = rng.range(0, 2 * Math.PI);
      const r = rng.next();
      agents.push({
        env,
        position: fv(rng.range(-boxHalfWidth, boxHalfWidth), rng.range(-boxHalfWidth, boxHalfWidth)),
        velocity: fv(speed * Math.cos(phi), speed * Math.sin(phi)),
        goal: fv(rng.range(-8, 8), rng.range(-8, 8)),
        radius: f(rng.range(0.2, 0.6)),
        maxSpeed,
        prefSpeed: f(rng.range(0.5, 1.8)),
        neighborDist: f(rng.range(2, 8)),
        maxNeighbors: rng.int(0, maxNeighbors),
        timeHorizon: f(rng.range(1, 5)),
        timeHorizonObst: f(rng.range(1, 5)),
        responsibility: r < 0.6 ? 0.5 : r < 0.7 ? 0 : r < 0.8 ? 1 : f(rng.next()),
        goalRadius: 0.5,
      });
    }
  }
  return { timeStep: 0.25, envCount, agents, obstacles };
}
