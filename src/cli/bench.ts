/**
 * `npm run bench -- [--suite smoke|unit|reactive|long|train|all|FILE.json] [--policy expert|onnx:MODEL|remote|ws://127.0.0.1:PORT]
 *   [--robot wheeled|dog|humanoid] [--envs B] [--crowd gpu|cpu] [--seeds N] [--shard i/n|auto [--shards N]] [--out DIR] [--headed] [--gpu] [--fresh] [--remote-wait S] [--stats]`
 *
 * Runs a scenario suite in headless Chromium and writes, as each episode finishes, one JSON line to
 * DIR/episodes.jsonl (a rerun with the same DIR resumes where it stopped); ends with a summary table
 * on the terminal, DIR/summary.json and a self-contained DIR/report.html.
 *
 * `--robot` picks the embodiment (src/robot/embodiments.ts); records of a dog or a humanoid carry
 * `robot`, the summary and report name it, their default DIR is out/bench/<suite>-<robot>, and a
 * results file of another embodiment is never resumed (the run refuses with one line).
 *
 * A remote policy (`remote`: any free port, or `ws://127.0.0.1:PORT`) is served through the relay of
 * src/policy/remote-server.ts, started here on loopback with a fresh session token (or
 * $CURBSIDE_REMOTE_TOKEN): the runner prints the URL and token for the model process, waits for it to
 * connect and send its spec, then hands the relay to the page (src/bench/headless-api.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { conditionsTable, summarise, summaryTable } from '../bench/aggregate';
import { conditionVariants, parseConditionNames } from '../bench/condition-runs';
import { BenchProgress } from '../bench/progress';
import { buildReport } from '../bench/report-html';
import { episodeBackdrop } from '../bench/backdrop';
import { appendResult, episodeKey, parseShard, readResults, shardFromEnvironment, type EpisodeRecord } from '../bench/results-log';
import { recordRobot } from '../bench/episode-record';
import type { RobotName } from '../robot/robot-spec';
import { planJobs } from '../bench/plan';
import type { BenchRequest, BenchStats, EpisodeStrip } from '../bench/headless-api';
import { readStrip, removeStrips, writeStrip } from '../bench/strip-files';
import { NO_GPU_WORK, statsLine } from '../gpu/gpu-stats';
import { parsePolicyManifest, type PolicyManifest } from '../policy/manifest';
import { parseRelayPolicy, RemotePolicyServer } from '../policy/remote-server';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { loadSuite, NAMED_SUITES, prepareOsmWorlds, serveScenes } from './suite-inputs';
import { osmExtractsFor } from '../bench/osm-worlds-node';
import { positiveInt } from './parse';
import { parseRobotOption, ROBOT_OPTION_HELP } from './robot-option';

/** Checks a `--policy` value; remote ones in canonical form (the name results are recorded under). */
function parsePolicy(value: string): string {
  if (value === 'expert' || /^onnx:.+/.test(value)) return value;
  let relay: ReturnType<typeof parseRelayPolicy>;
  try {
    relay = parseRelayPolicy(value);
  } catch (e) {
    throw new CliError(`--policy ${(e as Error).message}`);
  }
  if (relay) return relay.policy;
  throw new CliError(`--policy: expected expert, onnx:MODEL.onnx, remote or ws://127.0.0.1:PORT, got '${value}'`);
}

/** A started relay for one remote `--policy` value; `ready` resolves once the model has sent a valid spec. */
interface Relay {
  policy: string;
  server: RemotePolicyServer;
  ready: Promise<void>;
}

/**
 * Starts the relay of a remote policy, prints how to connect the model process, and starts waiting
 * (`waitS` seconds) for its spec, which is validated here so a bad spec fails before Chromium runs.
 *
 * @throws CliError when the port cannot be bound.
 */
