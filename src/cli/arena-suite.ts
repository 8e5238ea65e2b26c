/**
 * Where the arena's checked-in suites live (`scenes/arena/NAME.json`), how a `--suite` value
 * resolves (a suite name, or a path to a task file), and the world a task file names, built in Node.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../core/user-error';
import { readOsmWorldData } from '../bench/osm-worlds-node';
import { parseTaskFile, taskFileWorld, type ArenaTaskFile, type TaskWorldRef } from '../arena/task';
import { registerOsmWorld } from '../world/osm/world-ref';
import type { World } from '../world/world';

/** Folder of the checked-in arena suites. */
export const ARENA_SUITES_DIR = resolve(import.meta.dirname, '../../scenes/arena');
/** Names of the checked-in suites. */
export const ARENA_SUITES = ['cityarena', 'urbanground', 'monaco-casino', 'monaco-casino-urbanground'] as const;

/**
 * The task file of a `--suite` value.
 *
 * @throws CliError naming the value when it is neither a checked-in suite nor an existing file.
 */
export function resolveArenaSuite(value: string): string {
  if ((ARENA_SUITES as readonly string[]).includes(value)) return resolve(ARENA_SUITES_DIR, `${value}.json`);
  if (existsSync(value)) {
    if (!statSync(value).isFile()) throw new CliError(`--suite ${value}: a folder, not a task file`);
    return resolve(value);
  }
  throw new CliError(`--suite ${value}: not a suite (${ARENA_SUITES.join(', ')}) and no such task file`);
}

/**
 * The world a task file names: a procedural world generated, a real place read from its OSM file
 * (md5 checked) and registered.
 *
 * @throws UserError naming the OSM file when it is missing or changed; OsmError for bad data.
 */
export async function loadTaskWorld(ref: TaskWorldRef): Promise<World> {
  if (ref.kind === 'osm') registerOsmWorld(ref, await readOsmWorldData(ref));
  return taskFileWorld(ref);
}

/** A `--suite` value read: its file's path, text and tasks, and their world. */
export interface LoadedSuite {
  path: string;
  text: string;
  file: ArenaTaskFile;
  world: World;
}

/**
 * Resolves, reads and parses a `--suite` value and builds its world.
 *
 * @throws CliError / TaskFileError naming the file; as {@link loadTaskWorld}.
 */
export async function loadArenaSuite(value: string): Promise<LoadedSuite> {
  const path = resolveArenaSuite(value);
  const text = readFileSync(path, 'utf8');
  const file = parseTaskFile(path, text);
  return { path, text, file, world: await loadTaskWorld(file.world) };
}
