/**
 * Loader for glTF 2.0 assets holding Gaussian splats in the Khronos `KHR_gaussian_splatting`
 * extension: a binary `.glb`, or a `.gltf` JSON file whose buffers are embedded as `data:` URIs
 * (external buffer files through an optional reader).
 *
 * Spec: KhronosGroup/glTF `extensions/2.0/Khronos/KHR_gaussian_splatting/README.md` (release
 * candidate, commit 63770cc of April 2026) and `schema/mesh.primitive.KHR_gaussian_splatting.schema.json`;
 * glTF 2.0 §3.4 (coordinate system), §3.5.3 (node transforms), §3.6.2 (accessors, sparse accessors),
 * §3.11 (normalised integers), §4.4 (GLB); KHR_mesh_quantization for integer positions.
 *
 * A mesh primitive whose `extensions` hold `KHR_gaussian_splatting` is a splat field, one splat per
 * vertex, with these attributes (accessor type; component types the spec allows):
 * - `POSITION` (VEC3; float, or with KHR_mesh_quantization (normalised) byte/short, signed or
 *   unsigned): the centre, metres, in the primitive's local space.
 * - `KHR_gaussian_splatting:ROTATION` (VEC4; float, normalised byte, normalised short): unit
 *   quaternion in the glTF order (x, y, z, w); renormalised here (quantised values are not unit).
 * - `KHR_gaussian_splatting:SCALE` (VEC3; float, unsigned byte/short, normalised or not): the
 *   standard deviations along the local axes, *linear* (not the log-scale of INRIA PLY), ≥ 0.
 * - `KHR_gaussian_splatting:OPACITY` (SCALAR; float, normalised unsigned byte/short): opacity
 *   *after* the sigmoid, in [0, 1].
 * - `KHR_gaussian_splatting:SH_DEGREE_0_COEF_0` (VEC3 float): the SH dc coefficient per channel
 *   (INRIA `f_dc`; colour = 0.2820948 · dc + 0.5), not a linear RGB colour.
 * - `KHR_gaussian_splatting:SH_DEGREE_l_COEF_n` (VEC3 float; l = 1..3, n = 0..2l): the band-l
 *   coefficient of order m = n − l per channel. The spec's basis (with the Condon–Shortley phase)
 *   and order are those of 3DGS, so it is `shRest` coefficient k = l² − 1 + n. A degree must be
 *   complete, and every lower degree present.
 * `COLOR_0` is only the point-cloud fallback (sRGB-decoded, clamped) and is not read, except for
 * the 2024 drafts of the extension (early CesiumJS tools), which are read when the
 * `KHR_gaussian_splatting:` names are absent: `_ROTATION` (VEC4 x, y, z, w), `_SCALE` (VEC3,
 * linear) and `COLOR_0` (VEC4, RGB = 0.2820948 · dc + 0.5, A = opacity), no higher SH bands.
 * Integer components decode as glTF §3.11 says: normalised byte max(c / 127, −1), unsigned byte
 * c / 255, short max(c / 32767, −1), unsigned short c / 65535; non-normalised ones as the integer.
 *
 * Placement: each splat primitive is instanced by every node of the scene whose `mesh` it is (the
 * `scene`, else scene 0; a file without scenes uses its root nodes, one without nodes its meshes
 * as they are), with the node's global transform M (parents × matrix or T·R·S), as the spec's
 * ellipse kernel says: centre M·p, covariance A·(R S)(R S)ᵀ·Aᵀ with A the upper-left 3×3 of M,
 * and the SH bands rotated by the rotation part of A. For A = s·R this is q_R ⊗ q and scales × s;
 * a non-uniform scale re-diagonalises each covariance (Jacobi). Transforms the spec leaves
 * undefined are refused: mirrors (det < 0), zero or non-finite scales, and shear.
 *
 * Frame: glTF is right-handed with +Y up and +Z the asset's front, metres (§3.4), i.e. RUB axes.
 * Like `loadSpz`, this loader then converts to the RDF axes of INRIA PLY / COLMAP captures, so a
 * glTF written from a PLY (rotated into glTF axes, as the spec's note asks of converters) loads as
 * that PLY's cloud, and the renderer's default y-down camera shows a Y-up asset upright: y and z
 * of centres negate, the quaternion (w, x, y, z) becomes (w, x, −y, −z), and each SH coefficient
 * is multiplied by `RUB_TO_RDF_SH_SIGN`.
 *
 * Not read: compression extensions (`KHR_gaussian_splatting_compression_*`, EXT_meshopt_compression,
 * KHR_draco_mesh_compression; refused with their name when required or when the attributes are
 * missing), `colorSpace` (both defined values are display-referred; `lin_rec709_display` colours
 * are used as they are), `kernel`, `projection` and `sortingMethod` (the spec falls back to the
 * ellipse kernel), materials, and the primitive `mode` (the spec requires POINTS; not checked).
 */
