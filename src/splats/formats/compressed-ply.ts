/**
 * Loader for PlayCanvas / SuperSplat "compressed PLY" splat files.
 *
 * Layout as written by playcanvas/splat-transform `writers/write-compressed-ply.ts` +
 * `compressed-chunk.ts` and read by playcanvas/engine `scene/gsplat/gsplat-compressed-data.js` and
 * splat-transform `readers/decompress-ply.ts` (the bit layout below was checked against all three):
 *
 * - `element chunk C` (C = ceil(N / 256)), float `min_x min_y min_z max_x max_y max_z
 *   min_scale_x min_scale_y min_scale_z max_scale_x max_scale_y max_scale_z` and optionally
 *   `min_r min_g min_b max_r max_g max_b`. Splat i belongs to chunk floor(i / 256).
 * - `element vertex N`, uint `packed_position packed_rotation packed_scale packed_color`:
 *   - position / scale: 11/10/11 bits, x = bits 21..31, y = bits 11..20, z = bits 0..10, each
 *     unorm (v / (2^bits − 1)) lerped from the chunk min to max; scale bounds are LOG scales.
 *   - rotation: bits 30..31 = index (0..3 into rot_0..rot_3 = w, x, y, z) of the largest-magnitude
 *     component, which was made positive; the other three in increasing index order at bits 20..29,
 *     10..19, 0..9, each (v / 1023 − 0.5) · √2, i.e. in [−√½, √½]; largest = sqrt(1 − Σ others²).
 *   - colour: 8/8/8/8, r = bits 24..31, g = 16..23, b = 8..15, a = 0..7, unorm; rgb is the base
 *     colour SH_C0·dc + 0.5, lerped over the chunk colour range when present (else used as is);
 *     a is the activated opacity.
 * - optional `element sh N` with uchar `f_rest_0..K-1` (K = 9, 24, 45), channel-major like INRIA;
 *   the writer stores trunc((v / 8 + 0.5) · 256) clamped to 0..255, so the reader takes bucket
 *   centres: v = ((b + 0.5) / 256 − 0.5) · 8, with 0 → −4 and 255 → +4 (as splat-transform does).
 */
