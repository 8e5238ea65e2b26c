/**
 * The scenario file format (JSON, validated with zod; errors name the file and the field): one
 * episode's world, robot start/goal/route, time limit, pedestrians with behaviours and trigger
 * parameters, success criterion and seed. Suites are arrays of scenarios (`scenes/suites/*.json`).
 *
 * Frames: world right-handed, Z up, metres; yaw in radians counter-clockwise from +x.
 *
 * Blockers (`blockers`, optional): static barriers added to the scenario's world for this scenario
 * only, e.g. the construction fences that close every alternative of a long-horizon route. Each is
 * a convex polygon with counter-clockwise vertices `[[x, y], …]` (world frame, metres, ≥ 3 vertices,
 * first vertex not repeated) extruded from the ground to `height` metres. They are collision
 * obstacles for the robot and the pedestrians (src/bench/scenario-world.ts) and are drawn by the
 * robot camera (src/bench/scenario-background.ts).
 *
 * Closures (`closures`, optional): sidewalk or crosswalk stretches that close during the episode
 * (UrbanGround's road closures). Each names the closed `area` (a convex CCW polygon, world frame,
 * metres: every nav edge it meets is closed), a `trigger` (`start`, `time` at `at` seconds, or
 * `robot-near` when the robot's base centre comes within `radius` metres of `point`) and an
 * optional `notice` text. When it triggers, construction fences appear across every walkable strip
 * where a nav line enters the area (src/bench/closures.ts): obstacles for the robot, the expert and
 * the camera; the pedestrians avoid them from the start. The policy gets a one-time notice (text and
 * the closed segments in the robot frame), the reference route is re-planned around the closed
 * edges, and the record says whether the robot entered a closed area (`closureCompliance`).
 *
 * Conditions (`conditions`, optional): the time of day ("HH:MM", default "13:00") and the weather
 * (`clear`, `fog` or `rain`, default clear) the robot camera sees (src/world/conditions.ts). Without
 * the field the camera draws the default look (a clear afternoon, as before conditions existed).
 */
import { z } from 'zod';
import { pointInRing, signedArea, type Ring } from '../core/geometry2d';
import { UserError } from '../core/user-error';
import { CLOCK_TIME, WEATHERS } from '../world/conditions';
import { OsmWorldRefSchema } from '../world/osm/world-ref';

/** SidewalkBench's pedestrian-reactive behaviours (seeds/002 §3.2) plus the pedestrian-free reference. */
export const BEHAVIOURS = ['static', 'obstructing', 'conversing', 'queuing', 'frontal', 'lateral', 'overtaking', 'ped-crossing', 'gesturing'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/** Unit-test block categories. */
export const UNIT_CATEGORIES = ['straight', 'curve', 'crosswalk'] as const;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const point = z.tuple([finite, finite]);

export const PedestrianSpecSchema = z.object({
  behaviour: z.enum(BEHAVIOURS).or(z.enum(['walk', 'idle', 'interact'])),
  /** Spawn position, metres. */
  spawn: point,
  /** Initial heading, radians. */
  heading: finite.default(0),
  /** Preferred walking speed, m/s (SidewalkBench draws 1.1–1.65). */
  speed: z.number().min(0).max(3).default(1.3),
  /** Walking route for walkers, metres. */
  route: z.array(point).optional(),
  /** Trigger: the behaviour starts when the robot is within this distance, metres. */
  triggerDistance: z.number().positive().optional(),
  /** Group id for conversing/queuing members (members of a group share it). */
  group: z.number().int().nonnegative().optional(),
  /** Free-form behaviour parameters (documented per behaviour in src/crowd). */
  params: z.record(z.string(), z.union([finite, z.string(), z.array(finite)])).optional(),
}).strict();

/** Why a blocker polygon is not a convex CCW ring, or null. */
function blockerRingProblem(r: Ring): string | null {
  const a = signedArea(r);
  if (!(Math.abs(a) > 1e-6)) return 'polygon is degenerate (zero area)';
  if (a < 0) return 'polygon must be counter-clockwise (positive signed area)';
  for (let i = 0; i < r.length; i++) {
    const p = r[i], q = r[(i + 1) % r.length], o = r[(i + 2) % r.length];
    if (p[0] === q[0] && p[1] === q[1]) return `polygon repeats vertex ${i}`;
    if ((q[0] - p[0]) * (o[1] - q[1]) - (q[1] - p[1]) * (o[0] - q[0]) < -1e-9) return `polygon must be convex (turns clockwise at vertex ${(i + 1) % r.length})`;
  }
  return null;
}

/** A static barrier for one scenario: a convex CCW polygon (metres) extruded to `height` above the ground. */
export const BlockerSchema = z.object({
  polygon: z.array(point).min(3, 'a blocker polygon needs at least 3 vertices').superRefine((r, ctx) => {
    const problem = blockerRingProblem(r as Ring);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** Height above the ground, metres. */
  height: z.number().positive().max(10),
}).strict();
export type Blocker = z.infer<typeof BlockerSchema>;

/** What opens a closure: the episode start, an episode time (s), or the robot's base centre coming within `radius` metres of `point`. */
export const ClosureTriggerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start') }).strict(),
  z.object({ kind: z.literal('time'), at: z.number().nonnegative().max(3600) }).strict(),
  z.object({ kind: z.literal('robot-near'), point, radius: z.number().positive().max(100).default(3) }).strict(),
]);

/**
 * A closure of sidewalk or crosswalk segments for one scenario (see the module comment): the closed
 * stretch `area` (a convex CCW polygon, metres), what triggers it, and the notice text the policy
 * receives once when it closes.
 */
export const ClosureSchema = z.object({
  area: z.array(point).min(3, 'a closure area needs at least 3 vertices').superRefine((r, ctx) => {
    const problem = blockerRingProblem(r as Ring);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.replace('polygon', 'area') });
  }),
  trigger: ClosureTriggerSchema.default({ kind: 'start' }),
  notice: z.string().min(1).max(500).optional(),
}).strict();
export type Closure = z.infer<typeof ClosureSchema>;
export type ClosureTrigger = z.infer<typeof ClosureTriggerSchema>;

