/**
 * `npm run bench:crowd`: ORCA simulation steps per second against agent count, GPU and CPU
 * reference side by side, written to bench/RESULTS.md (section `crowd`) and bench/out/crowd.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { runCli, withHarness } from '../src/cli/browser-harness';
import type { CrowdBenchResult } from './crowd.headless-api';
import { machineLine, markdownTable, writeResultsSection } from './results-file';

const program = new Command('bench:crowd')
  .description('ORCA steps per second vs agent count, GPU and CPU reference side by side.')
  .option('--counts <n,...>', 'agent counts', '100,1000,10000,50000')
  .option('--seconds <s>', 'minimum timed seconds per backend and count', '2')
  .option('--cpu-max <n>', "skip the CPU reference above this many agents ('none' = never skip)", 'none')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

runCli(async () => {
  program.parse();
  const o = program.opts<{ counts: string; seconds: string; cpuMax: string; gpu?: boolean; headed?: boolean; write: boolean }>();
  const counts = o.counts.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !(Number.isInteger(n) && n > 0))) throw new Error(`--counts: expected positive integers, got ${o.counts}`);
  const seconds = Number(o.seconds);
  if (!(seconds > 0)) throw new Error(`--seconds: expected a positive number, got ${o.seconds}`);
  const cpuMaxAgents = o.cpuMax === 'none' ? null : Number(o.cpuMax);
  console.log(`bench:crowd: ${counts.join(', ')} agents, ≥ ${seconds} s each`);
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, (h) => h.call<CrowdBenchResult>('runCrowdBenchmark', { counts, seconds, cpuMaxAgents }));
  const fmt = (v: number | null) => (v === null ? `skipped (> ${cpuMaxAgents} agents)` : v < 10 ? v.toFixed(2) : v.toFixed(0));
  const table = markdownTable(
    ['agents', 'GPU steps/s', 'CPU reference steps/s', 'GPU / CPU'],
    result.rows.map((r) => [r.agents.toLocaleString('en'), fmt(r.gpuStepsPerSecond), fmt(r.cpuStepsPerSecond), r.cpuStepsPerSecond ? (r.gpuStepsPerSecond / r.cpuStepsPerSecond).toFixed(1) + '×' : '–']),
  );
  const header = machineLine(result.adapter, result.software);
  console.log(`${header}\n\n${table}`);
  if (o.write) {
    mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./out/crowd.json', import.meta.url), JSON.stringify(result, null, 2));
    writeResultsSection(
      'crowd',
      `## ORCA crowd (\`npm run bench:crowd\`), ${new Date().toISOString().slice(0, 10)}\n\n${header}\n\n` +
        'Crossing crowd (`crossingCrowd`: RVO2 Circle parameters, radius 0.5 m, 25 m² per agent, each heading to its mirror point), one environment. ' +
        `Steps per second over ≥ ${seconds} s after a warm-up step; GPU = grid build + ORCA per step, submitted in batches, timed to onSubmittedWorkDone; ` +
        'CPU = the TypeScript reference (float64, single thread) in the same page.\n\n' + table,
    );
    console.log('wrote bench/RESULTS.md and bench/out/crowd.json');
  }
});
