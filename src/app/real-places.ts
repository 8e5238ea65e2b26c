/**
 * The real places the demo and the arena play page can open: their Curbside OSM extracts
 * (src/world/osm/extract.ts), served by Vite, by the path a suite or task file records. A page
 * fetches a place's extract the first time a file names it and builds the world once
 * (src/world/osm/world-ref.ts); every later use is a lookup.
 */
import monacoExtractUrl from '../../scenes/cities/monaco-casino.json?url';
import { readExtract } from '../world/osm/extract';
import { osmWorldLabel, registeredOsmWorld, registerOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';
import type { World } from '../world/world';

/** Extract URLs by the path a file records. */
export const PAGE_EXTRACTS: Readonly<Record<string, string>> = { 'scenes/cities/monaco-casino.json': monacoExtractUrl };

/**
 * The world of `ref`, fetching and building it the first time.
 *
 * @param file the suite or task file that names it (for the error).
 * @param status called with a line to show before the build (it takes seconds).
 * @throws Error naming `file` when the page does not have the place, or the extract's HTTP status; OsmError for a bad extract.
 */
export async function pageRealPlace(ref: OsmWorldRef, file: string, status?: (line: string) => void): Promise<World> {
  const known = registeredOsmWorld(ref);
  if (known) return known;
  const url = PAGE_EXTRACTS[ref.path];
  if (!url) throw new Error(`${file}: its real place ${ref.path} is not one this page has (${Object.keys(PAGE_EXTRACTS).join(', ')})`);
  status?.(`building ${osmWorldLabel(ref)} from OpenStreetMap…`);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${ref.path}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  // Let the status line paint before the build.
  await new Promise((r) => setTimeout(r, 0));
  return registerOsmWorld(ref, readExtract(bytes, ref.path));
}
