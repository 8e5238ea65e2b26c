/**
 * Difficulty statistics of a task file beside 360CityArena's (paper §3.3): tasks per family and
 * difficulty, and per difficulty the mean map-navigation path length and decision points, VLN
 * instruction steps and object-count truth; plus the search families' walks, which the paper does
 * not report (null beside them). `npm run arena:tasks -- --stats [--json FILE]`.
 */
import { DIFFICULTIES, isUrbanGroundFamily, URBANGROUND_FAMILY_KIND, type ArenaTask, type ArenaTaskFile, type Difficulty } from '../task';

/** Conditions every level-1 and level-2 task is also run under (`npm run arena -- --conditions`), as UrbanGround's matched variants. */
export const MATCHED_CONDITIONS = ['dusk', 'night', 'fog', 'rain'] as const;

/** A statistic per difficulty, measured and the paper's (null where it reports none). */
export interface DifficultyStatistic {
  family: string;
  measure: string;
  measured: Record<Difficulty, number | null>;
  paper: Record<Difficulty, number> | null;
}

/** The `--stats` JSON. */
export interface SuiteStatistics {
  counts: Record<string, Record<Difficulty, number>>;
  statistics: DifficultyStatistic[];
  /**
   * UrbanGround's ladder (ladder suites only, else absent): per level 1–5 its tasks, their matched
   * variants (levels 1 and 2: each task under each of {@link MATCHED_CONDITIONS}) and the sum; the
   * paper evaluates 810 instances, variants included.
   */
  levels?: { level: number; tasks: number; variants: number; total: number }[];
}

const PAPER = {
  mapPath: { easy: 124, medium: 247, hard: 347 },
  mapDecisions: { easy: 3.3, medium: 6.4, hard: 9.0 },
  vlnSteps: { easy: 4.4, medium: 5.9, hard: 7.4 },
  countTruth: { easy: 3.5, medium: 4.6, hard: 9.0 },
};

/** Mean of `value` over a family's tasks per difficulty (null where none has a value), two decimals. */
function meanBy(tasks: readonly ArenaTask[], family: string, value: (t: ArenaTask) => number | null): Record<Difficulty, number | null> {
  const out = {} as Record<Difficulty, number | null>;
  for (const d of DIFFICULTIES) {
    const v = tasks.filter((t) => t.family === family && t.difficulty === d).map(value).filter((x): x is number => x !== null);
    out[d] = v.length ? Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 100) / 100 : null;
  }
  return out;
}