import { allocateSplatCloud, SH_C0, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { degreeForRestCount, storeUnitQuat } from './common';
import {
  assertFinite, locateElement, parsePlyHeader, readColumn, type PlyElement, type PlyHeader,
} from './ply-reader';

/** Splats per chunk in the compressed PLY layout. */
export const COMPRESSED_PLY_CHUNK_SIZE = 256;

const CHUNK_PROPS = [
  'min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z',
  'min_scale_x', 'min_scale_y', 'min_scale_z', 'max_scale_x', 'max_scale_y', 'max_scale_z',
] as const;
const COLOR_PROPS = ['min_r', 'min_g', 'min_b', 'max_r', 'max_g', 'max_b'] as const;
const PACKED_PROPS = ['packed_position', 'packed_rotation', 'packed_scale', 'packed_color'] as const;

/**
 * True when a parsed PLY header has the compressed layout: a `chunk` element and a `vertex` element
 * with a `packed_position` property.
 */
export function isCompressedPlyHeader(header: PlyHeader): boolean {
  const vertex = header.elements.find((e) => e.name === 'vertex');
  return header.elements.some((e) => e.name === 'chunk') &&
    vertex !== undefined && vertex.properties.some((p) => p.name === 'packed_position');
}

/**
 * Loads a PlayCanvas compressed `.ply` (see the module comment for the exact layout).
 *
 * @param fileName used in error messages only.
 * @param bytes the whole file.
 * @returns the cloud in the file's frame (PlayCanvas writes the INRIA/PLY frame), activated:
 *   scale = exp(lerped log-scale), opacity = alpha byte / 255, dc = (rgb − 0.5) / SH_C0,
 *   unit quaternions (w, x, y, z), shRest transposed to coefficient-major/channel-minor.
 * @throws SplatFormatError on every `loadPly` header/body error, when the file is not the compressed
 *   layout, on a missing chunk/vertex property (named), a packed property that is not an unsigned
 *   32-bit integer, a chunk count other than ceil(N / 256), an `sh` element whose row count differs
 *   from N or whose f_rest count is not 9/24/45, or a non-finite chunk value (property and chunk named).
 */
export function loadCompressedPly(fileName: string, bytes: Uint8Array): SplatCloud {
  const header = parsePlyHeader(fileName, bytes);
  if (!isCompressedPlyHeader(header)) {
    throw new SplatFormatError(fileName, 'not a compressed PLY (needs a "chunk" element and vertex "packed_position")');
  }
  return loadCompressedPlyFromHeader(fileName, bytes, header);
}

function requireProps(fileName: string, el: PlyElement, names: readonly string[]): void {
  for (const name of names) {
    if (!el.properties.some((p) => p.name === name)) {
      throw new SplatFormatError(fileName, `missing required property "${name}" in element "${el.name}"`);
    }
  }
}

/** `loadCompressedPly` on an already parsed header (used by `loadPly`'s dispatch). */
export function loadCompressedPlyFromHeader(fileName: string, bytes: Uint8Array, header: PlyHeader): SplatCloud {
  const chunkLoc = locateElement(fileName, bytes, header, 'chunk');
  const vertexLoc = locateElement(fileName, bytes, header, 'vertex');
  const n = vertexLoc.element.count;
  const numChunks = chunkLoc.element.count;
  requireProps(fileName, chunkLoc.element, CHUNK_PROPS);
  requireProps(fileName, vertexLoc.element, PACKED_PROPS);
  for (const p of vertexLoc.element.properties) {
    if ((PACKED_PROPS as readonly string[]).includes(p.name) && p.type !== 'uint32') {
      throw new SplatFormatError(fileName, `property "${p.name}" must be uint (uint32), found ${p.type}`);
    }
  }
  if (numChunks !== Math.ceil(n / COMPRESSED_PLY_CHUNK_SIZE)) {
    throw new SplatFormatError(fileName,
      `chunk count ${numChunks} does not match ${n} splats (expected ceil(${n} / 256) = ${Math.ceil(n / 256)})`);
  }
  const hasColor = chunkLoc.element.properties.some((p) => p.name === 'min_r');
  if (hasColor) requireProps(fileName, chunkLoc.element, COLOR_PROPS);

  const chunk: Record<string, Float64Array> = {};
  for (const name of [...CHUNK_PROPS, ...(hasColor ? COLOR_PROPS : [])]) {
    chunk[name] = readColumn(fileName, chunkLoc, name);
    assertFinite(fileName, name, chunk[name], 'chunk');
  }
  const [pPos, pRot, pScale, pColor] = PACKED_PROPS.map((name) => readColumn(fileName, vertexLoc, name));

  // Optional SH element.
  const shEl = header.elements.find((e) => e.name === 'sh');
  let perChannel = 0;
  if (shEl) {
    const total = shEl.properties.filter((p) => /^f_rest_\d+$/.test(p.name)).length;
    perChannel = total / 3;
    if (total === 0 || degreeForRestCount(perChannel) < 1) {
      throw new SplatFormatError(fileName, `unsupported f_rest_* count ${total} in element "sh" (expected 9, 24 or 45)`);
    }
    if (shEl.count !== n) {
      throw new SplatFormatError(fileName, `element "sh" has ${shEl.count} rows but "vertex" has ${n}`);
    }
  }
  const shLoc = shEl ? locateElement(fileName, bytes, header, 'sh') : null; // fail early if truncated
  const cloud = allocateSplatCloud(n, degreeForRestCount(perChannel));

  const axes = ['x', 'y', 'z'] as const;
  const posLo = axes.map((a) => chunk[`min_${a}`]), posHi = axes.map((a) => chunk[`max_${a}`]);
  const sclLo = axes.map((a) => chunk[`min_scale_${a}`]), sclHi = axes.map((a) => chunk[`max_scale_${a}`]);
  const colLo = hasColor ? ['r', 'g', 'b'].map((a) => chunk[`min_${a}`]) : null;
  const colHi = hasColor ? ['r', 'g', 'b'].map((a) => chunk[`max_${a}`]) : null;
  const lerp = (lo: number, hi: number, t: number): number => lo * (1 - t) + hi * t;
  const q = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const ci = Math.floor(i / COMPRESSED_PLY_CHUNK_SIZE);
    const pos = pPos[i], scl = pScale[i], col = pColor[i], rot = pRot[i];
    const pu = [(pos >>> 21) / 2047, ((pos >>> 11) & 0x3ff) / 1023, (pos & 0x7ff) / 2047];
    const su = [(scl >>> 21) / 2047, ((scl >>> 11) & 0x3ff) / 1023, (scl & 0x7ff) / 2047];
    const cu = [(col >>> 24) / 255, ((col >>> 16) & 0xff) / 255, ((col >>> 8) & 0xff) / 255];
    for (let a = 0; a < 3; a++) {
      cloud.positions[3 * i + a] = lerp(posLo[a][ci], posHi[a][ci], pu[a]);
      cloud.scales[3 * i + a] = Math.exp(lerp(sclLo[a][ci], sclHi[a][ci], su[a]));
      const c = colLo && colHi ? lerp(colLo[a][ci], colHi[a][ci], cu[a]) : cu[a];
      cloud.shDc[3 * i + a] = (c - 0.5) / SH_C0;
    }
    cloud.opacities[i] = (col & 0xff) / 255;

    // Three smaller components in increasing index order at bits 20..29, 10..19, 0..9, each
    // unorm10 mapped to [−√½, √½]; the largest (index in bits 30..31) is recovered from the norm.
    const largest = rot >>> 30;
    let sum = 0;
    for (let j = 0, shift = 20; j < 4; j++) {
      if (j === largest) continue;
      const v = (((rot >>> shift) & 0x3ff) / 1023 - 0.5) * Math.SQRT2;
      q[j] = v;
      sum += v * v;
      shift -= 10;
    }
    q[largest] = Math.sqrt(Math.max(0, 1 - sum));
    storeUnitQuat(cloud.rotations, i, q[0], q[1], q[2], q[3]);
  }

  if (shEl && shLoc) {
    for (let c = 0; c < 3; c++) {
      for (let k = 0; k < perChannel; k++) {
        const name = `f_rest_${c * perChannel + k}`;
        const prop = shEl.properties.find((p) => p.name === name);
        if (prop && prop.type !== 'uint8') {
          throw new SplatFormatError(fileName, `property "${name}" in element "sh" must be uchar, found ${prop.type}`);
        }
        const raw = readColumn(fileName, shLoc, name);
        for (let i = 0; i < n; i++) {
          const v = raw[i];
          const u = v === 0 ? 0 : v === 255 ? 1 : (v + 0.5) / 256;
          cloud.shRest[(i * perChannel + k) * 3 + c] = (u - 0.5) * 8;
        }
      }
    }
  }
  return cloud;
}