import type { GLTF } from '@gltf-transform/core';
import { rotateShRest } from '../sh-rotation';
import { allocateSplatCloud, SH_C0, SplatFormatError, shRestCount, type SplatCloud } from '../splat-cloud';
import { RUB_TO_RDF_SH_SIGN, storeUnitQuat } from './common';
import { concatSplatClouds } from './sog';

/** The extension's name, also the prefix of its attribute semantics. */
export const KHR_GAUSSIAN_SPLATTING = 'KHR_gaussian_splatting';
/** "glTF" read as a little-endian u32: the first 4 bytes of a GLB. */
export const GLB_MAGIC = 0x46546c67;
const GLB_HEADER_BYTES = 12;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

const ROTATION = `${KHR_GAUSSIAN_SPLATTING}:ROTATION`;
const SCALE = `${KHR_GAUSSIAN_SPLATTING}:SCALE`;
const OPACITY = `${KHR_GAUSSIAN_SPLATTING}:OPACITY`;
const shSemantic = (l: number, n: number): string => `${KHR_GAUSSIAN_SPLATTING}:SH_DEGREE_${l}_COEF_${n}`;

/** Required extensions that change how geometry is stored, which this loader does not decode. */
const UNSUPPORTED_REQUIRED = /compression|meshopt|draco|^EXT_mesh_gpu_instancing$|^KHR_gaussian_splatting_/i;

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

// ---- accessors ----------------------------------------------------------------------------------

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const COMPONENT_NAME: Record<number, string> = {
  5120: 'byte', 5121: 'unsigned byte', 5122: 'short', 5123: 'unsigned short', 5125: 'unsigned int', 5126: 'float',
};
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** One accepted storage of an attribute: component type and the accessor's `normalized` flag. */
interface Encoding { componentType: number; normalized: boolean }
const enc = (componentType: number, normalized = false): Encoding => ({ componentType, normalized });
const FLOAT = enc(5126);
const POSITION_ENCODINGS = [FLOAT, ...[5120, 5121, 5122, 5123].flatMap((c) => [enc(c), enc(c, true)])];
const ROTATION_ENCODINGS = [FLOAT, enc(5120, true), enc(5122, true)];
const SCALE_ENCODINGS = [FLOAT, enc(5121), enc(5121, true), enc(5123), enc(5123, true)];
const OPACITY_ENCODINGS = [FLOAT, enc(5121, true), enc(5123, true)];
const COLOR_ENCODINGS = [FLOAT, enc(5121, true), enc(5123, true)];

const describeEncoding = (e: Encoding): string =>
  e.componentType === 5126 && !e.normalized ? 'float' : `${e.normalized ? 'normalised ' : ''}${COMPONENT_NAME[e.componentType] ?? `component type ${e.componentType}`}`;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Parsed file: the glTF JSON, the GLB's BIN chunk, decoded buffers (cached), and the resource reader. */
interface Context {
  file: string;
  json: GLTF.IGLTF;
  bin: Uint8Array | null;
  isGlb: boolean;
  readResource?: GltfResourceReader;
  buffers: Map<number, Uint8Array>;
}

function fail(ctx: { file: string }, problem: string): never {
  throw new SplatFormatError(ctx.file, problem);
}

/** `list[index]`, or a clear error when the index is not an integer or out of range. */
function item<T>(ctx: Context, list: T[] | undefined, index: unknown, what: string, where: string): T {
  const n = list?.length ?? 0;
  if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= n) {
    fail(ctx, `${where}: ${what} ${JSON.stringify(index)} does not exist (the file has ${n} ${what}s)`);
  }
  const v = list![index as number];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(ctx, `${where}: ${what} ${index} is not a JSON object`);
  return v;
}

