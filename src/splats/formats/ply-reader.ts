/**
 * Shared PLY (Stanford polygon file) header parser and column reader for the splat loaders.
 *
 * Follows the PLY spec (Turk 1994; http://paulbourke.net/dataformats/ply/): an ASCII header
 * `ply` / `format …` / `element <name> <count>` / `property <type> <name>` /
 * `property list <countType> <itemType> <name>` / `comment …` / `obj_info …` / `end_header`, then the
 * element bodies in header order. Only `binary_little_endian 1.0` bodies are readable here.
 */
import { SplatFormatError } from '../splat-cloud';

/** PLY scalar types, by their sized names (the classic names are aliases). */
export type PlyScalarType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';

const TYPE_ALIASES: Record<string, PlyScalarType> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8',
  short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32',
  float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};

/** Byte size of each PLY scalar type. */
export const PLY_TYPE_SIZE: Record<PlyScalarType, number> = {
  int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8,
};

/** One property of a PLY element. `offset` is the byte offset inside a row (fixed-size rows only). */
export interface PlyProperty {
  name: string;
  type: PlyScalarType;
  /** For `property list`: the type of the per-row item count; `type` is then the item type. */
  listCountType?: PlyScalarType;
  offset: number;
}

/** One PLY element (`element <name> <count>`) with its properties in file order. */
export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
  /** Bytes per row, or -1 when the element has a list property (variable-size rows). */
  rowSize: number;
}

/** A parsed PLY header. `bodyOffset` is the byte offset of the first element's data. */
export interface PlyHeader {
  elements: PlyElement[];
  comments: string[];
  bodyOffset: number;
}

const MAX_HEADER_BYTES = 1 << 20;

function findEndHeader(bytes: Uint8Array): number {
  const pattern = 'end_header';
  const limit = Math.min(bytes.length, MAX_HEADER_BYTES);
  outer: for (let i = 0; i + pattern.length <= limit; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern.charCodeAt(j)) continue outer;
    if (i > 0 && bytes[i - 1] !== 0x0a) continue;
    let k = i + pattern.length;
    if (bytes[k] === 0x0d) k++;
    if (k < bytes.length && bytes[k] === 0x0a) return k + 1;
  }
  return -1;
}

/** True when the bytes start with the PLY magic line (`ply` + LF or CRLF). */
export function hasPlyMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x70 && bytes[1] === 0x6c && bytes[2] === 0x79 &&
    (bytes[3] === 0x0a || (bytes[3] === 0x0d && bytes[4] === 0x0a));
}

function scalarType(fileName: string, name: string | undefined, line: string): PlyScalarType {
  const t = name === undefined ? undefined : TYPE_ALIASES[name];
  if (!t) throw new SplatFormatError(fileName, `unknown PLY property type "${name}" in header line "${line}"`);
  return t;
}

/**
 * Parses a PLY header.
 *
 * @param fileName used in error messages only.
 * @param bytes the whole file.
 * @throws SplatFormatError on a missing `ply` magic, a header without `end_header` (truncated), a
 *   format other than `binary_little_endian 1.0` (message names the encoding, e.g. `ascii`),
 *   malformed lines or unknown property types.
 */
export function parsePlyHeader(fileName: string, bytes: Uint8Array): PlyHeader {
  if (!hasPlyMagic(bytes)) throw new SplatFormatError(fileName, 'missing PLY magic (file does not start with "ply")');
  const bodyOffset = findEndHeader(bytes);
  if (bodyOffset < 0) throw new SplatFormatError(fileName, 'truncated PLY header (no "end_header" line found)');
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, bodyOffset));
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  const elements: PlyElement[] = [];
  const comments: string[] = [];
  let sawFormat = false;
  for (const line of lines.slice(1)) {
    const words = line.split(/\s+/);
    switch (words[0]) {
      case 'format':
        if (words[1] !== 'binary_little_endian') {
          throw new SplatFormatError(fileName, `unsupported PLY encoding ${words[1] ?? '(none)'} (only binary_little_endian 1.0 is supported)`);
        }
        if (words[2] !== '1.0') throw new SplatFormatError(fileName, `unsupported PLY version ${words[2] ?? '(none)'} (only 1.0)`);
        sawFormat = true;
        break;
      case 'comment':
      case 'obj_info':
        comments.push(line.slice(words[0].length).trim());
        break;
      case 'element': {
        const count = Number(words[2]);
        if (words.length !== 3 || !Number.isSafeInteger(count) || count < 0) {
          throw new SplatFormatError(fileName, `malformed PLY header line "${line}"`);
        }
        elements.push({ name: words[1], count, properties: [], rowSize: 0 });
        break;
      }
      case 'property': {
        const el = elements[elements.length - 1];
        if (!el) throw new SplatFormatError(fileName, `PLY property before any element: "${line}"`);
        if (words[1] === 'list') {
          if (words.length !== 5) throw new SplatFormatError(fileName, `malformed PLY header line "${line}"`);
          const listCountType = scalarType(fileName, words[2], line);
          el.properties.push({ name: words[4], type: scalarType(fileName, words[3], line), listCountType, offset: -1 });
          el.rowSize = -1;
        } else {
          if (words.length !== 3) throw new SplatFormatError(fileName, `malformed PLY header line "${line}"`);
          const type = scalarType(fileName, words[1], line);
          const offset = el.rowSize;
          el.properties.push({ name: words[2], type, offset });
          if (el.rowSize >= 0) el.rowSize += PLY_TYPE_SIZE[type];
        }
        break;
      }
      case 'end_header':
        break;
      default:
        throw new SplatFormatError(fileName, `unexpected PLY header line "${line}"`);
    }
  }
  if (!sawFormat) throw new SplatFormatError(fileName, 'PLY header has no "format" line');
  return { elements, comments, bodyOffset };
}

