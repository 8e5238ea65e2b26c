/**
 * A Curbside OSM extract: the OpenStreetMap elements one selection's world is built from, cut out of
 * a big file and kept as compact JSON (`format: curbside-osm-extract`), the form a real place takes
 * in the repository (`scenes/cities/*.json`) and in the page (which cannot read a whole `.osm.pbf`).
 * It is an ODbL derived database: it carries the attribution, and the file, md5 and selection it was
 * cut from.
 *
 * What is kept is what {@link buildOsmWorld} reads for that selection: every way whose node extent
 * meets the selection's box (all its nodes, so clipping at the box edge is the same), every relation
 * with a kept member way (all its member ways), and the tagged nodes inside the box. A world built
 * from the extract with the same selection has the same streets, buildings and names as one built
 * from the original file (only `osm.source` differs: it names the extract).
 *
 * Layout: `nodes` `[id, lat, lon]` or `[id, lat, lon, tags]`; `ways` `[id, nodeIds, tags]`;
 * `relations` `[id, [[type, ref, role], …], tags]`; ids ascending.
 */
import { z } from 'zod';
import { OsmError, type OsmData, type OsmMember, type OsmNode, type OsmRelation, type OsmTags, type OsmWay } from './elements';
import { OsmSelectionSchema as SelectionSchema, resolveSelection, type OsmSelection } from './selection';
import { OSM_ATTRIBUTION } from './world-data';

/** The `format` of an extract file. */
export const EXTRACT_FORMAT = 'curbside-osm-extract';
export const EXTRACT_VERSION = 1;

const tags = z.record(z.string(), z.string());
const id = z.number().int().positive();
/** The extract file (see the module comment). */
export const ExtractSchema = z.object({
  format: z.literal(EXTRACT_FORMAT),
  version: z.literal(EXTRACT_VERSION),
  attribution: z.string().min(1),
  /** The file it was cut from (as given), its md5 and the selection. */
  source: z.object({ file: z.string().min(1), md5: z.string().regex(/^[0-9a-f]{32}$/), selection: SelectionSchema }).strict(),
  /** The selection's latitude-longitude box, degrees (the extract's bounds). */
  bounds: z.object({ minlat: z.number(), minlon: z.number(), maxlat: z.number(), maxlon: z.number() }).strict(),
  nodes: z.array(z.union([z.tuple([id, z.number().min(-90).max(90), z.number().min(-180).max(180)]), z.tuple([id, z.number().min(-90).max(90), z.number().min(-180).max(180), tags])])),
  ways: z.array(z.tuple([id, z.array(id), tags])),
  relations: z.array(z.tuple([id, z.array(z.tuple([z.enum(['node', 'way', 'relation']), id, z.string()])), tags])),
}).strict();
export type OsmExtract = z.infer<typeof ExtractSchema>;

const hasTags = (t: OsmTags) => Object.keys(t).length > 0;

/**
 * Cuts the elements of `selection` out of `data`.
 *
 * @param file the source file as the user gave it; `md5` its bytes' md5 (hex).
 * @throws OsmError for an invalid selection (selection.ts).
 */
export function extractSelection(data: OsmData, selection: OsmSelection, file: string, md5: string): OsmExtract {
  const sel = resolveSelection(data, effectiveSelection(data, selection), file);
  const box = sel.latLon;
  const inBox = (n: OsmNode) => n.lat >= box.minlat && n.lat <= box.maxlat && n.lon >= box.minlon && n.lon <= box.maxlon;
  const ways = new Map<number, OsmWay>();
  for (const w of data.ways.values()) {
    let minlat = Infinity, maxlat = -Infinity, minlon = Infinity, maxlon = -Infinity;
    for (const nid of w.nodes) {
      const n = data.nodes.get(nid);
      if (!n) continue;
      minlat = Math.min(minlat, n.lat); maxlat = Math.max(maxlat, n.lat);
      minlon = Math.min(minlon, n.lon); maxlon = Math.max(maxlon, n.lon);
    }
    if (maxlat >= box.minlat && minlat <= box.maxlat && maxlon >= box.minlon && minlon <= box.maxlon) ways.set(w.id, w);
  }
  const relations: OsmRelation[] = [];
  for (const r of data.relations.values()) {
    if (!r.members.some((m) => m.type === 'way' && ways.has(m.ref))) continue;
    relations.push(r);
    for (const m of r.members) {
      const w = m.type === 'way' ? data.ways.get(m.ref) : undefined;
      if (w) ways.set(w.id, w);
    }
  }
  const nodeIds = new Set<number>();
  for (const w of ways.values()) for (const n of w.nodes) if (data.nodes.has(n)) nodeIds.add(n);
  for (const n of data.nodes.values()) if (hasTags(n.tags) && inBox(n)) nodeIds.add(n.id);
  const asc = <T>(xs: Iterable<T>, key: (x: T) => number) => [...xs].sort((p, q) => key(p) - key(q));
  return {
    format: EXTRACT_FORMAT,
    version: EXTRACT_VERSION,
    attribution: OSM_ATTRIBUTION,
    source: { file, md5, selection: sel.selection },
    bounds: { ...box },
    nodes: asc(nodeIds, (x) => x).map((nid) => {
      const n = data.nodes.get(nid)!;
      return hasTags(n.tags) ? [n.id, n.lat, n.lon, n.tags] : [n.id, n.lat, n.lon];
    }),
    ways: asc(ways.values(), (w) => w.id).map((w) => [w.id, w.nodes, w.tags]),
    relations: asc(relations, (r) => r.id).map((r) => [r.id, r.members.map((m) => [m.type, m.ref, m.role] as [OsmMember['type'], number, string]), r.tags]),
  };
}

/** Whether `bytes` look like an extract file (JSON naming its format near the start). */
export function isExtract(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 200)).trimStart();
  return head.startsWith('{') && head.includes(`"${EXTRACT_FORMAT}"`);
}

/**
 * Reads an extract file into {@link OsmData}: its bounds are the selection's box, and its selection
 * is the one a tool uses when given the file without `--centre`/`--bbox`.
 *
 * @throws OsmError naming the file and the field when it is not valid JSON or does not validate.
 */
export function readExtract(bytes: Uint8Array, file: string): OsmData {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new OsmError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const r = ExtractSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new OsmError(`${file}: not a valid ${EXTRACT_FORMAT} file: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const x = r.data;
  const nodes = new Map<number, OsmNode>(x.nodes.map((n) => [n[0], { id: n[0], lat: n[1], lon: n[2], tags: n[3] ?? {} }]));
  const ways = new Map<number, OsmWay>(x.ways.map(([wid, nds, t]) => [wid, { id: wid, nodes: nds, tags: t }]));
  const relations = new Map<number, OsmRelation>(x.relations.map(([rid, ms, t]) => [rid, { id: rid, members: ms.map(([type, ref, role]) => ({ type, ref, role })), tags: t }]));
  return { nodes, ways, relations, bounds: { ...x.bounds }, declaredBounds: true, selection: x.source.selection };
}

/** The selection a tool uses: the one given, or, for `file` on an extract, the extract's own. */
export function effectiveSelection(data: OsmData, selection: OsmSelection): OsmSelection {
  return selection.kind === 'file' && data.selection ? data.selection : selection;
}
