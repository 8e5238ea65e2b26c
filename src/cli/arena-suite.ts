/**
 * Where the arena's checked-in suites live (`scenes/arena/NAME.json`) and how a `--suite` value
 * resolves: a suite name, or a path to a task file.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../core/user-error';

/** Folder of the checked-in arena suites. */
export const ARENA_SUITES_DIR = resolve(import.meta.dirname, '../../scenes/arena');
/** Names of the checked-in suites. */
export const ARENA_SUITES = ['cityarena', 'urbanground'] as const;

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
