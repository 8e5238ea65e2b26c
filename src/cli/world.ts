/**
 * `npm run world -- --seed K [--size M] --json OUT.json` (or `--osm FILE [--centre LAT,LON --size M |
 * --bbox W,S,E,N]` for a real place): generates a procedural world (Node only, no browser) or builds
 * one from OpenStreetMap, and writes its inventory (`src/world/inventory.ts`): named streets, intersections,
 * crosswalks, landmarks, every object and the pedestrian network. Prints a one-line summary.
 * Bad input exits 1 with a one-line error.
 */
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { worldInventory } from '../world/inventory';
import { generateWorld } from '../world/world';
import { selectionText } from '../world/osm/selection';
import { addOsmOptions, osmSummaryLine, osmWorldFromOptions, type OsmOptionValues } from './osm-option';
import { nonNegativeInt, worldSize, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';


export const program = addOsmOptions(new Command('world')
  .description('Generate a procedural world (or build one from an OpenStreetMap extract) and write its inventory (streets, names, landmarks, objects, pedestrian network) as JSON.')
  .option('--seed <K>', 'world seed (integer ≥ 0); required without --osm (with it: the seed of what OSM does not say, default 0)', nonNegativeInt(0x7fffffff))
  .option('--size <M>', 'world side length in metres (150–2000); with --osm --centre, the side of the square selection', worldSize, 400)
  .requiredOption('--json <OUT.json>', 'the inventory file to write'));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ seed?: number; size: number; json: string } & OsmOptionValues>();
  if (!o.json.toLowerCase().endsWith('.json')) throw new CliError(`--json ${o.json}: the output must be a .json file`);
  if (o.seed === undefined && o.osm === undefined) throw new CliError('--seed K or --osm FILE: give one (the world to build)');
  const t = performance.now();
  const world = osmWorldFromOptions(o, o.size, o.seed ?? 0) ?? generateWorld({ seed: o.seed!, size: o.size });
  const inv = worldInventory(world);
  writeOutput(o.json, `${JSON.stringify(inv)}\n`);
  const kinds = Object.entries(inv.counts).map(([k, n]) => `${n} ${k}`).join(', ');
  const what = world.osm ? `${world.osm.source.file} (${selectionText(world.osm.source.selection)}, ${inv.size.toFixed(0)} m)` : `world ${o.seed} (${o.size} m)`;
  console.log(`${o.json}: ${what}: ${inv.streets.length} named streets, ${inv.intersections.length} intersections, ${inv.crosswalks.length} crosswalks, ${inv.landmarks.length} landmarks (${inv.landmarks.filter((l) => l.kind === 'storefront').length} storefronts), objects: ${kinds}; network ${inv.network.nodes.length} nodes, ${inv.network.edges.length} edges (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  if (world.osm) console.log(osmSummaryLine(world.osm.summary));
});