/** An optional JSON array (`[]` when absent), or a clear error when it is something else. */
function list<T>(ctx: Context, v: T[] | undefined, where: string): T[] {
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
 */
function readAttribute(
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

// ---- one primitive ------------------------------------------------------------------------------

/** Highest complete SH degree among the primitive's attributes; throws on gaps and partial degrees. */
function shDegreeOf(ctx: Context, where: string, attrs: Record<string, number>): number {
  let degree = 0;
  for (let l = 1; l <= 3; l++) {
    const present = Array.from({ length: 2 * l + 1 }, (_, n) => n).filter((n) => attrs[shSemantic(l, n)] !== undefined);
    if (present.length === 0) continue;
    if (present.length < 2 * l + 1) {
      fail(ctx, `${where}: SH degree ${l} is partially defined (has COEF_${present.join(', COEF_')} of COEF_0..COEF_${2 * l}; a degree must be complete)`);
    }
    if (degree !== l - 1) fail(ctx, `${where}: SH degree ${l} is present without degree ${l - 1} (every lower degree must be defined)`);
    degree = l;
  }
  return degree;
}

/** The splats of one primitive in its local glTF frame (rotations already (w, x, y, z)). */
function loadPrimitive(ctx: Context, where: string, prim: GLTF.IMeshPrimitive): SplatCloud {
  const attrs = (prim.attributes ?? {}) as Record<string, number>;
  const legacy = attrs[ROTATION] === undefined && attrs[SCALE] === undefined && (attrs._ROTATION !== undefined || attrs._SCALE !== undefined);
  const nested = Object.keys((prim.extensions?.[KHR_GAUSSIAN_SPLATTING] as { extensions?: object } | undefined)?.extensions ?? {});
  const need = (semantic: string): number => {
    if (attrs[semantic] === undefined) {
      const has = Object.keys(attrs).join(', ') || 'none';
      const hint = nested.length ? `; the splats are stored by ${nested.join(', ')}, which Curbside does not read` : '';
      fail(ctx, `${where}: missing attribute ${semantic} (the primitive has ${has})${hint}`);
    }
    return attrs[semantic];
  };
  const positions = readAttribute(ctx, where, 'POSITION', need('POSITION'), 'VEC3', POSITION_ENCODINGS, null);
  const n = positions.length / 3;
  const read = (semantic: string, type: 'SCALAR' | 'VEC3' | 'VEC4', encodings: Encoding[]) =>
    readAttribute(ctx, where, semantic, need(semantic), type, encodings, n);
  const rotSemantic = legacy ? '_ROTATION' : ROTATION, scaleSemantic = legacy ? '_SCALE' : SCALE;
  const rotations = read(rotSemantic, 'VEC4', ROTATION_ENCODINGS);
  const scales = read(scaleSemantic, 'VEC3', legacy ? [FLOAT] : SCALE_ENCODINGS);
  const useColor = legacy && (attrs[OPACITY] === undefined || attrs[shSemantic(0, 0)] === undefined);
  const color = useColor ? read('COLOR_0', 'VEC4', COLOR_ENCODINGS) : null;
  const opacities = color && attrs[OPACITY] === undefined ? null : read(OPACITY, 'SCALAR', OPACITY_ENCODINGS);
  const dc = color && attrs[shSemantic(0, 0)] === undefined ? null : read(shSemantic(0, 0), 'VEC3', [FLOAT]);
  const degree = legacy ? 0 : shDegreeOf(ctx, where, attrs);

  const cloud = allocateSplatCloud(n, degree);
  const bad = (semantic: string, i: number, v: number, why: string): never => fail(ctx, `${where}: ${semantic} of splat ${i} is ${v}; ${why}`);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const p = positions[3 * i + a];
      if (!Number.isFinite(p)) bad('POSITION', i, p, 'positions must be finite');
      cloud.positions[3 * i + a] = p;
      const s = scales[3 * i + a];
      if (!(s >= 0 && s < Infinity)) bad(scaleSemantic, i, s, 'scales are linear standard deviations, finite and not negative (is this a log-scale?)');
      cloud.scales[3 * i + a] = s;
      const d = dc ? dc[3 * i + a] : (color![4 * i + a] - 0.5) / SH_C0;
      if (!Number.isFinite(d)) bad(dc ? shSemantic(0, 0) : 'COLOR_0', i, d, 'SH coefficients must be finite');
      cloud.shDc[3 * i + a] = d;
    }
    let o = opacities ? opacities[i] : color![4 * i + 3];
    if (o < 0 && o > -1e-6) o = 0;
    if (o > 1 && o < 1 + 1e-6) o = 1;
    if (!(o >= 0 && o <= 1)) bad(opacities ? OPACITY : 'COLOR_0 alpha', i, o, 'opacity must be in [0, 1] (the extension stores it after the sigmoid)');
    cloud.opacities[i] = o;
    const [x, y, z, w] = rotations.subarray(4 * i, 4 * i + 4);
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z) && Number.isFinite(w))) bad(rotSemantic, i, NaN, 'quaternions must be finite');
    storeUnitQuat(cloud.rotations, i, w, x, y, z);
  }
  if (degree > 0) {
    const K = shRestCount(degree);
    for (let l = 1; l <= degree; l++) {
      for (let m = 0; m <= 2 * l; m++) {
        const semantic = shSemantic(l, m);
        const k = l * l - 1 + m;
        const coef = read(semantic, 'VEC3', [FLOAT]);
        for (let i = 0; i < n; i++) {
          for (let c = 0; c < 3; c++) {
            const v = coef[3 * i + c];
            if (!Number.isFinite(v)) bad(semantic, i, v, 'SH coefficients must be finite');
            cloud.shRest[(i * K + k) * 3 + c] = v;
          }
        }
      }
    }
  }
  return cloud;
}