/** A scenario's time of day and weather (src/world/conditions.ts: Conditions). */
export const ConditionsSchema = z.object({
  time: z.string().regex(CLOCK_TIME, 'expected a time HH:MM between 00:00 and 24:00').default('13:00'),
  weather: z.enum(WEATHERS).default('clear'),
}).strict();

export const ScenarioSchema = z.object({
  id: z.string().min(1),
  suite: z.enum(['smoke', 'unit', 'reactive', 'long', 'train', 'closure', 'custom']),
  /** Block type for unit tests, behaviour for reactive ones, 'long' for long-horizon. */
  category: z.string().min(1),
  world: z.discriminatedUnion('kind', [
    /** A generated world: its seed and side in metres (default 400, the suites' worlds; up to SidewalkBench's 2 km). */
    z.object({ kind: z.literal('procedural'), seed: z.number().int().nonnegative(), size: z.number().int().min(150).max(2000).optional() }).strict(),
    z.object({ kind: z.literal('scene'), path: z.string().min(1) }).strict(),
    /** A real place (src/world/osm/world-ref.ts): the OSM file, its md5, the selection and the seed of what OSM leaves open. */
    OsmWorldRefSchema,
  ]),
  robot: z.object({
    /** Start pose (x, y, yaw). */
    start: z.tuple([finite, finite, finite]),
    goal: point,
    /** Reference route from start to goal, ≥ 2 points. */
    route: z.array(point).min(2),
  }).strict(),
  /** Episode time limit, s. */
  timeLimit: z.number().positive().max(3600),
  pedestrians: z.array(PedestrianSpecSchema).default([]),
  /** Static barriers added to the world for this scenario (see the module comment). */
  blockers: z.array(BlockerSchema).optional(),
  /** Closed sidewalk or crosswalk stretches, from the start or triggered (see the module comment). */
  closures: z.array(ClosureSchema).max(16).optional(),
  /** Time of day and weather the robot camera sees (see the module comment). */
  conditions: ConditionsSchema.optional(),
  success: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('reach-goal'), goalRadius: z.number().positive().default(1) }).strict(),
    /** Gesturing: stop (speed < 0.05 m/s) within `maxDistance` in front of pedestrian `pedestrian`. */
    z.object({ kind: z.literal('stop-before'), pedestrian: z.number().int().nonnegative(), maxDistance: z.number().positive().default(3) }).strict(),
  ]),
  /** Unit/reactive: a failure ends the episode; long-horizon: reset to the closest route waypoint. */
  onFailure: z.enum(['terminate', 'reset-to-waypoint']).default('terminate'),
  /** Episode seed; per-run seeds are derived from it and the run index. */
  seed: z.number().int().nonnegative(),
}).strict();

export type Scenario = z.infer<typeof ScenarioSchema>;
export type PedestrianSpec = z.infer<typeof PedestrianSpecSchema>;

/** A scenario or suite file that does not validate: `file: field.path: problem`. */
export class ScenarioError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

function formatIssues(file: string, error: z.ZodError, dropPathSegments = 0): string {
  const first = error.issues[0];
  const segments = first.path.slice(dropPathSegments);
  const path = segments.length ? segments.join('.') : '(root)';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})` : '';
  return `${file}: ${path}: ${first.message}${more}`;
}

/**
 * Parses a scenario file's text, or a suite (a JSON array of scenarios, or `{ "scenarios": [...] }`).
 *
 * @throws ScenarioError naming the file and the first failing field, e.g.
 *   `my.json: 3.robot.route: Too small: expected array to have >=2 items`.
 */
export function parseScenarios(file: string, text: string): Scenario[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const single = !Array.isArray(json) && !(json && typeof json === 'object' && 'scenarios' in json);
  const list = single ? [json] : Array.isArray(json) ? json : (json as { scenarios: unknown }).scenarios;
  const parsed = z.array(ScenarioSchema).safeParse(list);
  // A single scenario's paths start at its fields, not at a list index.
  if (!parsed.success) throw new ScenarioError(formatIssues(file, parsed.error, single ? 1 : 0));
  if (parsed.data.length === 0) throw new ScenarioError(`${file}: the suite holds no scenarios`);
  const ids = new Set<string>();
  for (const s of parsed.data) {
    if (ids.has(s.id)) throw new ScenarioError(`${file}: duplicate scenario id '${s.id}'`);
    ids.add(s.id);
    const closed = s.closures?.findIndex((c) => pointInRing(s.robot.goal[0], s.robot.goal[1], c.area as Ring)) ?? -1;
    if (closed >= 0) throw new ScenarioError(`${file}: ${s.id}: closures.${closed}.area contains the goal`);
    if (s.success.kind === 'stop-before' && s.success.pedestrian >= s.pedestrians.length) {
      throw new ScenarioError(`${file}: ${s.id}: success.pedestrian ${s.success.pedestrian} but the scenario has ${s.pedestrians.length} pedestrians`);
    }
  }
  return parsed.data;
}
