/**
 * Suite summaries: per (policy, suite, category) the benchmark's metrics as mean ± standard
 * deviation over runs (SidewalkBench reports std across 5 runs with different seeds). For each run
 * index the metric is first computed over that run's episodes (a rate or a mean), then
 * {@link meanStd} is taken across runs.
 */
import { failuresPer100m, meanStd } from './metrics';
import type { EpisodeRecord } from './results-log';

export type Stat = { mean: number; std: number; n: number };

/** One row of the summary table. */
export interface SummaryRow {
  policy: string;
  suite: string;
  category: string;
  episodes: number;
  runs: number;
  successRate: Stat;
  routeCompletion: Stat;
  /** Failures per 100 m travelled, by kind and in total. */
  collisionsPer100m: Stat;
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
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

function perRun(records: EpisodeRecord[], f: (rs: EpisodeRecord[]) => number): Stat {
  const runs = new Map<number, EpisodeRecord[]>();
  for (const r of records) runs.set(r.run, [...(runs.get(r.run) ?? []), r]);
  return meanStd([...runs.values()].map(f).filter((v) => !Number.isNaN(v)));
}

function per100m(rs: EpisodeRecord[], kinds: string[]): number {
  const n = rs.reduce((a, r) => a + r.failures.filter((f) => kinds.includes(f.kind)).length, 0);
  return failuresPer100m(n, rs.reduce((a, r) => a + r.distance, 0));
}

/** Summarises records by policy, suite and category (plus an "all" row per policy and suite). */
export function summarise(records: EpisodeRecord[]): SummaryRow[] {
  const groups = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    for (const cat of [r.category, 'all']) {
      const key = `${r.policy}\u0000${r.suite}\u0000${cat}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, rs]) => {
      const [policy, suite, category] = key.split('\u0000');
      return {
        policy,
        suite,
        category,
        episodes: rs.length,
        runs: new Set(rs.map((r) => r.run)).size,
        successRate: perRun(rs, (x) => mean(x.map((r) => (r.success ? 1 : 0)))),
        routeCompletion: perRun(rs, (x) => mean(x.map((r) => r.routeCompletion))),
        collisionsPer100m: perRun(rs, (x) => per100m(x, ['collision-obstacle', 'collision-pedestrian'])),
        outOfLanePer100m: perRun(rs, (x) => per100m(x, ['out-of-lane'])),
        freezingPer100m: perRun(rs, (x) => per100m(x, ['freezing'])),
        failuresPer100m: perRun(rs, (x) => per100m(x, ['collision-obstacle', 'collision-pedestrian', 'out-of-lane', 'freezing'])),
        averageVelocity: perRun(rs, (x) => mean(x.map((r) => r.averageVelocity))),
        timeToGoal: perRun(rs, (x) => mean(x.filter((r) => r.timeToGoal !== null).map((r) => r.timeToGoal as number))),
        minPedestrianDistance: perRun(rs, (x) => mean(x.filter((r) => r.minPedestrianDistance !== null).map((r) => r.minPedestrianDistance as number))),
        timeWithinPersonal: perRun(rs, (x) => mean(x.map((r) => r.timeWithinPersonal))),
        pathIrregularity: perRun(rs, (x) => mean(x.map((r) => r.pathIrregularity))),
        networkAdherence: perRun(rs, (x) => mean(x.filter((r) => r.networkAdherence !== undefined).map((r) => r.networkAdherence as number))),
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

/** A fixed-width text table of the summary for the terminal. */
export function summaryTable(rows: SummaryRow[]): string {
  const header = ['policy', 'suite', 'category', 'eps', 'success %', 'route compl. %', 'fail/100m', 'coll/100m', 'lane/100m', 'freeze/100m', 'v̄ m/s', 'min ped m', 'on network %'];
  const body = rows.map((r) => [
    r.policy, r.suite, r.category, String(r.episodes),
    formatStat(r.successRate, 1, true), formatStat(r.routeCompletion, 1, true),
    formatStat(r.failuresPer100m), formatStat(r.collisionsPer100m), formatStat(r.outOfLanePer100m), formatStat(r.freezingPer100m),
    formatStat(r.averageVelocity), formatStat(r.minPedestrianDistance), formatStat(r.networkAdherence, 1, true),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
