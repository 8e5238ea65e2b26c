/**
 * Splat file loading: format sniffing and dispatch to the per-format loaders, plus robust bounds.
 */
import { SplatFormatError, type SplatCloud } from '../splat-cloud';
import { loadCompressedPly } from './compressed-ply';
import { hasGlbMagic, loadGltfSplats, looksLikeGltfJson } from './gltf';
import { loadPly } from './ply';
import { hasPlyMagic } from './ply-reader';
import { loadSplat, SPLAT_RECORD_BYTES } from './splat';
import { loadSpz } from './spz';

export { loadPly, loadCompressedPly, loadSplat, loadSpz, loadGltfSplats };

/** Formats `loadSplatFile` understands (compressed PLY is detected inside `loadPly`). */
export type SplatFileFormat = 'ply' | 'spz' | 'splat' | 'gltf';

/** Human-readable list of the supported formats, used in the "unknown format" error. */
export const SUPPORTED_SPLAT_FORMATS =
  'INRIA 3DGS .ply (binary_little_endian), PlayCanvas .compressed.ply, Niantic .spz (v2/v3), antimatter15 .splat, ' +
  'PlayCanvas SOG v2 (.sog, meta.json, or a folder of them), glTF 2.0 with KHR_gaussian_splatting (.glb, or .gltf with embedded buffers)';

/**
 * Sniffs a splat file's format.
 *
 * Rules, in order: bytes start with `ply` + newline → 'ply' (INRIA or compressed); gzip magic
 * 1f 8b or a raw `NGSP` payload → 'spz'; GLB magic `glTF`, a name ending in `.glb` or `.gltf`, or
 * JSON with an `"asset"` key in its first 64 KiB → 'gltf'; file name ends in `.splat`
 * (case-insensitive) → 'splat' (`.splat` has no header, so it is only recognised by name; a bad size
 * is reported by `loadSplat`).
 *
 * @returns the format, or null when none matches.
 */
export function sniffSplatFormat(fileName: string, bytes: Uint8Array): SplatFileFormat | null {
  if (hasPlyMagic(bytes)) return 'ply';
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'spz';
  if (bytes.length >= 4 && bytes[0] === 0x4e && bytes[1] === 0x47 && bytes[2] === 0x53 && bytes[3] === 0x50) return 'spz';
  if (hasGlbMagic(bytes) || /\.gl(b|tf)$/i.test(fileName) || looksLikeGltfJson(bytes)) return 'gltf';
  if (/\.splat$/i.test(fileName)) return 'splat';
  return null;
}

/**
 * Loads a splat file of any supported format, chosen by `sniffSplatFormat`.
 *
 * @param fileName the file's name or path (used for `.splat`, `.glb` and `.gltf` detection and in
 *   error messages).
 * @param bytes the whole file. A `.gltf` must embed its buffers (`data:` URIs); call
 *   `loadGltfSplats` with a reader for external ones.
 * @returns an activated `SplatCloud` (see `splat-cloud.ts`). Frame: the PLY/COLMAP frame of the
 *   capture (RDF); `.spz` data is converted from SPZ's RUB to RDF by `loadSpz`, and glTF data from
 *   the scene's Y-up RUB axes (after node transforms) to RDF by `loadGltfSplats`.
 * @throws SplatFormatError from the chosen loader, or, when no format matches, one naming the file,
 *   its size and first bytes, and listing the supported formats.
 */
export function loadSplatFile(fileName: string, bytes: Uint8Array): SplatCloud {
  switch (sniffSplatFormat(fileName, bytes)) {
    case 'ply': return loadPly(fileName, bytes);
    case 'spz': return loadSpz(fileName, bytes);
    case 'splat': return loadSplat(fileName, bytes);
    case 'gltf': return loadGltfSplats(fileName, bytes);
    default: {
      const head = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
      const hint = bytes.length > 0 && bytes.length % SPLAT_RECORD_BYTES === 0
        ? ' (if this is a headerless .splat file, give it the .splat extension)' : '';
      throw new SplatFormatError(fileName,
        `unknown splat format (${bytes.length} bytes, starting ${head || '(empty)'})${hint}; supported formats: ${SUPPORTED_SPLAT_FORMATS}`);
    }
  }
}

/** Robust axis-aligned bounds of splat centres. All values in metres, in the cloud's frame. */
export interface SplatBounds {
  /** Per-axis low percentile of the centres (x, y, z). */
  min: [number, number, number];
  /** Per-axis high percentile of the centres (x, y, z). */
  max: [number, number, number];
  /** Centre of the box, (min + max) / 2. */
  center: [number, number, number];
  /** Half the box diagonal, |max − min| / 2 (radius of the box's circumscribed sphere). */
  radius: number;
}

function percentile(sorted: Float32Array, p: number): number {
  const t = p * (sorted.length - 1);
  const lo = Math.floor(t), hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (t - lo);
}

/**
 * Bounds of the splat centres that ignore floaters: for each axis independently, the
 * `lowPercentile` and `highPercentile` quantiles of that coordinate (linear interpolation between
 * order statistics). Splat extents (scales) are not added.
 *
 * @param cloud the cloud; its `positions` are read.
 * @param lowPercentile fraction in [0, 1], default 0.02.
 * @param highPercentile fraction in [lowPercentile, 1], default 0.98.
 * @throws RangeError when the cloud is empty or the percentiles are out of order / outside [0, 1].
 */
export function splatBounds(cloud: SplatCloud, lowPercentile = 0.02, highPercentile = 0.98): SplatBounds {
  if (cloud.count === 0) throw new RangeError('splatBounds: the cloud has no splats');
  if (!(lowPercentile >= 0 && lowPercentile <= highPercentile && highPercentile <= 1)) {
    throw new RangeError(`splatBounds: need 0 <= lowPercentile <= highPercentile <= 1, got ${lowPercentile}, ${highPercentile}`);
  }
  const min: [number, number, number] = [0, 0, 0];
  const max: [number, number, number] = [0, 0, 0];
  const axis = new Float32Array(cloud.count);
  for (let a = 0; a < 3; a++) {
    for (let i = 0; i < cloud.count; i++) axis[i] = cloud.positions[3 * i + a];
    axis.sort();
    min[a] = percentile(axis, lowPercentile);
    max[a] = percentile(axis, highPercentile);
  }
  const center: [number, number, number] = [0, 1, 2].map((a) => (min[a] + max[a]) / 2) as [number, number, number];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  return { min, max, center, radius };
}
