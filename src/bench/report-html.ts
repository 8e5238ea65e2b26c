/**
 * The self-contained HTML report of a benchmark run: per-suite and per-behaviour tables, failure
 * breakdowns, charts (Chart.js, inlined so the file opens offline), and a top-down trajectory
 * picture (inline SVG) for every failed episode. Node-side only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { conditionsComparison, formatStat, hasClosures, hasConditions, summarise, type SummaryRow } from './aggregate';
import type { EpisodeRecord } from './results-log';
import type { Vec2 } from '../core/geometry2d';

/** Geometry drawn under a failed episode's trajectory (optional: walkable areas and obstacles). */
export interface EpisodeBackdrop {
  walkable: Vec2[][];
  obstacles: Vec2[][];
  route: Vec2[];
}

export interface ReportInput {
  title: string;
  /** Lines shown under the title: command, adapter, date, commit. */
  meta: string[];
  records: EpisodeRecord[];
  /** The backdrop of a failed episode (route at least); missing → trajectory only. */
  backdrop?: (record: EpisodeRecord) => EpisodeBackdrop | undefined;
  /** The robot-camera strip of a failed episode of a camera-fed policy, if it has one. */
  strip?: (record: EpisodeRecord) => ReportStrip | undefined;
}

/** A failed episode's camera strip as the report links it: the image's path relative to the report, each frame's episode time, s. */
export interface ReportStrip {
  src: string;
  times: number[];
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function table(rows: SummaryRow[], withConditions: boolean): string {
  const withClosures = hasClosures(rows);
  const head = ['policy', 'suite', ...(withConditions ? ['conditions'] : []), 'category', 'episodes', 'success %', 'route completion %', 'failures/100 m', 'collisions/100 m', 'walked into robot/100 m', 'out-of-lane/100 m', 'freezing/100 m', 'avg velocity m/s', 'time to goal s', 'min ped. distance m', 'time within 1.2 m s', 'path irregularity rad/m', 'network adherence %', ...(withClosures ? ['closure compliance %'] : [])];
  const cells = (r: SummaryRow) => [
    r.policy, r.suite, ...(withConditions ? [r.conditions] : []), r.category, String(r.episodes), formatStat(r.successRate, 1, true), formatStat(r.routeCompletion, 1, true),
    formatStat(r.failuresPer100m), formatStat(r.collisionsPer100m), formatStat(r.walkedIntoPer100m), formatStat(r.outOfLanePer100m), formatStat(r.freezingPer100m),
    formatStat(r.averageVelocity), formatStat(r.timeToGoal, 1), formatStat(r.minPedestrianDistance), formatStat(r.timeWithinPersonal, 1), formatStat(r.pathIrregularity, 3), formatStat(r.networkAdherence, 1, true), ...(withClosures ? [formatStat(r.closureCompliance, 1, true)] : []),
  ];
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr class="${r.category === 'all' ? 'all' : ''}">${cells(r).map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** An SVG picture of one episode: walkable areas, obstacles, route, trajectory, failures. */
export function trajectorySvg(r: EpisodeRecord, backdrop?: EpisodeBackdrop, size = 320): string {
  const pts: Vec2[] = [...r.trajectory.map(([, x, y]) => [x, y] as Vec2), ...(backdrop?.route ?? [])];
  if (pts.length === 0) return '<svg></svg>';
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const pad = 4;
  const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad, minY = Math.min(...ys) - pad, maxY = Math.max(...ys) + pad;
  const scale = size / Math.max(maxX - minX, maxY - minY);
  // World y up → SVG y down.
  const P = ([x, y]: Vec2) => `${((x - minX) * scale).toFixed(1)},${((maxY - y) * scale).toFixed(1)}`;
  const poly = (ps: Vec2[], cls: string) => `<polygon class="${cls}" points="${ps.map(P).join(' ')}"/>`;
  const line = (ps: Vec2[], cls: string) => `<polyline class="${cls}" points="${ps.map(P).join(' ')}"/>`;
  const w = (maxX - minX) * scale;
  const h = (maxY - minY) * scale;
  const parts = [
    ...(backdrop?.walkable ?? []).map((p) => poly(p, 'walk')),
    ...(backdrop?.obstacles ?? []).map((p) => poly(p, 'obst')),
    backdrop ? line(backdrop.route, 'route') : '',
    // Pedestrians: their paths over the episode and where each was at its end.
    ...(r.pedestrianPaths ?? []).map((path) => {
      const [cx, cy] = P(path[path.length - 1]).split(',');
      return `${line(path, 'ped')}<circle class="ped-end" cx="${cx}" cy="${cy}" r="3"/>`;
    }),
    line(r.trajectory.map(([, x, y]) => [x, y] as Vec2), 'traj'),
    ...r.failures.map((f) => {
      const [cx, cy] = P([f.x, f.y]).split(',');
      return `<circle class="fail ${f.kind}" cx="${cx}" cy="${cy}" r="5"><title>${f.kind} at ${f.time.toFixed(2)} s</title></circle>`;
    }),
  ];
  return `<svg width="${w.toFixed(0)}" height="${h.toFixed(0)}" viewBox="0 0 ${w.toFixed(1)} ${h.toFixed(1)}">${parts.join('')}</svg>`;
}

function chartJs(): string {
  // The UMD build is not in chart.js's package exports: locate it beside the package's CJS entry.
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

/** Builds the whole report as one HTML string. */
export function buildReport(input: ReportInput): string {
  const rows = summarise(input.records);
  const suites = [...new Set(rows.map((r) => r.suite))];
  const charts: { id: string; title: string; labels: string[]; series: { label: string; data: number[] }[]; stacked?: boolean }[] = [];
  // One series (and one failure chart) per policy, or per policy and conditions in matched condition runs.
  const byConditions = hasConditions(rows);
  for (const suite of suites) {
    const cats = rows.filter((r) => r.suite === suite && r.category !== 'all');
    const groups = [...new Set(cats.map((r) => `${r.policy}\u0000${r.conditions}`))].map((k) => {
      const [policy, conditions] = k.split('\u0000');
      return { policy, conditions, label: byConditions ? `${policy} · ${conditions}` : policy };
    });
    const labels = [...new Set(cats.map((r) => r.category))];
    const metric = suite === 'unit' ? 'routeCompletion' : 'successRate';
    const row = (g: (typeof groups)[number], c: string) => cats.find((r) => r.policy === g.policy && r.conditions === g.conditions && r.category === c);
    charts.push({
      id: `c-${suite}`,
      title: `${suite}: ${metric === 'routeCompletion' ? 'route completion' : 'success rate'} (%) by category`,
      labels,
      series: groups.map((g) => ({ label: g.label, data: labels.map((c) => 100 * (row(g, c)?.[metric].mean ?? 0)) })),
    });
    for (const [gi, g] of groups.entries()) {
      charts.push({
        id: `f-${suite}-${gi}`,
        title: `${suite}, ${g.label}: failures per 100 m by kind`,
        labels,
        stacked: true,
        series: (['collisionsPer100m', 'outOfLanePer100m', 'freezingPer100m'] as const).map((k) => ({
          label: k.replace('Per100m', ''),
          data: labels.map((c) => {
            const v = row(g, c)?.[k].mean ?? 0;
            return Number.isFinite(v) ? v : 0;
          }),
        })),
      });
    }
  }
  const failed = input.records.filter((r) => !r.success);
  const comparison = conditionsComparison(rows);
  // Matched condition runs: the same scenarios and seeds under each condition, side by side.
  const comparisonTable = comparison
    ? `<h2>Conditions side by side</h2><table><thead><tr>${comparison.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${comparison.body
      .map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`
    : '';
  const sections = comparisonTable + suites.map((s) => `<h2>${esc(s)}</h2>${table(rows.filter((r) => r.suite === s), byConditions)}`).join('');
  const chartDivs = charts.map((c) => `<div class="chart"><canvas id="${c.id}"></canvas></div>`).join('');
  const failures = failed
    .map((r) => {
      const strip = input.strip?.(r);
      const frames = strip
        ? `<div class="strip"><img src="${esc(strip.src)}" alt="robot camera before the end"><div>robot camera${strip.times.length ? ` at ${strip.times.map((t) => t.toFixed(1)).join(', ')} s` : ''}</div></div>`
        : '';
      return `<figure>${trajectorySvg(r, input.backdrop?.(r))}${frames}<figcaption>${esc(r.policy)} · ${esc(r.scenarioId)} · run ${r.run} · ${esc(r.end)}${r.failures.length ? ` · ${r.failures.map((f) => `${f.kind} @ ${f.time.toFixed(1)} s`).join(', ')}` : ''} · completion ${(100 * r.routeCompletion).toFixed(0)}%</figcaption></figure>`;
    })
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(input.title)}</title><style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 24px}th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3}td:nth-child(-n+3){text-align:left}tr.all td{font-weight:600;background:#fafafa}.chart{width:520px;display:inline-block;margin:8px}
figure{display:inline-block;margin:8px;vertical-align:top;border:1px solid #ddd;padding:4px}figcaption{font-size:12px;max-width:520px}
svg .walk{fill:#d9d9d9}svg .obst{fill:#8b5a2b}svg .route{fill:none;stroke:#2a7;stroke-width:2;stroke-dasharray:4 3}svg .traj{fill:none;stroke:#15c;stroke-width:2}
svg .ped{fill:none;stroke:#c60;stroke-width:1;opacity:.7}svg .ped-end{fill:#c60}.strip{font-size:12px;color:#555}.strip img{display:block;max-width:100%;image-rendering:pixelated}
svg .fail{fill:#d22;stroke:#fff}svg .fail.out-of-lane{fill:#e90}svg .fail.freezing{fill:#909}
</style></head><body><h1>${esc(input.title)}</h1>${input.meta.map((m) => `<div>${esc(m)}</div>`).join('')}
${sections}<h2>Charts</h2>${chartDivs}<h2>Failed episodes (${failed.length})</h2>
<p>Camera-fed policies: the robot camera in the last 3 s before the end, left to right. Grey: walkable area; brown: obstacles; green dashes: reference route; blue: robot; thin brown: pedestrians (dot: where each was at the end); red: collision, orange: out-of-lane, purple: freezing.</p>${failures || '<p>None.</p>'}
<script>${chartJs()}</script><script>
const charts=${JSON.stringify(charts)};
for(const c of charts){new Chart(document.getElementById(c.id),{type:'bar',data:{labels:c.labels,datasets:c.series},options:{animation:false,plugins:{title:{display:true,text:c.title}},scales:{x:{stacked:!!c.stacked},y:{stacked:!!c.stacked,beginAtZero:true}}}});}
</script></body></html>`;
}
