/**
 * Loader for INRIA 3D Gaussian Splatting `.ply` files (Kerbl et al. 2023, reference implementation
 * `gaussian_renderer` / `scene/gaussian_model.py` `save_ply`/`load_ply`).
 *
 * Layout: one `vertex` element with float properties `x y z` (centre), optional `nx ny nz`,
 * `f_dc_0..2` (SH band 0, r g b), `f_rest_0..K-1` (higher bands, **channel-major**: the first K/3 are
 * red for coefficients 1..K/3, then green, then blue), `opacity` (pre-sigmoid), `scale_0..2`
 * (log standard deviations), `rot_0..3` (quaternion, `rot_0` = w, not necessarily normalised).
 */
import { allocateSplatCloud, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { sigmoid, storeUnitQuat, degreeForRestCount } from './common';
import { assertFinite, locateElement, parsePlyHeader, readColumn, type PlyHeader } from './ply-reader';
import { isCompressedPlyHeader, loadCompressedPlyFromHeader } from './compressed-ply';

const REQUIRED = [
  'x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity',
  'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3',
] as const;

/**
 * Loads a 3DGS `.ply` file (INRIA layout, or the PlayCanvas compressed layout, which is detected
 * from its `chunk` element and `packed_*` properties and handed to `loadCompressedPly`).
 *
 * Properties may appear in any order, with any PLY scalar type (char/uchar/short/ushort/int/uint/
 * float/double and their int8/uint8/… aliases); extra properties and extra elements are skipped.
 * The SH degree follows from the `f_rest_*` count (0, 9, 24, 45 → degree 0..3).
 *
 * @param fileName used in error messages only.
 * @param bytes the whole file.
 * @returns the cloud in the file's frame (typically COLMAP/OpenCV: x right, y down, z forward),
 *   metres as stored; activated parameters: opacity = sigmoid(opacity), scale = exp(scale_i),
 *   rotation = normalised (rot_0..3) in (w, x, y, z) order, shDc = f_dc, shRest transposed to
 *   coefficient-major/channel-minor.
 * @throws SplatFormatError (message starts with the file name) on: missing `ply` magic; truncated
 *   header; a format other than binary_little_endian 1.0 (message names the encoding, e.g. "ascii");
 *   no `vertex` element; a list property in the vertex element; a missing required property (named);
 *   an f_rest count other than 0/9/24/45; a truncated body (bytes expected vs present); a NaN or
 *   infinite value (property and splat index named).
 */
export function loadPly(fileName: string, bytes: Uint8Array): SplatCloud {
  const header = parsePlyHeader(fileName, bytes);
  if (isCompressedPlyHeader(header)) return loadCompressedPlyFromHeader(fileName, bytes, header);
  return loadInriaPly(fileName, bytes, header);
}

function restCount(fileName: string, header: PlyHeader): number {
  const vertex = header.elements.find((e) => e.name === 'vertex');
  if (!vertex) return 0;
  const indices = vertex.properties
    .map((p) => /^f_rest_(\d+)$/.exec(p.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
  const k = indices.length;
  if (degreeForRestCount(k / 3) < 0) {
    throw new SplatFormatError(fileName, `unsupported f_rest_* count ${k} (expected 0, 9, 24 or 45 for SH degree 0..3)`);
  }
  return k;
}

function loadInriaPly(fileName: string, bytes: Uint8Array, header: PlyHeader): SplatCloud {
  const vertex = header.elements.find((e) => e.name === 'vertex');
  if (!vertex) throw new SplatFormatError(fileName, 'PLY file has no "vertex" element');
  const names = new Set(vertex.properties.map((p) => p.name));
  for (const name of REQUIRED) {
    if (!names.has(name)) throw new SplatFormatError(fileName, `missing required property "${name}" in element "vertex"`);
  }
  const restTotal = restCount(fileName, header);
  const perChannel = restTotal / 3;
  const loc = locateElement(fileName, bytes, header, 'vertex');

  const col = (name: string): Float64Array => {
    const c = readColumn(fileName, loc, name);
    assertFinite(fileName, name, c);
    return c;
  };
  const n = vertex.count;
  const cloud = allocateSplatCloud(n, degreeForRestCount(perChannel));

  for (let a = 0; a < 3; a++) {
    const pos = col('xyz'[a]);
    const scale = col(`scale_${a}`);
    const dc = col(`f_dc_${a}`);
    for (let i = 0; i < n; i++) {
      cloud.positions[3 * i + a] = pos[i];
      cloud.scales[3 * i + a] = Math.exp(scale[i]);
      cloud.shDc[3 * i + a] = dc[i];
    }
  }
  const opacity = col('opacity');
  for (let i = 0; i < n; i++) cloud.opacities[i] = sigmoid(opacity[i]);

  const [rw, rx, ry, rz] = [0, 1, 2, 3].map((j) => col(`rot_${j}`));
  for (let i = 0; i < n; i++) storeUnitQuat(cloud.rotations, i, rw[i], rx[i], ry[i], rz[i]);

  // f_rest_(c*K + k) → shRest[(i*K + k)*3 + c]
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < perChannel; k++) {
      const rest = col(`f_rest_${c * perChannel + k}`);
      for (let i = 0; i < n; i++) cloud.shRest[(i * perChannel + k) * 3 + c] = rest[i];
    }
  }
  return cloud;
}
