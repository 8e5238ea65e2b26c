/**
 * `npm run osm:extract -- --osm FILE (--centre LAT,LON --size M | --bbox W,S,E,N) --out CITY.json`:
 * cuts the OpenStreetMap elements of one selection out of a big extract (`.osm.pbf` or XML) into a
 * Curbside OSM extract (src/world/osm/extract.ts), the form a real place is checked in as
 * (`scenes/cities/*.json`). Every tool's `--osm` reads it, with its own selection by default.
 * Prints what it kept and the world it makes. Bad input exits 1 with a one-line error.
 */
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { extractSelection, readExtract } from '../world/osm/extract';
import { buildOsmWorld } from '../world/osm/osm-world';
import { readOsm } from '../world/osm/read';
import { selectionText } from '../world/osm/selection';
import { addOsmOptions, osmSelection, osmSummaryLine, readOsmFile, type OsmOptionValues } from './osm-option';
import { worldSize, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';

export const program = addOsmOptions(new Command('osm:extract')
  .description('Cut one selection of an OpenStreetMap file into a Curbside OSM extract (compact JSON with the ODbL attribution and its source), the form real places are checked in as.')
  .option('--size <M>', 'with --centre: side of the square selection, metres (150–2000)', worldSize, 400)
  .requiredOption('--out <CITY.json>', 'the extract file to write'));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ size: number; out: string } & OsmOptionValues>();
  if (o.osm === undefined) throw new CliError("required option '--osm <FILE>' not specified");
  if (!o.out.toLowerCase().endsWith('.json')) throw new CliError(`--out ${o.out}: the output must be a .json file`);
  const t = performance.now();
  const { bytes, md5 } = readOsmFile(o.osm);
  const data = readOsm(bytes, o.osm);
  const extract = extractSelection(data, osmSelection(o, o.size), o.osm, md5);
  const text = `${JSON.stringify(extract)}\n`;
  writeOutput(o.out, text);
  // The world of the extract, as every tool will build it: a check that it builds, and what it holds.
  const world = buildOsmWorld(readExtract(new TextEncoder().encode(text), o.out), { file: o.out, md5: '-', selection: { kind: 'file' } });
  console.log(`${o.out}: ${selectionText(extract.source.selection)} of ${o.osm}: ${extract.nodes.length} nodes, ${extract.ways.length} ways, ${extract.relations.length} relations, ${(text.length / 1e6).toFixed(2)} MB (${((performance.now() - t) / 1000).toFixed(1)} s); world: ${world.network.streets.length} streets, ${world.crosswalks.length} crosswalks, ${world.obstacles.filter((x) => x.kind === 'building').length} building pieces`);
  console.log(osmSummaryLine(world.osm!.summary));
});
