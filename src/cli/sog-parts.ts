/** Node-side discovery of SOG datasets in a folder, for the CLI tools that serve captures. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The SOG `meta.json` files a folder holds: its own, or else one per direct sub-folder (sorted by
 * name), as paths relative to the folder. Empty when there are none.
 */
export function findSogParts(dir: string): string[] {
  if (existsSync(join(dir, 'meta.json'))) return ['meta.json'];
  return readdirSync(dir)
    .filter((d) => statSync(join(dir, d)).isDirectory() && existsSync(join(dir, d, 'meta.json')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((d) => `${d}/meta.json`);
}
