/**
 * `DIR/report.html` of an arena run: 360CityArena's Table 2 (family × agent, grouped), its Figure 4
 * (score by difficulty, per family and agent, as bars), how episodes ended, and every episode's walk
 * drawn over the world map (`map.png` beside the report; start green, end red, the goal ringed with
 * its radius) with, for failures of agents that see, their last first-person view (`frames/`);
 * lowest scores first. HTML with inline SVG, no scripts.
 */
import type { ArenaRecord } from './run-episode';
import { FAMILY_GROUPS, FAMILY_LABELS, shownFamilies, type AgentSummary } from './summary';
import type { ArenaTask } from './task';
import { DIFFICULTIES } from './task';

/** The world map the walks are drawn on: its file name beside the report, pixel size and world region. */
export interface ReportMap {
  file: string;
  sizePx: number;
  /** `[minX, minY, maxX, maxY]`, metres (square). */
  bounds: [number, number, number, number];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (v: number | null) => (v === null ? '–' : v.toFixed(1));
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'];

function table2(rows: readonly AgentSummary[]): string {
  const fams = shownFamilies(rows);
  const groups = FAMILY_GROUPS.map((g) => [g.group, g.families.filter((f) => fams.includes(f)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([group, n]) => `<th colspan="${n}">${group}</th>`)
    .join('');
  const head = fams.map((f) => `<th>${FAMILY_LABELS[f]}</th>`).join('');
  const body = rows.map((r) => `<tr><td>${esc(r.agent)}</td>${fams.map((f) => `<td>${pct(r.families[f])}</td>`).join('')}<td><b>${pct(r.overall)}</b></td></tr>`).join('');
  return `<table><tr><th rowspan="2">agent</th>${groups}<th rowspan="2">overall</th></tr><tr>${head}</tr>${body}</table>`;
}

/** Figure 4: one panel per family with episodes, bars per difficulty and agent, percent. */
function figure4(rows: readonly AgentSummary[]): string {
  const fams = shownFamilies(rows);
  const W = 190;
  const H = 150;
  const panels = fams.map((f, k) => {
    const x0 = (k % 4) * (W + 20);
    const y0 = Math.floor(k / 4) * (H + 40);
    const bw = (W - 30) / (DIFFICULTIES.length * (rows.length + 1));
    const bars = DIFFICULTIES.flatMap((d, di) =>
      rows.map((r, ai) => {
        const v = r.cells[f][d] ?? 0;
        const h = ((H - 30) * v) / 100;
        const x = x0 + 25 + (di * (rows.length + 1) + ai) * bw;
        return `<rect x="${x.toFixed(1)}" y="${(y0 + H - 15 - h).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLORS[ai % COLORS.length]}"><title>${esc(r.agent)} ${d}: ${pct(r.cells[f][d])}%</title></rect>`;
      }),
    );
    const labels = DIFFICULTIES.map((d, di) => `<text x="${(x0 + 25 + (di * (rows.length + 1) + rows.length / 2) * bw).toFixed(1)}" y="${y0 + H}" font-size="10" text-anchor="middle">${d[0].toUpperCase()}</text>`);
    return `<text x="${x0 + 25}" y="${y0 + 10}" font-size="12">${FAMILY_LABELS[f]}</text><line x1="${x0 + 22}" y1="${y0 + H - 15}" x2="${x0 + W}" y2="${y0 + H - 15}" stroke="#999"/><text x="${x0 + 18}" y="${y0 + 19}" font-size="9" text-anchor="end">100</text>${bars.join('')}${labels.join('')}`;
  });
  const bands = Math.max(1, Math.ceil(fams.length / 4));
  const legend = rows.map((r, ai) => `<rect x="${ai * 140}" y="${bands * (H + 40)}" width="10" height="10" fill="${COLORS[ai % COLORS.length]}"/><text x="${ai * 140 + 14}" y="${bands * (H + 40) + 9}" font-size="11">${esc(r.agent)}</text>`);
  return `<svg width="${4 * (W + 20)}" height="${bands * (H + 40) + 20}" xmlns="http://www.w3.org/2000/svg">${panels.join('')}${legend.join('')}</svg>`;
}

/** UrbanGround's measures per agent over its ladder navigation episodes (empty without any). */
function ladderTable(rows: readonly AgentSummary[]): string {
  const with_ = rows.filter((r) => r.ladder);
  if (with_.length === 0) return '';
  const v = (x: number | null, digits = 1) => (x === null ? '–' : x.toFixed(digits));
  const body = with_.map((r) => {
    const l = r.ladder!;
    return `<tr><td>${esc(r.agent)}</td>${([1, 2, 3, 4, 5] as const).map((k) => `<td>${v(l.levels[k])}</td>`).join('')}<td>${l.episodes}</td><td>${v(l.remainingDistanceRatio, 2)}</td><td>${v(l.networkAdherence)}</td><td>${v(l.closureCompliance)}</td><td>${v(l.collisions, 2)}</td><td>${v(l.stopsReached)}</td><td>${v(l.onTime)}</td><td>${v(l.routeEfficiency, 2)}</td></tr>`;
  }).join('');
  return `<h2>UrbanGround's ladder: score per level (%) and their measures</h2><table><tr><th>agent</th><th>L1</th><th>L2</th><th>L3</th><th>L4</th><th>L5</th><th>navigation episodes</th><th>remaining distance ratio</th><th>network adherence %</th><th>closure compliance %</th><th>collisions / episode</th><th>stops reached %</th><th>on-time arrivals %</th><th>route efficiency</th></tr>${body}</table>`;
}

function statuses(rows: readonly AgentSummary[]): string {
  const all = [...new Set(['answered', 'step_limit', 'stagnation', 'agent_error', 'env_error', ...rows.flatMap((r) => Object.keys(r.statuses))])];
  return `<table><tr><th>agent</th><th>episodes</th>${all.map((s) => `<th>${s}</th>`).join('')}<th>steps</th><th>tokens</th><th>parse errors</th></tr>${rows
    .map((r) => `<tr><td>${esc(r.agent)}</td><td>${r.episodes}</td>${all.map((s) => `<td>${r.statuses[s] ?? 0}</td>`).join('')}<td>${r.steps}</td><td>${r.tokens}</td><td>${r.parseErrors}</td></tr>`)
    .join('')}</table>`;
}

/** One episode's card: its walk over the map and what happened. */
function episodeCard(r: ArenaRecord, task: ArenaTask | undefined, map: ReportMap, frame: string | null): string {
  const [x0, y0, x1, y1] = map.bounds;
  const S = 260;
  const px = (p: readonly number[]) => `${(((p[0] - x0) / (x1 - x0)) * S).toFixed(1)},${(((y1 - p[1]) / (y1 - y0)) * S).toFixed(1)}`;
  const pts = r.actions.map((a) => a.position);
  const start = pts[0] ?? r.finalPosition;
  const t = task?.truth;
  const goal = t?.scoring === 'coordinate_match' ? `<circle cx="${px(t.goal).split(',')[0]}" cy="${px(t.goal).split(',')[1]}" r="${((t.epsilon / (x1 - x0)) * S).toFixed(1)}" fill="none" stroke="#d62728" stroke-dasharray="3,2"/>` : '';
  const line = pts.length > 1 ? `<polyline points="${pts.map(px).join(' ')}" fill="none" stroke="#1f77b4" stroke-width="2"/>` : '';
  const [sx, sy] = px(start).split(',');
  const [ex, ey] = px(r.finalPosition).split(',');
  const svg = `<svg width="${S}" height="${S}" xmlns="http://www.w3.org/2000/svg"><image href="${esc(map.file)}" width="${S}" height="${S}"/>${goal}${line}<circle cx="${sx}" cy="${sy}" r="4" fill="#2ca02c"/><circle cx="${ex}" cy="${ey}" r="4" fill="#d62728"/></svg>`;
  const last = r.actions.slice(-6).map((a) => esc(a.action)).join(' → ');
  const view = frame ? `<img src="${esc(frame)}" width="${S}" alt="the agent's last view">` : '';
  return `<div class="card"><div><b>${esc(r.task)}</b> (${r.difficulty}) · ${esc(r.agent)} · <b>${r.status}</b> · score ${r.score.toFixed(2)} · ${r.steps} steps${r.distanceToGoal !== null ? ` · ${r.distanceToGoal.toFixed(1)} m from the goal` : ''}</div>${svg}${view}<div class="small">${task ? esc(task.instruction).replace(/\n/g, '<br>') : ''}</div><div class="small">answer: ${esc(r.answer ?? '–')}${r.error ? ` · error: ${esc(r.error)}` : ''}</div><div class="small">last actions: ${last}</div></div>`;
}

/** The report's HTML. */
export function arenaReportHtml(o: {
  title: string; meta: Record<string, string>; rows: readonly AgentSummary[]; records: readonly ArenaRecord[]; tasks: ReadonlyMap<string, ArenaTask>; map: ReportMap;
  /** The path, relative to the report, of an episode's last first-person view (failures of seeing agents), or null. */
  frame?: (r: ArenaRecord) => string | null;
}): string {
  const cards = [...o.records].sort((a, b) => a.score - b.score || a.task.localeCompare(b.task) || a.agent.localeCompare(b.agent)).map((r) => episodeCard(r, o.tasks.get(r.task), o.map, o.frame?.(r) ?? null));
  const meta = Object.entries(o.meta).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(o.title)}</title><style>
body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}
.card{display:inline-block;vertical-align:top;width:280px;margin:6px;padding:6px;border:1px solid #ddd;font-size:12px}.small{font-size:11px;color:#555;margin-top:3px}</style></head><body>
<h1>${esc(o.title)}</h1><table>${meta}</table>
<h2>Score by family (%, 360CityArena Table 2 layout)</h2>${table2(o.rows)}
<h2>Score by difficulty (%, Figure 4)</h2>${figure4(o.rows)}
<h2>How episodes ended</h2>${statuses(o.rows)}${ladderTable(o.rows)}
<h2>Episodes (lowest score first)</h2>${cards.join('\n')}
</body></html>
`;
}