// ---- nodes and transforms -----------------------------------------------------------------------

/** Column-major 4×4 product a · b. */
function mul4(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/** Row-major 3×3 rotation of the unit quaternion (w, x, y, z). */
function quatToMatrix(w: number, x: number, y: number, z: number): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** Unit quaternion (w, x, y, z) of a row-major 3×3 rotation (Shepperd's method). */
function matrixToQuat(m: ArrayLike<number>): [number, number, number, number] {
  const tr = m[0] + m[4] + m[8];
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    return [s / 4, (m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s];
  }
  if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    return [(m[7] - m[5]) / s, s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s];
  }
  if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    return [(m[2] - m[6]) / s, (m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s];
  }
  const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
  return [(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4];
}

/**
 * Eigen-decomposition of a symmetric row-major 3×3 matrix by cyclic Jacobi rotations: `a` is
 * overwritten (its diagonal holds the eigenvalues) and `v` receives the eigenvectors as columns.
 */
function symmetricEigen3(a: Float64Array, v: Float64Array): void {
  v.fill(0);
  v[0] = v[4] = v[8] = 1;
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    const diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    if (off <= 1e-30 * diag || off === 0) return;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p], akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k], aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p], vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
}

function nodeLabel(node: GLTF.INode, i: number): string {
  return node.name ? `node ${i} ("${node.name}")` : `node ${i}`;
}

/** A node's local transform (column-major 4×4) from `matrix` or translation · rotation · scale. */
function localMatrix(ctx: Context, node: GLTF.INode, label: string): Float64Array {
  const nums = (v: unknown, len: number, what: string): number[] => {
    if (!Array.isArray(v) || v.length !== len || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      fail(ctx, `${label}: ${what} must be ${len} finite numbers, got ${JSON.stringify(v)}`);
    }
    return v as number[];
  };
  if (node.matrix !== undefined) return Float64Array.from(nums(node.matrix, 16, 'matrix'));
  const [tx, ty, tz] = node.translation !== undefined ? nums(node.translation, 3, 'translation') : [0, 0, 0];
  let [qx, qy, qz, qw] = node.rotation !== undefined ? nums(node.rotation, 4, 'rotation') : [0, 0, 0, 1];
  const qn = Math.hypot(qx, qy, qz, qw);
  if (!(qn > 0)) fail(ctx, `${label}: rotation is the zero quaternion`);
  [qx, qy, qz, qw] = [qx / qn, qy / qn, qz / qn, qw / qn];
  const [sx, sy, sz] = node.scale !== undefined ? nums(node.scale, 3, 'scale') : [1, 1, 1];
  const R = quatToMatrix(qw, qx, qy, qz);
  const s = [sx, sy, sz];
  const m = new Float64Array(16);
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) m[c * 4 + r] = R[r * 3 + c] * s[c];
  m[12] = tx; m[13] = ty; m[14] = tz; m[15] = 1;
  return m;
}

