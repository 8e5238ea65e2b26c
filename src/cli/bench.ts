/**
 * `npm run bench -- [--suite smoke|unit|reactive|long|all|FILE.json] [--policy expert|onnx:MODEL|ws://…]
 *   [--envs B] [--seeds N] [--shard i/n] [--out DIR] [--headed] [--gpu] [--fresh]`
 *
 * Runs a scenario suite in headless Chromium and writes, as each episode finishes, one JSON line to
 * DIR/episodes.jsonl (a rerun with the same DIR resumes where it stopped); ends with a summary table
 * on the terminal, DIR/summary.json and a self-contained DIR/report.html.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { summarise, summaryTable } from '../bench/aggregate';
import { BenchProgress } from '../bench/progress';
import { buildReport } from '../bench/report-html';
import { episodeBackdrop } from '../bench/backdrop';
import { appendResult, episodeKey, parseShard, readResults, type EpisodeRecord } from '../bench/results-log';
import { planJobs } from '../bench/plan';
import { parseScenarios, type Scenario } from '../bench/scenario';
import type { BenchRequest } from '../bench/headless-api';
import { CliError, runCli, withHarness } from './browser-harness';
import { positiveInt } from './parse';

const ROOT = resolve(import.meta.dirname, '../..');
const SUITES_DIR = join(ROOT, 'scenes/suites');
const NAMED_SUITES = ['smoke', 'unit', 'reactive', 'long'] as const;

/** Loads a named suite (or all of them) or a scenario/suite file. */
export function loadSuite(name: string): Scenario[] {
  if (name === 'all') return NAMED_SUITES.filter((s) => s !== 'smoke').flatMap(loadSuite);
  const path = (NAMED_SUITES as readonly string[]).includes(name) ? join(SUITES_DIR, `${name}.json`) : resolve(name);
  if (!existsSync(path)) throw new CliError(`${name}: no such suite or scenario file (named suites: ${NAMED_SUITES.join(', ')}, all)`);
  return parseScenarios(path, readFileSync(path, 'utf8'));
}

function parsePolicy(value: string): string {
  if (value === 'expert' || /^onnx:.+/.test(value) || /^wss?:\/\/.+/.test(value)) return value;
  throw new InvalidArgumentError(`expected expert, onnx:MODEL.onnx or ws://host:port, got '${value}'`);
}

const program = new Command('bench')
  .description('Run a SidewalkBench-style scenario suite in headless Chromium and report the metrics.')
  .option('--suite <name|file>', 'smoke, unit, reactive, long, all, or a scenario/suite JSON file', 'smoke')
  .option('--policy <policy...>', 'expert, onnx:MODEL.onnx (manifest MODEL.json beside it) or ws://host:port; repeatable', ['expert', 'onnx:assets/policies/single-frame/model.onnx'])
  .option('--envs <B>', 'environments simulated in parallel', positiveInt(64), 1)
  .option('--seeds <N>', 'runs per scenario with different seeds (default 5; smoke: 1)', positiveInt(100))
  .option('--shard <i/n>', 'run only shard i of n (merge with npm run bench:merge)')
  .option('--out <dir>', 'output directory (default out/bench/<suite>)')
  .option('--fresh', 'discard earlier results in the output directory instead of resuming')
  .option('--headed', 'show the browser window')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .showHelpAfterError();

runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; policy: string[]; envs: number; seeds?: number; shard?: string; out?: string; fresh?: boolean; headed?: boolean; gpu?: boolean }>();
  const policies = o.policy.map(parsePolicy);
  const scenarios = loadSuite(o.suite);
  const seeds = o.seeds ?? (o.suite === 'smoke' ? 1 : 5);
  const shard = o.shard ? parseShard(o.shard) : { index: 1, count: 1 };
  const suiteName = (NAMED_SUITES as readonly string[]).includes(o.suite) || o.suite === 'all' ? o.suite : 'custom';
  const outDir = resolve(o.out ?? join('out/bench', `${suiteName}${shard.count > 1 ? `-shard${shard.index}of${shard.count}` : ''}`));
  const log = join(outDir, 'episodes.jsonl');
  if (o.fresh) rmSync(log, { force: true });
  mkdirSync(outDir, { recursive: true });

  const { all, mine, todo: jobs } = planJobs(scenarios, policies, seeds, shard, new Set(readResults(log).map(episodeKey)));
  console.log(
    `bench: suite ${o.suite} (${scenarios.length} scenarios × ${seeds} seeds × ${policies.length} policies = ${all.length} episodes` +
      `${shard.count > 1 ? `, shard ${shard.index}/${shard.count}: ${mine.length}` : ''}), ${jobs.length} to run, results in ${log}`,
  );
  const progress = new BenchProgress(jobs.length, mine.length - jobs.length);
  let adapter = 'not started';
  if (jobs.length > 0) {
    await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
      await h.page.exposeFunction('curbsideEpisodeDone', (record: EpisodeRecord) => {
        appendResult(log, record);
        progress.episode(record.success, `${record.policy} ${record.scenarioId}#${record.run}`);
      });
      const modelFiles: Record<string, { model: string; manifest: string }> = {};
      for (const p of policies.filter((q) => q.startsWith('onnx:'))) {
        const model = await h.serveFile(p.slice(5));
        const manifest = await h.serveFile(p.slice(5).replace(/\.onnx$/, '.json'));
        modelFiles[p] = { model: model.url, manifest: manifest.url };
      }
      const req: BenchRequest = { jobs, envs: o.envs, modelFiles };
      adapter = (await h.call<{ adapter: string }>('runBenchEpisodes', req)).adapter;
    });
    progress.finish();
  }
  const records = readResults(log).filter((r) => mine.some((j) => j.scenario.id === r.scenarioId));
  const rows = summarise(records);
  console.log(`\n${summaryTable(rows)}\n`);
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify({ suite: o.suite, policies, seeds, shard, adapter, rows }, null, 2));
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  writeFileSync(
    join(outDir, 'report.html'),
    buildReport({
      title: `Curbside benchmark: ${o.suite}`,
      meta: [`policies: ${policies.join(', ')}`, `seeds: ${seeds}`, `WebGPU adapter: ${adapter}`, `generated ${new Date().toISOString()}`],
      records,
      backdrop: (r) => {
        const s = byId.get(r.scenarioId);
        return s ? episodeBackdrop(s, r) : undefined;
      },
    }),
  );
  console.log(`wrote ${join(outDir, 'summary.json')} and ${join(outDir, 'report.html')}`);
});
