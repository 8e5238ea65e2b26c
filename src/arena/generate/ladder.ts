/**
 * UrbanGround's ladder families on a Curbside world (paper §3.5 and appendix B; their task kinds
 * and JSON in `UrbanGround/UrbanGround`'s `AgentEvaluation/tasks/`), drawn from the world's inventory
 * and network, and the `urbanground` suite made of them, every task proven by the ladder oracle.
 *
 * - Landmark QA (LQ, level 1, visual recognition): "Which of these shops is the nearest to where you
 *   start?" with four storefront names (the nearest, within 6–20 m of the start in walkable line of
 *   sight, and three from over 80 m away). Difficulty by where it stands from the start heading:
 *   easy ahead (within 45°), medium to the side (45–135°), hard behind (you must turn to find it).
 * - Short navigation (SN, level 2): walk to a named landmark in sight of the start (no building
 *   between the start and its entrance, at least 1.5 × the radius away in a straight line), arrival
 *   within {@link ARRIVAL_RADIUS} m. Difficulty by the shortest walk: easy 25–45 m, medium 45–75 m,
 *   hard 75–120 m (UrbanGround bins success by distance).
 * - Long navigation (LN, level 2): walk to a named landmark several streets away, with the map (no
 *   line of sight asked); shortest walk 120–200 / 200–300 / 300–420 m.
 * - Instruction navigation (IN, level 2): follow numbered turn-by-turn directions written from the
 *   route (the arena's VLN writer: "Turn left at the second intersection and cross Oak Street.",
 *   "Stop in front of Rossi Bakery on your right."); shortest walk 60–120 / 120–190 / 190–260 m.
 * - Constrained navigation (CN, level 2): walk to a named landmark with 1 / 2 / 3 closure lines
 *   across sidewalks of the shortest way (given up front, drawn on the map; crossing one fails at
 *   once); the way around is at most 2.5 × as long; shortest walk 100–220 m.
 *
 * Deterministic: the same world seed and size give the same file byte for byte.
 */
import { createRng, type Rng } from '../../core/random';
import type { Vec2 } from '../../world/geometry';
import type { Landmark } from '../../world/inventory';
import { generateWorld } from '../../world/world';
import { walkableExtent, worldIndex, zoneAt } from '../../world/queries';
import { shortestNavPath } from '../../world/nav-index';
import { nearestStreet } from '../control/surface';
import { DEFAULT_GEOREFERENCE } from '../../world/georef';
import { decisionPoints, navDistances, pathTo } from '../network';
import { numberedDirections, writeDirections } from './directions';
import { closedEdges, LadderOracle } from '../ladder/agent';
import { runLadderEpisode } from '../ladder/run';
import { ARENA_TASKS_FORMAT, ARENA_TASKS_VERSION, DIFFICULTIES, URBANGROUND_FAMILIES, type ArenaTask, type ArenaTaskFile, type Difficulty, type UrbanGroundFamily } from '../task';
import { landmarkKindWord, taskWorld, type TaskWorld } from './context';
import type { TaskDraft } from './families';
import { CITYARENA_WORLD } from './suite';

/** UrbanGround's arrival radius, metres. */
export const ARRIVAL_RADIUS = 15;
/** UrbanGround's step limit. */
export const LADDER_STEP_LIMIT = 150;
/** Tasks per ladder family and difficulty in the checked-in suite. */
export const LADDER_PER_DIFFICULTY = 8;
/** Shortest-walk bands of short navigation, metres. */
export const SHORT_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [25, 45], medium: [45, 75], hard: [75, 120] };
/** Least straight-line distance of a short navigation's start from its goal: 1.5 × the arrival radius, metres. */
export const SHORT_NAV_MIN_DISTANCE = 1.5 * 15;
/** Shortest-walk bands of long navigation, metres. */
export const LONG_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [120, 200], medium: [200, 300], hard: [300, 420] };
/** Shortest-walk bands of instruction navigation, metres. */
export const INSTRUCTION_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [60, 120], medium: [120, 190], hard: [190, 260] };
/** Closures per constrained-navigation difficulty. */
export const CLOSURES_PER_DIFFICULTY: Record<Difficulty, number> = { easy: 1, medium: 2, hard: 3 };
/** Shortest-walk band of constrained navigation, metres. */
export const CONSTRAINED_NAV_BAND: [number, number] = [100, 220];
/** Longest way around the closures, as a multiple of the shortest walk. */
export const MAX_DETOUR = 2.5;
/** Bearing of the nearest shop from the start heading per landmark-QA difficulty, degrees (|angle| in [lo, hi)). */
export const QA_BEARINGS: Record<Difficulty, [number, number]> = { easy: [0, 45], medium: [45, 135], hard: [135, 181] };

const noSource = { landmark: null, detail: null, pathLength: null, decisionPoints: null, instructionSteps: null };
const round = (v: number) => Math.round(v * 10) / 10;
const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

/** A generator of a ladder family: a draft of `difficulty`, or null (draw again). */
type LadderGenerator = (w: TaskWorld, rng: Rng, difficulty: Difficulty) => TaskDraft | null;

