/**
 * Loader for Niantic `.spz` files, versions 2 and 3 (nianticlabs/spz `src/cc/load-spz.cc`
 * `deserializePackedGaussians` / `unpackGaussians`, `src/cc/splat-types.h` `coordinateConverter`).
 *
 * A gzip stream whose payload is a 16-byte little-endian header — u32 magic 0x5053474e ("NGSP"),
 * u32 version, u32 numPoints, u8 shDegree, u8 fractionalBits, u8 flags (bit 0 antialiased, bit 1
 * extensions follow the header), u8 reserved — then the attributes, each for all points in turn:
 * - positions: 3 × 24-bit two's-complement fixed point per point, value / 2^fractionalBits;
 * - alphas: u8, opacity = a / 255;
 * - colours: 3 × u8, dc = (c / 255 − 0.5) / 0.15 (SPZ's `colorScale`, not SH_C0);
 * - scales: 3 × u8, log-scale = s / 16 − 10;
 * - rotations, (x, y, z, w) order: v2: 3 × u8, xyz = b / 127.5 − 1, w = sqrt(1 − |xyz|²) ≥ 0;
 *   v3: u32 LE "smallest three": bits 30..31 = index of the largest component (which is positive);
 *   the other three are packed from index 0 upward, each 10 bits (bit 9 = sign, bits 0..8 =
 *   magnitude m, value = m / 511 · √½), the highest-index one in the lowest bits;
 * - SH: N × K × 3 u8 (coefficient-major, channel-minor), value = (b − 128) / 128.
 *
 * Frame: SPZ stores RUB (x right, y up, z back; OpenGL/three.js), while INRIA `.ply` files are RDF
 * (x right, y down, z forward). This loader converts RUB → RDF so that an `.spz` and the `.ply` it
 * came from give the same cloud: y and z of positions negate, the quaternion's x/y/z parts are
 * multiplied by (1, −1, −1), and each SH coefficient is multiplied by the parity of its basis
 * function under (x, y, z) → (x, −y, −z) (Niantic's `flipSh` table). Checked on the MetalSplatter
 * 3-splat fixture, whose `.spz` positions are (x, −y, −z) of its `.ply`.
 */
import { inflateSync } from 'fflate';
import { allocateSplatCloud, SplatFormatError, shRestCount, type SplatCloud } from '../splat-cloud';
import { RUB_TO_RDF_SH_SIGN, storeUnitQuat } from './common';

/** "NGSP" read as a little-endian u32. */
export const SPZ_MAGIC = 0x5053474e;
const HEADER_BYTES = 16;
const COLOR_SCALE = 0.15;
/** Niantic's limit on points per file (`maxPointsToRead`). */
const MAX_POINTS = 10_000_000;

let crcTable: Uint32Array | null = null;
function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Decompresses a single-member gzip stream (RFC 1952) and checks its CRC-32 and size trailer.
 * fflate's `gunzipSync` is not used because it sizes its output from the trailer, which is garbage
 * when the file is truncated; `inflateSync` grows its output instead.
 */
