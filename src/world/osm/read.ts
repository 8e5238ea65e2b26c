/**
 * Reading OpenStreetMap files: `.osm.pbf` (the PBF format, https://wiki.openstreetmap.org/wiki/PBF_Format,
 * through `tiny-osmpbf`) and `.osm` XML (OSM API 0.6 / Overpass / JOSM exports, through
 * `fast-xml-parser`), both into {@link OsmData}. The encoding is told from the bytes, not the name.
 */
import { isExtract, readExtract } from './extract';
import { XMLParser } from 'fast-xml-parser';
import Pbf from 'pbf';
import parsePbf from 'tiny-osmpbf';
import { BlobHeader } from 'tiny-osmpbf/proto/fileformat.js';
import { nodeExtent, OsmError, type LatLonBox, type OsmData, type OsmMember, type OsmTags } from './elements';

/** Which encoding `bytes` are in: PBF (a 4-byte big-endian header length, then an `OSMHeader` blob header), XML, or neither. */
export function sniffOsm(bytes: Uint8Array): 'pbf' | 'xml' | null {
  if (bytes.length >= 14) {
    const len = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
    // BlobHeader field 1 (type, string): tag 0x0a, length 9, "OSMHeader".
    if (len > 0 && len < 64 * 1024 && bytes[4] === 0x0a && bytes[5] === 9 && new TextDecoder().decode(bytes.subarray(6, 15)) === 'OSMHeader') return 'pbf';
  }
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] !== 0x3c) return null;
  const head = new TextDecoder().decode(bytes.subarray(i, Math.min(bytes.length, i + 4096)));
  return /<osm[\s>]/.test(head) ? 'xml' : null;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

function tagsOf(raw: unknown): OsmTags {
  const tags: OsmTags = {};
  if (!Array.isArray(raw)) return tags;
  for (const t of raw as { k?: unknown; v?: unknown }[]) if (t.k !== undefined) tags[String(t.k)] = String(t.v ?? '');
  return tags;
}

function empty(): OsmData {
  return { nodes: new Map(), ways: new Map(), relations: new Map(), bounds: null, declaredBounds: false };
}

/**
 * Walks the PBF file's blob framing (per blob: a 4-byte big-endian BlobHeader length, the BlobHeader,
 * then `datasize` bytes of Blob) and checks that every blob lies inside the file: the parser reads
 * past the end of a truncated file without stopping.
 *
 * @throws OsmError naming the file, the blob and the byte offset where the file falls short.
 */
function checkPbfFraming(bytes: Uint8Array, file: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0, blob = 0;
  while (pos < bytes.length) {
    if (pos + 4 > bytes.length) throw new OsmError(`${file}: truncated .osm.pbf (blob ${blob} header length cut off at byte ${pos})`);
    const len = view.getUint32(pos, false);
    if (len === 0 || len > 64 * 1024 || pos + 4 + len > bytes.length) throw new OsmError(`${file}: truncated or corrupt .osm.pbf (blob ${blob} header of ${len} bytes at byte ${pos} does not fit in the file's ${bytes.length})`);
    let header: { type: string; datasize: number };
    try {
      header = BlobHeader.read(new Pbf(bytes.subarray(pos + 4, pos + 4 + len)));
    } catch (e) {
      throw new OsmError(`${file}: corrupt .osm.pbf (blob ${blob} header at byte ${pos}: ${(e as Error).message})`);
    }
    if (blob === 0 && header.type !== 'OSMHeader') throw new OsmError(`${file}: not an .osm.pbf file (first blob is "${header.type}", not "OSMHeader")`);
    const end = pos + 4 + len + header.datasize;
    if (!(header.datasize > 0) || end > bytes.length) throw new OsmError(`${file}: truncated .osm.pbf (blob ${blob} "${header.type}" needs ${header.datasize} bytes at byte ${pos + 4 + len}, the file ends at ${bytes.length})`);
    pos = end;
    blob++;
  }
}