/** Whether the straight line from `a` to `b` crosses no building (sampled every 0.5 m, the last `skipEnd` m not checked). */
function inSight(w: TaskWorld, a: Vec2, b: Vec2, skipEnd: number): boolean {
  const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
  for (let s = 0; s < d - skipEnd; s += 0.5) {
    const t = s / d;
    if (zoneAt(w.world, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) === 'building') return false;
  }
  return true;
}

/** The neighbour of node `n` whose edge points nearest to `towards`. */
function facingPoint(w: TaskWorld, n: number, towards: Vec2): number {
  const p = w.world.nav.nodes[n];
  const want = Math.atan2(towards[1] - p[1], towards[0] - p[0]);
  let best = w.adj[n][0].to;
  let bestErr = Infinity;
  for (const e of w.adj[n]) {
    const q = w.world.nav.nodes[e.to];
    const err = Math.abs(wrap(Math.atan2(q[1] - p[1], q[0] - p[0]) - want));
    if (err < bestErr) [best, bestErr] = [e.to, err];
  }
  return best;
}

function describe(l: Landmark): string {
  return l.kind === 'storefront' ? `${l.name}, the ${landmarkKindWord(l)} at ${l.address}` : `${l.name}, the ${landmarkKindWord(l)} on ${l.street}`;
}

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

/** A start node whose shortest walk to `target` lies in `band`, and that walk (start first); or null. */
function startInBand(w: TaskWorld, rng: Rng, target: Landmark, band: [number, number]): { start: number; walk: number; path: number[] } | null {
  const d = navDistances(w.world.nav, target.node);
  const pool: number[] = [];
  for (let i = 0; i < d.dist.length; i++) if (d.dist[i] >= band[0] && d.dist[i] <= band[1]) pool.push(i);
  if (pool.length === 0) return null;
  const start = pool[rng.int(0, pool.length - 1)];
  const path = pathTo(d, start);
  return path ? { start, walk: d.dist[start], path: path.reverse() } : null;
}