function gunzip(fileName: string, bytes: Uint8Array): Uint8Array {
  const bad = (why: string): SplatFormatError => new SplatFormatError(fileName, `truncated or corrupt gzip stream: ${why}`);
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw bad('too short or no gzip header');
  if (bytes[2] !== 8) throw bad(`unsupported compression method ${bytes[2]}`);
  const flags = bytes[3];
  let pos = 10;
  if (flags & 4) pos += 2 + (bytes[10] | (bytes[11] << 8));
  for (const bit of [8, 16]) {
    if (flags & bit) { while (pos < bytes.length && bytes[pos] !== 0) pos++; pos++; }
  }
  if (flags & 2) pos += 2;
  if (pos + 8 > bytes.length) throw bad('header runs past the end of the file');
  let out: Uint8Array;
  try {
    out = inflateSync(bytes.subarray(pos));
  } catch (e) {
    throw bad((e as Error).message);
  }
  const n = bytes.length;
  const size = (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0;
  const crc = (bytes[n - 8] | (bytes[n - 7] << 8) | (bytes[n - 6] << 16) | (bytes[n - 5] << 24)) >>> 0;
  if (size !== out.length >>> 0 || crc !== crc32(out)) throw bad('size or CRC-32 in the trailer does not match the data');
  return out;
}

/**
 * Loads a Niantic `.spz` file (gzip-compressed, versions 2 and 3; an uncompressed `NGSP` payload is
 * accepted too, which is how version-4 files begin, and is then rejected by the version check).
 *
 * @param fileName used in error messages only.
 * @param bytes the whole file.
 * @returns the cloud converted from SPZ's RUB frame to the PLY/COLMAP RDF frame (see the module
 *   comment), activated: scale = exp(s / 16 − 10), opacity = a / 255, unit quaternion (w, x, y, z),
 *   dc = (c / 255 − 0.5) / 0.15, shRest = (b − 128) / 128 coefficient-major/channel-minor.
 * @throws SplatFormatError on a truncated/corrupt gzip stream, bad magic, a version other than 2 or
 *   3, SH degree > 3, fractionalBits > 24, numPoints > 10,000,000, the extensions flag (bit 1; not
 *   supported), or a payload shorter than the header's counts need (bytes expected vs present).
 */
export function loadSpz(fileName: string, bytes: Uint8Array): SplatCloud {
  const isGzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  const data = isGzip ? gunzip(fileName, bytes) : bytes;
  if (data.length < HEADER_BYTES) {
    throw new SplatFormatError(fileName, `truncated SPZ payload: ${data.length} bytes, the header alone needs ${HEADER_BYTES}`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const magic = view.getUint32(0, true);
  if (magic !== SPZ_MAGIC) {
    throw new SplatFormatError(fileName, `bad SPZ magic 0x${magic.toString(16).padStart(8, '0')} (expected 0x5053474e "NGSP")`);
  }
  const version = view.getUint32(4, true);
  if (version !== 2 && version !== 3) {
    throw new SplatFormatError(fileName, `unsupported SPZ version ${version} (supported: 2, 3)`);
  }
  const n = view.getUint32(8, true);
  const shDegree = data[12], fractionalBits = data[13], flags = data[14];
  if (shDegree > 3) throw new SplatFormatError(fileName, `unsupported SPZ SH degree ${shDegree} (supported: 0..3)`);
  if (fractionalBits > 24) throw new SplatFormatError(fileName, `impossible SPZ fractionalBits ${fractionalBits} (positions are 24-bit)`);
  if (n > MAX_POINTS) throw new SplatFormatError(fileName, `impossible SPZ point count ${n} (limit ${MAX_POINTS})`);
  if (flags & 2) throw new SplatFormatError(fileName, 'SPZ extensions (flags bit 1) are not supported');

  const k = shRestCount(shDegree);
  const rotBytes = version === 2 ? 3 : 4;
  const offPos = HEADER_BYTES;
  const offAlpha = offPos + 9 * n;
  const offColor = offAlpha + n;
  const offScale = offColor + 3 * n;
  const offRot = offScale + 3 * n;
  const offSh = offRot + rotBytes * n;
  const end = offSh + 3 * k * n;
  if (data.length < end) {
    throw new SplatFormatError(fileName,
      `truncated SPZ payload: ${n} points of version ${version} with SH degree ${shDegree} need ${end} bytes, found ${data.length}`);
  }

  const cloud = allocateSplatCloud(n, shDegree);
  const posScale = 1 / 2 ** fractionalBits;
  const flipP = [1, -1, -1];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const o = offPos + 9 * i + 3 * a;
      const fixed = ((data[o] | (data[o + 1] << 8) | (data[o + 2] << 16)) << 8) >> 8; // sign-extend 24 bits
      cloud.positions[3 * i + a] = flipP[a] * fixed * posScale;
      cloud.scales[3 * i + a] = Math.exp(data[offScale + 3 * i + a] / 16 - 10);
      cloud.shDc[3 * i + a] = (data[offColor + 3 * i + a] / 255 - 0.5) / COLOR_SCALE;
    }
    cloud.opacities[i] = data[offAlpha + i] / 255;

    const r = [0, 0, 0, 0]; // x, y, z, w
    if (version === 2) {
      let sum = 0;
      for (let j = 0; j < 3; j++) {
        r[j] = data[offRot + 3 * i + j] / 127.5 - 1;
        sum += r[j] * r[j];
      }
      r[3] = Math.sqrt(Math.max(0, 1 - sum));
    } else {
      let comp = view.getUint32(offRot + 4 * i, true);
      const largest = comp >>> 30;
      let sum = 0;
      for (let j = 3; j >= 0; j--) {
        if (j === largest) continue;
        const mag = comp & 0x1ff;
        const neg = (comp >>> 9) & 1;
        comp >>>= 10;
        r[j] = (neg ? -1 : 1) * Math.SQRT1_2 * (mag / 511);
        sum += r[j] * r[j];
      }
      r[largest] = Math.sqrt(Math.max(0, 1 - sum));
    }
    // RUB → RDF: the vector part flips like (y·z, x·z, x·y) signs = (1, −1, −1).
    storeUnitQuat(cloud.rotations, i, r[3], r[0], -r[1], -r[2]);

    for (let c = 0; c < k; c++) {
      for (let ch = 0; ch < 3; ch++) {
        const idx = (i * k + c) * 3 + ch;
        cloud.shRest[idx] = RUB_TO_RDF_SH_SIGN[c] * (data[offSh + idx] - 128) / 128;
      }
    }
  }
  return cloud;
}
