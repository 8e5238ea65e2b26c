/**
 * UrbanGround's ladder on a Curbside world (paper §3.5 and appendix B; their task kinds and JSON in
 * `UrbanGround/UrbanGround`'s `AgentEvaluation/tasks/`), drawn from the world's inventory and
 * network, and the `urbanground` suite made of them, every task proven by the ladder oracle. This
 * module holds the level-2 families (explicit navigation) and the suite; level 1 is in
 * ladder-questions.ts, level 3 in ladder-search.ts, level 4 in ladder-plans.ts, level 5 in
 * ladder-dynamic.ts.
 *
 * - Short navigation (SN): walk to a named landmark in sight of the start (no building between the
 *   start and its entrance, at least 1.5 × the radius away in a straight line), arrival within
 *   {@link ARRIVAL_RADIUS} m. Difficulty by the shortest walk: easy 25–45 m, medium 45–75 m, hard
 *   75–120 m (UrbanGround bins success by distance).
 * - Long navigation (LN): walk to a named landmark several streets away, with the map (no line of
 *   sight asked); shortest walk 120–200 / 200–300 / 300–420 m.
 * - Instruction navigation (IN): follow numbered turn-by-turn directions written from the route
 *   (the arena's VLN writer: "Turn left at the second intersection and cross Oak Street.", "Stop in
 *   front of Rossi Bakery on your right."); shortest walk 60–120 / 120–190 / 190–260 m.
 * - Constrained navigation (CN): walk to a named landmark with 1 / 2 / 3 closure lines across
 *   sidewalks of the shortest way (given up front, drawn on the map; crossing one fails at once);
 *   the way around is at most 2.5 × as long; shortest walk 100–220 m.
 *
 * Deterministic: the same world gives the same file byte for byte.
 */
import { createRng } from '../../core/random';
import { worldIndex } from '../../world/queries';
import { worldGeoreference } from '../../world/georef';
import { decisionPoints, navDistances } from '../network';
import { numberedDirections, writeDirections } from './directions';
import { LadderOracle } from '../ladder/agent';
import { runLadderEpisode } from '../ladder/run';
import { DIFFICULTIES, taskFileWorld, URBANGROUND_FAMILIES, type ArenaTask, type ArenaTaskFile, type Difficulty, type TaskWorldRef, type UrbanGroundFamily } from '../task';
import { taskWorld } from './context';
import { CITYARENA_WORLD, shortfall, suiteFile, type SuiteProgress } from './suite';
import { ARRIVAL_RADIUS, closeAlong, longWalkDraft, CLOSURES_PER_DIFFICULTY, describe, facingPoint, inSight, type LadderGenerator, LADDER_STEP_LIMIT, noSource, round, startInBand } from './ladder-common';
import { explorationQa, landmarkQa, orientationQa } from './ladder-questions';
import { implicitIntent, placeSearch } from './ladder-search';
import { multiStop, schedule } from './ladder-plans';
import { dynamicClosure, pedestrianNavigation } from './ladder-dynamic';

export { ARRIVAL_RADIUS, CLOSURES_PER_DIFFICULTY, LADDER_STEP_LIMIT, MAX_DETOUR } from './ladder-common';
export { QA_BEARINGS } from './ladder-questions';

/** Tasks per ladder family and difficulty in the checked-in suite. */
export const LADDER_PER_DIFFICULTY = 7;
/** Shortest-walk bands of short navigation, metres. */
export const SHORT_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [25, 45], medium: [45, 75], hard: [75, 120] };
/** Least straight-line distance of a short navigation's start from its goal: 1.5 × the arrival radius, metres. */
export const SHORT_NAV_MIN_DISTANCE = 1.5 * 15;
/** Shortest-walk bands of long navigation, metres. */
export const LONG_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [120, 200], medium: [200, 300], hard: [300, 420] };
/** Shortest-walk bands of instruction navigation, metres. */
export const INSTRUCTION_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [60, 120], medium: [120, 190], hard: [190, 260] };
/** Shortest-walk band of constrained navigation, metres. */
export const CONSTRAINED_NAV_BAND: [number, number] = [100, 220];

/** Short navigation (see the module comment). */
export const shortNavigation: LadderGenerator = (w, rng, difficulty) => {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const d = navDistances(w.world.nav, target.node);
  const [lo, hi] = SHORT_NAV_BANDS[difficulty];
  const pool: number[] = [];
  for (let i = 0; i < d.dist.length; i++) if (d.dist[i] >= lo && d.dist[i] <= hi) pool.push(i);
  if (pool.length === 0) return null;
  const start = pool[rng.int(0, pool.length - 1)];
  const p = w.world.nav.nodes[start];
  if (Math.hypot(target.entrance[0] - p[0], target.entrance[1] - p[1]) < SHORT_NAV_MIN_DISTANCE || !inSight(w, p, target.entrance, 1.5)) return null;
  return {
    family: 'short-navigation', difficulty,
    instruction: `[Short Navigation Task] Walk to ${describe(target)}. It is in sight of where you start. Stop (terminate) when you are in front of it; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`,
    start: { node: start, towards: facingPoint(w, start, target.entrance) },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    source: { ...noSource, landmark: target.id, pathLength: round(d.dist[start]) },
  };
};

