/**
 * `npm run bench:splats`: splat renderer frame time against splat count and resolution, with
 * per-pass GPU times, written to bench/RESULTS.md (section `splats`) and bench/out/splats.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { withHarness } from '../src/tools/browser-harness';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { CliError } from '../src/core/user-error';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

export const program = new Command('bench:splats')
  .description('Splat renderer frame time vs splat count and resolution, with per-pass GPU times.')
  .option('--counts <n,...>', 'splat counts', '10000,50000,100000')
  .option('--resolutions <WxH,...>', 'resolutions', '320x240,640x480')
  .option('--frames <n>', 'timed frames per configuration (median reported)', '3')
  .option('--sh-degree <d>', 'SH degree of the synthetic splats (0-3)', '3')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ counts: string; resolutions: string; frames: string; shDegree: string; gpu?: boolean; headed?: boolean; write: boolean }>();
  const counts = list(o.counts).map(Number);
  const resolutions = list(o.resolutions).map((r) => r.split('x').map(Number) as [number, number]);
  if (counts.some((n) => !(Number.isInteger(n) && n > 0))) throw new CliError(`--counts: expected positive integers, got ${o.counts}`);
  if (resolutions.some(([w, h]) => !(w > 0 && h > 0))) throw new CliError(`--resolutions: expected WxH pairs, got ${o.resolutions}`);
  console.log(`bench:splats: ${counts.length} counts × ${resolutions.length} resolutions × ${o.frames} frames`);
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, (h) =>
    h.call('runSplatBenchmark', { counts, resolutions, frames: Number(o.frames), shDegree: Number(o.shDegree) }),
  );
  const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? '–' : v.toFixed(2));
  const table = markdownTable(
    ['splats', 'resolution', 'frame ms', 'FPS', 'preprocess ms', 'sort ms', 'raster ms'],
    result.rows.map((r) => [r.splats.toLocaleString('en'), `${r.width}×${r.height}`, fmt(r.frameMs), (1000 / r.frameMs).toFixed(1), fmt(r.preprocessMs), fmt(r.sortMs), fmt(r.rasterMs)]),
  );
  const header = machineLine(result.adapter, result.software);
  console.log(`${header}\n\n${table}`);
  if (o.write) {
    mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./out/splats.json', import.meta.url), JSON.stringify(result, null, 2));
    writeResultsSection(
      'splats',
      `## Splat renderer (\`npm run bench:splats\`), ${new Date().toISOString().slice(0, 10)}\n\n${header}\n\n` +
        `Synthetic splats (SH degree ${o.shDegree}) in a box 2–12 m in front of the camera; median of ${o.frames} frames after a warm-up. ` +
        `Frame ms is submit → onSubmittedWorkDone; pass times from timestamp queries (sort = gap between preprocess end and raster start).\n\n${table}`,
    );
    console.log('wrote bench/RESULTS.md and bench/out/splats.json');
  }
});
