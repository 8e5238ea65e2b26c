/**
 * Loader for antimatter15 `.splat` files (github.com/antimatter15/splat, `convert.py` and the
 * viewer's `main.js`; the same layout is read by playcanvas/splat-transform `read-splat.ts`).
 *
 * Headerless: N records of 32 bytes, little-endian:
 * - bytes 0..11: position x, y, z (float32);
 * - bytes 12..23: scale x, y, z (float32, already linear = exp of the 3DGS log-scale);
 * - bytes 24..27: r, g, b, a (uint8): rgb = clamp(SH_C0·dc + 0.5)·255, a = sigmoid(opacity)·255;
 * - bytes 28..31: rotation w, x, y, z (uint8) = normalised component·128 + 128 (clamped).
 * There are no higher SH bands.
 */
import { allocateSplatCloud, SH_C0, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { storeUnitQuat } from './common';

/** Bytes per `.splat` record. */
export const SPLAT_RECORD_BYTES = 32;

/**
 * Loads an antimatter15 `.splat` file.
 *
 * @param fileName used in error messages only.
 * @param bytes the whole file.
 * @returns a cloud with shDegree 0, in the frame of the PLY it was converted from (positions
 *   exactly the float32 values stored); scales as stored; opacity = a / 255;
 *   dc = (c / 255 − 0.5) / SH_C0; rotation = normalise((b − 128) / 128) in (w, x, y, z) order.
 * @throws SplatFormatError when the file is empty, its size is not a multiple of 32 bytes (message
 *   gives the size and the remainder), or a position or scale is NaN/infinite (field and splat named).
 */
export function loadSplat(fileName: string, bytes: Uint8Array): SplatCloud {
  if (bytes.length === 0) throw new SplatFormatError(fileName, 'empty .splat file (0 bytes)');
  if (bytes.length % SPLAT_RECORD_BYTES !== 0) {
    throw new SplatFormatError(fileName,
      `.splat size ${bytes.length} bytes is not a multiple of the 32-byte record (${bytes.length % SPLAT_RECORD_BYTES} bytes left over)`);
  }
  const n = bytes.length / SPLAT_RECORD_BYTES;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cloud = allocateSplatCloud(n, 0);
  const fields = ['x', 'y', 'z', 'scale_x', 'scale_y', 'scale_z'];
  for (let i = 0; i < n; i++) {
    const o = i * SPLAT_RECORD_BYTES;
    for (let a = 0; a < 6; a++) {
      const v = view.getFloat32(o + 4 * a, true);
      if (!Number.isFinite(v)) {
        throw new SplatFormatError(fileName, `non-finite value ${v} in field "${fields[a]}" of splat ${i}`);
      }
      if (a < 3) cloud.positions[3 * i + a] = v;
      else cloud.scales[3 * i + a - 3] = v;
    }
    for (let c = 0; c < 3; c++) cloud.shDc[3 * i + c] = (bytes[o + 24 + c] / 255 - 0.5) / SH_C0;
    cloud.opacities[i] = bytes[o + 27] / 255;
    const r = (k: number): number => (bytes[o + 28 + k] - 128) / 128;
    storeUnitQuat(cloud.rotations, i, r(0), r(1), r(2), r(3));
  }
  return cloud;
}
