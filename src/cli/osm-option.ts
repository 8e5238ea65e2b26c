/**
 * `--osm FILE` with its selection (`--centre LAT,LON` with the tool's size option, or `--bbox
 * W,S,E,N`): the options every tool that takes `--world SEED` also takes, and the world they name.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CliError } from '../core/user-error';
import { parsedOsm, readOsmWorldData, recordedOsmPath } from '../bench/osm-worlds-node';
import { effectiveSelection, extractSelection } from '../world/osm/extract';
import { buildOsmWorld } from '../world/osm/osm-world';
import { osmWorldKey, registerOsmWorld, type OsmWorldRef, type PageOsmWorld } from '../world/osm/world-ref';
import { readOsm } from '../world/osm/read';
import { parseBbox, parseLatLon, type OsmSelection } from '../world/osm/selection';
import { FURNITURE_SOURCES, type FurnitureSource, type OsmWorldSummary } from '../world/osm/world-data';
import type { World } from '../world/world';

/** Adds `--osm`, `--centre` and `--bbox` to a command. */
export function addOsmOptions(cmd: Command): Command {
  return cmd
    .option('--osm <FILE>', 'build the world from an OpenStreetMap extract (.osm.pbf or .osm XML) instead of a seed')
    .option('--centre <LAT,LON>', 'with --osm: centre of the square selection, degrees (its side is the world size option)')
    .option('--bbox <W,S,E,N>', 'with --osm: the selection as a longitude/latitude box, degrees (at most 2 km across)')
    .addOption(new Option('--furniture <SOURCE>', 'with --osm: street furniture mapped in OSM only (osm), or with generated furniture on the kerbs OSM leaves empty').choices([...FURNITURE_SOURCES]));
}

/** The OSM options as parsed by commander. */
export interface OsmOptionValues {
  osm?: string;
  centre?: string;
  bbox?: string;
  furniture?: FurnitureSource;
}

/** The selection the options give; `size` is the tool's world-size option (metres). @throws CliError / OsmError naming the option. */
export function osmSelection(o: OsmOptionValues, size: number): OsmSelection {
  if (o.centre !== undefined && o.bbox !== undefined) throw new CliError('--centre and --bbox: give one selection, not both');
  if (o.centre !== undefined) return { kind: 'centre', ...parseLatLon(o.centre), size };
  if (o.bbox !== undefined) return { kind: 'bbox', ...parseBbox(o.bbox) };
  return { kind: 'file' };
}

/** Reads an OSM file: its bytes and md5. @throws CliError when it is missing or a folder. */
export function readOsmFile(file: string): { bytes: Uint8Array; md5: string } {
  if (!existsSync(file)) throw new CliError(`--osm ${file}: no such file`);
  if (statSync(file).isDirectory()) throw new CliError(`--osm ${file}: is a folder, not an OSM file`);
  const bytes = readFileSync(file);
  return { bytes, md5: createHash('md5').update(bytes).digest('hex') };
}

/**
 * The world the options name: from `--osm` with its selection when given, else null (the caller
 * generates its procedural world).
 *
 * @throws CliError when `--centre`/`--bbox` come without `--osm`; OsmError for a bad file or selection.
 */
export function osmWorldFromOptions(o: OsmOptionValues, size: number, seed = 0): World | null {
  if (!hasOsm(o)) return null;
  const selection = osmSelection(o, size);
  const { bytes, md5 } = readOsmFile(o.osm);
  return buildOsmWorld(readOsm(bytes, o.osm), { file: o.osm, md5, selection, seed, furniture: o.furniture });
}

/**
 * Whether the options name an OSM world.
 *
 * @throws CliError when `--centre`/`--bbox` come without `--osm`.
 */
export function hasOsm(o: OsmOptionValues): o is OsmOptionValues & { osm: string } {
  if (o.osm === undefined && (o.centre !== undefined || o.bbox !== undefined || o.furniture !== undefined)) throw new CliError(`${o.centre !== undefined ? '--centre' : o.bbox !== undefined ? '--bbox' : '--furniture'}: only with --osm FILE`);
  return o.osm !== undefined;
}

