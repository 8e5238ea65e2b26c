/**
 * The `cityarena` suite: 360CityArena's seven families × 25 tasks on one procedural world, with
 * the paper's Easy/Medium/Hard split per family and, where the paper gives statistics, per-draw
 * targets that make the measured means land on them (VLN steps, count truths); map navigation's
 * path bands are centred on its means. Every task is proven solvable by running the oracle on it
 * (a draft the oracle cannot finish is drawn again), and its step limit is 360CityArena's 50, or
 * 1.5 × the oracle's steps (rounded up to ten) where walking the route at 1.4 m/s needs more: a
 * 350 m route is 50 five-second walks alone (their video plays faster than walking speed).
 *
 * Deterministic: the same world (seed and size, or OSM file, selection and seed) gives the same
 * file byte for byte.
 */
import { createRng } from '../../core/random';
import { OSM_ATTRIBUTION } from '../../world/osm/world-data';
import { OracleAgent } from '../agents/oracle';
import { runArenaEpisode } from '../run-episode';
import { ARENA_TASKS_FORMAT, ARENA_TASKS_VERSION, CITYARENA_FAMILIES, DIFFICULTIES, taskFileWorld, taskWorldLabel, type ArenaTask, type ArenaTaskFile, type CityArenaFamily, type Difficulty, type TaskWorldRef } from '../task';
import { taskWorld, type TaskWorld } from './context';
import { FAMILY_GENERATORS, type TaskDraft } from './families';

/** Tasks per family (360CityArena: 25). */
export const TASKS_PER_FAMILY = 25;
/** 360CityArena's step limit. */
export const CITYARENA_STEP_LIMIT = 50;
/** World of the checked-in suite: seed and side, metres (large enough for 390 m walks). */
export const CITYARENA_WORLD = { seed: 1, size: 600 } as const;

/** Easy/Medium/Hard counts per family (360CityArena's CSVs: 9/8/8 or 8/8/9). */
export const DIFFICULTY_SPLIT: Record<CityArenaFamily, [number, number, number]> = {
  localization: [9, 8, 8], 'landmark-language': [8, 8, 9], 'landmark-image': [8, 8, 9], 'map-navigation': [9, 8, 8], vln: [9, 8, 8], relational: [9, 8, 8], count: [8, 8, 9],
};

/**
 * Per-task targets where the paper gives a mean: VLN steps 4.4 / 5.9 / 7.4 and count truths 3.5 /
 * 4.6 / 9.0 (their §3.3); these lists have those means for the split's sizes.
 */
const TARGETS: Partial<Record<CityArenaFamily, Record<Difficulty, number[]>>> = {
  vln: { easy: [4, 4, 4, 4, 4, 5, 5, 5, 5], medium: [5, 6, 6, 6, 6, 6, 6, 6], hard: [7, 7, 7, 7, 7, 8, 8, 8] },
  count: { easy: [2, 3, 3, 4, 4, 4, 4, 4], medium: [4, 4, 4, 5, 5, 5, 5, 5], hard: [7, 7, 8, 8, 9, 9, 10, 10, 13] },
};

/** Draws per task before the generator gives up on a world. */
const MAX_DRAWS = 4000;

/** The step limit a task gets from the oracle's steps (see the module comment). */
export function stepLimitFor(oracleSteps: number): number {
  return Math.max(CITYARENA_STEP_LIMIT, Math.ceil((oracleSteps * 1.5) / 10) * 10);
}

/** A draft's identity for de-duplication: family, start and truth. */
const keyOf = (d: TaskDraft) => `${d.family}|${d.start.node}|${JSON.stringify(d.truth)}|${d.source.detail}`;

/**
 * Proves a draft with the oracle and gives it its id and step limit.
 *
 * @returns the task, or null when the oracle does not score 1 within 400 steps.
 */
