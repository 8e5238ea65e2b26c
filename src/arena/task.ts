/**
 * The arena's task format (`format: curbside-arena-tasks`, version 1): one JSON file per suite, a
 * world (a procedural city by seed and size, or a real place by OSM file, md5 and selection) and
 * its tasks. Validated with zod;
 * errors name the file and the field. Written by `npm run arena:tasks`, read by `npm run arena` and
 * the arena page.
 *
 * Frames and units: world frame of the brief (Z up, metres); yaw in radians from +x, counter-clockwise.
 * Positions and the truth are the evaluator's: an agent never sees them (its observation is a
 * first-person image, an optional map image and text; see `observation.ts`).
 *
 * Families and scoring follow 360CityArena (Watanabe et al. 2026, §3.2 and §3.4;
 * `../shared/seeds/000_*.txt`): localization → exact_match on a 5×5 grid cell; landmark search by
 * language and by image, vision-language navigation → coordinate_match (ε = 10 m); map navigation →
 * coordinate_match (ε = 20 m); object count → mean relative accuracy; relational spatial reasoning →
 * fuzzy_match.
 */
import { parseJsonFile } from '../core/json-file';
import { z } from 'zod';
import { UserError } from '../core/user-error';
import { generateWorld, type World } from '../world/world';
import { osmWorldKey, osmWorldLabel, OsmWorldRefSchema, registeredOsmWorld } from '../world/osm/world-ref';

/** Format tag and version of a task file. */
export const ARENA_TASKS_FORMAT = 'curbside-arena-tasks';
export const ARENA_TASKS_VERSION = 1;

/** 360CityArena's seven task families (their ids 1xxx, 2xxx, 3xxx, 5xxx, 7xxx, 8xxx, 4xxx). */
export const CITYARENA_FAMILIES = ['localization', 'landmark-language', 'landmark-image', 'map-navigation', 'vln', 'relational', 'count'] as const;
export type CityArenaFamily = (typeof CITYARENA_FAMILIES)[number];
/**
 * UrbanGround's ladder families (paper §3.5, appendix B; their task-type ids in parentheses), played
 * with UrbanGround's free moves. L1 local understanding: landmark QA (LQ), orientation QA (OQ),
 * active-exploration QA (SQ). L2 explicit navigation: short (SN), long with the map (LN), instruction
 * (IN), constrained around closures given up front (CN). L3 implicit: place-type search (PS),
 * implicit intent (II). L4 multi-task: time-window schedule (SF), multi-stop route (MP). L5 dynamic:
 * closure replanning after a notice (DCR), long navigation among pedestrians (PL).
 */
export const URBANGROUND_FAMILIES = [
  'landmark-qa', 'orientation-qa', 'exploration-qa',
  'short-navigation', 'long-navigation', 'instruction-navigation', 'constrained-navigation',
  'place-search', 'implicit-intent',
  'schedule', 'multi-stop',
  'dynamic-closure', 'pedestrian-navigation',
] as const;
export type UrbanGroundFamily = (typeof URBANGROUND_FAMILIES)[number];
/** Every arena family. */
export const ARENA_FAMILIES = [...CITYARENA_FAMILIES, ...URBANGROUND_FAMILIES] as const;
export type ArenaFamily = (typeof ARENA_FAMILIES)[number];
/**
 * UrbanGround's id prefix, numeric task type and ladder level per family (their `tasks/registry.py`:
 * II and DCR share type 12 and are told apart by the prefix; PL is long navigation's type 2 with
 * pedestrians on, routed by its prefix).
 */
export const URBANGROUND_FAMILY_KIND: Record<UrbanGroundFamily, { prefix: string; type: number; level: number }> = {
  'landmark-qa': { prefix: 'LQ', type: 7, level: 1 },
  'orientation-qa': { prefix: 'OQ', type: 8, level: 1 },
  'exploration-qa': { prefix: 'SQ', type: 9, level: 1 },
  'short-navigation': { prefix: 'SN', type: 0, level: 2 },
  'long-navigation': { prefix: 'LN', type: 2, level: 2 },
  'instruction-navigation': { prefix: 'IN', type: 10, level: 2 },
  'constrained-navigation': { prefix: 'CN', type: 11, level: 2 },
  'place-search': { prefix: 'PS', type: 3, level: 3 },
  'implicit-intent': { prefix: 'II', type: 12, level: 3 },
  schedule: { prefix: 'SF', type: 5, level: 4 },
  'multi-stop': { prefix: 'MP', type: 13, level: 4 },
  'dynamic-closure': { prefix: 'DCR', type: 12, level: 5 },
  'pedestrian-navigation': { prefix: 'PL', type: 2, level: 5 },
};