/** Long navigation (see the module comment). */
export const longNavigation: LadderGenerator = (w, rng, difficulty) => {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const s = startInBand(w, rng, target, LONG_NAV_BANDS[difficulty]);
  if (!s || s.path.length < 2) return null;
  return {
    family: 'long-navigation', difficulty,
    instruction: `[Long Navigation Task] Walk to ${describe(target)}, several streets away. Open the map to find it and plan your way (no route is drawn for you). Stop (terminate) when you are in front of it; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`,
    start: { node: s.start, towards: w.adj[s.start][rng.int(0, w.adj[s.start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), decisionPoints: decisionPoints(w.world.nav, s.path) },
  };
};

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

/** A closure line across the walkable ground at the middle of nav edge `k` (0.5 m past each side), labelled by its street. */
function closureAcross(w: TaskWorld, k: number): { label: string; line: Vec2[] } {
  const e = w.world.nav.edges[k];
  const [a, b] = [w.world.nav.nodes[e.a], w.world.nav.nodes[e.b]];
  const mid: Vec2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n: Vec2 = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
  const ext = walkableExtent(w.world, mid, n, 8);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const street = nearestStreet(w.inventory, mid)?.name ?? 'a street';
  const kind = e.kind === 'crosswalk' ? 'crossing' : 'sidewalk';
  // Where along the street: the nearest house number on it.
  let by = '';
  let best = 30;
  for (const o of w.inventory.objects) {
    if (o.kind !== 'building' || o.street !== street || !o.name) continue;
    const d = Math.hypot(o.position[0] - mid[0], o.position[1] - mid[1]);
    const m = /^(\d+) /.exec(o.name);
    if (m && d < best) [best, by] = [d, ` by number ${m[1]}`];
  }
  return {
    label: `the ${kind} of ${street}${by}`,
    line: [[r3(mid[0] - n[0] * (ext.right + 0.5)), r3(mid[1] - n[1] * (ext.right + 0.5))], [r3(mid[0] + n[0] * (ext.left + 0.5)), r3(mid[1] + n[1] * (ext.left + 0.5))]],
  };
}

/** Constrained navigation (see the module comment). */
export const constrainedNavigation: LadderGenerator = (w, rng, difficulty) => {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const s = startInBand(w, rng, target, CONSTRAINED_NAV_BAND);
  if (!s || s.path.length < 8) return null;
  const nav = w.world.nav;
  const edgeOf = (p: number, q: number) => nav.edges.findIndex((e) => (e.a === p && e.b === q) || (e.a === q && e.b === p));
  const closures: { label: string; line: Vec2[] }[] = [];
  let removed = new Set<number>();
  let route = s.path;
  for (let c = 0; c < CLOSURES_PER_DIFFICULTY[difficulty]; c++) {
    // Close an edge from the middle third of the current shortest way.
    const i = Math.floor(route.length / 3) + rng.int(0, Math.max(0, Math.floor(route.length / 3) - 1));
    const k = edgeOf(route[i], route[i + 1]);
    if (k < 0) return null;
    closures.push(closureAcross(w, k));
    removed = closedEdges(nav, closures);
    const around = shortestNavPath(nav, s.start, target.node, { removed });
    if (!around || around.length > MAX_DETOUR * s.walk) return null;
    route = around.nodes;
  }
  // The start and the goal's waypoint must not lie on a closed edge.
  if ([...removed].some((k) => [nav.edges[k].a, nav.edges[k].b].some((n) => n === s.start || n === target.node))) return null;
  const list = closures.map((c, k) => `${k + 1}. ${c.label}`).join('\n');
  return {
    family: 'constrained-navigation', difficulty,
    instruction: `[Constrained Navigation Task] Walk to ${describe(target)}. These are closed for the whole task (red lines on the map):\n${list}\nCrossing a closure line fails the task at once. Open the map before you set off and plan a way around them. Stop (terminate) when you are in front of the destination; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`,
    start: { node: s.start, towards: w.adj[s.start][rng.int(0, w.adj[s.start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    closures,
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), detail: `way around ${round(shortestNavPath(nav, s.start, target.node, { removed })!.length)} m` },
  };
};

/** Landmark QA (see the module comment). */
export const landmarkQa: LadderGenerator = (w, rng, difficulty) => {
  const nodes = w.world.nav.nodes;
  const start = rng.int(0, nodes.length - 1);
  const p = nodes[start];
  const shops = w.inventory.landmarks.filter((l) => l.kind === 'storefront');
  let nearest: Landmark | null = null;
  let best = Infinity;
  for (const l of shops) {
    const d = Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]);
    if (d < best) [nearest, best] = [l, d];
  }
  if (!nearest || best < 6 || best > 20 || !inSight(w, p, nearest.entrance, 1.5)) return null;
  // The nearest by a clear margin: no other shop within 5 m of as near.
  if (shops.some((l) => l !== nearest && Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]) < best + 5)) return null;
  const towards = w.adj[start][rng.int(0, w.adj[start].length - 1)].to;
  const q = nodes[towards];
  const bearing = Math.abs(wrap(Math.atan2(nearest.entrance[1] - p[1], nearest.entrance[0] - p[0]) - Math.atan2(q[1] - p[1], q[0] - p[0]))) * (180 / Math.PI);
  const [lo, hi] = QA_BEARINGS[difficulty];
  if (bearing < lo || bearing >= hi) return null;
  const far = shops.filter((l) => l.name !== nearest.name && Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]) > 80);
  const names = [...new Set(far.map((l) => l.name))];
  if (names.length < 3) return null;
  const wrong: string[] = [];
  while (wrong.length < 3) {
    const n = names[rng.int(0, names.length - 1)];
    if (!wrong.includes(n)) wrong.push(n);
  }
  const answer = rng.int(0, 3);
  const options = [...wrong];
  options.splice(answer, 0, nearest.name);
  return {
    family: 'landmark-qa', difficulty,
    instruction: 'Which of these shops is the nearest to where you start? Look around (you may move) and then answer with one letter.',
    start: { node: start, towards },
    grantsLocation: false, map: null, referenceView: null,
    truth: { scoring: 'choice', options, answer },
    source: { ...noSource, landmark: nearest.id, detail: `${round(bearing)}° from the start heading, ${round(best)} m` },
  };
};

/** The generator of each ladder family. */
export const LADDER_GENERATORS: Record<UrbanGroundFamily, LadderGenerator> = {
  'landmark-qa': landmarkQa, 'short-navigation': shortNavigation, 'long-navigation': longNavigation, 'instruction-navigation': instructionNavigation,
  'constrained-navigation': constrainedNavigation,
};

const MAX_DRAWS = 4000;

/**
 * Generates the `urbanground` suite (see the module comment) on the world of `seed` and `size`.
 *
 * @throws Error naming the family and difficulty when the world cannot hold their quota.
 */
export async function urbanGroundSuite(seed: number = CITYARENA_WORLD.seed, size: number = CITYARENA_WORLD.size, progress?: (done: number, total: number, family: string) => void): Promise<ArenaTaskFile> {
  const world = generateWorld({ seed, size });
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
        for (let draw = 0; !task; draw++) {
          if (draw >= MAX_DRAWS) throw new Error(`urbanground suite: world ${seed} (${size} m) has no ${difficulty} ${family} task number ${k + 1} after ${MAX_DRAWS} draws`);
          const draft = LADDER_GENERATORS[family](w, rng, difficulty);
          if (!draft) continue;
          const key = `${draft.start.node}|${draft.source.landmark}`;
          if (seen.has(key)) continue;
          const candidate: ArenaTask = { ...draft, id: `${family}-${String(number + 1).padStart(2, '0')}`, stepLimit: LADDER_STEP_LIMIT };
          const r = await runLadderEpisode(world, w.inventory, DEFAULT_GEOREFERENCE, candidate, new LadderOracle(), 0);
          if (r.score !== 1) continue;
          seen.add(key);
          task = candidate;
        }
        tasks.push(task);
        number++;
        progress?.(tasks.length, total, family);
      }
    }
  }
  return { format: ARENA_TASKS_FORMAT, version: ARENA_TASKS_VERSION, suite: 'urbanground', world: { seed, size }, tasks };
}
