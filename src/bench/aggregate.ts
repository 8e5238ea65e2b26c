/**
 * Suite summaries: per (policy, suite, category) the benchmark's metrics as mean ± standard
 * deviation over runs (SidewalkBench reports std across 5 runs with different seeds). For each run
 * index the metric is first computed over that run's episodes (a rate or a mean), then
 * {@link meanStd} is taken across runs.
 */
import { failuresPer100m, meanStd } from './metrics';
import type { EpisodeRecord } from './results-log';
import { conditionsLabel } from './condition-runs';

export type Stat = { mean: number; std: number; n: number };

/** One row of the summary table. */
export interface SummaryRow {
  policy: string;
  suite: string;
  /** The records' conditions (condition-runs.ts: conditionsLabel; `default` without). */
  conditions: string;
  category: string;
  episodes: number;
  runs: number;
  successRate: Stat;
  routeCompletion: Stat;
  /** Failures per 100 m travelled, by kind and in total. */
  /** Contact events the robot caused (obstacles; pedestrians it was driving toward), per 100 m. */
  collisionsPer100m: Stat;
  /** Pedestrians walking into the robot while it was not driving toward them, contact events per 100 m (in failuresPer100m, not in collisionsPer100m). */
  walkedIntoPer100m: Stat;
  outOfLanePer100m: Stat;
  freezingPer100m: Stat;
  failuresPer100m: Stat;
  averageVelocity: Stat;
  timeToGoal: Stat;
  minPedestrianDistance: Stat;
  timeWithinPersonal: Stat;
  pathIrregularity: Stat;
  /** Pedestrian-network adherence, [0, 1], over the records that have it (EpisodeRecord.networkAdherence). */
  networkAdherence: Stat;
  /** Closure compliance, [0, 1]: share of the closure episodes in which the robot never entered a closed area (EpisodeRecord.closureCompliance); n = 0 without closures. */
  closureCompliance: Stat;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

function perRun(records: EpisodeRecord[], f: (rs: EpisodeRecord[]) => number): Stat {
  const runs = new Map<number, EpisodeRecord[]>();
  for (const r of records) runs.set(r.run, [...(runs.get(r.run) ?? []), r]);
  return meanStd([...runs.values()].map(f).filter((v) => !Number.isNaN(v)));
}

function per100m(rs: EpisodeRecord[], kinds: string[], keep: (f: EpisodeRecord['failures'][number]) => boolean = () => true): number {
  const n = rs.reduce((a, r) => a + r.failures.filter((f) => kinds.includes(f.kind) && keep(f)).length, 0);
  return failuresPer100m(n, rs.reduce((a, r) => a + r.distance, 0));
}

/** A collision the robot caused: with an obstacle, or with a pedestrian it was driving toward. */
const robotsDoing = (f: EpisodeRecord['failures'][number]) => f.kind !== 'collision-pedestrian' || !f.walkedInto;

/**
 * Summarises records by policy, suite, conditions and category (plus an "all" row per policy, suite
 * and conditions). Conditions keep the order in which they first appear in `records`.
 */
export function summarise(records: EpisodeRecord[]): SummaryRow[] {
  const groups = new Map<string, EpisodeRecord[]>();
  const conditionOrder = new Map<string, number>();
  for (const r of records) {
    const c = conditionsLabel(r.conditions);
    if (!conditionOrder.has(c)) conditionOrder.set(c, conditionOrder.size);
    for (const cat of [r.category, 'all']) {
      const key = `${r.policy}\u0000${r.suite}\u0000${String(conditionOrder.get(c)).padStart(4, '0')}\u0000${c}\u0000${cat}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, rs]) => {
      const [policy, suite, , conditions, category] = key.split('\u0000');
      return {
        policy,
        suite,
        conditions,
        category,
        episodes: rs.length,
        runs: new Set(rs.map((r) => r.run)).size,
        successRate: perRun(rs, (x) => mean(x.map((r) => (r.success ? 1 : 0)))),
        routeCompletion: perRun(rs, (x) => mean(x.map((r) => r.routeCompletion))),
        collisionsPer100m: perRun(rs, (x) => per100m(x, ['collision-obstacle', 'collision-pedestrian'], robotsDoing)),
        walkedIntoPer100m: perRun(rs, (x) => per100m(x, ['collision-pedestrian'], (f) => !robotsDoing(f))),
        outOfLanePer100m: perRun(rs, (x) => per100m(x, ['out-of-lane'])),
        freezingPer100m: perRun(rs, (x) => per100m(x, ['freezing'])),
        failuresPer100m: perRun(rs, (x) => per100m(x, ['collision-obstacle', 'collision-pedestrian', 'out-of-lane', 'freezing'])),
        averageVelocity: perRun(rs, (x) => mean(x.map((r) => r.averageVelocity))),
        timeToGoal: perRun(rs, (x) => mean(x.filter((r) => r.timeToGoal !== null).map((r) => r.timeToGoal as number))),
        minPedestrianDistance: perRun(rs, (x) => mean(x.filter((r) => r.minPedestrianDistance !== null).map((r) => r.minPedestrianDistance as number))),
        timeWithinPersonal: perRun(rs, (x) => mean(x.map((r) => r.timeWithinPersonal))),
        pathIrregularity: perRun(rs, (x) => mean(x.map((r) => r.pathIrregularity))),
        networkAdherence: perRun(rs, (x) => mean(x.filter((r) => r.networkAdherence !== undefined).map((r) => r.networkAdherence as number))),
        closureCompliance: perRun(rs, (x) => mean(x.filter((r) => r.closureCompliance !== undefined).map((r) => (r.closureCompliance ? 1 : 0)))),
      };
    });
}

/** `mean ± std` with `digits` decimals (percent when `percent`), or `–` when undefined. */
export function formatStat(s: Stat, digits = 2, percent = false): string {
  if (!(s.n > 0) || Number.isNaN(s.mean)) return '–';
  const k = percent ? 100 : 1;
  const m = (s.mean * k).toFixed(percent ? 1 : digits);
  return s.n > 1 ? `${m} ± ${(s.std * k).toFixed(percent ? 1 : digits)}` : m;
}

/** Whether the rows hold more than the default conditions (then tables show a conditions column). */
export const hasConditions = (rows: readonly SummaryRow[]): boolean => rows.some((r) => r.conditions !== 'default');

/** Whether some row has closure episodes (then tables show a closure compliance column). */
export const hasClosures = (rows: readonly SummaryRow[]): boolean => rows.some((r) => r.closureCompliance.n > 0);

/** A fixed-width text table of the summary for the terminal (a conditions column when {@link hasConditions}, closure compliance when {@link hasClosures}). */
export function summaryTable(rows: SummaryRow[]): string {
  const withConditions = hasConditions(rows), withClosures = hasClosures(rows);
  const header = ['policy', 'suite', ...(withConditions ? ['conditions'] : []), 'category', 'eps', 'success %', 'route compl. %', 'fail/100m', 'coll/100m', 'walked into/100m', 'lane/100m', 'freeze/100m', 'v̄ m/s', 'min ped m', 'on network %', ...(withClosures ? ['closure compl. %'] : [])];
  const body = rows.map((r) => [
    r.policy, r.suite, ...(withConditions ? [r.conditions] : []), r.category, String(r.episodes),
    formatStat(r.successRate, 1, true), formatStat(r.routeCompletion, 1, true),
    formatStat(r.failuresPer100m), formatStat(r.collisionsPer100m), formatStat(r.walkedIntoPer100m), formatStat(r.outOfLanePer100m), formatStat(r.freezingPer100m),
    formatStat(r.averageVelocity), formatStat(r.minPedestrianDistance), formatStat(r.networkAdherence, 1, true), ...(withClosures ? [formatStat(r.closureCompliance, 1, true)] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/**
 * The matched-conditions comparison: one row per policy and suite (the "all" rows), one column per
 * conditions label, each cell `success % / route completion %`; null when the rows hold one
 * conditions label only.
 */
export function conditionsComparison(rows: SummaryRow[]): { header: string[]; body: string[][] } | null {
  const all = rows.filter((r) => r.category === 'all');
  const labels = [...new Set(all.map((r) => r.conditions))];
  if (labels.length < 2) return null;
  const keys = [...new Set(all.map((r) => `${r.policy}\u0000${r.suite}`))];
  const body = keys.map((k) => {
    const [policy, suite] = k.split('\u0000');
    return [policy, suite, ...labels.map((c) => {
      const r = all.find((x) => x.policy === policy && x.suite === suite && x.conditions === c);
      return r ? `${formatStat(r.successRate, 1, true)} / ${formatStat(r.routeCompletion, 1, true)}` : '–';
    })];
  });
  return { header: ['policy', 'suite', ...labels.map((c) => `${c}: success / RC %`)], body };
}

/** {@link conditionsComparison} as a fixed-width text table ('' when there is nothing to compare). */
export function conditionsTable(rows: SummaryRow[]): string {
  const t = conditionsComparison(rows);
  if (!t) return '';
  const widths = t.header.map((h, i) => Math.max(h.length, ...t.body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(t.header), widths.map((w) => '─'.repeat(w)).join('  '), ...t.body.map(line)].join('\n');
}