/** Whether a family is played with UrbanGround's free moves (else 360CityArena's tokens on the network). */
export function isUrbanGroundFamily(family: string): family is UrbanGroundFamily {
  return (URBANGROUND_FAMILIES as readonly string[]).includes(family);
}
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

const vec2 = z.tuple([z.number(), z.number()]);
const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const labelledPoint = z.object({ goal: vec2, label: z.string().min(1) });
/** A time of day `HH:MM`, 24-hour. */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time HH:MM (24-hour)');

/** What the answer is scored against (the evaluator's only; never shown to an agent). */
const TruthSchema = z.discriminatedUnion('scoring', [
  /** A 5×5 grid cell of the task's map, 0-based, x to the right and y downwards (360CityArena's `x:N y:N`). */
  z.object({ scoring: z.literal('exact_match'), cell: z.object({ x: z.number().int().min(0), y: z.number().int().min(0) }) }),
  /** The agent's final position must be within `epsilon` metres of `goal` (the answer text is not read). */
  z.object({ scoring: z.literal('coordinate_match'), goal: vec2, epsilon: z.number().positive() }),
  /** A name: the canonical one and its aliases (sign text, kind on street, address). */
  z.object({ scoring: z.literal('fuzzy_match'), name: z.string().min(1), aliases: z.array(z.string()) }),
  /** A count scored by mean relative accuracy. */
  z.object({ scoring: z.literal('mra'), count: z.number().int().nonnegative() }),
  /** Four options (UrbanGround's `qaOptions`) and the right one's index (`qaAnswerIndex`, 0 = A); answered after exploring. */
  z.object({ scoring: z.literal('choice'), options: z.array(z.string().min(1)).length(4), answer: z.number().int().min(0).max(3) }),
  /** Success when the avatar is within `radius` metres of `goal` after any action (UrbanGround's arrival, 15 m). */
  z.object({ scoring: z.literal('arrival'), goal: vec2, radius: z.number().positive(), label: z.string().min(1) }),
  /** Success within `radius` metres of any of `goals` (place search, implicit intent: every place of `category` counts). */
  z.object({ scoring: z.literal('arrival_any'), goals: z.array(labelledPoint).min(1), radius: z.number().positive(), category: z.string().min(1) }),
  /**
   * Ordered appointments (time-window schedule): each stop must be reached (within `radius`) in
   * order and by its `due` time on the simulation clock, which reads `startTime` when the task
   * begins and runs with the actions' durations. Success: every stop in order and on time.
   */
  z.object({ scoring: z.literal('schedule'), stops: z.array(labelledPoint.extend({ due: clockTime })).min(2), radius: z.number().positive(), startTime: clockTime }),
  /**
   * Unordered stops (multi-stop route): success when every stop has been within `radius`;
   * `oracleTour` is the shortest network walk from the start through all of them (metres), the
   * reference of the route's efficiency.
   */
  z.object({ scoring: z.literal('multi_stop'), stops: z.array(labelledPoint).min(2), radius: z.number().positive(), oracleTour: z.number().positive() }),
]);

/** A map image handed to the agent with the task: a world region, its pixel size and what is drawn on it. */
const TaskMapSchema = z.object({
  /** World region shown `[minX, minY, maxX, maxY]`, metres (square). */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  sizePx: z.number().int().min(64).max(2048),
  /** Start (blue) and goal (red) markers, metres (map navigation). */
  start: vec2.optional(),
  goal: vec2.optional(),
  /** Lines of a grid of this many cells per side with their 0-based labels (localization). */
  grid: z.number().int().min(2).max(10).optional(),
});