/** A mesh to load and where: the global transform of the node instancing it (null: identity). */
interface MeshInstance { mesh: number; matrix: Float64Array | null; label: string }

/** The meshes the file's scene shows, each with its node's global transform. */
function meshInstances(ctx: Context): MeshInstance[] {
  const { json } = ctx;
  const nodes = json.nodes ?? [];
  let roots: unknown[];
  if (json.scenes && json.scenes.length > 0) {
    const si = json.scene ?? 0;
    roots = list(ctx, item(ctx, json.scenes, si, 'scene', 'scene').nodes, `scene ${si}: nodes`);
  } else if (nodes.length > 0) {
    const children = new Set(nodes.flatMap((n, i) => list(ctx, item(ctx, nodes, i, 'node', 'nodes').children, `node ${i}: children`)));
    roots = nodes.map((_, i) => i).filter((i) => !children.has(i));
  } else {
    return (json.meshes ?? []).map((_, m) => ({ mesh: m, matrix: null, label: `mesh ${m}` }));
  }
  const out: MeshInstance[] = [];
  const visit = (index: unknown, parent: Float64Array | null, path: number[]): void => {
    const node = item(ctx, json.nodes, index, 'node', path.length ? nodeLabel(nodes[path[path.length - 1]], path[path.length - 1]) : 'scene');
    const i = index as number;
    if (path.includes(i)) fail(ctx, `${nodeLabel(node, i)} is its own ancestor (node cycle ${[...path, i].join(' → ')})`);
    const label = nodeLabel(node, i);
    const local = localMatrix(ctx, node, label);
    const global = parent ? mul4(parent, local) : local;
    if (node.mesh !== undefined) out.push({ mesh: node.mesh, matrix: global, label });
    for (const c of list(ctx, node.children, `${label}: children`)) visit(c, global, [...path, i]);
  };
  for (const r of roots) visit(r, null, []);
  return out;
}

/**
 * Applies a node's global transform (column-major 4×4) to a cloud in place, as the spec's ellipse
 * kernel defines it (module comment).
 */