export async function proveTask(w: TaskWorld, draft: TaskDraft, id: string): Promise<ArenaTask | null> {
  const trial: ArenaTask = { ...draft, id, stepLimit: 400 };
  const r = await runArenaEpisode(w.world, trial, new OracleAgent(), w.names, 0);
  if (r.status !== 'answered' || r.score !== 1) return null;
  return { ...draft, id, stepLimit: stepLimitFor(r.steps) };
}

/** Progress callback: tasks made so far of the total. */
export type SuiteProgress = (done: number, total: number, family: string) => void;

/**
 * Generates the `cityarena` suite on the world `ref` names (see the module comment; a real place
 * must be registered first: src/world/osm/world-ref.ts).
 *
 * @throws Error naming the family and difficulty when a procedural world cannot hold their quota
 *   (a real place notes it in the file's `notes` instead), or when no task at all can be made.
 */
export async function cityArenaSuite(ref: TaskWorldRef = CITYARENA_WORLD, progress?: SuiteProgress): Promise<ArenaTaskFile> {
  const { seed } = ref;
  const w = taskWorld(taskFileWorld(ref));
  const notes: string[] = [];
  const tasks: ArenaTask[] = [];
  const total = CITYARENA_FAMILIES.length * TASKS_PER_FAMILY;
  for (const family of CITYARENA_FAMILIES) {
    const gen = FAMILY_GENERATORS[family];
    const seen = new Set<string>();
    let number = 0;
    for (const [di, difficulty] of DIFFICULTIES.entries()) {
      const rng = createRng(seed).fork(`arena-${family}-${difficulty}`);
      const wanted = DIFFICULTY_SPLIT[family][di];
      const targets = TARGETS[family]?.[difficulty];
      for (let k = 0; k < wanted; k++) {
        let task: ArenaTask | null = null;
        for (let draw = 0; !task && draw < MAX_DRAWS; draw++) {
          const draft = gen(w, rng, difficulty, targets ? targets[k] : null);
          if (!draft || seen.has(keyOf(draft))) continue;
          task = await proveTask(w, draft, `${family}-${String(number + 1).padStart(2, '0')}`);
          if (task) seen.add(keyOf(draft));
        }
        if (!task) {
          shortfall(ref, notes, family, difficulty, k, wanted);
          break;
        }
        tasks.push(task);
        number++;
        progress?.(tasks.length, total, family);
      }
    }
  }
  return suiteFile('cityarena', ref, tasks, notes);
}

/**
 * Records that `family` × `difficulty` stopped at `made` of `wanted` tasks: a note on a real place
 * (which may lack what a family needs), an error on a procedural world (which never should).
 *
 * @throws Error naming the family and difficulty on a procedural world.
 */
export function shortfall(ref: TaskWorldRef, notes: string[], family: string, difficulty: string, made: number, wanted: number): void {
  const line = `${difficulty} ${family}: ${made} of ${wanted} tasks (${MAX_DRAWS} more draws gave no task the oracle solves)`;
  if (ref.kind !== 'osm') throw new Error(`arena suite: ${taskWorldLabel(ref)} has ${line}`);
  notes.push(line);
}

/**
 * A generated suite's file: its world, and for a real place the ODbL attribution and the notes of
 * what it could not hold.
 *
 * @throws Error when no task at all could be made.
 */
export function suiteFile(suite: string, ref: TaskWorldRef, tasks: ArenaTask[], notes: string[]): ArenaTaskFile {
  if (tasks.length === 0) throw new Error(`arena suite ${suite}: ${taskWorldLabel(ref)} holds no task (${notes.join('; ')})`);
  const world = ref.kind === 'osm' ? ref : { seed: ref.seed, size: ref.size };
  return { format: ARENA_TASKS_FORMAT, version: ARENA_TASKS_VERSION, suite, world, ...(ref.kind === 'osm' ? { attribution: OSM_ATTRIBUTION } : {}), ...(notes.length ? { notes } : {}), tasks };
}
