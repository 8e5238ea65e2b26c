/**
 * The HTML report of `npm run profile`: one self-contained page (Chart.js inlined) with a stacked
 * bar chart of per-pass GPU time and a line of FPS for each sweep (pedestrians, splats, resolution),
 * the adapter line at the top, and the table.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ProfileResult } from '../../bench/profile.headless-api';

/** Chart.js's UMD build, read from node_modules. */
function chartJs(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const PASSES = ['pedestrians', 'markers', 'preprocess', 'sort', 'raster', 'present'];
const COLOURS = ['#e6194b', '#f58231', '#3cb44b', '#4363d8', '#911eb4', '#808080'];

/** The page for `result`; `header` is the machine/adapter line and `table` the Markdown table. */
export function profileHtml(result: ProfileResult, header: string, tableHtml: string): string {
  const sweeps = [...new Set(result.rows.map((r) => r.sweep))];
  const charts = sweeps.map((sweep) => {
    const rows = result.rows.filter((r) => r.sweep === sweep);
    const labels = rows.map((r) => (sweep === 'pedestrians' ? r.pedestrians : sweep === 'splats' ? r.splatsDrawn : `${r.width}×${r.height}`));
    const datasets = [
      ...PASSES.map((p, k) => ({ type: 'bar', label: `${p} ms`, data: rows.map((r) => r.passes?.[p] ?? null), backgroundColor: COLOURS[k], stack: 'gpu', yAxisID: 'ms' })),
      { type: 'line', label: 'FPS', data: rows.map((r) => r.fps), borderColor: '#000', yAxisID: 'fps' },
    ];
    return { sweep, labels, datasets };
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>Curbside profile</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1000px}.warn{background:#fde2e2;padding:8px;border-radius:4px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}canvas{max-height:320px}</style>
<script>${chartJs()}</script></head><body>
<h1>Curbside renderer profile</h1>
<p class="${result.software ? 'warn' : ''}">${esc(header)}</p>
<p>Per-pass GPU time from timestamp queries (stacked bars, left axis, ms; sort = gap between preprocess and raster; the skinning compute pass is untimed) and frames per second from wall-clock submit → done (line, right axis). Each sweep varies one axis around the base configuration.</p>
${charts.map((c, i) => `<h2>${esc(c.sweep)}</h2><canvas id="c${i}"></canvas>`).join('\n')}
<h2>Table</h2>${tableHtml}
<script>
const charts = ${JSON.stringify(charts)};
charts.forEach((c, i) => new Chart(document.getElementById('c' + i), { data: { labels: c.labels, datasets: c.datasets },
  options: { animation: false, scales: { ms: { position: 'left', stacked: true, title: { display: true, text: 'GPU ms' } }, fps: { position: 'right', title: { display: true, text: 'FPS' }, grid: { drawOnChartArea: false } }, x: { stacked: true, title: { display: true, text: c.sweep } } } } }));
</script></body></html>`;
}