function applyNodeTransform(ctx: Context, cloud: SplatCloud, m: Float64Array, label: string): void {
  const A = [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]]; // row-major upper-left 3×3
  const t = [m[12], m[13], m[14]];
  const identity = A.every((v, k) => v === (k % 4 === 0 ? 1 : 0)) && t.every((v) => v === 0);
  if (identity) return;
  if (!(m[3] === 0 && m[7] === 0 && m[11] === 0 && m[15] === 1)) fail(ctx, `${label}: global transform's last row is not (0, 0, 0, 1)`);
  const L = [0, 1, 2].map((c) => Math.hypot(A[c], A[3 + c], A[6 + c]));
  if (!L.every((l) => l > 0 && Number.isFinite(l))) {
    fail(ctx, `${label}: global transform has a zero or non-finite scale (column lengths ${L.join(', ')})`);
  }
  const R = A.map((v, k) => v / L[k % 3]);
  const det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (det < 0) fail(ctx, `${label}: global transform mirrors (negative scale, determinant < 0), which KHR_gaussian_splatting leaves undefined`);
  let skew = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
      skew = Math.max(skew, Math.abs(d - (i === j ? 1 : 0)));
    }
  }
  if (skew > 1e-4) {
    fail(ctx, `${label}: global transform is not translation · rotation · scale (it shears: a parent's non-uniform scale under a rotated child), which KHR_gaussian_splatting leaves undefined`);
  }
  const n = cloud.count;
  const P = cloud.positions;
  for (let i = 0; i < n; i++) {
    const x = P[3 * i], y = P[3 * i + 1], z = P[3 * i + 2];
    for (let r = 0; r < 3; r++) P[3 * i + r] = A[3 * r] * x + A[3 * r + 1] * y + A[3 * r + 2] * z + t[r];
  }
  const Q = cloud.rotations, S = cloud.scales;
  const uniform = Math.max(...L) / Math.min(...L) - 1 < 1e-6;
  if (uniform) {
    const s = (L[0] + L[1] + L[2]) / 3;
    const [qw, qx, qy, qz] = matrixToQuat(R);
    for (let i = 0; i < n; i++) {
      const bw = Q[4 * i], bx = Q[4 * i + 1], by = Q[4 * i + 2], bz = Q[4 * i + 3];
      storeUnitQuat(Q, i,
        qw * bw - qx * bx - qy * by - qz * bz,
        qw * bx + qx * bw + qy * bz - qz * by,
        qw * by - qx * bz + qy * bw + qz * bx,
        qw * bz + qx * by - qy * bx + qz * bw);
      for (let a = 0; a < 3; a++) S[3 * i + a] *= s;
    }
  } else {
    const M = new Float64Array(9), cov = new Float64Array(9), V = new Float64Array(9);
    for (let i = 0; i < n; i++) {
      const Rq = quatToMatrix(Q[4 * i], Q[4 * i + 1], Q[4 * i + 2], Q[4 * i + 3]);
      // M = A · Rq · diag(scale); covariance = M Mᵀ.
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) M[3 * r + c] = (A[3 * r] * Rq[c] + A[3 * r + 1] * Rq[3 + c] + A[3 * r + 2] * Rq[6 + c]) * S[3 * i + c];
      }
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) cov[3 * r + c] = M[3 * r] * M[3 * c] + M[3 * r + 1] * M[3 * c + 1] + M[3 * r + 2] * M[3 * c + 2];
      }
      symmetricEigen3(cov, V);
      const vdet = V[0] * (V[4] * V[8] - V[5] * V[7]) - V[1] * (V[3] * V[8] - V[5] * V[6]) + V[2] * (V[3] * V[7] - V[4] * V[6]);
      if (vdet < 0) { V[2] = -V[2]; V[5] = -V[5]; V[8] = -V[8]; }
      const [w, x, y, z] = matrixToQuat(V);
      storeUnitQuat(Q, i, w, x, y, z);
      for (let a = 0; a < 3; a++) S[3 * i + a] = Math.sqrt(Math.max(0, cov[4 * a]));
    }
  }
  if (!R.every((v, k) => Math.abs(v - (k % 4 === 0 ? 1 : 0)) < 1e-12)) rotateShRest(cloud.shRest, n, cloud.shDegree, R);
}

/** glTF's RUB axes → the PLY/COLMAP RDF axes, in place: (x, y, z) → (x, −y, −z). */
function rubToRdf(cloud: SplatCloud): void {
  const K = shRestCount(cloud.shDegree);
  for (let i = 0; i < cloud.count; i++) {
    cloud.positions[3 * i + 1] = -cloud.positions[3 * i + 1];
    cloud.positions[3 * i + 2] = -cloud.positions[3 * i + 2];
    cloud.rotations[4 * i + 2] = -cloud.rotations[4 * i + 2];
    cloud.rotations[4 * i + 3] = -cloud.rotations[4 * i + 3];
    for (let k = 0; k < K; k++) {
      if (RUB_TO_RDF_SH_SIGN[k] < 0) for (let c = 0; c < 3; c++) cloud.shRest[(i * K + k) * 3 + c] *= -1;
    }
  }
}