function readPbf(bytes: Uint8Array, file: string): OsmData {
  checkPbfFraming(bytes, file);
  let result: ReturnType<typeof parsePbf>;
  try {
    // A copy that owns its buffer: the parser views `input.buffer` from offset 0.
    result = parsePbf(bytes.slice());
  } catch (e) {
    throw new OsmError(`${file}: not a readable .osm.pbf file (truncated or corrupt: ${(e as Error).message})`);
  }
  const data = empty();
  for (const e of result.elements) {
    const tags = e.tags ?? {};
    if (e.type === 'node') data.nodes.set(e.id, { id: e.id, lat: e.lat!, lon: e.lon!, tags });
    else if (e.type === 'way') data.ways.set(e.id, { id: e.id, nodes: e.nodes ?? [], tags });
    else if (e.type === 'relation') data.relations.set(e.id, { id: e.id, members: e.members ?? [], tags });
  }
  const b = result.bounds;
  if (b && [b.minlat, b.minlon, b.maxlat, b.maxlon].every(Number.isFinite)) {
    data.bounds = { ...b };
    data.declaredBounds = true;
  }
  return data;
}

function readXml(bytes: Uint8Array, file: string): OsmData {
  const text = new TextDecoder('utf-8').decode(bytes);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    processEntities: true,
    htmlEntities: true,
    isArray: (name) => ['node', 'way', 'relation', 'tag', 'nd', 'member', 'bounds'].includes(name),
  });
  let doc: { osm?: Record<string, unknown> };
  try {
    doc = parser.parse(text, true) as typeof doc;
  } catch (e) {
    throw new OsmError(`${file}: not well-formed OSM XML (${(e as Error).message.split('\n')[0]})`);
  }
  const osm = doc.osm;
  if (!osm || typeof osm !== 'object') throw new OsmError(`${file}: not OSM XML (no <osm> root element)`);
  const data = empty();
  for (const n of (osm.node as Record<string, unknown>[] | undefined) ?? []) {
    const id = num(n.id), lat = num(n.lat), lon = num(n.lon);
    if (!Number.isFinite(id) || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    data.nodes.set(id, { id, lat, lon, tags: tagsOf(n.tag) });
  }
  for (const w of (osm.way as Record<string, unknown>[] | undefined) ?? []) {
    const id = num(w.id);
    if (!Number.isFinite(id)) continue;
    const nodes = ((w.nd as { ref?: unknown }[] | undefined) ?? []).map((nd) => num(nd.ref)).filter(Number.isFinite);
    data.ways.set(id, { id, nodes, tags: tagsOf(w.tag) });
  }
  for (const r of (osm.relation as Record<string, unknown>[] | undefined) ?? []) {
    const id = num(r.id);
    if (!Number.isFinite(id)) continue;
    const members: OsmMember[] = ((r.member as Record<string, unknown>[] | undefined) ?? [])
      .filter((m) => m.type === 'node' || m.type === 'way' || m.type === 'relation')
      .map((m) => ({ type: m.type as OsmMember['type'], ref: num(m.ref), role: String(m.role ?? '') }));
    data.relations.set(id, { id, members, tags: tagsOf(r.tag) });
  }
  const b = (osm.bounds as Record<string, unknown>[] | undefined)?.[0];
  if (b) {
    const box: LatLonBox = { minlat: num(b.minlat), minlon: num(b.minlon), maxlat: num(b.maxlat), maxlon: num(b.maxlon) };
    if ([box.minlat, box.minlon, box.maxlat, box.maxlon].every(Number.isFinite)) {
      data.bounds = box;
      data.declaredBounds = true;
    }
  }
  return data;
}

/**
 * Reads an OSM file's bytes.
 *
 * @param file the name to put in error messages (the path as the user gave it).
 * @throws OsmError when the bytes are neither PBF nor OSM XML, a PBF is truncated or corrupt, the
 *   XML is not well-formed, or the file holds no nodes.
 */
export function readOsm(bytes: Uint8Array, file: string): OsmData {
  const kind = isExtract(bytes) ? 'extract' : sniffOsm(bytes);
  if (kind === null) throw new OsmError(`${file}: not an OpenStreetMap file (neither .osm.pbf nor OSM XML with an <osm> root, nor a Curbside OSM extract)`);
  const data = kind === 'extract' ? readExtract(bytes, file) : kind === 'pbf' ? readPbf(bytes, file) : readXml(bytes, file);
  if (data.nodes.size === 0) throw new OsmError(`${file}: holds no OSM nodes`);
  for (const n of data.nodes.values()) {
    if (!(Math.abs(n.lat) <= 90 && Math.abs(n.lon) <= 180)) throw new OsmError(`${file}: node ${n.id} has an invalid position (${n.lat}, ${n.lon})`);
  }
  if (!data.bounds) data.bounds = nodeExtent(data.nodes.values());
  return data;
}