/** Reads one scalar of `type` at `offset` (little-endian). */
export function readScalar(view: DataView, offset: number, type: PlyScalarType): number {
  switch (type) {
    case 'int8': return view.getInt8(offset);
    case 'uint8': return view.getUint8(offset);
    case 'int16': return view.getInt16(offset, true);
    case 'uint16': return view.getUint16(offset, true);
    case 'int32': return view.getInt32(offset, true);
    case 'uint32': return view.getUint32(offset, true);
    case 'float32': return view.getFloat32(offset, true);
    case 'float64': return view.getFloat64(offset, true);
  }
}

/**
 * Byte offsets of the bodies of the elements up to and including `upTo` (index into
 * `header.elements`). Fixed-size elements are skipped by size; elements with list properties are
 * walked row by row.
 *
 * @throws SplatFormatError when the body ends inside an element that has to be walked.
 */
export function elementOffsets(fileName: string, bytes: Uint8Array, header: PlyHeader, upTo: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offsets: number[] = [];
  let pos = header.bodyOffset;
  for (let e = 0; e <= upTo; e++) {
    const el = header.elements[e];
    offsets.push(pos);
    if (e === upTo) break;
    if (el.rowSize >= 0) { pos += el.count * el.rowSize; continue; }
    for (let r = 0; r < el.count; r++) {
      for (const p of el.properties) {
        if (p.listCountType) {
          const cs = PLY_TYPE_SIZE[p.listCountType];
          if (pos + cs > bytes.length) throw truncated(fileName, el.name, pos + cs, bytes.length);
          pos += cs + readScalar(view, pos, p.listCountType) * PLY_TYPE_SIZE[p.type];
        } else {
          pos += PLY_TYPE_SIZE[p.type];
        }
      }
    }
  }
  return offsets;
}

function truncated(fileName: string, element: string, expected: number, present: number): SplatFormatError {
  return new SplatFormatError(fileName,
    `truncated PLY body: element "${element}" needs ${expected} bytes in total but the file has ${present}`);
}

/**
 * Locates a fixed-size element's body and checks the file holds all of it.
 *
 * @returns the element, its body's byte offset and a DataView over the whole file.
 * @throws SplatFormatError when the element is missing, has list properties, or its body is
 *   truncated (the message gives the bytes expected and present).
 */
export function locateElement(fileName: string, bytes: Uint8Array, header: PlyHeader, name: string):
  { element: PlyElement; offset: number; view: DataView } {
  const index = header.elements.findIndex((e) => e.name === name);
  if (index < 0) throw new SplatFormatError(fileName, `PLY file has no "${name}" element`);
  const element = header.elements[index];
  const list = element.properties.find((p) => p.listCountType);
  if (list) {
    throw new SplatFormatError(fileName, `list property "${list.name}" in element "${name}" is not supported`);
  }
  const offset = elementOffsets(fileName, bytes, header, index)[index];
  const end = offset + element.count * element.rowSize;
  if (end > bytes.length) throw truncated(fileName, name, end, bytes.length);
  return { element, offset, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/**
 * Reads one property of every row of a located fixed-size element into a Float64Array
 * (exact for every PLY scalar type).
 *
 * @throws SplatFormatError when the property is missing (named in the message).
 */
export function readColumn(fileName: string, loc: { element: PlyElement; offset: number; view: DataView },
  property: string): Float64Array {
  const { element, offset, view } = loc;
  const p = element.properties.find((q) => q.name === property);
  if (!p) throw new SplatFormatError(fileName, `missing required property "${property}" in element "${element.name}"`);
  const out = new Float64Array(element.count);
  const stride = element.rowSize;
  let pos = offset + p.offset;
  if (p.type === 'float32') {
    for (let i = 0; i < out.length; i++, pos += stride) out[i] = view.getFloat32(pos, true);
  } else {
    for (let i = 0; i < out.length; i++, pos += stride) out[i] = readScalar(view, pos, p.type);
  }
  return out;
}

/**
 * Throws when any value of a column is NaN or ±Infinity.
 *
 * @param what describes the row kind for the message, e.g. "splat" or "chunk".
 * @throws SplatFormatError naming the property, the value and the row index.
 */
export function assertFinite(fileName: string, property: string, column: Float64Array, what = 'splat'): void {
  for (let i = 0; i < column.length; i++) {
    if (!Number.isFinite(column[i])) {
      throw new SplatFormatError(fileName, `non-finite value ${column[i]} in property "${property}" of ${what} ${i}`);
    }
  }
}
