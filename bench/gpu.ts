/**
 * `npm run bench:gpu -- [--steps a,b,…] [--out DIR] [--allow-software] [--dry-run] [--no-write]`: the GPU-side
 * figures in one command, for the rare session on a machine with a GPU. Checks first that Chromium's
 * WebGPU adapter is hardware (else one error line: SwiftShader figures are not GPU figures), then
 * runs each step as its own process with `--gpu`, one after the other:
 *
 * | step | command |
 * |---|---|
 * | peers | `bench:peers` (Curbside beside PlayCanvas on the same captures) |
 * | profile | `profile --full` (pedestrians, splat budgets and resolutions at workstation sizes) |
 * | pedestrians | `bench:pedestrians` (MakeHuman and the built-in body, 0–500 walkers) |
 * | crowd | `bench:crowd` (ORCA at 100–50,000 agents, the batched pedestrian step) |
 * | smoke-envs1, smoke-envs8 | the smoke suite with both default policies at `--envs 1` and `8`, `--stats` |
 * | arena | the arena's oracle on shard 1/8 of the 360CityArena suite |
 * | arena-images | `bench:arena`: what a seeing agent's step costs (rendering its first-person views) |
 *
 * Each step's output goes to `DIR/<step>.log`; the section `gpu` of bench/RESULTS.md gets one dated
 * table (step, command, wall time, exit status) under the adapter's name, followed by the figures each
 * step printed ({@link printedFigures}). The steps' own RESULTS sections are left alone (`--no-write` where a tool has it), so
 * one run on one machine is one section. A failing step is recorded and the run goes on; the exit
 * status is 1 when any step failed.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { CliError } from '../src/core/user-error';
import { withHarness } from '../src/tools/browser-harness';

const ROOT = resolve(import.meta.dirname, '..');

/** One step of the run: a tool (its file, from the repository root) and its arguments, `--gpu` included. */
export interface GpuStep {
  name: string;
  /** What the step measures, for the table. */
  what: string;
  file: string;
  args: string[];
}

/** The steps in run order; `out` is the run's output folder (results of the bench and arena steps go under it). */
export function gpuSteps(out: string): GpuStep[] {
  const rel = (p: string) => relative(ROOT, join(out, p)) || '.';
  return [
    { name: 'peers', what: 'Curbside beside PlayCanvas, same captures and camera path', file: 'bench/peers.ts', args: ['--gpu', '--no-write'] },
    { name: 'profile', what: 'frame time against pedestrians, splat budget and resolution (workstation sweep)', file: 'src/cli/profile.ts', args: ['--full', '--gpu', '--out', rel('profile')] },
    { name: 'pedestrians', what: 'skinned walkers, MakeHuman with LODs and the built-in body', file: 'bench/pedestrians.ts', args: ['--gpu', '--no-write'] },
    { name: 'crowd', what: 'ORCA crowd steps and the batched pedestrian step', file: 'bench/crowd.ts', args: ['--gpu', '--no-write'] },
    { name: 'smoke-envs1', what: 'smoke suite, expert and bc-gnm-v3, one environment per step', file: 'src/cli/bench.ts', args: ['--suite', 'smoke', '--envs', '1', '--stats', '--gpu', '--fresh', '--out', rel('smoke-envs1')] },
    { name: 'smoke-envs8', what: 'smoke suite, expert and bc-gnm-v3, eight environments per step', file: 'src/cli/bench.ts', args: ['--suite', 'smoke', '--envs', '8', '--stats', '--gpu', '--fresh', '--out', rel('smoke-envs8')] },
    { name: 'arena', what: "the arena's oracle on shard 1/8 of cityarena", file: 'src/cli/arena.ts', args: ['--suite', 'cityarena', '--agent', 'oracle', '--shard', '1/8', '--gpu', '--fresh', '--out', rel('arena-oracle')] },
    { name: 'arena-images', what: "a seeing agent's first-person views: start-up, entering a task, a step", file: 'bench/arena-images.ts', args: ['--gpu', '--no-write'] },
  ];
}

/**
 * What a step printed that belongs in RESULTS: its Markdown tables (`| … |` lines, in order, a blank
 * line between tables), or, for a tool that prints none (the bench's and the arena's terminal tables),
 * its last `tail` lines other than progress lines (`… · ETA …`) as a text block.
 */
export function printedFigures(output: string, tail = 20): string {
  const tables = printedTables(output);
  if (tables) return tables;
  const lines = output.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '' && !/ · ETA /.test(l));
  return lines.length ? `\`\`\`text\n${lines.slice(-tail).join('\n')}\n\`\`\`` : '';
}

