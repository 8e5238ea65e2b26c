/**
 * The glTF 2.0 container and accessor decoding under the `KHR_gaussian_splatting` splat loader
 * (`./gltf`): sniffing a file as GLB or glTF JSON, splitting a GLB into its JSON and BIN chunks,
 * checking the JSON's top level, resolving buffers (the GLB's BIN chunk, `data:` URIs, external
 * files through a `GltfResourceReader`) and buffer views with their strides, and reading an
 * accessor (sparse substitution included) as floats after checking its type and encoding.
 *
 * Spec: glTF 2.0 §3.6.2 (accessors, sparse accessors), §3.11 (normalised integers), §4.4 (GLB);
 * KHR_mesh_quantization for integer positions. The encodings each splat attribute may use are
 * those of KhronosGroup/glTF `extensions/2.0/Khronos/KHR_gaussian_splatting/README.md` (release
 * candidate, commit 63770cc of April 2026), listed in `./gltf`.
 *
 * Integer components decode as glTF §3.11 says: normalised byte max(c / 127, −1), unsigned byte
 * c / 255, short max(c / 32767, −1), unsigned short c / 65535; non-normalised ones as the integer.
 *
 * Every problem is a `SplatFormatError` (`file: problem`, one line) that names where it is (the
 * attribute, accessor, buffer view or buffer).
 */
import type { GLTF } from '@gltf-transform/core';
import { SplatFormatError } from '../splat-cloud';

/** "glTF" read as a little-endian u32: the first 4 bytes of a GLB. */
export const GLB_MAGIC = 0x46546c67;
const GLB_HEADER_BYTES = 12;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/**
 * Reads an external file a `.gltf` names (a buffer `uri`, percent-decoded, relative to the
 * `.gltf`); returns undefined when it is not available.
 */
export type GltfResourceReader = (uri: string) => Uint8Array | undefined;

/** Whether `bytes` start with the GLB magic `glTF`. */
export function hasGlbMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/**
 * Whether `bytes` look like glTF JSON: the first non-blank character (after an optional UTF-8 BOM)
 * is `{` and the first 64 KiB contain an `"asset":` key (every glTF has one; SOG `meta.json` does not).
 */
export function looksLikeGltfJson(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 1 << 16));
  return /^\s*\{/.test(head) && /"asset"\s*:/.test(head);
}

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const COMPONENT_NAME: Record<number, string> = {
  5120: 'byte', 5121: 'unsigned byte', 5122: 'short', 5123: 'unsigned short', 5125: 'unsigned int', 5126: 'float',
};
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** One accepted storage of an attribute: component type and the accessor's `normalized` flag. */
export interface Encoding { componentType: number; normalized: boolean }

/**
 * An `Encoding`: `componentType` is the glTF code (5120 byte, 5121 unsigned byte, 5122 short,
 * 5123 unsigned short, 5125 unsigned int, 5126 float), `normalized` the accessor flag (default false).
 */
export const enc = (componentType: number, normalized = false): Encoding => ({ componentType, normalized });

const describeEncoding = (e: Encoding): string =>
  e.componentType === 5126 && !e.normalized ? 'float' : `${e.normalized ? 'normalised ' : ''}${COMPONENT_NAME[e.componentType] ?? `component type ${e.componentType}`}`;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Parsed file: the glTF JSON, the GLB's BIN chunk, decoded buffers (cached), and the resource reader. */
export interface Context {
  file: string;
  json: GLTF.IGLTF;
  bin: Uint8Array | null;
  isGlb: boolean;
  readResource?: GltfResourceReader;
  buffers: Map<number, Uint8Array>;
}

/** Throws `SplatFormatError(ctx.file, problem)`: `problem` is one line, without the file name. */
export function fail(ctx: { file: string }, problem: string): never {
  throw new SplatFormatError(ctx.file, problem);
}

