/**
 * Node-side reading of the OSM files scenario and task worlds name (`world.kind` `osm`): the file
 * read from disk (paths relative to the repository root, or absolute), its md5 checked against the
 * one the suite recorded, and, for the page, the extract of each world's selection
 * (src/world/osm/extract.ts), which is small and rebuilds the same world there.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { UserError } from '../core/user-error';
import type { OsmData } from '../world/osm/elements';
import { extractSelection } from '../world/osm/extract';
import { readOsm } from '../world/osm/read';
import type { Scenario } from '../sim/scenario';
import { REPO_ROOT } from './scanned-scenes-node';
import { worldKey } from './scenario-world';
import type { OsmWorldRef } from '../world/osm/world-ref';

/** Parsed OSM files, by absolute path and md5 (a suite's worlds share one file). */
const parsed = new Map<string, OsmData>();

/** The absolute file of a recorded OSM path. */
export function osmFileOf(path: string): string {
  return isAbsolute(path) ? path : resolve(REPO_ROOT, path);
}

/**
 * The path a suite records for an OSM file given on the command line: relative to the repository
 * root when it lies in the root or beside it (`../shared/...`), else absolute.
 */
export function recordedOsmPath(arg: string): string {
  const rel = relative(REPO_ROOT, resolve(arg));
  return rel.startsWith('../..') || isAbsolute(rel) ? resolve(arg) : rel;
}

/**
 * The elements of an OSM world's file (parsed once per file).
 *
 * @throws UserError naming the file when it is missing, or its md5 is not the one the suite
 *   recorded (the file changed since the suite was made); OsmError when it is not OSM.
 */
export async function readOsmWorldData(ref: OsmWorldRef): Promise<OsmData> {
  const file = osmFileOf(ref.path);
  if (!existsSync(file) || statSync(file).isDirectory()) throw new UserError(`${ref.path}: no such OSM file (the world a suite or task file names; relative paths are from ${REPO_ROOT})`);
  const bytes = readFileSync(file);
  const md5 = createHash('md5').update(bytes).digest('hex');
  if (md5 !== ref.md5) throw new UserError(`${ref.path}: md5 ${md5} is not the ${ref.md5} the suite was made from: the file changed, so its world would not be the suite's (remake the suite from this file, or restore the file)`);
  return parsedOsm(file, md5, bytes, ref.path);
}

/**
 * The elements of OSM file `file` (absolute) whose bytes are `bytes` with md5 `md5`, parsed once
 * per run for every reader (a tool that builds a place and then cuts its extract for the page).
 *
 * @param name names the file in errors.
 * @throws OsmError naming `name` when it is not OSM.
 */
export function parsedOsm(file: string, md5: string, bytes: Uint8Array, name: string): OsmData {
  const key = `${file}\u0000${md5}`;
  let data = parsed.get(key);
  if (!data) {
    data = readOsm(bytes, name);
    parsed.set(key, data);
  }
  return data;
}

/**
 * The extracts of the OSM worlds among `scenarios`, by world key, for the page
 * (`BenchRequest.osm`): each the JSON of its selection's elements.
 *
 * @throws as {@link readOsmWorldData}.
 */
export async function osmExtractsFor(scenarios: readonly Scenario[]): Promise<Record<string, { ref: OsmWorldRef; extract: string }>> {
  const out: Record<string, { ref: OsmWorldRef; extract: string }> = {};
  for (const s of scenarios) {
    if (s.world.kind !== 'osm') continue;
    const key = worldKey(s.world);
    if (key in out) continue;
    const data = await readOsmWorldData(s.world);
    out[key] = { ref: s.world, extract: JSON.stringify(extractSelection(data, s.world.selection, s.world.path, s.world.md5)) };
  }
  return out;
}