async function startRelay(policy: string, waitS: number): Promise<Relay> {
  const { host, port } = parseRelayPolicy(policy)!;
  let server: RemotePolicyServer;
  try {
    server = await RemotePolicyServer.start({ host, port, token: process.env.CURBSIDE_REMOTE_TOKEN || undefined });
  } catch (e) {
    throw new CliError(`remote policy ${policy}: cannot start the relay: ${(e as Error).message}`);
  }
  console.log(
    `bench: remote policy ${policy}: relay at ${server.url}, token ${server.token}\n` +
      `  connect the model process to ${server.url}/policy with "Authorization: Bearer <token>" (protocol: src/policy/REMOTE-PROTOCOL.md), e.g.\n` +
      `  npx tsx src/policy/examples/remote-example-client.ts --url ${server.url} --token ${server.token}\n` +
      `bench: waiting up to ${waitS} s for the model to connect and send its spec (--remote-wait)`,
  );
  const ready = (async () => {
    let manifest: unknown;
    try {
      manifest = await server.waitForSpec(waitS * 1000);
    } catch (e) {
      throw new CliError(`remote policy ${policy}: ${(e as Error).message}: start the model process with the URL and token printed above, or raise --remote-wait`);
    }
    let m: PolicyManifest;
    try {
      m = parsePolicyManifest(manifest, `remote policy ${policy}: spec`);
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    if (m.goal.type === 'image') throw new CliError(`remote policy ${policy}: spec: goal.type image is not supported by the remote protocol yet`);
    console.log(`bench: remote policy ${policy}: model '${m.name}' connected (${m.rateHz} Hz, ${m.image.width}×${m.image.height}, ${m.context.frames} frame(s), goal ${m.goal.type}, output ${m.output.kind})`);
  })();
  ready.catch(() => undefined); // awaited later; not an unhandled rejection meanwhile
  return { policy, server, ready };
}

export const program = new Command('bench')
  .description('Run a SidewalkBench-style scenario suite in headless Chromium and report the metrics.')
  .option('--suite <name|file>', 'smoke, unit, reactive, long, closure, train, all, or a scenario/suite JSON file', 'smoke')
  .option('--policy <policy...>', 'expert, onnx:MODEL.onnx (manifest MODEL.json beside it), remote (relay on any free port) or ws://127.0.0.1:PORT; repeatable', ['expert', 'onnx:assets/policies/bc-gnm-v3/model.onnx'])
  .option('--robot <name>', ROBOT_OPTION_HELP, parseRobotOption, 'wheeled' as RobotName)
  .option('--envs <B>', 'environments per policy stepped in lockstep: each control step renders the B robot cameras in one GPU submission and runs the policy once for all B', positiveInt(64), 1)
  .addOption(new Option('--crowd <backend>', 'pedestrian simulation: gpu (WGSL behaviours + ORCA, float32) or cpu (TypeScript reference, float64, identical on every machine)').choices(['gpu', 'cpu']).default('gpu'))
  .option('--conditions <names>', 'matched condition runs: every scenario with the same seeds under each of these comma-separated conditions (day, dusk, night, fog, rain; ids get @NAME), compared side by side')
  .option('--seeds <N>', 'runs per scenario with different seeds (default 5; smoke: 1)', positiveInt(100))
  .option('--shard <i/n|auto>', 'run only shard i of n (merge with npm run bench:merge); auto: from a Slurm job array or a Kubernetes Indexed Job')
  .option('--shards <n>', 'with --shard auto: the shard count (needed for a Kubernetes Indexed Job; overrides SLURM_ARRAY_TASK_COUNT)', positiveInt(100_000))
  .option('--out <dir>', 'output directory (default out/bench/<suite>)')
  .option('--fresh', 'discard earlier results in the output directory instead of resuming')
  .option('--headed', 'show the browser window')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--remote-wait <s>', 'seconds to wait for a remote policy process to connect', positiveInt(86_400), 300)
  .option('--stats', 'print one line of GPU work per control step (submissions, compute and render passes, bytes read back) and the pipelines created');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; policy: string[]; robot: RobotName; envs: number; crowd: 'gpu' | 'cpu'; seeds?: number; shard?: string; shards?: number; out?: string; fresh?: boolean; headed?: boolean; gpu?: boolean; remoteWait: number; stats?: boolean; conditions?: string }>();
  const policies = o.policy.map(parsePolicy);
  const conditionNames = o.conditions === undefined ? null : parseConditionNames(o.conditions);
  const suiteScenarios = loadSuite(o.suite);
  const scenarios = conditionNames ? conditionVariants(suiteScenarios, conditionNames) : suiteScenarios;
  await prepareOsmWorlds(scenarios);
  const seeds = o.seeds ?? (o.suite === 'smoke' ? 1 : 5);
  const shard = o.shard === 'auto' ? shardFromEnvironment(process.env, o.shards) : o.shard ? parseShard(o.shard) : { index: 1, count: 1 };
  const suiteName = (NAMED_SUITES as readonly string[]).includes(o.suite) || o.suite === 'all' ? o.suite : 'custom';
  const outDir = resolve(o.out ?? join('out/bench', `${suiteName}${o.robot === 'wheeled' ? '' : `-${o.robot}`}${shard.count > 1 ? `-shard${shard.index}of${shard.count}` : ''}`));
  const log = join(outDir, 'episodes.jsonl');
  if (o.fresh) {
    rmSync(log, { force: true });
    removeStrips(outDir);
  }
  mkdirSync(outDir, { recursive: true });
  // Records do not key on the embodiment: another robot's results file is refused, never mixed in.
  const otherRobot = readResults(log).find((r) => recordRobot(r) !== o.robot);
  if (otherRobot) throw new CliError(`${log}: holds episodes run with --robot ${recordRobot(otherRobot)}; resume with that robot, or start again with --fresh (or another --out)`);

  const { all, mine, todo: jobs } = planJobs(scenarios, policies, seeds, shard, new Set(readResults(log).map(episodeKey)));
  console.log(
    `bench: suite ${o.suite}, robot ${o.robot} (${scenarios.length} scenarios × ${seeds} seeds × ${policies.length} policies = ${all.length} episodes` +
      `${shard.count > 1 ? `, shard ${shard.index}/${shard.count}: ${mine.length}` : ''}), ${jobs.length} to run, results in ${log}`,
  );
  const mixed = readResults(log).find((r) => (r.crowd ?? 'cpu') !== o.crowd);
  if (mixed && jobs.length > 0) {
    throw new CliError(`${log}: holds episodes run with --crowd ${mixed.crowd ?? 'cpu'}; resume with that backend, or start again with --fresh (or another --out)`);
  }
  const progress = new BenchProgress(jobs.length, mine.length - jobs.length);
  let adapter = 'not started';
  let stats: BenchStats | undefined;
  if (jobs.length > 0) {
    // Relays first, so the model process can connect while Chromium starts.
    const relays: Relay[] = [];
    let failure: string | undefined;
    try {
      for (const p of new Set(jobs.map((j) => j.policy))) if (parseRelayPolicy(p)) relays.push(await startRelay(p, o.remoteWait));
      await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
        await h.page.exposeFunction('curbsideEpisodeDone', (record: EpisodeRecord, strip?: EpisodeStrip) => {
          // The strip first: a record in the log is an episode whose report material is complete.
          if (strip) writeStrip(outDir, record, strip);
          appendResult(log, record);
          progress.episode(record.success, `${record.policy} ${record.scenarioId}#${record.run}`);
        });
        const modelFiles: Record<string, { model: string; manifest: string }> = {};
        for (const p of policies.filter((q) => q.startsWith('onnx:'))) {
          const model = await h.serveFile(p.slice(5));
          const manifest = await h.serveFile(p.slice(5).replace(/\.onnx$/, '.json'));
          modelFiles[p] = { model: model.url, manifest: manifest.url };
        }
        const scenes = await serveScenes(h.serveFile, jobs.map((j) => j.scenario), policies.some((p) => p !== 'expert'));
        const osm = await osmExtractsFor(jobs.map((j) => j.scenario));
        for (const r of relays) await r.ready;
        const remotes = Object.fromEntries(relays.map((r) => [r.policy, { url: r.server.url, token: r.server.token }]));
        const req: BenchRequest = { jobs, envs: o.envs, crowd: o.crowd, modelFiles, remotes, scenes, osm, stats: o.stats, robot: o.robot };
        ({ adapter, stats } = await h.call('runBenchEpisodes', req));
      });
    } catch (e) {
      failure = (e as Error).message ?? String(e);
      throw e;
    } finally {
      // The policy process hears how the run ended, then a close frame (REMOTE-PROTOCOL.md, "End of the run").
      await Promise.all(relays.map((r) => r.server.close(failure ? { type: 'error', message: failure } : { type: 'done', episodes: jobs.filter((j) => j.policy === r.policy).length })));
    }
    progress.finish();
  }
  const records = readResults(log).filter((r) => mine.some((j) => j.scenario.id === r.scenarioId));
  const rows = summarise(records);
  console.log(`\n${summaryTable(rows)}\n`);
  const comparison = conditionsTable(rows);
  if (comparison) console.log(`Conditions side by side (same scenarios, same seeds):\n${comparison}\n`);
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify({ suite: o.suite, policies, robot: o.robot, seeds, shard, crowd: o.crowd, ...(conditionNames ? { conditions: conditionNames } : {}), adapter, rows }, null, 2));
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  writeFileSync(
    join(outDir, 'report.html'),
    buildReport({
      title: `Curbside benchmark: ${o.suite}${o.robot === 'wheeled' ? '' : ` (${o.robot})`}`,
      meta: [`policies: ${policies.join(', ')}`, `robot: ${o.robot}`, `seeds: ${seeds}`, `crowd: ${o.crowd}`, ...(conditionNames ? [`conditions: ${conditionNames.join(', ')}`] : []), `WebGPU adapter: ${adapter}`, `generated ${new Date().toISOString()}`],
      records,
      backdrop: (r) => {
        const s = byId.get(r.scenarioId);
        return s ? episodeBackdrop(s, r) : undefined;
      },
      strip: (r) => readStrip(outDir, r),
    }),
  );
  console.log(`wrote ${join(outDir, 'summary.json')} and ${join(outDir, 'report.html')}`);
  // Only what ran in this invocation (a resumed run counts the episodes it ran, none when all were done).
  if (o.stats) console.log(statsLine(stats ?? NO_GPU_WORK, stats?.controlSteps ?? 0));
});
