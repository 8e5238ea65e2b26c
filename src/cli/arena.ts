/**
 * `npm run arena -- --suite cityarena|FILE --agent A… [--seeds N] [--family F…] [--shard i/n|auto
 * [--shards N]] [--out DIR] [--fresh] [--api-base URL] [--width W --height H --fov DEG] [--gpu]`: runs
 * agents on an arena task suite (src/arena). Agents that see (openai:MODEL, remote) get their images
 * from the headless page (arena-render.ts), started only for them. Records go to DIR/episodes.jsonl
 * as each episode ends (a rerun with the same DIR resumes; kill -9 loses at most the episode in
 * flight), then DIR/summary.json (per agent: family and difficulty scores, statuses, run metadata)
 * and DIR/report.html (with DIR/map.png, and DIR/frames/ holding the last view of every failed
 * episode of a seeing agent). Prints a progress line and the Table 2 view.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { PNG } from 'pngjs';
import { deriveSeed } from '../core/random';
import { CliError } from '../core/user-error';
import { renderWorldMap } from '../world/map-render';
import { OracleAgent } from '../arena/agents/oracle';
import { RandomAgent } from '../arena/agents/random';
import { OcrAgent } from '../arena/agents/ocr';
import { SignReader } from '../arena/agents/sign-reader';
import { OpenAiAgent } from '../arena/agents/openai';
import { promptHash } from '../arena/agents/prompts';
import { judgeAnswer } from '../arena/judge';
import { RemoteArenaServer } from '../arena/agents/remote';
import type { ArenaEpisode } from '../arena/episode';
import type { ArenaAgent } from '../arena/agent';
import { taskWorld } from '../arena/generate/context';
import { runArenaEpisode, type ArenaRecord } from '../arena/run-episode';
import { arenaReportHtml } from '../arena/report-html';
import { ladderTable, summarise, summaryTable } from '../arena/summary';
import { ARENA_FAMILIES, checkTaskStarts, isUrbanGroundFamily, taskWorldLabel, URBANGROUND_FAMILIES } from '../arena/task';
import { type LadderAgent, LadderOracle, LadderRandom } from '../arena/ladder/agent';
import { LadderOpenAiAgent } from '../arena/ladder/openai';
import type { LadderEpisode } from '../arena/ladder/episode';
import { ServeImages } from './arena-serve-images';
import { runLadderEpisode } from '../arena/ladder/run';
import { worldGeoreference } from '../world/georef';
import { appendResult, parseShard, readResults, shardFromEnvironment } from '../bench/results-log';
import { BenchProgress } from '../bench/progress';
import { drawMapLabels } from './map-labels';
import { parseConditionNames } from '../bench/condition-runs';
import { CONDITION_PRESETS } from '../world/conditions';
import { ensureFolder, numberBetween, positiveInt } from './parse';
import { ArenaImageRenderer } from './arena-render';
import { withHarness, type Harness } from '../tools/browser-harness';
import { loadArenaSuite } from './arena-suite';
import { isEntryPoint, runCli } from './run-cli';

/** Agents `--agent` accepts (`openai:MODEL` names any model of an OpenAI-compatible endpoint). */
export const ARENA_AGENTS = ['oracle', 'random', 'ocr', 'openai:MODEL', 'remote'] as const;

/** A record as the run log holds it: the episode's, its run index and the condition it ran under (`--conditions`), or null. */
type RunRecord = ArenaRecord & { run: number; condition?: string | null };
const keyOf = (r: { task: string; agent: string; run: number; condition?: string | null }) => `${r.task}|${r.agent}|${r.run}${r.condition ? `@${r.condition}` : ''}`;

/** Whether an `--agent` value names a known agent. */
function knownAgent(name: string): boolean {
  return name === 'oracle' || name === 'random' || name === 'ocr' || name === 'remote' || /^openai:[^\s]+$/.test(name);
}

/** What the agents of a run share: the endpoint of openai agents, the remote server. */
interface AgentContext {
  apiBase?: string;
  apiKey?: string;
  remote?: RemoteArenaServer;
  /** The ocr agents' tesseract.js reader, started by the first read (terminated when the run ends). */
  signReader?: Promise<SignReader>;
}