// ---- container ----------------------------------------------------------------------------------

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
 * Loads the Gaussian splats of a glTF 2.0 asset with the `KHR_gaussian_splatting` extension: a
 * `.glb`, or `.gltf` JSON with embedded (`data:`) buffers or external ones given by `readResource`.
 * Every splat primitive the scene instances is loaded with its node's global transform and the
 * clouds are concatenated (at the highest SH degree among them; missing bands are zero).
 *
 * @param fileName used in error messages only.
 * @param bytes the whole `.glb` or `.gltf` file.
 * @param readResource returns the bytes of an external buffer file (`uri` percent-decoded), or
 *   undefined; without it external buffers are an error.
 * @returns an activated cloud in the PLY/COLMAP RDF frame (the glTF scene's RUB axes after the node
 *   transforms, with y and z negated; see the module comment), metres: scales as stored (linear),
 *   opacity as stored, rotations (w, x, y, z) renormalised, dc and higher SH bands as stored
 *   (bands rotated with the node and the axis change), coefficient-major/channel-minor.
 * @throws SplatFormatError (`file: problem`, one line) on a truncated or malformed GLB, invalid JSON,
 *   a glTF version other than 2.x, a required extension that changes the geometry storage
 *   (compression, meshopt, draco, instancing), no primitive with the extension, a missing
 *   attribute, an attribute of the wrong accessor type / component type / normalisation or with
 *   a count other than POSITION's, a partial or gapped SH degree, an out-of-range index, a buffer
 *   view past its buffer, a buffer shorter than its byteLength, an external buffer not supplied,
 *   a non-finite value, a negative scale, an opacity outside [0, 1], a node cycle, a mirroring,
 *   degenerate or shearing node transform, or when the primitives hold no splats; JSON of an
 *   unexpected shape is reported as `malformed glTF (…)`.
 */
export function loadGltfSplats(fileName: string, bytes: Uint8Array, readResource?: GltfResourceReader): SplatCloud {
  try {
    return loadGltf(fileName, bytes, readResource);
  } catch (e) {
    if (e instanceof SplatFormatError) throw e;
    // JSON of the wrong shape (e.g. `"meshes": 5`) that the checks above did not anticipate.
    throw new SplatFormatError(fileName, `malformed glTF (${(e as Error).message})`);
  }
}

function loadGltf(fileName: string, bytes: Uint8Array, readResource?: GltfResourceReader): SplatCloud {
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
  const required = (json.extensionsRequired ?? []).filter((e) => UNSUPPORTED_REQUIRED.test(e));
  if (required.length) fail(ctx, `requires the extension${required.length > 1 ? 's' : ''} ${required.join(', ')}, which Curbside does not read (decompress the file first, e.g. with gltf-transform)`);

  const meshes = json.meshes ?? [];
  const primitives = meshes.map((_, m) => {
    const ps = list(ctx, item(ctx, meshes, m, 'mesh', 'meshes').primitives, `mesh ${m}: primitives`);
    ps.forEach((_, p) => item(ctx, ps, p, 'primitive', `mesh ${m}`));
    return ps;
  });
  const isSplat = (p: GLTF.IMeshPrimitive) => p.extensions?.[KHR_GAUSSIAN_SPLATTING] !== undefined;
  if (!primitives.some((ps) => ps.some(isSplat))) {
    const prims = primitives.reduce((s, ps) => s + ps.length, 0);
    const looks = primitives.some((ps) => ps.some((p) => Object.keys(p.attributes ?? {}).some((a) => a.startsWith(`${KHR_GAUSSIAN_SPLATTING}:`))));
    const hint = looks ? '; a primitive has KHR_gaussian_splatting:* attributes but no extensions.KHR_gaussian_splatting object' : '';
    fail(ctx, `no mesh primitive has the KHR_gaussian_splatting extension (${meshes.length} meshes, ${prims} primitives)${hint}`);
  }
  const clouds: SplatCloud[] = [];
  for (const inst of meshInstances(ctx)) {
    item(ctx, json.meshes, inst.mesh, 'mesh', inst.label);
    primitives[inst.mesh].forEach((prim, p) => {
      if (!isSplat(prim)) return;
      const where = `mesh ${inst.mesh} primitive ${p}`;
      const cloud = loadPrimitive(ctx, where, prim);
      if (inst.matrix) applyNodeTransform(ctx, cloud, inst.matrix, inst.label);
      clouds.push(cloud);
    });
  }
  if (clouds.length === 0) fail(ctx, `no node of the scene instances a mesh with KHR_gaussian_splatting primitives`);
  const cloud = concatSplatClouds(clouds);
  if (cloud.count === 0) fail(ctx, 'the KHR_gaussian_splatting primitives hold no splats (POSITION count 0)');
  rubToRdf(cloud);
  return cloud;
}