/** The statistics of a task file. */
export function suiteStatistics(file: ArenaTaskFile): SuiteStatistics {
  const counts: SuiteStatistics['counts'] = {};
  for (const t of file.tasks) {
    counts[t.family] ??= { easy: 0, medium: 0, hard: 0 };
    counts[t.family][t.difficulty]++;
  }
  const tasks = file.tasks;
  const statistics: DifficultyStatistic[] = [
    { family: 'map-navigation', measure: 'path length, m', measured: meanBy(tasks, 'map-navigation', (t) => t.source.pathLength), paper: PAPER.mapPath },
    { family: 'map-navigation', measure: 'decision points', measured: meanBy(tasks, 'map-navigation', (t) => t.source.decisionPoints), paper: PAPER.mapDecisions },
    { family: 'vln', measure: 'instruction steps', measured: meanBy(tasks, 'vln', (t) => t.source.instructionSteps), paper: PAPER.vlnSteps },
    { family: 'vln', measure: 'path length, m', measured: meanBy(tasks, 'vln', (t) => t.source.pathLength), paper: null },
    { family: 'count', measure: 'true count', measured: meanBy(tasks, 'count', (t) => (t.truth.scoring === 'mra' ? t.truth.count : null)), paper: PAPER.countTruth },
    { family: 'landmark-language', measure: 'walk to the landmark, m', measured: meanBy(tasks, 'landmark-language', (t) => t.source.pathLength), paper: null },
    { family: 'landmark-image', measure: 'walk to the landmark, m', measured: meanBy(tasks, 'landmark-image', (t) => t.source.pathLength), paper: null },
    { family: 'relational', measure: 'walk to the anchor, m', measured: meanBy(tasks, 'relational', (t) => t.source.pathLength), paper: null },
    { family: 'short-navigation', measure: 'walk to the landmark, m', measured: meanBy(tasks, 'short-navigation', (t) => t.source.pathLength), paper: null },
    { family: 'long-navigation', measure: 'walk to the landmark, m', measured: meanBy(tasks, 'long-navigation', (t) => t.source.pathLength), paper: null },
    { family: 'long-navigation', measure: 'decision points', measured: meanBy(tasks, 'long-navigation', (t) => t.source.decisionPoints), paper: null },
    { family: 'instruction-navigation', measure: 'instruction steps', measured: meanBy(tasks, 'instruction-navigation', (t) => t.source.instructionSteps), paper: null },
    { family: 'instruction-navigation', measure: 'walk to the landmark, m', measured: meanBy(tasks, 'instruction-navigation', (t) => t.source.pathLength), paper: null },
    { family: 'constrained-navigation', measure: 'shortest walk (closed), m', measured: meanBy(tasks, 'constrained-navigation', (t) => t.source.pathLength), paper: null },
    { family: 'constrained-navigation', measure: 'way around the closures, m', measured: meanBy(tasks, 'constrained-navigation', (t) => (t.source.detail?.startsWith('way around') ? Number(/([\d.]+) m$/.exec(t.source.detail)?.[1]) : null)), paper: null },
  ].filter((s) => Object.values(s.measured).some((v) => v !== null));
  const ladder = tasks.filter((t) => isUrbanGroundFamily(t.family));
  if (ladder.length === 0) return { counts, statistics };
  const levels = [1, 2, 3, 4, 5].map((level) => {
    const n = ladder.filter((t) => isUrbanGroundFamily(t.family) && URBANGROUND_FAMILY_KIND[t.family].level === level).length;
    const variants = level <= 2 ? n * MATCHED_CONDITIONS.length : 0;
    return { level, tasks: n, variants, total: n + variants };
  });
  return { counts, statistics, levels };
}

/** The statistics as a plain-text table (what `--stats` prints). */
export function statisticsTable(s: SuiteStatistics): string {
  const lines = ['family                  easy medium hard'];
  for (const [f, c] of Object.entries(s.counts)) lines.push(`${f.padEnd(22)} ${String(c.easy).padStart(5)} ${String(c.medium).padStart(6)} ${String(c.hard).padStart(4)}`);
  lines.push('', 'statistic (measured / paper)                            easy            medium          hard');
  const cell = (m: number | null, p: number | undefined) => `${m === null ? '-' : m.toFixed(1)} / ${p === undefined ? '-' : p.toFixed(1)}`.padEnd(16);
  for (const st of s.statistics) lines.push(`${`${st.family}: ${st.measure}`.padEnd(56)}${DIFFICULTIES.map((d) => cell(st.measured[d], st.paper?.[d])).join('')}`);
  if (s.levels) {
    lines.push('', `ladder level   tasks   matched variants (${MATCHED_CONDITIONS.join(', ')})   total`);
    const row = (name: string, tasks: number, variants: number, total: number) => `${name.padEnd(14)}${String(tasks).padStart(6)}${String(variants).padStart(22)}${String(total).padStart(26)}`;
    for (const l of s.levels) lines.push(row(`L${l.level}`, l.tasks, l.variants, l.total));
    const sum = (k: 'tasks' | 'variants' | 'total') => s.levels!.reduce((a, l) => a + l[k], 0);
    lines.push(`${row('all', sum('tasks'), sum('variants'), sum('total'))}   (UrbanGround: 810)`);
  }
  return lines.join('\n');
}
