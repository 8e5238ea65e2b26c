/**
 * `npm run suites [-- --out DIR]`: regenerates the checked-in scenario suites
 * `scenes/suites/{smoke,unit,reactive,long,train,closure}.json` (or writes them to DIR) from src/bench/suites.ts
 * (deterministic: rerunning gives the same bytes). The scanned-scene unit scenarios use every scene
 * file in `scenes/` ({@link readScannedScenes}).
 *
 * `npm run suites -- --scene scenes/NAME.json [--seed K] --out FILE.json`: the suite of one annotated
 * scene instead (src/bench/scene-suite.ts: unit, reactive and, where the scene allows, long-horizon).
 *
 * `npm run suites -- --osm FILE (--centre LAT,LON [--size M] | --bbox W,S,E,N) [--seed K] --out FILE.json`:
 * the suites of a real place (src/bench/osm-suite.ts); the file names the OSM file, its md5 and the
 * selection, and `npm run bench -- --suite FILE.json` rebuilds that world.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { nonNegativeInt, worldSize, writeOutput } from './parse';
import { addOsmOptions, hasOsm, osmPlaceName, osmSummaryLine, osmWorldRefFromOptions, type OsmOptionValues } from './osm-option';
import { osmSuite } from '../bench/osm-suite';
import { selectionText } from '../world/osm/selection';
import { OSM_ATTRIBUTION } from '../world/osm/world-data';
import { readScannedScenes, readSceneFileArg } from '../bench/scanned-scenes-node';
import { sceneSuite } from '../bench/scene-suite';
import { closureSuite } from '../bench/closure-suite';
import { longSuite, reactiveSuite, smokeSuite, trainSuite, unitSuite } from '../bench/suites';
import type { Scenario } from '../sim/scenario';

export const program = addOsmOptions(new Command('suites')
  .description('Regenerate the scenario suites (smoke, unit, reactive, long, train) deterministically, or make the suite of one scanned scene (--scene) or of a real place (--osm).')
  .option('--out <dir|file>', 'output directory (default scenes/suites); with --scene or --osm, the suite file to write')
  .option('--scene <file>', 'make the suite of this annotated scene file (scenes/NAME.json) instead')
  .option('--seed <k>', 'with --scene or --osm: generation seed', nonNegativeInt(0x7fffffff), 0)
  .option('--size <M>', 'with --osm --centre: side of the square selection, metres (150–2000)', worldSize, 400)
  .option('--world-seed <k>', 'with --osm: seed of what OSM leaves open (generated furniture, untagged building heights)', nonNegativeInt(0x7fffffff), 0));

/** `--osm`: a real place's suites to one file. */
function writeOsmSuite(o: OsmOptionValues & { osm: string; seed: number; size: number; worldSeed: number; out?: string }): void {
  if (!o.out) throw new CliError('--osm needs --out FILE.json (the suite file to write)');
  if (!o.out.toLowerCase().endsWith('.json')) throw new CliError(`--out ${o.out}: the output must be a .json file`);
  const t = performance.now();
  const { ref, world } = osmWorldRefFromOptions(o, o.size, o.worldSeed);
  const { md5, selection } = ref;
  console.error(osmSummaryLine(world.osm!.summary));
  const name = osmPlaceName(o.osm);
  const { scenarios, counts, notes } = osmSuite(world, ref, name, { seed: o.seed });
  for (const n of notes) console.error(`note: ${n}`);
  const source = { file: ref.path, md5, selection, attribution: OSM_ATTRIBUTION };
  writeOutput(o.out, `${JSON.stringify({ suite: `osm:${name}`, generator: 'src/bench/osm-suite.ts', seed: o.seed, source, counts, notes, scenarios })}\n`);
  const by = (suite: string) => scenarios.filter((s) => s.suite === suite).length;
  console.log(`${o.out}: ${scenarios.length} scenarios (unit ${by('unit')}, reactive ${by('reactive')}, long ${by('long')}) on ${ref.path} (${selectionText(selection)}) in ${((performance.now() - t) / 1000).toFixed(1)} s; run them with npm run bench -- --suite ${o.out}`);
}

/** `--scene`: one scene's suite to one file. */
function writeSceneSuite(sceneArg: string, seed: number, out: string | undefined): void {
  if (!out) throw new CliError("--scene needs --out FILE.json (the suite file to write)");
  const scene = readSceneFileArg(sceneArg, `--scene ${sceneArg}: cannot read the file`);
  const { path } = scene;
  const t = performance.now();
  const { scenarios, notes } = sceneSuite(scene, { seed });
  for (const n of notes) console.error(`note: ${n}`);
  writeOutput(out, `${JSON.stringify({ suite: `scene:${path}`, generator: 'src/bench/scene-suite.ts', seed, scenarios })}\n`);
  const by = (suite: string) => scenarios.filter((s) => s.suite === suite).length;
  console.log(`${out}: ${scenarios.length} scenarios (unit ${by('unit')}, reactive ${by('reactive')}, long ${by('long')}) in ${((performance.now() - t) / 1000).toFixed(1)} s; run them with npm run bench -- --suite ${out}`);
}

/** Appends `made` to `into` and returns it (the train suite avoids the unit and reactive routes made before it). */
function keep(into: Scenario[], made: Scenario[]): Scenario[] {
  into.push(...made);
  return made;
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ out?: string; scene?: string; seed: number; size: number; worldSeed: number } & OsmOptionValues>();
  if (o.scene && o.osm) throw new CliError('--scene and --osm: give one world, not both');
  if (hasOsm(o)) return writeOsmSuite(o);
  if (o.scene) return writeSceneSuite(o.scene, o.seed, o.out);
  if (o.seed !== 0) throw new CliError('--seed applies with --scene (the checked-in suites have their own fixed seed)');
  const dir = o.out ?? resolve(import.meta.dirname, '../../scenes/suites');
  mkdirSync(dir, { recursive: true });
  const scanned = readScannedScenes();
  const evaluation: Scenario[] = [];
  const suites: [string, () => Scenario[] | Promise<Scenario[]>][] = [
    ['smoke', () => smokeSuite(scanned)],
    ['unit', () => keep(evaluation, unitSuite(100, 'unit', scanned))],
    ['reactive', () => keep(evaluation, reactiveSuite())],
    ['long', () => longSuite()],
    ['train', () => trainSuite(scanned, evaluation)],
    ['closure', () => closureSuite()],
  ];
  for (const [name, make] of suites) {
    const t = performance.now();
    const scenarios = await make();
    const generator = name === 'closure' ? 'src/bench/closure-suite.ts' : 'src/bench/suites.ts';
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ suite: name, generator, scenarios })}\n`);
    console.log(`${name}: ${scenarios.length} scenarios (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
});
