/**
 * `npm run arena:export -- --suite urbanground|FILE --format urbanground --out DIR [--origin
 * LAT,LON[,HEIGHT]]`: writes an arena suite's ladder tasks in UrbanGround's task schema, one
 * `DIR/task/<ID>.json` each (ids `PREFIX-<arena id>`, e.g. `SN-short-navigation-01`), and
 * `DIR/curbside.json` naming the world and georeference they were placed with, so that
 * `npm run arena:serve -- --tasks DIR` serves them and UrbanGround's `run_task.py --attach
 * --build-folder DIR` runs them unchanged. With `--conditions dusk,night,rain` (the default; `none`
 * for none) it also writes the matched variants of the question and short-navigation tasks under
 * UrbanGround's condition prefixes (EVQ/EVN dusk, NTQ/NTN night, RQ/RN rain; their harness sets the
 * condition by the prefix). 360CityArena's families have no UrbanGround kind and are skipped
 * (counted in the summary line).
 */
import { join } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { parseGeoreference, worldGeoreference } from '../world/georef';
import { taskWorldLabel } from '../arena/task';
import { type ExportManifest, URBANGROUND_CONDITION_PREFIXES, urbanGroundDocument, urbanGroundVariant } from '../arena/control/tasks';
import { loadArenaSuite } from './arena-suite';
import { ensureFolder, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';

export const program = new Command('arena:export')
  .description("Write an arena suite's ladder tasks as UrbanGround task files (for arena:serve --tasks and their run_task.py).")
  .requiredOption('--suite <NAME|FILE>', 'the suite (urbanground, or a task file)')
  .option('--format <F>', 'the task schema to write (urbanground)', 'urbanground')
  .requiredOption('--out <DIR>', 'the folder to write (DIR/task/<ID>.json and DIR/curbside.json)')
  .option('--origin <lat,lon[,h]>', 'WGS84 position of a generated world\'s origin (default 47.3769,8.5417,408; a real place has its own)')
  .option('--conditions <names>', "matched variants of the question and short-navigation tasks under UrbanGround's condition prefixes: comma-separated dusk, night, rain, or none", 'dusk,night,rain');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; format: string; out: string; origin?: string; conditions: string }>();
  if (o.format !== 'urbanground') throw new CliError(`--format ${o.format}: expected urbanground`);
  const conditions = o.conditions === 'none' ? [] : o.conditions.split(',').map((c) => c.trim());
  for (const c of conditions) if (!URBANGROUND_CONDITION_PREFIXES[c]) throw new CliError(`--conditions: '${c}' has no UrbanGround variant: expected ${Object.keys(URBANGROUND_CONDITION_PREFIXES).join(', ')} or none`);
  const { file, world } = await loadArenaSuite(o.suite);
  if (o.origin && file.world.kind === 'osm') throw new CliError(`--origin: ${taskWorldLabel(file.world)} is a real place; its tasks are exported at their real WGS84 positions`);
  const georef = o.origin ? parseGeoreference(o.origin) : worldGeoreference(world);
  const base = file.tasks.map((t) => urbanGroundDocument(world, georef, t)).filter((d) => d !== null);
  const variants = conditions.flatMap((c) => base.map((d) => urbanGroundVariant(d, c)).filter((d) => d !== null));
  const docs = [...base, ...variants];
  if (docs.length === 0) throw new CliError(`--suite ${o.suite}: no task of a ladder family (UrbanGround has no kind for 360CityArena's families)`);
  ensureFolder(o.out, '--out');
  ensureFolder(join(o.out, 'task'), '--out');
  for (const d of docs) writeOutput(join(o.out, 'task', `${d.id}.json`), `${JSON.stringify(d, null, 2)}\n`);
  const manifest: ExportManifest = { format: 'curbside-urbanground-export', version: 1, world: file.world, georeference: georef, suite: file.suite };
  writeOutput(join(o.out, 'curbside.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const skipped = file.tasks.length - base.length;
  console.log(`${o.out}: ${docs.length} UrbanGround tasks (${base.length} tasks and ${variants.length} matched variants: ${[...new Set(docs.map((d) => d.id.split('-')[0]))].join(', ')}) in task/, ${taskWorldLabel(file.world)} at ${georef.lat}, ${georef.lon}${skipped ? `; ${skipped} tasks of 360CityArena's families skipped` : ''}`);
});
