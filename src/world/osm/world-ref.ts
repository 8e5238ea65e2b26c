/**
 * How a suite or task file names a world built from OpenStreetMap (`world.kind` `osm`), and the
 * registry of the worlds built from such names.
 *
 * A file records the OSM file as given (relative to the repository root, or absolute), the md5 of
 * its bytes (a file that no longer matches is refused by the Node readers), the selection as the
 * world resolved it, the seed of what OSM leaves open and where its furniture comes from. Node reads the file itself; a page is
 * sent a Curbside OSM extract of the selection (extract.ts), which builds the same world, and
 * registers it here once ({@link registerOsmWorld}); every later use is a lookup.
 */
import { z } from 'zod';
import type { World } from '../world';
import type { OsmData } from './elements';
import { readExtract } from './extract';
import { buildOsmWorld } from './osm-world';
import { OsmSelectionSchema, selectionText } from './selection';
import { FURNITURE_SOURCES } from './world-data';

/** A real-place world in a suite or task file (see the module comment). */
export const OsmWorldRefSchema = z.object({
  kind: z.literal('osm'),
  path: z.string().min(1),
  md5: z.string().regex(/^[0-9a-f]{32}$/, 'expected the md5 of the OSM file (32 hex digits)'),
  selection: OsmSelectionSchema,
  seed: z.number().int().nonnegative().default(0),
  /** Street furniture from OSM alone, or with generated furniture on the kerbs it leaves empty. */
  furniture: z.enum(FURNITURE_SOURCES).default('osm+generated'),
}).strict();
export type OsmWorldRef = z.infer<typeof OsmWorldRefSchema>;

/** The cache key of an OSM world: its data (md5), selection, seed and furniture, not the path it was read from. */
export function osmWorldKey(ref: OsmWorldRef): string {
  return `osm:${ref.md5}:${JSON.stringify(ref.selection)}:${ref.seed}:${ref.furniture}`;
}

/** How messages name an OSM world: `scenes/cities/monaco-casino.json (centre 43.7396,7.4278 size 800)`. */
export function osmWorldLabel(ref: OsmWorldRef): string {
  return `${ref.path} (${selectionText(ref.selection)})`;
}

/** Worlds built by {@link registerOsmWorld}, by {@link osmWorldKey}. */
const registered = new Map<string, World>();

/**
 * Builds the world `ref` names from its elements (the whole file, or an extract of at least its
 * selection) and registers it; registering the same world again returns the first one. The world
 * records `ref`'s path, md5 and selection as its source, so either input gives the same world.
 *
 * @throws OsmError for a selection the data cannot give (selection.ts).
 */
export function registerOsmWorld(ref: OsmWorldRef, data: OsmData): World {
  const key = osmWorldKey(ref);
  let world = registered.get(key);
  if (!world) {
    world = buildOsmWorld(data, { file: ref.path, md5: ref.md5, selection: ref.selection, seed: ref.seed, furniture: ref.furniture });
    registered.set(key, world);
  }
  return world;
}

/** The registered world of `ref`, or undefined. */
export function registeredOsmWorld(ref: OsmWorldRef): World | undefined {
  return registered.get(osmWorldKey(ref));
}

/** A real place as a page is sent it: its ref and the JSON text of a Curbside OSM extract of at least its selection (extract.ts). */
export interface PageOsmWorld {
  ref: OsmWorldRef;
  extract: string;
}

/**
 * The world of a page request's real place: the registered one, else built from its extract and
 * registered (one build per page).
 *
 * @throws OsmError naming `ref.path` for a bad extract or a selection it cannot give.
 */
export function pageOsmWorld(osm: PageOsmWorld): World {
  return registeredOsmWorld(osm.ref) ?? registerOsmWorld(osm.ref, readExtract(new TextEncoder().encode(osm.extract), osm.ref.path));
}
