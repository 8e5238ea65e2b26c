/**
 * The arena run's summary: mean score (%) per family × agent in 360CityArena's Table 2 layout
 * (families grouped as Environment Understanding, Path Reasoning, Spatial Reasoning; overall = the
 * unweighted mean of the families), per difficulty × agent (their Figure 4), and how episodes ended.
 */
import type { ArenaRecord } from './run-episode';
import type { LadderMetrics } from './ladder/episode';
import { ARENA_FAMILIES, DIFFICULTIES, isUrbanGroundFamily, URBANGROUND_FAMILY_KIND, type ArenaFamily, type Difficulty } from './task';

/** Table 2's column groups, in order (paper §3.2 and §5.1). */
export const FAMILY_GROUPS: { group: string; families: ArenaFamily[] }[] = [
  { group: 'Environment Understanding', families: ['localization', 'landmark-language', 'landmark-image'] },
  { group: 'Path Reasoning', families: ['map-navigation', 'vln'] },
  { group: 'Spatial Reasoning', families: ['count', 'relational'] },
  // UrbanGround's ladder (paper §3.5).
  { group: 'L1 Local understanding', families: ['landmark-qa', 'orientation-qa', 'exploration-qa'] },
  { group: 'L2 Explicit navigation', families: ['short-navigation', 'long-navigation', 'instruction-navigation', 'constrained-navigation'] },
  { group: 'L3 Implicit navigation', families: ['place-search', 'implicit-intent'] },
  { group: 'L4 Multi-task planning', families: ['schedule', 'multi-stop'] },
  { group: 'L5 Dynamic city', families: ['dynamic-closure', 'pedestrian-navigation'] },
];

/** Short column names as the paper prints them. */
export const FAMILY_LABELS: Record<ArenaFamily, string> = {
  localization: 'Loc', 'landmark-language': 'Landmark (Lang)', 'landmark-image': 'Landmark (Img)', 'map-navigation': 'Map Nav', vln: 'VLN', count: 'Obj Count', relational: 'Rel Reason',
  'landmark-qa': 'LQ', 'orientation-qa': 'OQ', 'exploration-qa': 'SQ', 'short-navigation': 'SN', 'long-navigation': 'LN', 'instruction-navigation': 'IN', 'constrained-navigation': 'CN',
  'place-search': 'PS', 'implicit-intent': 'II', schedule: 'SF', 'multi-stop': 'MP', 'dynamic-closure': 'DCR', 'pedestrian-navigation': 'PL',
};

/** One agent's row. */
export interface AgentSummary {
  agent: string;
  episodes: number;
  /** Mean score per family, percent (null: no episode of the family). */
  families: Record<ArenaFamily, number | null>;
  /** Unweighted mean of the families present, percent. */
  overall: number | null;
  /** Mean score per difficulty, percent. */
  difficulties: Record<Difficulty, number | null>;
  /** Mean score per family × difficulty, percent. */
  cells: Record<ArenaFamily, Record<Difficulty, number | null>>;
  statuses: Record<string, number>;
  /**
   * UrbanGround's measures over the agent's ladder navigation episodes (null without any): mean
   * remaining-distance ratio, mean pedestrian-network adherence (percent), closure compliance
   * (percent of closure tasks with no line crossed), collisions per episode; over its schedule and
   * multi-stop episodes, the share of stops reached and of appointments kept on time (percent) and
   * the mean route efficiency against the oracle's tour (over routes that reached every stop); and the mean score per ladder level (1–5,
   * the unweighted mean of its families present), percent.
   */
  ladder: {
    episodes: number; remainingDistanceRatio: number | null; networkAdherence: number | null; closureCompliance: number | null; collisions: number;
    stopsReached: number | null; onTime: number | null; routeEfficiency: number | null; levels: Record<1 | 2 | 3 | 4 | 5, number | null>;
  } | null;
  steps: number;
  tokens: number;
  parseErrors: number;
}

const mean = (v: number[]): number | null => (v.length ? Math.round((1000 * v.reduce((a, b) => a + b, 0)) / v.length) / 10 : null);

