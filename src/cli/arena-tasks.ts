/**
 * `npm run arena:tasks -- --suite cityarena|urbanground [--world SEED] [--size M] --out FILE`:
 * generates an arena task suite (360CityArena's families, or UrbanGround's ladder) deterministically
 * from a world seed (Node only; every task proven solvable by the oracle) and writes it
 * (`src/arena/task.ts` format). With `--osm FILE [--centre LAT,LON --size M | --bbox W,S,E,N]` the
 * tasks are set in a real place (their landmarks are its shops and streets); the file names the OSM
 * file, its md5 and the selection, and a family the place cannot fill is noted in the file.
 *
 * `npm run arena:tasks -- --stats [--suite cityarena|FILE] [--json FILE]`: prints, and writes as JSON,
 * the tasks per family × difficulty and each difficulty statistic beside 360CityArena's.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { cityArenaSuite, CITYARENA_WORLD } from '../arena/generate/suite';
import { urbanGroundSuite } from '../arena/generate/ladder';
import { statisticsTable, suiteStatistics } from '../arena/generate/stats';
import { parseTaskFile, taskFileText, taskWorldLabel, type TaskWorldRef } from '../arena/task';
import { worldInventory } from '../world/inventory';
import { addOsmOptions, hasOsm, osmPlaceName, osmWorldRefFromOptions, type OsmOptionValues } from './osm-option';
import { dirname } from 'node:path';
import { ensureFolder, nonNegativeInt, worldSize, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';
import { resolveArenaSuite } from './arena-suite';


export const program = addOsmOptions(new Command('arena:tasks')
  .description('Generate an arena task suite from a world seed or a real place (--osm), or print the difficulty statistics of a suite beside 360CityArena\'s.')
  .option('--suite <NAME|FILE>', 'the suite to generate (cityarena, urbanground) or, with --stats, a suite name or task file', 'cityarena')
  .option('--world <SEED>', 'world seed (integer ≥ 0); with --osm, the seed of what OSM leaves open (default 0 there)', nonNegativeInt(0x7fffffff), CITYARENA_WORLD.seed)
  .option('--size <M>', 'world side length in metres (150–2000); with --osm --centre, the side of the square selection', worldSize, CITYARENA_WORLD.size)
  .option('--out <FILE>', 'the task file to write (.json)')
  .option('--stats', 'print the suite\'s tasks per family × difficulty and its statistics beside the paper\'s')
  .option('--json <FILE>', 'with --stats: also write them as JSON'));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; world: number; size: number; out?: string; stats?: boolean; json?: string } & OsmOptionValues>();
  if (o.stats) {
    if (o.json && !o.json.toLowerCase().endsWith('.json')) throw new CliError(`--json ${o.json}: the output must be a .json file`);
    const path = resolveArenaSuite(o.suite);
    if (o.osm !== undefined) throw new CliError('--osm: not with --stats (the task file names its world)');
    const file = parseTaskFile(path, readFileSync(path, 'utf8'));
    const stats = suiteStatistics(file);
    console.log(`${path}: ${file.tasks.length} tasks on ${taskWorldLabel(file.world)}\n`);
    console.log(statisticsTable(stats));
    if (o.json) {
      writeOutput(o.json, `${JSON.stringify(stats, null, 2)}\n`, '--json');
      console.log(`\n${o.json}: the counts and statistics as JSON`);
    }
    return;
  }
  if (o.json) throw new CliError('--json: only with --stats (the task file goes to --out)');
  if (o.suite !== 'cityarena' && o.suite !== 'urbanground') throw new CliError(`--suite ${o.suite}: the generators make cityarena and urbanground`);
  if (!o.out) throw new CliError('--out FILE is required to generate a suite (or pass --stats)');
  if (!o.out.toLowerCase().endsWith('.json')) throw new CliError(`--out ${o.out}: the output must be a .json file`);
  ensureFolder(dirname(o.out), '--out');
  const t0 = performance.now();
  let ref: TaskWorldRef = { seed: o.world, size: o.size };
  if (hasOsm(o)) {
    const worldSeed = program.getOptionValueSource('world') === 'default' ? 0 : o.world;
    const built = osmWorldRefFromOptions(o, o.size, worldSeed);
    ref = built.ref;
    console.error(`${taskWorldLabel(ref)}: world of ${built.world.network.streets.length} streets, ${worldInventory(built.world).landmarks.length} landmarks (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const progress = (done: number, total: number, family: string) => {
    if (done % 25 === 0 || done === total) process.stderr.write(`${done}/${total} tasks · ${family}\n`);
  };
  const made = o.suite === 'urbanground' ? await urbanGroundSuite(ref, progress) : await cityArenaSuite(ref, progress);
  // A real place's suite is named after it, so its records do not share a folder with the generated city's.
  const file = ref.kind === 'osm' ? { ...made, suite: `${made.suite}-${osmPlaceName(ref.path)}` } : made;
  for (const n of file.notes ?? []) console.error(`note: ${n}`);
  writeOutput(o.out, taskFileText(file));
  console.log(`${o.out}: ${file.tasks.length} tasks on ${taskWorldLabel(ref)}, each solved by the oracle (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
});
