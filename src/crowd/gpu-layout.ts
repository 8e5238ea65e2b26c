/**
 * Host-side layouts of the structs in `shaders/crowd/crowd-types.wgsl` (byte offsets, checked
 * against the WGSL by crowd-layout.browser.test.ts) and the packing of a {@link CrowdSpec} into
 * GPU buffers.
 *
 * | buffer             | stride | contents                                                     |
 * |--------------------|--------|--------------------------------------------------------------|
 * | agents             | 48 B   | `AgentParams` per agent                                      |
 * | stateA / stateB    | 16 B   | `AgentState` (position, velocity) per agent, ping-pong       |
 * | obstacleVertices   | 32 B   | `ObstacleVertex` per vertex, grouped by env                  |
 * | envObstacleRanges  | 8 B    | [begin, end) vertex range per env                            |
 * | metrics            | 16 B   | `StateMetrics` per state 0..maxSteps                         |
 * | params (uniform)   | 256 B  | `CrowdParams` per step slot (dynamic offset)                 |
 *
 * The pedestrian batch's structs (`shaders/crowd/pedestrian-types.wgsl`, used by behaviours.wgsl and
 * src/crowd/gpu-pedestrian-batch.ts) are laid out by the PED_* and SLOT_STEP layouts below.
 */
import { type CrowdSpec, maxNeighborDist } from './crowd-spec';
import type { ObstacleVertex } from './obstacles';
import type { Vec2 } from './vec2';

export const AGENT_PARAMS_LAYOUT = {
  size: 48, radius: 0, maxSpeed: 4, neighborDist: 8, maxNeighbors: 12, timeHorizon: 16, timeHorizonObst: 20,
  responsibility: 24, prefSpeed: 28, goal: 32, goalRadius: 40, env: 44,
} as const;
export const AGENT_STATE_LAYOUT = { size: 16, position: 0, velocity: 8 } as const;
export const OBSTACLE_VERTEX_LAYOUT = { size: 32, point: 0, unitDir: 8, next: 16, prev: 20, isConvex: 24, env: 28 } as const;
export const CROWD_PARAMS_LAYOUT = {
  size: 48, agentCount: 0, stateIndex: 4, timeStep: 8, cellSize: 12, gridOrigin: 16, gridWidth: 24, gridHeight: 28,
  cellCount: 32, envCount: 36, overlapTolerance: 40,
} as const;
/** `PedParams`: one pedestrian's constants (pedestrian-types.wgsl). */
export const PED_PARAMS_LAYOUT = {
  size: 64, spawn: 0, point: 8, exit: 16, kind: 24, group: 28, order: 32, wait: 36, triggerDistance: 40, routeLen: 44, pathOffset: 48, exitSide: 52, heading: 56,
} as const;
/** `PedState`: one pedestrian's behaviour state. */
export const PED_STATE_LAYOUT = { size: 40, speed: 0, responsibility: 4, clock: 8, startAt: 12, pathStart: 16, pathEnd: 20, place: 24, phase: 28, anchor: 32 } as const;
/** `PedKinematics`: what the host reads back per pedestrian every step. */
export const PED_KINEMATICS_LAYOUT = { size: 24, position: 0, velocity: 8, heading: 16, flags: 20 } as const;
/** `SlotStep`: one slot's per-step inputs. */
export const SLOT_STEP_LAYOUT = {
  size: 48, robotPosition: 0, robotVelocity: 8, robotSpeed: 16, time: 20, dt: 24, pedCount: 28, running: 32, obstacleBegin: 36, obstacleEnd: 40, pathBase: 44,
} as const;
/** `PedParams.kind` values, in the order of the `KIND_*` consts of pedestrian-types.wgsl (walk, idle, static: no behaviour). */
export const PEDESTRIAN_KINDS = ['obstructing', 'conversing', 'queuing', 'frontal', 'lateral', 'overtaking', 'ped-crossing', 'gesturing', 'interact', 'walk', 'idle', 'static'] as const;
/** `PedState.phase` of an `interact` pedestrian, in the order of the `INTERACT_*` consts of pedestrian-types.wgsl. */
export const PED_INTERACT_PHASES = ['approach', 'stay', 'leave'] as const;
/** `PedKinematics.flags`: bit 0 triggered, bits 1–2 the gesture (index into this list), bit 3 walking (path not empty after the step). */
export const PED_FLAG_TRIGGERED = 1;
export const PED_FLAG_WALKING = 8;
export const PED_GESTURES = ['none', 'stop', 'talk'] as const;
/** `PedState.startAt` / `PedParams.group` "not set" values (NEVER, 0xffffffff in WGSL). */
export const PED_NEVER = 3.0e38;
export const PED_NO_GROUP = 0xffffffff;

export const STATE_METRICS_LAYOUT = { size: 16, minPairDistance: 0, overlapAgents: 4, reachedAgents: 8, speedSumMilli: 12 } as const;

