/**
 * `npm run arena:serve -- [--suite cityarena|FILE] [--tasks DIR] [--world SEED --size M] [--origin
 * LAT,LON[,HEIGHT]] [--port 8081] [--host 127.0.0.1] [--token T] [--width W --height H --fov DEG]
 * [--out DIR] [--gpu]`: serves UrbanGround's HTTP control API (src/arena/control/http.ts) over a
 * Curbside world, so agents and UrbanGround's own evaluation harness (`run_task.py --attach`) drive
 * it unchanged. Tasks: an arena suite's (entered by their ids) and UrbanGround task files
 * (`DIR/task/<ID>.json`, as `npm run arena:export` writes them). The world: the suite's, else
 * `DIR/curbside.json`'s (written by the export with the georeference), else `--world`/`--size`.
 * Each task attempt is appended to `OUT/serve-records.jsonl` as it ends.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { generateWorld } from '../world/world';
import { worldInventory } from '../world/inventory';
import { DEFAULT_GEOREFERENCE, type Georeference, checkGeoreference, parseGeoreference } from '../world/georef';
import { parseTaskFile, checkTaskStarts } from '../arena/task';
import { ControlSession, type ControlTask } from '../arena/control/session';
import { ControlServer } from '../arena/control/http';
import { controlTaskFromArena, controlTaskFromUrbanGround, type ExportManifest, parseUrbanGroundTask } from '../arena/control/tasks';
import { withHarness } from '../tools/browser-harness';
import { resolveArenaSuite } from './arena-suite';
import { ServeImages } from './arena-serve-images';
import { ensureFolder, nonNegativeInt, numberBetween, positiveInt, worldSize } from './parse';
import { isEntryPoint, runCli } from './run-cli';

export const program = new Command('arena:serve')
  .description("Serve UrbanGround's HTTP control API over a Curbside world (their harness and agents drive it unchanged).")
  .option('--suite <name|file>', 'arena suite whose tasks can be entered by id (cityarena, or a task file)')
  .option('--tasks <DIR>', 'folder of UrbanGround task files (DIR/task/<ID>.json, as arena:export writes)')
  .option('--world <seed>', 'world seed when neither --suite nor DIR/curbside.json names one', positiveIntOrZero)
  .option('--size <m>', 'world size, metres (with --world)', worldSize, 600)
  .option('--origin <lat,lon[,h]>', 'WGS84 position of the world origin (default: DIR/curbside.json\'s, else 47.3769,8.5417,408)')
  .option('--host <HOST>', 'interface to listen on (127.0.0.1: this machine only)', '127.0.0.1')
  .option('--port <PORT>', "port (UrbanGround's is 8081; 0: any free one)", nonNegativeInt(65535), 8081)
  .option('--token <T>', 'require Authorization: Bearer T on every request (at least 8 characters)')
  .option('--width <W>', 'default screenshot width, pixels', positiveInt(4096), 640)
  .option('--height <H>', 'default screenshot height, pixels', positiveInt(4096), 480)
  .option('--fov <DEG>', 'first-person vertical field of view, degrees', numberBetween(10, 150), 60)
  .option('--driver-timeout <S>', 'seconds of silence after which a driver loses the avatar (its task recorded as aborted)', positiveInt(86_400), 900)
  .option('--out <DIR>', 'folder of the task records (serve-records.jsonl)', 'out/arena-serve')
  .option('--headed', 'show the browser window')
  .option('--gpu', "render with the machine's GPU instead of SwiftShader");

function positiveIntOrZero(v: string): number {
  if (!/^\d+$/.test(v)) throw new CliError(`--world ${v}: expected a non-negative integer seed`);
  return Number(v);
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite?: string; tasks?: string; world?: number; size: number; origin?: string; host: string; port: number; token?: string; width: number; height: number; fov: number; driverTimeout: number; out: string; headed?: boolean; gpu?: boolean }>();
  if (!o.suite && !o.tasks && o.world === undefined) throw new CliError('give --suite NAME|FILE, --tasks DIR or --world SEED (what world to serve)');
  if (o.token !== undefined && o.token.length < 8) throw new CliError('--token: at least 8 characters');

  let world: { seed: number; size: number } | null = null;
  let georef: Georeference | null = null;
  const suite = o.suite ? parseTaskFile(resolveArenaSuite(o.suite), readFileSync(resolveArenaSuite(o.suite), 'utf8')) : null;
  if (suite) world = suite.world;
  let taskFiles: string[] = [];
  if (o.tasks) {
    const dir = resolve(o.tasks);
    const taskDir = join(dir, 'task');
    if (!existsSync(taskDir) || !statSync(taskDir).isDirectory()) throw new CliError(`--tasks ${o.tasks}: no task/ folder inside (expected ${taskDir}/<ID>.json, as arena:export writes)`);
    taskFiles = readdirSync(taskDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(taskDir, f));
    const manifestPath = join(dir, 'curbside.json');
    if (existsSync(manifestPath)) {
      let m: ExportManifest;
      try {
        m = JSON.parse(readFileSync(manifestPath, 'utf8')) as ExportManifest;
      } catch (e) {
        throw new CliError(`${manifestPath}: not JSON (${(e as Error).message})`);
      }
      if (m.format !== 'curbside-urbanground-export' || !m.world || !m.georeference) throw new CliError(`${manifestPath}: not an arena:export manifest (format curbside-urbanground-export with world and georeference)`);
      if (world && (world.seed !== m.world.seed || world.size !== m.world.size)) throw new CliError(`--tasks ${o.tasks}: made in world ${m.world.seed} (${m.world.size} m), but --suite is set in world ${world.seed} (${world.size} m)`);
      world = m.world;
      georef = checkGeoreference(m.georeference, manifestPath);
    }
  }
  if (o.world !== undefined) {
    if (world && (world.seed !== o.world || world.size !== o.size)) throw new CliError(`--world ${o.world}: the tasks are set in world ${world.seed} (${world.size} m)`);
    world = { seed: o.world, size: o.size };
  }
  if (!world) throw new CliError(`--tasks ${o.tasks}: no curbside.json names the world; give --world SEED [--size M]`);
  if (o.origin) georef = parseGeoreference(o.origin);
  georef ??= DEFAULT_GEOREFERENCE;

  const t0 = performance.now();
  const w = generateWorld({ seed: world.seed, size: world.size });
  const inventory = worldInventory(w);
  const tasks = new Map<string, ControlTask>();
  if (suite) {
    checkTaskStarts(o.suite as string, suite, w.nav);
    for (const t of suite.tasks) tasks.set(t.id, controlTaskFromArena(w, t));
  }
  for (const f of taskFiles) {
    const doc = parseUrbanGroundTask(f, readFileSync(f, 'utf8'));
    if (tasks.has(doc.id)) throw new CliError(`${f}: task id ${doc.id} is given twice`);
    tasks.set(doc.id, controlTaskFromUrbanGround(w, georef, doc, f));
  }
  const outDir = resolve(o.out);
  ensureFolder(outDir, '--out');
  const log = join(outDir, 'serve-records.jsonl');

  await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    const session = new ControlSession(w, inventory, georef, tasks);
    const images = new ServeImages(h, o.fov);
    // Open the default view now, so the first screenshot is quick.
    await images.screenshot(session, { width: o.width, height: o.height, format: 'jpeg', quality: 90, includeUi: false });
    const server = await ControlServer.start({
      session, images, host: o.host, port: o.port, token: o.token, width: o.width, height: o.height, driverTimeoutMs: o.driverTimeout * 1000,
      onTaskEnd: (r) => {
        appendFileSync(log, `${JSON.stringify(r)}\n`);
        console.error(`${r.task}: ${r.status} after ${r.steps.length} actions (driver ${r.driver})`);
      },
    });
    const exposed = o.host !== '127.0.0.1' && o.host !== 'localhost' && o.host !== '::1';
    console.error(`arena:serve: world ${world.seed} (${world.size} m), ${tasks.size} tasks, origin ${georef.lat}, ${georef.lon}; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${server.url}${o.token ? ' (bearer token required)' : ''}`);
    if (exposed && !o.token) console.error(`arena:serve: listening on ${o.host} without a token: anyone who can reach this machine can drive it (give --token)`);
    console.error(`records: ${log}; Ctrl-C stops`);
    await new Promise<void>((done) => {
      const stop = () => {
        console.error('arena:serve: stopping');
        void server.close().then(() => images.close()).then(done, done);
      };
      // Vite's SIGTERM handler and Playwright's would exit (143, 130) before the active task is recorded and the browser closed.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
});