/** Long navigation (see the module comment). */
export const longNavigation: LadderGenerator = (w, rng, difficulty) => longWalkDraft(w, rng, 'long-navigation', difficulty, LONG_NAV_BANDS[difficulty]);

/** Instruction navigation (see the module comment). */
export const instructionNavigation: LadderGenerator = (w, rng, difficulty) => {
  const pool = w.targets.filter((l) => l.kind === 'storefront');
  const target = pool[rng.int(0, pool.length - 1)];
  const s = startInBand(w, rng, target, INSTRUCTION_NAV_BANDS[difficulty]);
  if (!s || s.path.length < 3) return null;
  const directions = writeDirections(w, s.path, target);
  return {
    family: 'instruction-navigation', difficulty,
    instruction: `[Instruction Navigation Task] Follow these directions to your destination:\n\n${numberedDirections(directions)}\n\nStop (terminate) when you are there; you succeed within ${ARRIVAL_RADIUS} m of it.`,
    start: { node: s.start, towards: s.path[1] },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), decisionPoints: decisionPoints(w.world.nav, s.path), instructionSteps: directions.length },
  };
};

/** Constrained navigation (see the module comment). */
export const constrainedNavigation: LadderGenerator = (w, rng, difficulty) => {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const s = startInBand(w, rng, target, CONSTRAINED_NAV_BAND);
  if (!s || s.path.length < 8) return null;
  const closed = closeAlong(w, rng, s.path, s.start, target.node, CLOSURES_PER_DIFFICULTY[difficulty], s.walk);
  if (!closed) return null;
  const { closures } = closed;
  const list = closures.map((c, k) => `${k + 1}. ${c.label}`).join('\n');
  return {
    family: 'constrained-navigation', difficulty,
    instruction: `[Constrained Navigation Task] Walk to ${describe(target)}. These are closed for the whole task (red lines on the map):\n${list}\nCrossing a closure line fails the task at once. Open the map before you set off and plan a way around them. Stop (terminate) when you are in front of the destination; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`,
    start: { node: s.start, towards: w.adj[s.start][rng.int(0, w.adj[s.start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    closures,
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), detail: `way around ${round(closed.around)} m` },
  };
};

/** The generator of each ladder family. */
export const LADDER_GENERATORS: Record<UrbanGroundFamily, LadderGenerator> = {
  'landmark-qa': landmarkQa, 'orientation-qa': orientationQa, 'exploration-qa': explorationQa,
  'short-navigation': shortNavigation, 'long-navigation': longNavigation, 'instruction-navigation': instructionNavigation, 'constrained-navigation': constrainedNavigation,
  'place-search': placeSearch, 'implicit-intent': implicitIntent, schedule, 'multi-stop': multiStop,
  'dynamic-closure': dynamicClosure, 'pedestrian-navigation': pedestrianNavigation,
};

const MAX_DRAWS = 4000;

/**
 * Generates the `urbanground` suite (see the module comment) on the world `ref` names (a real
 * place registered first: src/world/osm/world-ref.ts).
 *
 * @throws Error naming the family and difficulty when a procedural world cannot hold their quota
 *   (a real place notes it in the file's `notes`), or when no task at all can be made.
 */
export async function urbanGroundSuite(ref: TaskWorldRef = CITYARENA_WORLD, progress?: SuiteProgress): Promise<ArenaTaskFile> {
  const { seed } = ref;
  const world = taskFileWorld(ref);
  const georef = worldGeoreference(world);
  const notes: string[] = [];
  worldIndex(world);
  const w = taskWorld(world);
  const tasks: ArenaTask[] = [];
  const total = URBANGROUND_FAMILIES.length * DIFFICULTIES.length * LADDER_PER_DIFFICULTY;
  for (const family of URBANGROUND_FAMILIES) {
    const seen = new Set<string>();
    let number = 0;
    for (const difficulty of DIFFICULTIES) {
      const rng = createRng(seed).fork(`ladder-${family}-${difficulty}`);
      for (let k = 0; k < LADDER_PER_DIFFICULTY; k++) {
        let task: ArenaTask | null = null;
        for (let draw = 0; !task && draw < MAX_DRAWS; draw++) {
          const draft = await LADDER_GENERATORS[family](w, rng, difficulty);
          if (!draft) continue;
          const key = `${draft.start.node}|${draft.source.landmark}`;
          if (seen.has(key)) continue;
          const candidate: ArenaTask = { ...draft, id: `${family}-${String(number + 1).padStart(2, '0')}`, stepLimit: LADDER_STEP_LIMIT };
          const r = await runLadderEpisode(world, w.inventory, georef, candidate, new LadderOracle(), 0);
          if (r.score !== 1) continue;
          seen.add(key);
          task = candidate;
        }
        if (!task) {
          shortfall(ref, notes, family, difficulty, k, LADDER_PER_DIFFICULTY);
          break;
        }
        tasks.push(task);
        number++;
        progress?.(tasks.length, total, family);
      }
    }
  }
  return suiteFile('urbanground', ref, tasks, notes);
}