/** Packs `AgentParams` records (f32/u32 words). */
export function packAgentParams(spec: CrowdSpec): ArrayBuffer {
  const buf = new ArrayBuffer(Math.max(1, spec.agents.length) * AGENT_PARAMS_LAYOUT.size);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  spec.agents.forEach((a, i) => {
    const o = (i * AGENT_PARAMS_LAYOUT.size) / 4;
    f.set([a.radius, a.maxSpeed, a.neighborDist], o);
    u[o + 3] = a.maxNeighbors;
    f.set([a.timeHorizon, a.timeHorizonObst, a.responsibility, a.prefSpeed, a.goal.x, a.goal.y, a.goalRadius], o + 4);
    u[o + 11] = a.env;
  });
  return buf;
}

/** Packs the initial `AgentState`s. */
export function packAgentStates(spec: CrowdSpec): Float32Array<ArrayBuffer> {
  const out = new Float32Array(Math.max(1, spec.agents.length) * 4);
  spec.agents.forEach((a, i) => out.set([a.position.x, a.position.y, a.velocity?.x ?? 0, a.velocity?.y ?? 0], i * 4));
  return out;
}

/** Packs `ObstacleVertex` records (at least one, zeroed, so the binding is never empty). */
export function packObstacleVertices(vertices: readonly ObstacleVertex[]): ArrayBuffer {
  const buf = new ArrayBuffer(Math.max(1, vertices.length) * OBSTACLE_VERTEX_LAYOUT.size);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  vertices.forEach((v, i) => {
    const o = i * 8;
    f.set([v.point.x, v.point.y, v.unitDir.x, v.unitDir.y], o);
    u.set([v.next, v.prev, v.isConvex ? 1 : 0, v.env], o + 4);
  });
  return buf;
}

/** Grid geometry for the GPU neighbour search. */
export interface CrowdGrid {
  /** Lower-left corner of cell (0, 0), m. */
  origin: [number, number];
  /** Cell edge, m (≥ every neighborDist). */
  cellSize: number;
  width: number;
  height: number;
}

/**
 * A grid covering every start, goal and obstacle vertex (plus one cell of margin) with cells of the
 * largest neighborDist. Agents outside are clamped to border cells, which stays exact (see
 * `cellCoord` in crowd-types.wgsl) but slower; at most `maxCellsPerEnv` cells per env (cells grow).
 * The grid spans the points' own bounds, wherever they are (it once always reached back to (0, 0),
 * so a crowd 10 km away got cells 1.5× larger per growth step and stepped 200× slower).
 */
export function gridFor(spec: CrowdSpec, maxCellsPerEnv = 1 << 20): CrowdGrid {
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  const add = (x: number, y: number) => {
    lo[0] = Math.min(lo[0], x);
    lo[1] = Math.min(lo[1], y);
    hi[0] = Math.max(hi[0], x);
    hi[1] = Math.max(hi[1], y);
  };
  for (const a of spec.agents) {
    add(a.position.x, a.position.y);
    add(a.goal.x, a.goal.y);
  }
  for (const p of spec.obstacles) for (const v of p.vertices) add(v.x, v.y);
  if (!(lo[0] <= hi[0])) {
    lo.fill(0);
    hi.fill(0);
  }
  let cellSize = maxNeighborDist(spec);
  const dims = () => [Math.ceil((hi[0] - lo[0]) / cellSize) + 3, Math.ceil((hi[1] - lo[1]) / cellSize) + 3];
  while (dims()[0] * dims()[1] > maxCellsPerEnv) cellSize *= 1.5;
  const [width, height] = dims();
  return { origin: [lo[0] - cellSize, lo[1] - cellSize], cellSize, width, height };
}

/** The local origin a GPU crowd simulates around: its first agent's start position (float64), m. */
export function crowdOrigin(spec: CrowdSpec): Vec2 {
  const a = spec.agents[0];
  return a ? { x: a.position.x, y: a.position.y } : { x: 0, y: 0 };
}

/**
 * `spec` with every position, goal and obstacle vertex moved by −origin (velocities unchanged): the
 * crowd in a frame whose float32 coordinates stay small wherever the scene sits (georeferenced
 * scenes lie 10⁵–10⁶ m from their origin, where a float32 step is 1–6 cm).
 */
export function translateCrowdSpec(spec: CrowdSpec, origin: Vec2): CrowdSpec {
  const move = (p: Vec2): Vec2 => ({ x: p.x - origin.x, y: p.y - origin.y });
  return {
    ...spec,
    agents: spec.agents.map((a) => ({ ...a, position: move(a.position), goal: move(a.goal) })),
    obstacles: spec.obstacles.map((o) => ({ ...o, vertices: o.vertices.map(move) })),
  };
}
