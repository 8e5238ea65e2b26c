/**
 * Crowd scenario files (JSON), validated with zod; errors name the file and the field path.
 *
 * ```json
 * { "timeStep": 0.25, "envCount": 1, "spawnJitter": 0.1,
 *   "agentDefaults": { "radius": 0.3, "maxSpeed": 1.65, "prefSpeed": 1.3 },
 *   "agents": [ { "position": [0, 0], "goal": [10, 0] }, { "position": [10, 0.2], "goal": [0, 0], "responsibility": 0 } ],
 *   "obstacles": [ { "vertices": [[4, -1], [6, -1], [6, 1], [4, 1]] } ] }
 * ```
 * Units SI, world x-y plane; obstacle vertices counter-clockwise. Agent fields not given fall back to
 * `agentDefaults`, then to RVO2 Circle's values ({@link DEFAULT_AGENT}).
 */
import { z } from 'zod';
import { type CrowdSpec, DEFAULT_AGENT } from './crowd-spec';
import { buildObstacleVertices } from './obstacles';
import { applySpawnJitter } from './scenarios';
import { vec2 } from './vec2';

const point = z.tuple([z.number(), z.number()]);
const params = z.object({
  radius: z.number().positive(),
  maxSpeed: z.number().positive(),
  prefSpeed: z.number().nonnegative(),
  neighborDist: z.number().positive(),
  maxNeighbors: z.number().int().nonnegative(),
  timeHorizon: z.number().positive(),
  timeHorizonObst: z.number().positive(),
  responsibility: z.number().min(0).max(1),
  goalRadius: z.number().nonnegative(),
}).partial().strict();

/** The zod schema of a scenario file. */
export const scenarioFileSchema = z.object({
  timeStep: z.number().positive(),
  envCount: z.number().int().positive().default(1),
  spawnJitter: z.number().nonnegative().default(0),
  agentDefaults: params.default({}),
  agents: z.array(params.extend({ position: point, goal: point, velocity: point.optional(), env: z.number().int().nonnegative().default(0) }).strict()).min(1),
  obstacles: z.array(z.object({ env: z.number().int().nonnegative().default(0), vertices: z.array(point).min(2) }).strict()).default([]),
}).strict();

/**
 * Parses a scenario file's text into a {@link CrowdSpec}.
 *
 * @param name File name used in error messages.
 * @param seed Seed of the spawn jitter (`createRng(seed).fork('crowd.spawnJitter')`).
 * @throws Error `name: field.path: problem` on invalid JSON, schema violations, an agent env ≥
 *   envCount, or a bad obstacle polygon.
 */
export function parseScenarioFile(name: string, text: string, seed = 0): CrowdSpec {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: invalid JSON: ${(e as Error).message}`);
  }
  const parsed = scenarioFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${name}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const f = parsed.data;
  const agents = f.agents.map((a, i) => {
    if (a.env >= f.envCount) throw new Error(`${name}: agents.${i}.env: ${a.env} is not below envCount ${f.envCount}`);
    const { position, goal, velocity, env, ...own } = a;
    return {
      ...DEFAULT_AGENT, ...f.agentDefaults, ...own, env,
      position: vec2(...position), goal: vec2(...goal), velocity: velocity ? vec2(...velocity) : undefined,
    };
  });
  const obstacles = f.obstacles.map((o) => ({ env: o.env, vertices: o.vertices.map((p) => vec2(...p)) }));
  try {
    buildObstacleVertices(obstacles, f.envCount);
  } catch (e) {
    throw new Error(`${name}: ${(e as Error).message.replace(/^obstacles\[(\d+)\]/, 'obstacles.$1')}`);
  }
  applySpawnJitter(agents, seed, f.spawnJitter);
  return { timeStep: f.timeStep, envCount: f.envCount, agents, obstacles };
}