const TaskSchema = z.object({
  /** Unique in the file: family prefix and number, e.g. `map-navigation-07`. */
  id: z.string().min(1),
  family: z.enum(ARENA_FAMILIES),
  difficulty: z.enum(DIFFICULTIES),
  /** What the agent is told, verbatim. */
  instruction: z.string().min(1),
  /** Start: a pedestrian-network node (`world.nav.nodes` index) and the travel direction, towards `towards` (a neighbouring node). */
  start: z.object({ node: z.number().int().nonnegative(), towards: z.number().int().nonnegative() }),
  /** Whether the agent's map shows its own position (360CityArena's "current location" map; off for localization). */
  grantsLocation: z.boolean(),
  /** The reference map image of the task (grid map, navigation map), or null. */
  map: TaskMapSchema.nullable(),
  /** The reference image of the task: a camera pose to render the landmark from (landmark search by image), or null. */
  referenceView: z.object({ eye: vec3, target: vec3 }).nullable(),
  truth: TruthSchema,
  /**
   * Closed lines the agent must not cross (UrbanGround's `restrictedZones`: constrained navigation),
   * each a label and an open polyline (metres); crossing one ends the episode at once. Absent: none.
   */
  closures: z.array(z.object({ label: z.string().min(1), line: z.array(vec2).min(2) })).optional(),
  /**
   * Closure replanning: the closures take effect, with a one-time notice, after this many valid
   * steps (UrbanGround announces them 30 s into the episode); before it they are neither shown nor
   * enforced. Absent: closures hold from the start.
   */
  closureNotice: z.object({ afterSteps: z.number().int().positive() }).optional(),
  /** Pedestrians walking the network during the task (navigation among pedestrians): how many, and the seed of their plan. Absent: none. */
  pedestrians: z.object({ count: z.number().int().min(1).max(500), seed: z.number().int().nonnegative() }).optional(),
  /** Most valid actions before the episode ends as step_limit (360CityArena: 50). */
  stepLimit: z.number().int().positive(),
  /** What the task was made from (inventory ids and measured statistics), for audits and `--stats`. */
  source: z.object({
    /** Target or anchor landmark (`Landmark.id`), or null. */
    landmark: z.number().int().nullable(),
    /** Counted object kind (count), relation (relational). */
    detail: z.string().nullable(),
    /** Shortest walk from the start to the goal along the network, metres (navigation and search families). */
    pathLength: z.number().nullable(),
    /** Junctions with a choice passed on that walk. */
    decisionPoints: z.number().int().nullable(),
    /** Numbered steps of the directions (VLN). */
    instructionSteps: z.number().int().nullable(),
  }),
});

/** A procedural task world: its seed and side, metres (`kind` may be left out: files before real places have none). */
const ProceduralTaskWorldSchema = z.object({ kind: z.literal('procedural').optional(), seed: z.number().int().nonnegative(), size: z.number().min(150).max(2000) }).strict();

/** The world a task file's tasks are set in: a procedural city, or a real place from OpenStreetMap (src/world/osm/world-ref.ts). */
export const TaskWorldSchema = z.discriminatedUnion('kind', [ProceduralTaskWorldSchema, OsmWorldRefSchema]);

export const TaskFileSchema = z.object({
  format: z.literal(ARENA_TASKS_FORMAT),
  version: z.literal(ARENA_TASKS_VERSION),
  /** Suite name, e.g. `cityarena`. */
  suite: z.string().min(1),
  /** The world the tasks are set in. */
  world: TaskWorldSchema,
  /** For real places: the ODbL attribution of the OSM data the world is built from. */
  attribution: z.string().min(1).optional(),
  /** What the generator could not make in this world (a family and difficulty short of its quota), one line each. Absent: nothing. */
  notes: z.array(z.string()).optional(),
  tasks: z.array(TaskSchema).min(1),
});

export type ArenaTruth = z.infer<typeof TruthSchema>;
export type TaskMap = z.infer<typeof TaskMapSchema>;
export type ArenaTask = z.infer<typeof TaskSchema>;
export type ArenaTaskFile = z.infer<typeof TaskFileSchema>;
export type TaskWorldRef = z.infer<typeof TaskWorldSchema>;

