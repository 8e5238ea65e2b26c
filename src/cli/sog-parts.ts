/** Node-side discovery of SOG datasets in a folder, and serving a capture (file or folder) to the page. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';

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

/**
 * Serves a capture to the page (`Harness.serveFile`): its URL and name, and for a folder the SOG
 * datasets in it (`loadSplatSource`'s `SplatSource`).
 *
 * @throws CliError when the path does not exist, or is a folder without any SOG meta.json.
 */
export async function serveCapture(h: Harness, path: string): Promise<{ url: string; name: string; sogParts?: string[] }> {
  const file = await h.serveFile(path);
  if (!statSync(path).isDirectory()) return file;
  const sogParts = findSogParts(path);
  if (sogParts.length === 0) throw new CliError(`${path}: a folder, but it holds no SOG meta.json (in it or in its sub-folders)`);
  return { ...file, sogParts };
}