/** The ladder measures of an agent's records (see {@link AgentSummary.ladder}). */
function ladderMeasures(records: readonly ArenaRecord[], families: AgentSummary['families']): AgentSummary['ladder'] {
  const all = records.flatMap((r) => {
    const m = (r as ArenaRecord & { metrics?: LadderMetrics }).metrics;
    return m ? [m] : [];
  });
  const nav = all.filter((m) => m.originalDistance !== null || (m.stopsTotal ?? null) !== null);
  if (nav.length === 0 && all.length === 0) return null;
  const stops = all.filter((m) => (m.stopsTotal ?? null) !== null);
  const share = (num: number, den: number) => (den > 0 ? Math.round((1000 * num) / den) / 10 : null);
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const timed = all.filter((m) => (m.onTimeArrivals ?? null) !== null);
  const levels = Object.fromEntries(([1, 2, 3, 4, 5] as const).map((level) => {
    const v = (Object.keys(families) as ArenaFamily[]).filter((f) => isUrbanGroundFamily(f) && URBANGROUND_FAMILY_KIND[f].level === level).map((f) => families[f]).filter((x): x is number => x !== null);
    return [level, v.length ? Math.round((10 * sum(v)) / v.length) / 10 : null];
  })) as Record<1 | 2 | 3 | 4 | 5, number | null>;
  const avg = (v: number[], scale = 1) => (v.length ? Math.round((scale * 1000 * v.reduce((a, b) => a + b, 0)) / v.length) / 1000 : null);
  const closure = nav.filter((m) => m.closureCrossings !== null);
  return {
    episodes: nav.length,
    remainingDistanceRatio: avg(nav.flatMap((m) => (m.remainingDistanceRatio === null ? [] : [m.remainingDistanceRatio]))),
    networkAdherence: avg(nav.flatMap((m) => (m.networkAdherence === null ? [] : [m.networkAdherence])), 100),
    closureCompliance: closure.length ? Math.round((1000 * closure.filter((m) => m.closureCrossings === 0).length) / closure.length) / 10 : null,
    collisions: avg(nav.map((m) => m.buildingCollisions + m.pedestrianCollisions)) ?? 0,
    stopsReached: share(sum(stops.map((m) => m.stopsReached ?? 0)), sum(stops.map((m) => m.stopsTotal ?? 0))),
    onTime: share(sum(timed.map((m) => m.onTimeArrivals ?? 0)), sum(timed.map((m) => m.stopsTotal ?? 0))),
    routeEfficiency: avg(all.flatMap((m) => ((m.routeEfficiency ?? null) === null ? [] : [m.routeEfficiency as number]))),
    levels,
  };
}

/** Summarises records per agent (agents in order of first appearance). */
export function summarise(records: readonly ArenaRecord[]): AgentSummary[] {
  const agents = [...new Set(records.map((r) => r.agent))];
  return agents.map((agent) => {
    const mine = records.filter((r) => r.agent === agent);
    const score = (f: (r: ArenaRecord) => boolean) => mean(mine.filter(f).map((r) => r.score));
    const families = Object.fromEntries(ARENA_FAMILIES.map((f) => [f, score((r) => r.family === f)])) as AgentSummary['families'];
    const present = Object.values(families).filter((v): v is number => v !== null);
    const statuses: Record<string, number> = {};
    for (const r of mine) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    return {
      agent, episodes: mine.length, families,
      overall: present.length ? Math.round((10 * present.reduce((a, b) => a + b, 0)) / present.length) / 10 : null,
      difficulties: Object.fromEntries(DIFFICULTIES.map((d) => [d, score((r) => r.difficulty === d)])) as AgentSummary['difficulties'],
      cells: Object.fromEntries(ARENA_FAMILIES.map((f) => [f, Object.fromEntries(DIFFICULTIES.map((d) => [d, score((r) => r.family === f && r.difficulty === d)]))])) as AgentSummary['cells'],
      statuses, ladder: ladderMeasures(mine, families), steps: mine.reduce((a, r) => a + r.steps, 0), tokens: mine.reduce((a, r) => a + r.tokens, 0), parseErrors: mine.reduce((a, r) => a + r.parseErrors, 0),
    };
  });
}

/** The families with an episode in any row, in table order (360CityArena's Table 2, then UrbanGround's ladder). */
export function shownFamilies(rows: readonly AgentSummary[]): ArenaFamily[] {
  return FAMILY_GROUPS.flatMap((g) => g.families).filter((f) => rows.some((r) => r.families[f] !== null));
}

/** The Table 2 view as aligned text (what `npm run arena` prints at the end). */
export function summaryTable(rows: readonly AgentSummary[]): string {
  const fams = shownFamilies(rows);
  const head = ['agent', ...fams.map((f) => FAMILY_LABELS[f]), 'overall', 'easy', 'medium', 'hard'];
  const cell = (v: number | null) => (v === null ? '–' : v.toFixed(1));
  const body = rows.map((r) => [r.agent, ...fams.map((f) => cell(r.families[f])), cell(r.overall), ...DIFFICULTIES.map((d) => cell(r.difficulties[d]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  return [head, ...body].map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

/**
 * UrbanGround's ladder per agent as aligned text (what `npm run arena` prints after the family
 * table for a ladder run): score per level, then the navigation measures; empty without ladder episodes.
 */
export function ladderTable(rows: readonly AgentSummary[]): string {
  const with_ = rows.filter((r) => r.ladder);
  if (with_.length === 0) return '';
  const v = (x: number | null, digits = 1) => (x === null ? '–' : x.toFixed(digits));
  const head = ['agent', 'L1', 'L2', 'L3', 'L4', 'L5', 'rem.dist', 'adherence%', 'closures%', 'collisions', 'stops%', 'on-time%', 'route eff.'];
  const body = with_.map((r) => {
    const l = r.ladder!;
    return [r.agent, ...([1, 2, 3, 4, 5] as const).map((k) => v(l.levels[k])), v(l.remainingDistanceRatio, 2), v(l.networkAdherence), v(l.closureCompliance), v(l.collisions, 2), v(l.stopsReached), v(l.onTime), v(l.routeEfficiency, 2)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  return [head, ...body].map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}