/** The agent of an `--agent` value for one episode. */
function makeAgent(name: string, seed: number, names: readonly string[], ctx: AgentContext): ArenaAgent {
  if (name === 'oracle') return new OracleAgent();
  if (name === 'random') return new RandomAgent(seed, names);
  if (name === 'ocr') return new OcrAgent(seed, { read: async (png) => (await (ctx.signReader ??= SignReader.create())).read(png) });
  if (name === 'remote' && ctx.remote) return ctx.remote;
  if (name.startsWith('openai:')) return new OpenAiAgent({ model: name.slice('openai:'.length), apiBase: ctx.apiBase, apiKey: ctx.apiKey });
  throw new CliError(`--agent ${name}: unknown agent (expected one of ${ARENA_AGENTS.join(', ')})`);
}

/** The agent of an `--agent` value for one ladder episode (oracle, random or openai:MODEL; the CLI refuses others up front). */
function makeLadderAgent(name: string, seed: number, ctx: AgentContext): LadderAgent {
  if (name === 'oracle') return new LadderOracle();
  if (name === 'random') return new LadderRandom(seed);
  if (name.startsWith('openai:')) return new LadderOpenAiAgent({ model: name.slice('openai:'.length), apiBase: ctx.apiBase, apiKey: ctx.apiKey });
  throw new CliError(`--agent ${name}: not an agent of the ladder families (oracle, random, openai:MODEL)`);
}

