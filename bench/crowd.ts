/**
 * `npm run bench:crowd`: two tables, written to bench/RESULTS.md (section `crowd`) and
 * bench/out/crowd.json:
 *
 * - `orca`: ORCA simulation steps per second against agent count in one environment, GPU
 *   (`GpuCrowd`) and CPU reference (`ReferenceCrowd`) side by side;
 * - `batch`: the scenario-pedestrian batch the benchmark runner steps, B environments (slots)
 *   loaded with reactive-suite scenarios, `GpuPedestrianBatch` against `CpuPedestrianBatch`
 *   (steps/s and pedestrian-steps/s).
 *
 * `--tables orca` or `--tables batch` runs one; its subsection of RESULTS.md is replaced and the
 * other one kept.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { parseScenarios, type Scenario } from '../src/sim/scenario';
import { withHarness, type Harness } from '../src/tools/browser-harness';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import type { CrowdBenchResult } from './crowd.headless-api';
import type { PedestrianBatchBenchRequest, PedestrianBatchBenchResult } from './crowd-batch.headless-api';
import { machineLine, markdownTable, RESULTS_PATH, writeResultsSection } from '../src/cli/results-file';
import { CliError } from '../src/core/user-error';

const TABLES = ['orca', 'batch'] as const;
type Table = (typeof TABLES)[number];
const SUITE = 'scenes/suites/reactive.json';
const DT = 0.1;
const ROBOT_SPEED = 1;

export const program = new Command('bench:crowd')
  .description('ORCA steps per second vs agent count, and the scenario-pedestrian batch vs slot count; GPU and CPU reference side by side.')
  .option('--tables <name,...>', `tables to run (${TABLES.join(', ')})`, TABLES.join(','))
  .option('--counts <n,...>', 'orca: agent counts', '100,1000,10000,50000')
  .option('--seconds <s>', 'orca: minimum timed seconds per backend and count', '2')
  .option('--cpu-max <n>', "orca: skip the CPU reference above this many agents ('none' = never skip)", 'none')
  .option('--slots <n,...>', `batch: slot counts B (environments, each loaded with a ${SUITE} scenario)`, '1,8,64,256')
  .option('--steps <n>', `batch: timed steps of ${DT} s per backend and slot count`, '100')
  .option('--min-seconds <s>', 'batch: repeat the timed steps (reloading the slots) until they add up to this many seconds', '0.5')
  .option('--warmup <n>', 'batch: untimed warm-up steps before the slots are reloaded and timed', '10')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

interface Options {
  tables: string; counts: string; seconds: string; cpuMax: string; slots: string; steps: string; minSeconds: string; warmup: string;
  gpu?: boolean; headed?: boolean; write: boolean;
}

const positiveInts = (flag: string, text: string): number[] => {
  const v = text.split(',').map((s) => Number(s.trim()));
  if (v.length === 0 || v.some((n) => !(Number.isInteger(n) && n > 0))) throw new CliError(`${flag}: expected positive integers, got ${text}`);
  return v;
};
const fmtRate = (v: number) => (v < 10 ? v.toFixed(2) : v.toLocaleString('en', { maximumFractionDigits: 0 }));
const today = () => new Date().toISOString().slice(0, 10);

/** The text of subsection `name` of the crowd section as last written, or a placeholder. */
function previousSubsection(name: Table): string {
  let text = '';
  try {
    text = readFileSync(RESULTS_PATH, 'utf8');
  } catch {
    /* no results file yet */
  }
  const begin = `<!-- crowd:${name} -->`;
  const end = `<!-- /crowd:${name} -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  return i >= 0 && j > i ? text.slice(i + begin.length, j).trim() : `_Not run yet (\`npm run bench:crowd -- --tables ${name}\`)._`;
}

async function runOrca(h: Harness, o: Options): Promise<{ json: CrowdBenchResult; markdown: string }> {
  const counts = positiveInts('--counts', o.counts);
  const seconds = Number(o.seconds);
  if (!(seconds > 0)) throw new CliError(`--seconds: expected a positive number, got ${o.seconds}`);
  const cpuMaxAgents = o.cpuMax === 'none' ? null : Number(o.cpuMax);
  console.log(`orca: ${counts.join(', ')} agents, ≥ ${seconds} s each`);
  const result = await h.call('runCrowdBenchmark', { counts, seconds, cpuMaxAgents });
  const fmt = (v: number | null) => (v === null ? `skipped (> ${cpuMaxAgents} agents)` : fmtRate(v));
  const table = markdownTable(
    ['agents', 'GPU steps/s', 'CPU reference steps/s', 'GPU / CPU'],
    result.rows.map((r) => [r.agents.toLocaleString('en'), fmt(r.gpuStepsPerSecond), fmt(r.cpuStepsPerSecond), r.cpuStepsPerSecond ? `${(r.gpuStepsPerSecond / r.cpuStepsPerSecond).toFixed(1)}×` : '–']),
  );
  const header = machineLine(result.adapter, result.software);
  console.log(`${header}\n\n${table}\n`);
  const markdown =
    `### Agents in one environment (\`GpuCrowd\` vs \`ReferenceCrowd\`), ${today()}\n\n${header}\n\n` +
    'Crossing crowd (`crossingCrowd`: RVO2 Circle parameters, radius 0.5 m, 25 m² per agent, each heading to its mirror point), one environment. ' +
    `Steps per second over ≥ ${seconds} s after a warm-up step; GPU = grid build + ORCA per step, submitted in batches, timed to onSubmittedWorkDone; ` +
    'CPU = the TypeScript reference (float64, single thread) in the same page.\n\n' + table;
  return { json: result, markdown };
}

/**
 * The reactive suite's scenarios with pedestrians, categories interleaved (slot i gets category
 * i mod C, that category's ⌊i / C⌋-th scenario, cycling), so every B mixes the behaviours.
 */
function slotScenarios(all: readonly Scenario[], count: number): Scenario[] {
  const byCategory = new Map<string, Scenario[]>();
  for (const s of all) if (s.pedestrians.length > 0) byCategory.set(s.category, [...(byCategory.get(s.category) ?? []), s]);
  const lists = [...byCategory.values()];
  if (lists.length === 0) throw new Error(`${SUITE}: no scenario has pedestrians`);
  return Array.from({ length: count }, (_, i) => {
    const list = lists[i % lists.length];
    return list[Math.floor(i / lists.length) % list.length];
  });
}

interface BatchRow {
  slots: number;
  pedestrians: number;
  gpu: PedestrianBatchBenchResult;
  cpu: PedestrianBatchBenchResult;
  /** Largest GPU–CPU pedestrian position difference after the timed steps, m. */
  maxPositionGap: number;
}

async function runBatch(h: Harness, o: Options): Promise<{ json: { adapter: string; software: boolean; rows: BatchRow[] }; markdown: string }> {
  const slotCounts = positiveInts('--slots', o.slots);
  const [steps] = positiveInts('--steps', o.steps);
  const warmupSteps = Number(o.warmup);
  if (!(Number.isInteger(warmupSteps) && warmupSteps >= 0)) throw new CliError(`--warmup: expected an integer ≥ 0, got ${o.warmup}`);
  const minSeconds = Number(o.minSeconds);
  if (!(minSeconds >= 0)) throw new CliError(`--min-seconds: expected a number ≥ 0, got ${o.minSeconds}`);
  const suite = parseScenarios(SUITE, readFileSync(new URL(`../${SUITE}`, import.meta.url), 'utf8'));
  const categories = new Set(suite.filter((s) => s.pedestrians.length > 0).map((s) => s.category)).size;
  console.log(`batch: B = ${slotCounts.join(', ')} slots, ${warmupSteps} warm-up + ${steps} timed steps of ${DT} s per backend`);
  const rows: BatchRow[] = [];
  let adapter = '';
  let software = false;
  for (const B of slotCounts) {
    const scenarios = slotScenarios(suite, B);
    const run = async (backend: 'gpu' | 'cpu') => {
      const req: PedestrianBatchBenchRequest = { backend, scenarios, steps, minSeconds, warmupSteps, dt: DT, robotSpeed: ROBOT_SPEED };
      const t0 = Date.now();
      const r = await h.call('runPedestrianBatchBenchmark', req);
      console.log(
        `  B ${String(B).padStart(4)}  ${backend}: ${fmtRate(r.stepsPerSecond).padStart(6)} steps/s, ${fmtRate(r.pedestrianStepsPerSecond).padStart(7)} pedestrian-steps/s ` +
          `(${r.pedestrians} pedestrians, ${r.episodes} × ${steps} steps in ${r.stepSeconds.toFixed(2)} s; load ${(r.loadSeconds * 1000).toFixed(0)} ms; call ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
      return r;
    };
    const gpu = await run('gpu');
    const cpu = await run('cpu');
    adapter = gpu.adapter ?? adapter;
    software = gpu.software;
    let maxPositionGap = 0;
    gpu.final.forEach((slot, i) => slot.forEach(([x, y], k) => (maxPositionGap = Math.max(maxPositionGap, Math.hypot(x - cpu.final[i][k][0], y - cpu.final[i][k][1])))));
    rows.push({ slots: B, pedestrians: gpu.pedestrians, gpu, cpu, maxPositionGap });
  }
  const table = markdownTable(
    ['slots B', 'pedestrians', 'GPU steps/s', 'CPU steps/s', 'GPU pedestrian-steps/s', 'CPU pedestrian-steps/s', 'GPU / CPU'],
    rows.map((r) => [
      r.slots, r.pedestrians, fmtRate(r.gpu.stepsPerSecond), fmtRate(r.cpu.stepsPerSecond), fmtRate(r.gpu.pedestrianStepsPerSecond), fmtRate(r.cpu.pedestrianStepsPerSecond),
      `${(r.gpu.stepsPerSecond / r.cpu.stepsPerSecond).toFixed(2)}×`,
    ]),
  );
  const header = machineLine(adapter, software);
  const maxGap = Math.max(...rows.map((r) => r.maxPositionGap));
  const gap = maxGap === 0 || maxGap >= 0.001 ? `${maxGap.toFixed(3)} m` : `${maxGap.toExponential(1)} m`;
  console.log(`${header}\n\n${table}\n\nlargest GPU–CPU pedestrian position gap after ${steps} steps: ${gap}\n`);
  const markdown =
    `### Scenario-pedestrian batch (\`GpuPedestrianBatch\` vs \`CpuPedestrianBatch\`), ${today()}\n\n${header}\n\n` +
    `B slots (environments), each loaded with a scenario of \`${SUITE}\` that has pedestrians (the ${categories} pedestrian categories interleaved, cycling; ` +
    "obstacles within 40 m of the robot's route as the benchmark runner filters them; the scenario's seed), " +
    `and a scripted robot per slot advancing along its route at ${ROBOT_SPEED} m/s. After ${warmupSteps} warm-up steps every slot is reloaded, ` +
    `then ${steps} steps of ${DT} s are timed (each awaited, as the runner does; the reload + ${steps} steps repeat until the timed steps add up to ≥ ${minSeconds} s): a step is all B slots. ` +
    'GPU = `GpuPedestrianBatch` (WGSL behaviours + ORCA, one submission and one readback per step for all slots); ' +
    'CPU = `CpuPedestrianBatch` (the TypeScript reference, float64, single thread) in the same page. ' +
    `Largest GPU–CPU pedestrian position gap after the timed steps: ${gap}.\n\n` + table;
  return { json: { adapter, software, rows }, markdown };
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<Options>();
  const tables = o.tables.split(',').map((s) => s.trim());
  for (const t of tables) if (!(TABLES as readonly string[]).includes(t)) throw new CliError(`--tables: unknown table ${t} (expected ${TABLES.join(', ')})`);
  const run = (t: Table) => tables.includes(t);
  console.log(`bench:crowd: ${tables.join(', ')}`);
  const out = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => ({
    orca: run('orca') ? await runOrca(h, o) : null,
    batch: run('batch') ? await runBatch(h, o) : null,
  }));
  if (o.write) {
    mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
    const jsonUrl = new URL('./out/crowd.json', import.meta.url);
    let previous: Record<string, unknown> = {};
    try {
      const p = JSON.parse(readFileSync(jsonUrl, 'utf8')) as Record<string, unknown>;
      if ('orca' in p || 'batch' in p) previous = p;
    } catch {
      /* none yet */
    }
    writeFileSync(jsonUrl, JSON.stringify({ ...previous, ...(out.orca ? { orca: out.orca.json } : {}), ...(out.batch ? { batch: out.batch.json } : {}) }, null, 2));
    const part = (name: Table) => `<!-- crowd:${name} -->\n${out[name]?.markdown ?? previousSubsection(name)}\n<!-- /crowd:${name} -->`;
    writeResultsSection('crowd', `## ORCA crowd (\`npm run bench:crowd\`)\n\n${part('orca')}\n\n${part('batch')}`);
    console.log('wrote bench/RESULTS.md and bench/out/crowd.json');
  }
});
