/** Node-side access to `../shared/data` (path set by vite.config.ts). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SHARED_DATA = process.env.CURBSIDE_SHARED_DATA ?? resolve(__dirname, '../../shared/data');

/** Reads `../shared/data/<relPath>` as bytes. */
export function readSharedData(relPath: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(SHARED_DATA, relPath)));
}