/** File name of a failed episode's last view in DIR/frames/. */
function frameName(r: { agent: string; task: string; run: number; condition?: string | null }): string {
  return `${r.agent}__${r.task}__${r.run}${r.condition ? `@${r.condition}` : ''}.png`.replace(/[^A-Za-z0-9._-]/g, '_');
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

export const program = new Command('arena')
  .description('Run agents on an arena task suite (360CityArena families); resumable and shardable like the bench.')
  .option('--suite <NAME|FILE>', 'a checked-in suite (cityarena) or a task file', 'cityarena')
  .option('--agent <A...>', `agents: ${ARENA_AGENTS.join(', ')}`, ['oracle'])
  .option('--seeds <N>', 'runs per task and agent (seeded: random agents differ per run)', positiveInt(1000), 1)
  .option('--family <F...>', `only these families (${ARENA_FAMILIES.join(', ')})`)
  .option('--shard <i/n|auto>', 'run only shard i of n; auto: from a Slurm job array or a Kubernetes Indexed Job')
  .option('--shards <n>', 'with --shard auto: the shard count', positiveInt(100_000))
  .option('--out <DIR>', 'output directory (default out/arena/SUITE[-shardIofN])')
  .option('--fresh', 'discard earlier results in the output directory instead of resuming')
  .option('--api-base <URL>', 'openai agents: the OpenAI-compatible endpoint (key from OPENAI_API_KEY)', 'https://api.openai.com/v1')
  .option('--conditions <names>', 'matched condition runs: every task under each of these comma-separated conditions (day, dusk, night, fog, rain), compared side by side (rows AGENT@NAME)')
  .option('--frames', 'seeing agents: keep every step\'s first-person view in DIR/frames/AGENT__TASK__RUN/step-NNN.png (failures keep their last view anyway)')
  .option('--judge <openai:MODEL>', 'score fuzzy_match answers (relational) with an LLM judge on --api-base instead of the deterministic matcher')
  .option('--remote-host <HOST>', 'remote agent: interface to listen on', '127.0.0.1')
  .option('--remote-port <PORT>', 'remote agent: port (0: any free one)', numberBetween(0, 65535), 0)
  .option('--remote-token <T>', 'remote agent: session token (default: random, printed)')
  .option('--remote-wait <S>', 'remote agent: seconds to wait for it to connect', numberBetween(1, 86_400), 300)
  .option('--width <W>', 'first-person image width, pixels', positiveInt(4096), 640)
  .option('--height <H>', 'first-person image height, pixels', positiveInt(4096), 480)
  .option('--fov <DEG>', 'first-person vertical field of view, degrees', numberBetween(10, 150), 60)
  .option('--headed', 'show the browser window (seeing agents)')
  .option('--gpu', "render with the machine's GPU instead of SwiftShader");

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{
    suite: string; agent: string[]; seeds: number; family?: string[]; shard?: string; shards?: number; out?: string; fresh?: boolean; apiBase: string; judge?: string; conditions?: string; frames?: boolean;
    remoteHost: string; remotePort: number; remoteToken?: string; remoteWait: number; width: number; height: number; fov: number; headed?: boolean; gpu?: boolean;
  }>();
  const conditionNames: (string | null)[] = o.conditions === undefined ? [null] : parseConditionNames(o.conditions);
  for (const a of o.agent) if (a === 'openai:') throw new CliError('--agent openai:: give the model name, e.g. openai:gpt-5');
  for (const a of o.agent) if (!knownAgent(a)) throw new CliError(`--agent ${a}: unknown agent (expected one of ${ARENA_AGENTS.join(', ')})`);
  if (o.judge !== undefined && !/^openai:[^\s]+$/.test(o.judge)) throw new CliError(`--judge ${o.judge}: expected openai:MODEL`);
  try {
    if (!/^https?:$/.test(new URL(o.apiBase).protocol)) throw new Error();
  } catch {
    throw new CliError(`--api-base ${o.apiBase}: expected an http(s) URL such as http://127.0.0.1:8000/v1`);
  }
  for (const f of o.family ?? []) if (!(ARENA_FAMILIES as readonly string[]).includes(f)) throw new CliError(`--family ${f}: unknown family (expected one of ${ARENA_FAMILIES.join(', ')})`);
  const shard = o.shard === 'auto' ? shardFromEnvironment(process.env, o.shards) : o.shard ? parseShard(o.shard) : { index: 1, count: 1 };
  const { path: suitePath, text: suiteText, file, world } = await loadArenaSuite(o.suite);
  const suiteName = file.suite;
  const w = taskWorld(world);
  const georef = worldGeoreference(world);
  checkTaskStarts(suitePath, file, w.world.nav);
  const outDir = resolve(o.out ?? join('out/arena', `${suiteName}${shard.count > 1 ? `-shard${shard.index}of${shard.count}` : ''}`));
  const log = join(outDir, 'episodes.jsonl');
  ensureFolder(outDir, '--out');
  // A folder holds the records of one suite: resuming with another (another world's tasks share ids) is refused.
  const identity = { suite: suiteName, world: file.world, suiteHash: createHash('sha256').update(suiteText).digest('hex').slice(0, 16) };
  const identityFile = join(outDir, 'run.json');
  if (o.fresh) rmSync(log, { force: true });
  if (existsSync(log) && existsSync(identityFile)) {
    const held = JSON.parse(readFileSync(identityFile, 'utf8')) as typeof identity;
    if (held.suiteHash !== identity.suiteHash) {
      throw new CliError(`--out ${outDir}: holds records of another suite (${held.suite}, ${taskWorldLabel(held.world)}, hash ${held.suiteHash}; this is ${identity.suite}, ${taskWorldLabel(identity.world)}, hash ${identity.suiteHash}); use --fresh or another --out`);
    }
  }
  writeFileSync(identityFile, `${JSON.stringify(identity, null, 2)}\n`);
  // Keep only whole records (a run killed while writing leaves a partial last line).
  const previous = readResults<RunRecord>(log);
  if (existsSync(log)) writeFileSync(log, previous.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const done = new Set(previous.map(keyOf));

  const tasks = file.tasks.filter((t) => !o.family || o.family.includes(t.family));
  const ladder = tasks.some((t) => isUrbanGroundFamily(t.family));
  const ladderless = o.agent.filter((a) => a !== 'oracle' && a !== 'random' && !a.startsWith('openai:'));
  if (ladder && ladderless.length > 0) {
    throw new CliError(`--agent ${ladderless[0]}: UrbanGround's ladder families (${URBANGROUND_FAMILIES.join(', ')}) run here with oracle, random or openai:MODEL; drive them with any other agent through npm run arena:serve (UrbanGround's HTTP API)`);
  }
  const jobs = conditionNames.flatMap((condition) => o.agent.flatMap((agent) => tasks.flatMap((task) => Array.from({ length: o.seeds }, (_, run) => ({ task, agent, run, condition })))));
  const mine = jobs.filter((_, k) => k % shard.count === shard.index - 1);
  const todo = mine.filter((j) => !done.has(keyOf({ task: j.task.id, agent: j.agent, run: j.run, condition: j.condition })));
  const under = o.conditions === undefined ? '' : ` × ${conditionNames.length} conditions`;
  console.error(`${suitePath}: ${tasks.length} tasks × ${o.agent.length} agents × ${o.seeds} runs${under} = ${jobs.length} episodes${shard.count > 1 ? `, shard ${shard.index}/${shard.count}: ${mine.length}` : ''}, ${todo.length} to run, records in ${log}`);

  const t0 = performance.now();
  const progress = new BenchProgress(todo.length, mine.length - todo.length);
  const seeing = todo.some((j) => j.agent === 'remote' || j.agent === 'ocr' || j.agent.startsWith('openai:'));
  const ctx: AgentContext = { apiBase: o.apiBase, apiKey: process.env.OPENAI_API_KEY };
  const judge = o.judge ? new OpenAiAgent({ model: o.judge.slice('openai:'.length), apiBase: o.apiBase, apiKey: process.env.OPENAI_API_KEY }) : null;
  const framesDir = join(outDir, 'frames');
  const runAll = async (h: Harness | null) => {
    // One renderer (an open world view) per condition, opened when its first episode needs an image.
    const renderers = new Map<string, ArenaImageRenderer>();
    const rendererFor = (condition: string | null) => {
      const key = condition ?? '';
      let r = renderers.get(key);
      if (!r && h) {
        r = new ArenaImageRenderer(h, w.world, w.inventory, { width: o.width, height: o.height, fovYDeg: o.fov }, condition ? CONDITION_PRESETS[condition] : undefined);
        renderers.set(key, r);
      }
      return r;
    };
    let lastView: Uint8Array | null = null;
    let views: Uint8Array[] = [];
    const renderUnder = (condition: string | null) => {
      const renderer = rendererFor(condition);
      return renderer
        ? async (ep: ArenaEpisode) => {
            const images = await renderer.render(ep);
            lastView = images.view;
            if (o.frames) views.push(images.view);
            return images;
          }
        : undefined;
    };
    // Ladder steps: the avatar's view (or the map while it is open), as arena:serve shows it.
    const serveImages = h ? new ServeImages(h, o.fov) : null;
    const ladderRender = serveImages
      ? async (ep: LadderEpisode) => {
          const view = await serveImages.screenshot(ep.session, { width: o.width, height: o.height, format: 'png', quality: 90, includeUi: false });
          lastView = view;
          if (o.frames) views.push(view);
          return { view, map: null, reference: null };
        }
      : undefined;
    try {
      if (todo.some((j) => j.agent === 'remote')) {
        ctx.remote = await RemoteArenaServer.start({ host: o.remoteHost, port: o.remotePort, token: o.remoteToken });
        console.error(`remote agent: connect to ${ctx.remote.url} with the session token ${ctx.remote.token} (waiting up to ${o.remoteWait} s)`);
        await ctx.remote.waitForAgent(o.remoteWait * 1000);
      }
      for (const j of todo) {
        const seed = deriveSeed(file.world.seed, `${j.task.id}#${j.run}`);
        lastView = null;
        views = [];
        const record = isUrbanGroundFamily(j.task.family)
          ? await runLadderEpisode(w.world, w.inventory, georef, j.task, makeLadderAgent(j.agent, seed, ctx), seed, ladderRender, j.condition ? CONDITION_PRESETS[j.condition] : null)
          : await runArenaEpisode(w.world, j.task, makeAgent(j.agent, seed, w.names, ctx), w.names, seed, renderUnder(j.condition));
        const truth = j.task.truth;
        if (judge && truth.scoring === 'fuzzy_match' && record.status === 'answered' && record.answer !== null) {
          record.judge = await judgeAnswer(judge, record.answer, truth);
          if (record.judge.isCorrect !== null) record.score = record.judge.isCorrect ? 1 : 0;
        }
        if (record.score < 1 && lastView) {
          mkdirSync(framesDir, { recursive: true });
          writeFileSync(join(framesDir, frameName({ ...record, run: j.run, condition: j.condition })), lastView);
        }
        if (views.length > 0) {
          const dirOf = join(framesDir, frameName({ ...record, run: j.run, condition: j.condition }).replace(/\.png$/, ''));
          mkdirSync(dirOf, { recursive: true });
          views.forEach((v, k) => writeFileSync(join(dirOf, `step-${String(k).padStart(3, '0')}.png`), v));
        }
        appendResult<RunRecord>(log, { ...record, run: j.run, ...(j.condition ? { condition: j.condition } : {}) });
        progress.episode(record.score >= 1, `${j.agent} ${j.task.id} ${record.status}`);
      }
    } finally {
      await ctx.remote?.close();
      await ctx.signReader?.then((r) => r.terminate(), () => {});
      for (const r of renderers.values()) await r.close();
      await serveImages?.close();
    }
  };
  if (seeing) await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, runAll);
  else await runAll(null);
  progress.finish();
  const seconds = (performance.now() - t0) / 1000;

  const mineKeys = new Set(mine.map((j) => keyOf({ task: j.task.id, agent: j.agent, run: j.run, condition: j.condition })));
  const records = readResults<RunRecord>(log).filter((r) => mineKeys.has(keyOf(r)));
  // Matched condition runs compare side by side: one row per agent and condition.
  const rows = summarise(records.map((r) => (r.condition ? { ...r, agent: `${r.agent}@${r.condition}` } : r)));
  const meta = {
    suite: suiteName, suiteFile: suitePath, suiteHash: identity.suiteHash, commit: gitCommit(),
    world: taskWorldLabel(file.world), agents: o.agent.join(', '), seeds: String(o.seeds), shard: `${shard.index}/${shard.count}`,
    date: new Date().toISOString().slice(0, 10),
    ...(o.agent.some((a) => a.startsWith('openai:')) || judge ? { apiBase: o.apiBase, promptHash: promptHash() } : {}),
    ...(judge ? { judge: o.judge! } : {}),
    ...(seeing ? { camera: `${o.width}×${o.height}, ${o.fov}° vertical` } : {}),
    ...(o.conditions !== undefined ? { conditions: conditionNames.join(', ') } : {}),
  };
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify({ ...meta, episodes: records.length, seconds: Math.round(seconds * 10) / 10, rows }, null, 2)}\n`);
  const sizePx = 640;
  const img = renderWorldMap(w.world, { widthPx: sizePx, heightPx: sizePx });
  drawMapLabels(img, w.inventory);
  const png = new PNG({ width: img.width, height: img.height });
  png.data.set(img.data);
  writeFileSync(join(outDir, 'map.png'), PNG.sync.write(png));
  const b = w.world.bounds;
  writeFileSync(join(outDir, 'report.html'), arenaReportHtml({
    title: `Curbside arena: ${suiteName}`, meta, rows, records, tasks: new Map(file.tasks.map((t) => [t.id, t])), map: { file: 'map.png', sizePx, bounds: [b[0], b[1], b[2], b[3]] },
    frame: (r) => (existsSync(join(framesDir, frameName(r as RunRecord))) ? `frames/${frameName(r as RunRecord)}` : null),
  }));
  console.log(summaryTable(rows));
  const ladderText = ladderTable(rows);
  if (ladderText) console.log(`\nUrbanGround's ladder: score per level (%) and measures\n${ladderText}`);
  console.log(`\n${records.length} episodes in ${log} (${seconds.toFixed(1)} s this run); ${join(outDir, 'report.html')}`);
});