/**
 * `list[index]`, or a clear error when the index is not an integer or out of range.
 *
 * @param what the kind of item (`'mesh'`, `'node'`, …), pluralised with `s` in the message.
 * @param where who refers to it, the start of the message.
 * @throws SplatFormatError when `index` is not an integer in [0, list length), or the item is not a JSON object.
 */
export function item<T>(ctx: Context, list: T[] | undefined, index: unknown, what: string, where: string): T {
  const n = list?.length ?? 0;
  if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= n) {
    fail(ctx, `${where}: ${what} ${JSON.stringify(index)} does not exist (the file has ${n} ${what}s)`);
  }
  const v = list![index as number];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(ctx, `${where}: ${what} ${index} is not a JSON object`);
  return v;
}

/**
 * An optional JSON array (`[]` when absent), or a clear error when it is something else.
 *
 * @throws SplatFormatError `${where} is not an array` when `v` is present and not an array.
 */
export function list<T>(ctx: Context, v: T[] | undefined, where: string): T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(ctx, `${where} is not an array`);
  return v;
}

function decodeDataUri(ctx: Context, uri: string, where: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0) fail(ctx, `${where}: malformed data: URI (no comma)`);
  const meta = uri.slice(5, comma), data = uri.slice(comma + 1);
  let text: string;
  try {
    text = /;base64$/i.test(meta) ? atob(data) : unescape(data);
  } catch (e) {
    fail(ctx, `${where}: invalid base64 in its data: URI (${(e as Error).message})`);
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The bytes of buffer `index`: the GLB BIN chunk, a data: URI, or an external file from the reader. */
function bufferData(ctx: Context, index: unknown, where: string): Uint8Array {
  const def = item(ctx, ctx.json.buffers, index, 'buffer', where);
  const i = index as number;
  const cached = ctx.buffers.get(i);
  if (cached) return cached;
  const label = `buffer ${i}`;
  let data: Uint8Array;
  if (def.uri === undefined) {
    if (!(ctx.isGlb && i === 0) || !ctx.bin) {
      fail(ctx, ctx.isGlb && i === 0 ? `${label} has no uri and the GLB has no BIN chunk` : `${label} has no uri (only a GLB's buffer 0 may omit it)`);
    }
    data = ctx.bin;
  } else if (/^data:/i.test(def.uri)) {
    data = decodeDataUri(ctx, def.uri, label);
  } else {
    let name = def.uri;
    try { name = decodeURIComponent(def.uri); } catch { /* keep the raw uri */ }
    const ext = ctx.readResource?.(name);
    if (!ext) {
      fail(ctx, `${label} refers to the external file "${name}", which was not supplied (use a .glb, or embed the buffer in the .gltf as a data: URI)`);
    }
    data = ext;
  }
  if (!(Number.isInteger(def.byteLength) && def.byteLength >= 0)) fail(ctx, `${label}: byteLength ${JSON.stringify(def.byteLength)} is not a non-negative integer`);
  if (data.length < def.byteLength) {
    fail(ctx, `${label} holds ${data.length} bytes but its byteLength is ${def.byteLength} (truncated file?)`);
  }
  data = data.subarray(0, def.byteLength); // a GLB BIN chunk may be padded past byteLength
  ctx.buffers.set(i, data);
  return data;
}

/** Where `count` elements of `comps` components lie in a buffer view (checked to fit). */
interface ViewSpan { buf: Uint8Array; viewStart: number; viewLength: number; byteOffset: number; stride: number }

/**
 * Locates `count` elements of `comps` components of `componentType` stored in bufferView
 * `viewIndex` from `byteOffset` (with the view's byteStride when `strided`), checking that they fit
 * in the view and the view in its buffer.
 */
function locateView(
  ctx: Context, viewIndex: unknown, byteOffset: number, count: number, comps: number, componentType: number, strided: boolean, where: string,
): ViewSpan {
  const view = item(ctx, ctx.json.bufferViews, viewIndex, 'bufferView', where);
  const buf = bufferData(ctx, view.buffer, `${where}: bufferView ${viewIndex}`);
  const viewStart = view.byteOffset ?? 0;
  if (!(Number.isInteger(viewStart) && viewStart >= 0 && Number.isInteger(view.byteLength) && viewStart + view.byteLength <= buf.length)) {
    fail(ctx, `${where}: bufferView ${viewIndex} (bytes ${viewStart}..${viewStart + view.byteLength}) runs past the end of buffer ${view.buffer} (${buf.length} bytes)`);
  }
  const size = COMPONENT_SIZE[componentType];
  const elem = size * comps;
  const stride = strided && view.byteStride !== undefined ? view.byteStride : elem;
  if (!(Number.isInteger(stride) && stride >= elem)) fail(ctx, `${where}: bufferView ${viewIndex} byteStride ${stride} is smaller than an element (${elem} bytes)`);
  if (!(Number.isInteger(byteOffset) && byteOffset >= 0)) fail(ctx, `${where}: byteOffset ${byteOffset} is not a non-negative integer`);
  const need = count === 0 ? 0 : byteOffset + stride * (count - 1) + elem;
  if (need > view.byteLength) {
    fail(ctx, `${where}: ${count} elements need ${need} bytes of bufferView ${viewIndex}, which has ${view.byteLength}`);
  }
  return { buf, viewStart, viewLength: view.byteLength, byteOffset, stride };
}

/** Decodes the `count` × `comps` components at `span` into `out`, as floats (glTF §3.11 for normalised integers). */
function decodeView(
  out: Float32Array | Float64Array, span: ViewSpan, count: number, comps: number, componentType: number, normalized: boolean,
): void {
  const { buf, viewStart, byteOffset, stride } = span;
  const size = COMPONENT_SIZE[componentType];
  const elem = size * comps;
  const base = buf.byteOffset + viewStart + byteOffset;
  if (componentType === 5126 && stride === elem && base % 4 === 0 && LITTLE_ENDIAN) {
    out.set(new Float32Array(buf.buffer, base, count * comps));
    return;
  }
  const dv = new DataView(buf.buffer, buf.byteOffset + viewStart, span.viewLength);
  const get: (o: number) => number = {
    5120: (o: number) => dv.getInt8(o),
    5121: (o: number) => dv.getUint8(o),
    5122: (o: number) => dv.getInt16(o, true),
    5123: (o: number) => dv.getUint16(o, true),
    5125: (o: number) => dv.getUint32(o, true),
    5126: (o: number) => dv.getFloat32(o, true),
  }[componentType]!;
  const scale = !normalized ? 1 : { 5120: 1 / 127, 5121: 1 / 255, 5122: 1 / 32767, 5123: 1 / 65535 }[componentType] ?? 1;
  const signed = normalized && (componentType === 5120 || componentType === 5122);
  for (let i = 0; i < count; i++) {
    const o = byteOffset + i * stride;
    for (let c = 0; c < comps; c++) {
      const v = get(o + c * size) * scale;
      out[i * comps + c] = signed ? Math.max(v, -1) : v;
    }
  }
}

/**
 * Reads attribute `semantic` (accessor `index`) of a primitive: checks its type, component type,
 * `normalized` flag and count, and decodes it (bufferView, zeros without one, then sparse
 * substitution) into floats, element-major.
 *
 * @param where the primitive (`mesh m primitive p`), the start of error messages.
 * @param encodings the accepted component type / `normalized` pairs.
 * @param count the element count required (POSITION's), or null to accept the accessor's own.
 * @returns `count × components(type)` floats, element-major, integers decoded per glTF §3.11
 *   (module comment); values are not range-checked.
 * @throws SplatFormatError when the accessor does not exist, has another type or an encoding not
 *   in `encodings`, a bad or different count, neither a bufferView nor sparse values, a buffer view
 *   or buffer it does not fit in (or that is missing, truncated or not supplied), or bad sparse
 *   counts, index types or indices.
 */
export function readAttribute(
  ctx: Context, where: string, semantic: string, index: unknown, type: 'SCALAR' | 'VEC3' | 'VEC4',
  encodings: Encoding[], count: number | null,
): Float32Array {
  const label = `${where}: ${semantic}`;
  const acc = item(ctx, ctx.json.accessors, index, 'accessor', label);
  const comps = TYPE_COMPONENTS[type];
  const normalized = acc.normalized === true;
  const ok = acc.type === type && encodings.some((e) => e.componentType === acc.componentType && e.normalized === normalized);
  if (!ok) {
    const got = `${acc.type} of ${describeEncoding({ componentType: acc.componentType, normalized })}`;
    const want = encodings.map(describeEncoding);
    fail(ctx, `${label} (accessor ${index}) is ${got}; expected ${type} of ${want.slice(0, -1).join(', ')}${want.length > 1 ? ' or ' : ''}${want[want.length - 1]}`);
  }
  if (!(Number.isInteger(acc.count) && acc.count >= 0)) fail(ctx, `${label} (accessor ${index}): count ${JSON.stringify(acc.count)} is not a non-negative integer`);
  if (count !== null && acc.count !== count) {
    fail(ctx, `${label} (accessor ${index}) has ${acc.count} elements but POSITION has ${count}`);
  }
  const sparse = acc.sparse;
  if (acc.bufferView === undefined && !sparse) fail(ctx, `${label} (accessor ${index}) has neither a bufferView nor sparse values`);
  const span = acc.bufferView === undefined ? null
    : locateView(ctx, acc.bufferView, acc.byteOffset ?? 0, acc.count, comps, acc.componentType, true, `${label} (accessor ${index})`);
  // Without a bufferView the accessor is zeros plus the sparse values; refuse absurd counts before allocating.
  if (!span && acc.count > 1 << 27) fail(ctx, `${label} (accessor ${index}): count ${acc.count} without a bufferView is implausibly large`);
  const out = new Float32Array(acc.count * comps);
  if (span) decodeView(out, span, acc.count, comps, acc.componentType, normalized);
  if (sparse) {
    const sl = `${label} (accessor ${index}) sparse`;
    const n = sparse.count;
    if (!(Number.isInteger(n) && n >= 1 && n <= acc.count)) fail(ctx, `${sl}: count ${JSON.stringify(n)} is not in 1..${acc.count}`);
    const ict = sparse.indices?.componentType;
    if (ict !== 5121 && ict !== 5123 && ict !== 5125) fail(ctx, `${sl}: indices componentType ${JSON.stringify(ict)} is not unsigned byte, short or int`);
    const idx = new Float64Array(n);
    decodeView(idx, locateView(ctx, sparse.indices.bufferView, sparse.indices.byteOffset ?? 0, n, 1, ict, false, `${sl} indices`), n, 1, ict, false);
    const vals = new Float32Array(n * comps);
    const vspan = locateView(ctx, sparse.values?.bufferView, sparse.values?.byteOffset ?? 0, n, comps, acc.componentType, false, `${sl} values`);
    decodeView(vals, vspan, n, comps, acc.componentType, normalized);
    for (let j = 0; j < n; j++) {
      const k = idx[j];
      if (k >= acc.count) fail(ctx, `${sl}: index ${k} is past the accessor's ${acc.count} elements`);
      out.set(vals.subarray(j * comps, (j + 1) * comps), k * comps);
    }
  }
  return out;
}

/** Splits a GLB into its JSON text and BIN chunk (glTF 2.0 §4.4). */
function parseGlb(file: string, bytes: Uint8Array): { text: string; bin: Uint8Array | null } {
  const err = (problem: string): never => { throw new SplatFormatError(file, problem); };
  if (bytes.length < GLB_HEADER_BYTES) err(`truncated GLB: ${bytes.length} bytes, the header alone needs ${GLB_HEADER_BYTES}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = dv.getUint32(0, true);
  if (magic !== GLB_MAGIC) err(`bad GLB magic 0x${magic.toString(16).padStart(8, '0')} (expected 0x46546c67 "glTF")`);
  const version = dv.getUint32(4, true);
  if (version !== 2) err(`GLB container version ${version} is not supported (only glTF 2.0)`);
  const length = dv.getUint32(8, true);
  if (length > bytes.length) err(`truncated GLB: the header says ${length} bytes, the file has ${bytes.length}`);
  let pos = GLB_HEADER_BYTES;
  let text: string | null = null;
  let bin: Uint8Array | null = null;
  for (let chunk = 0; pos < length; chunk++) {
    if (pos + 8 > length) err(`truncated GLB: chunk ${chunk} header at byte ${pos} runs past the end (${length} bytes)`);
    const size = dv.getUint32(pos, true), type = dv.getUint32(pos + 4, true);
    const start = pos + 8, end = start + size;
    const name = type === CHUNK_JSON ? 'JSON' : type === CHUNK_BIN ? 'BIN' : `0x${type.toString(16)}`;
    if (end > length) err(`truncated GLB: chunk ${chunk} (${name}, ${size} bytes at byte ${start}) runs past the end (${length} bytes)`);
    if (chunk === 0 && type !== CHUNK_JSON) err(`the first GLB chunk is ${name}, not JSON`);
    if (type === CHUNK_JSON && text === null) text = new TextDecoder().decode(bytes.subarray(start, end));
    else if (type === CHUNK_BIN && bin === null) bin = bytes.subarray(start, end);
    pos = end;
  }
  if (text === null) err('GLB has no JSON chunk');
  return { text: text!, bin };
}

/**
 * Opens a glTF asset: a GLB (by its magic, or a `.glb` name) is split into its JSON and BIN
 * chunks, any other file is read whole as JSON text; then the JSON's top level is checked.
 *
 * @param fileName used in error messages (and to recognise a `.glb`).
 * @param bytes the whole `.glb` or `.gltf` file.
 * @param readResource returns the bytes of an external buffer file, kept in the context.
 * @returns the context: the JSON, the BIN chunk (null for a `.gltf` or a GLB without one), whether
 *   the file is a GLB, the reader, and an empty buffer cache.
 * @throws SplatFormatError on a truncated or malformed GLB (bad magic, a container version other
 *   than 2, chunks past the end, a first chunk other than JSON, no JSON chunk), invalid JSON, JSON
 *   that is not an object, a top-level `buffers`, `bufferViews`, `accessors`, `meshes`, `nodes`,
 *   `scenes` or `extensionsRequired` that is not an array, or no `asset.version` or one other than 2.x.
 */
export function openGltf(fileName: string, bytes: Uint8Array, readResource?: GltfResourceReader): Context {
  const isGlb = hasGlbMagic(bytes) || /\.glb$/i.test(fileName);
  const { text, bin } = isGlb ? parseGlb(fileName, bytes) : { text: new TextDecoder().decode(bytes), bin: null };
  let json: GLTF.IGLTF;
  try {
    json = JSON.parse(text) as GLTF.IGLTF;
  } catch (e) {
    throw new SplatFormatError(fileName, `not valid glTF JSON (${(e as Error).message})`);
  }
  const ctx: Context = { file: fileName, json, bin, isGlb, readResource, buffers: new Map() };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(ctx, 'not a glTF file (the JSON is not an object)');
  for (const key of ['buffers', 'bufferViews', 'accessors', 'meshes', 'nodes', 'scenes', 'extensionsRequired'] as const) {
    if (json[key] !== undefined && !Array.isArray(json[key])) fail(ctx, `"${key}" is not an array`);
  }
  const version = json.asset?.version;
  if (typeof version !== 'string') fail(ctx, 'not a glTF file (no asset.version)');
  if (!/^2\./.test(version)) fail(ctx, `glTF version ${version} is not supported (only 2.x)`);
  return ctx;
}