/**
 * The OSM world the options name, as a suite or task file records it (the path relative to the
 * repository root where it can be, the md5, the selection as resolved: an extract given alone
 * brings its own) and the world, registered (src/world/osm/world-ref.ts).
 *
 * @throws CliError for a missing file; OsmError for a bad file or selection.
 */
export function osmWorldRefFromOptions(o: OsmOptionValues & { osm: string }, size: number, seed: number): { ref: OsmWorldRef; world: World } {
  const { bytes, md5 } = readOsmFile(o.osm);
  // Parsed through the run's cache: pageWorldOf cuts the page's extract from the same elements.
  const data = parsedOsm(resolve(o.osm), md5, bytes, o.osm);
  const ref: OsmWorldRef = { kind: 'osm', path: recordedOsmPath(o.osm), md5, selection: effectiveSelection(data, osmSelection(o, size)), seed, furniture: o.furniture ?? 'osm+generated' };
  return { ref, world: registerOsmWorld(ref, data) };
}

/** The ref a real place's world records (its source, and the seed it was built with). */
export function osmRefOfWorld(world: World): OsmWorldRef | null {
  const src = world.osm?.source;
  return src ? { kind: 'osm', path: src.file, md5: src.md5, selection: src.selection, seed: world.seed, furniture: src.furniture } : null;
}

/** Extracts sent to the page, by world key (a real place's is cut once per run). */
const pageExtracts = new Map<string, string>();

/**
 * What the page's `openWorldView` needs to build `world` (src/sensors/headless-api.ts): the seed
 * and size of a procedural world, or a real place's ref and the extract of its selection.
 *
 * @throws UserError naming the OSM file when it is missing or changed since the world was built.
 */
export async function pageWorldOf(world: World): Promise<{ seed: number; worldSize: number; osm?: PageOsmWorld }> {
  const ref = osmRefOfWorld(world);
  if (!ref) return { seed: world.seed, worldSize: world.size };
  const key = osmWorldKey(ref);
  let extract = pageExtracts.get(key);
  if (extract === undefined) {
    extract = JSON.stringify(extractSelection(await readOsmWorldData(ref), ref.selection, ref.path, ref.md5));
    pageExtracts.set(key, extract);
  }
  return { seed: world.seed, worldSize: world.size, osm: { ref, extract } };
}

/** A place's short name from its OSM file, for ids and suite names: `scenes/cities/monaco-casino.json` → `monaco-casino`. */
export function osmPlaceName(file: string): string {
  return basename(file).replace(/\.(osm\.pbf|pbf|osm|xml|json)$/i, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

const ids = (list: readonly (string | number)[], prefix = ''): string => (list.length === 0 ? '' : ` (${list.slice(0, 8).map((x) => `${prefix}${x}`).join(', ')}${list.length > 8 ? ', …' : ''})`);

/** One line of what an OSM world's build skipped, with the first OSM ids of each. */
export function osmSummaryLine(s: OsmWorldSummary): string {
  return `OSM: ${s.crosswalksMapped} mapped crossings, ${s.crosswalksPlaced} placed at junctions; ${s.separateSidewalkSides} road sides with a separate sidewalk way; skipped: ${s.waysMissingNodes.length} ways cut at missing nodes${ids(s.waysMissingNodes, 'way/')}, ${s.waysDisconnected.length} ways off the connected network${ids(s.waysDisconnected, 'way/')}, ${s.buildingsSkipped.length} buildings${ids(s.buildingsSkipped.map((b) => `${b.id}: ${b.why}`))}, ${s.placesUnplaced.length} named places on no building${ids(s.placesUnplaced)}; pedestrian areas: ${s.pedestrianAreas} walkable, ${s.pedestrianAreasSkipped.length} skipped${ids(s.pedestrianAreasSkipped.map((a) => `${a.id}: ${a.why}`))}; street furniture: ${s.furnitureMapped} mapped objects placed, ${s.furnitureSkipped.length} skipped${ids(s.furnitureSkipped.map((f) => `${f.id}: ${f.why}`))}`;
}