/** The Markdown table lines (`| … |`) a tool printed, in order, with a blank line between tables. */
export function printedTables(output: string): string {
  const blocks: string[][] = [];
  let current: string[] | null = null;
  for (const line of output.split('\n')) {
    if (/^\|.*\|\s*$/.test(line)) {
      if (!current) blocks.push((current = []));
      current.push(line.trimEnd());
    } else current = null;
  }
  return blocks.filter((b) => b.length >= 3).map((b) => b.join('\n')).join('\n\n');
}

export const program = new Command('bench:gpu')
  .description("The GPU-side figures in one run with --gpu (peers, profile --full, pedestrians, crowd, smoke bench at --envs 1 and 8, the arena's oracle on a shard, the arena's images); one dated RESULTS section.")
  .option('--steps <names>', `comma-separated subset of ${gpuSteps('bench/out/gpu').map((s) => s.name).join(', ')}`)
  .option('--out <DIR>', 'folder for the logs and the bench and arena results', 'bench/out/gpu')
  .option('--allow-software', 'run on a software adapter (SwiftShader) too: a rehearsal of the run, not GPU figures (hours on a CPU)')
  .option('--dry-run', 'print the commands and stop (no browser)')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

/** Runs one step, its output to `log` and (the table lines) back to the caller; resolves with the exit status and seconds. */
function runStep(step: GpuStep, log: string): Promise<{ status: number; seconds: number; output: string }> {
  return new Promise((done) => {
    const started = performance.now();
    const file = createWriteStream(log);
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, step.file), ...step.args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
      file.write(b);
    });
    child.stderr.on('data', (b: Buffer) => file.write(b));
    child.on('close', (code) => {
      file.end();
      done({ status: code ?? 1, seconds: (performance.now() - started) / 1000, output });
    });
  });
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ steps?: string; out: string; allowSoftware?: boolean; dryRun?: boolean; write: boolean }>();
  const out = resolve(o.out);
  const all = gpuSteps(out);
  let steps = all;
  if (o.steps !== undefined) {
    const names = o.steps.split(',').map((s) => s.trim());
    const unknown = names.filter((n) => !all.some((s) => s.name === n));
    if (unknown.length > 0 || names.length === 0) throw new CliError(`--steps ${o.steps}: unknown step ${unknown.join(', ') || '(none given)'} (expected some of ${all.map((s) => s.name).join(', ')})`);
    steps = all.filter((s) => names.includes(s.name));
  }
  const command = (s: GpuStep) => `npx tsx ${s.file} ${s.args.join(' ')}`;
  if (o.dryRun) {
    for (const s of steps) console.log(command(s));
    return;
  }
  const { adapter, software } = await withHarness({ hardwareGpu: true }, (h) => h.call('describeGpuAdapter', {}));
  if (software && !o.allowSoftware) throw new CliError(`bench:gpu: Chromium's WebGPU adapter is ${adapter}, not a GPU; run it on a machine with one (or pass --allow-software to rehearse)`);
  mkdirSync(out, { recursive: true });
  console.log(`bench:gpu: ${steps.length} steps on ${adapter}; logs in ${out}`);
  const date = new Date().toISOString().slice(0, 10);
  const rows: (string | number)[][] = [];
  const printed: string[] = [];
  let failed = 0;
  const t0 = performance.now();
  for (const [k, s] of steps.entries()) {
    console.log(`[${k + 1}/${steps.length}] ${s.name}: ${command(s)}`);
    const log = join(out, `${s.name}.log`);
    const r = await runStep(s, log);
    if (r.status !== 0) failed++;
    console.log(`[${k + 1}/${steps.length}] ${s.name}: exit ${r.status} after ${r.seconds.toFixed(0)} s${r.status !== 0 ? ` (see ${log})` : ''}`);
    rows.push([s.name, s.what, `\`${command(s)}\``, r.seconds.toFixed(0), r.status]);
    const figures = printedFigures(r.output);
    if (figures) printed.push(`### ${s.name}\n\n${figures}`);
  }
  const body = [
    `## GPU figures (\`npm run bench:gpu\`, ${date})`,
    '',
    machineLine(adapter, software),
    '',
    `${steps.length} steps in ${((performance.now() - t0) / 60_000).toFixed(1)} min, one after the other, each its own process with \`--gpu\`; logs in \`${relative(ROOT, out) || '.'}\`.`,
    '',
    markdownTable(['step', 'measures', 'command', 'wall s', 'exit'], rows),
    '',
    ...printed.flatMap((p) => [p, '']),
  ].join('\n');
  console.log(`\n${body}`);
  if (o.write) writeResultsSection('gpu', body);
  if (failed > 0) throw new CliError(`bench:gpu: ${failed} of ${steps.length} steps failed (logs in ${out})`);
});