/** How messages name a task world: `world 1 (600 m)`, or the OSM file and selection. */
export function taskWorldLabel(w: TaskWorldRef): string {
  return w.kind === 'osm' ? osmWorldLabel(w) : `world ${w.seed} (${w.size} m)`;
}

/** Whether two task worlds are the same world (an OSM world by its data, selection and seed, not its path). */
export function sameTaskWorld(a: TaskWorldRef, b: TaskWorldRef): boolean {
  if (a.kind === 'osm' || b.kind === 'osm') return a.kind === 'osm' && b.kind === 'osm' && osmWorldKey(a) === osmWorldKey(b);
  return a.seed === b.seed && a.size === b.size;
}

/**
 * The world of a task file: a procedural world is generated, a real place is looked up in the
 * registry (Node readers and the pages register it first: src/world/osm/world-ref.ts).
 *
 * @throws Error for a real place that is not registered.
 */
export function taskFileWorld(w: TaskWorldRef): World {
  if (w.kind !== 'osm') return generateWorld({ seed: w.seed, size: w.size });
  const world = registeredOsmWorld(w);
  if (!world) throw new Error(`${osmWorldLabel(w)}: the real place is not loaded (read it with registerOsmWorld first)`);
  return world;
}

/** How each family is scored (360CityArena §3.4). */
export const FAMILY_SCORING: Record<ArenaFamily, ArenaTruth['scoring']> = {
  localization: 'exact_match', 'landmark-language': 'coordinate_match', 'landmark-image': 'coordinate_match', 'map-navigation': 'coordinate_match', vln: 'coordinate_match', relational: 'fuzzy_match', count: 'mra',
  'landmark-qa': 'choice', 'orientation-qa': 'choice', 'exploration-qa': 'choice',
  'short-navigation': 'arrival', 'long-navigation': 'arrival', 'instruction-navigation': 'arrival', 'constrained-navigation': 'arrival',
  'place-search': 'arrival_any', 'implicit-intent': 'arrival_any', schedule: 'schedule', 'multi-stop': 'multi_stop',
  'dynamic-closure': 'arrival', 'pedestrian-navigation': 'arrival',
};

/**
 * Checks that every task's start is an edge of the world's pedestrian network (what a task file alone
 * cannot show).
 *
 * @throws TaskFileError `source: tasks.N.start: …` for the first that is not.
 */
export function checkTaskStarts(source: string, file: ArenaTaskFile, nav: { nodes: readonly unknown[]; edges: readonly { a: number; b: number }[] }): void {
  const edges = new Set(nav.edges.map((e) => `${Math.min(e.a, e.b)},${Math.max(e.a, e.b)}`));
  file.tasks.forEach((t, k) => {
    const { node, towards } = t.start;
    if (!edges.has(`${Math.min(node, towards)},${Math.max(node, towards)}`)) {
      throw new TaskFileError(`${source}: tasks.${k}.start: ${node}–${towards} is not an edge of the pedestrian network of ${taskWorldLabel(file.world)} (${nav.nodes.length} waypoints)`);
    }
  });
}

/** Thrown for a task file that does not parse: `source: field: problem`. */
export class TaskFileError extends UserError {}

/**
 * Parses a task file's text.
 *
 * @throws TaskFileError naming `source` and the first failing field (also for duplicate ids).
 */
export function parseTaskFile(source: string, text: string): ArenaTaskFile {
  const data = parseJsonFile(TaskFileSchema, source, text, (m) => new TaskFileError(m));
  const seen = new Set<string>();
  data.tasks.forEach((t, k) => {
    if (seen.has(t.id)) throw new TaskFileError(`${source}: tasks.${k}.id: duplicate id '${t.id}'`);
    seen.add(t.id);
    if (t.truth.scoring !== FAMILY_SCORING[t.family]) throw new TaskFileError(`${source}: tasks.${k}.truth.scoring: ${t.family} is scored by ${FAMILY_SCORING[t.family]}, not ${t.truth.scoring}`);
  });
  return data;
}

/** The task file's canonical text (2-space JSON and a final newline): what `arena:tasks` writes and the checked-in suites hold. */
export function taskFileText(file: ArenaTaskFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
