/**
 * `npm run arena:serve -- [--suite cityarena|FILE] [--tasks DIR] [--world SEED --size M] [--origin
 * LAT,LON[,HEIGHT]] [--port 8081] [--host 127.0.0.1] [--token T] [--width W --height H --fov DEG]
 * [--out DIR] [--gpu]`: serves UrbanGround's HTTP control API (src/arena/control/http.ts) over a
 * Curbside world, so agents and UrbanGround's own evaluation harness (`run_task.py --attach`) drive
 * it unchanged. Tasks: an arena suite's (entered by their ids) and UrbanGround task files
 * (`DIR/task/<ID>.json`, as `npm run arena:export` writes them). The world: the suite's, else
 * `DIR/curbside.json`'s (written by the export with the georeference), else `--world`/`--size`, or
 * a real place (`--osm FILE` with `--centre`/`--size` or `--bbox`), whose positions are reported at
 * their real WGS84 coordinates (the origin is the selection's centre).
 * Each task attempt is appended to `OUT/serve-records.jsonl` as it ends.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { worldInventory } from '../world/inventory';
import { type Georeference, checkGeoreference, parseGeoreference, worldGeoreference } from '../world/georef';
import { parseTaskFile, checkTaskStarts, sameTaskWorld, taskWorldLabel, type TaskWorldRef } from '../arena/task';
import { ControlSession, type ControlTask } from '../arena/control/session';
import { ControlServer } from '../arena/control/http';
import { controlTaskFromArena, controlTaskFromUrbanGround, parseExportManifest, parseUrbanGroundTask } from '../arena/control/tasks';
import { withHarness } from '../tools/browser-harness';
import { loadTaskWorld, resolveArenaSuite } from './arena-suite';
import { addOsmOptions, hasOsm, osmWorldRefFromOptions, type OsmOptionValues } from './osm-option';
import { ServeImages } from './arena-serve-images';
import { ensureFolder, nonNegativeInt, numberBetween, positiveInt, worldSize } from './parse';
import { isEntryPoint, runCli } from './run-cli';

export const program = addOsmOptions(new Command('arena:serve')
  .description("Serve UrbanGround's HTTP control API over a Curbside world (their harness and agents drive it unchanged).")
  .option('--suite <name|file>', 'arena suite whose tasks can be entered by id (cityarena, or a task file)')
  .option('--tasks <DIR>', 'folder of UrbanGround task files (DIR/task/<ID>.json, as arena:export writes)')
  .option('--world <seed>', 'world seed when neither --suite nor DIR/curbside.json names one (with --osm: the seed of what OSM leaves open)', positiveIntOrZero)
  .option('--size <m>', 'world size, metres (with --world; with --osm --centre, the side of the square selection)', worldSize, 600)
  .option('--origin <lat,lon[,h]>', 'WGS84 position of a generated world\'s origin (default: DIR/curbside.json\'s, else 47.3769,8.5417,408; a real place has its own)')
  .option('--host <HOST>', 'interface to listen on (127.0.0.1: this machine only)', '127.0.0.1')
  .option('--port <PORT>', "port (UrbanGround's is 8081; 0: any free one)", nonNegativeInt(65535), 8081)
  .option('--token <T>', 'require Authorization: Bearer T on every request (at least 8 characters)')
  .option('--width <W>', 'default screenshot width, pixels', positiveInt(4096), 640)
  .option('--height <H>', 'default screenshot height, pixels', positiveInt(4096), 480)
  .option('--fov <DEG>', 'first-person vertical field of view, degrees', numberBetween(10, 150), 60)
  .option('--driver-timeout <S>', 'seconds of silence after which a driver loses the avatar (its task recorded as aborted)', positiveInt(86_400), 900)
  .option('--out <DIR>', 'folder of the task records (serve-records.jsonl)', 'out/arena-serve')
  .option('--headed', 'show the browser window')
  .option('--gpu', "render with the machine's GPU instead of SwiftShader"));

function positiveIntOrZero(v: string): number {
  if (!/^\d+$/.test(v)) throw new CliError(`--world ${v}: expected a non-negative integer seed`);
  return Number(v);
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite?: string; tasks?: string; world?: number; size: number; origin?: string; host: string; port: number; token?: string; width: number; height: number; fov: number; driverTimeout: number; out: string; headed?: boolean; gpu?: boolean } & OsmOptionValues>();
  if (!o.suite && !o.tasks && o.world === undefined && o.osm === undefined) throw new CliError('give --suite NAME|FILE, --tasks DIR, --world SEED or --osm FILE (what world to serve)');
  if (o.token !== undefined && o.token.length < 8) throw new CliError('--token: at least 8 characters');

  // The world: the suite's, the export manifest's, --world's or --osm's; given twice, they must agree.
  const named: { ref: TaskWorldRef; from: string }[] = [];
  const agree = (ref: TaskWorldRef, from: string) => {
    const first = named[0];
    if (first && !sameTaskWorld(first.ref, ref)) throw new CliError(`${from}: names ${taskWorldLabel(ref)}, but ${first.from} is set in ${taskWorldLabel(first.ref)}`);
    named.push({ ref, from });
  };
  let georef: Georeference | null = null;
  const suitePath = o.suite ? resolveArenaSuite(o.suite) : null;
  const suite = suitePath ? parseTaskFile(suitePath, readFileSync(suitePath, 'utf8')) : null;
  if (suite) agree(suite.world, `--suite ${o.suite}`);
  let taskFiles: string[] = [];
  if (o.tasks) {
    const dir = resolve(o.tasks);
    const taskDir = join(dir, 'task');
    if (!existsSync(taskDir) || !statSync(taskDir).isDirectory()) throw new CliError(`--tasks ${o.tasks}: no task/ folder inside (expected ${taskDir}/<ID>.json, as arena:export writes)`);
    taskFiles = readdirSync(taskDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(taskDir, f));
    const manifestPath = join(dir, 'curbside.json');
    if (existsSync(manifestPath)) {
      const m = parseExportManifest(manifestPath, readFileSync(manifestPath, 'utf8'));
      agree(m.world, `--tasks ${o.tasks}`);
      georef = checkGeoreference(m.georeference, manifestPath);
    }
  }
  // With --osm, --world is the seed of what OSM leaves open, not a world of its own.
  if (o.world !== undefined && o.osm === undefined) agree({ seed: o.world, size: o.size }, `--world ${o.world}`);
  if (hasOsm(o)) agree(osmWorldRefFromOptions(o, o.size, o.world ?? 0).ref, `--osm ${o.osm}`);
  if (named.length === 0) throw new CliError(`--tasks ${o.tasks}: no curbside.json names the world; give --world SEED [--size M] or --osm FILE`);
  const world = named[0].ref;

  const t0 = performance.now();
  const w = await loadTaskWorld(world);
  if (o.origin) {
    if (world.kind === 'osm') throw new CliError(`--origin: ${taskWorldLabel(world)} is a real place; its origin is its selection's centre (${w.osm!.source.georeference.lat}, ${w.osm!.source.georeference.lon})`);
    georef = parseGeoreference(o.origin);
  }
  georef ??= worldGeoreference(w);
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
    console.error(`arena:serve: ${taskWorldLabel(world)}, ${tasks.size} tasks, origin ${georef.lat}, ${georef.lon}; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${server.url}${o.token ? ' (bearer token required)' : ''}`);
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
