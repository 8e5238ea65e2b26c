/**
 * Reads NumPy `.npz` archives (a zip of `.npy` files) into float64 arrays with their shapes.
 *
 * Formats: zip (PKWARE APPNOTE), unzipped with `fflate`; `.npy` v1–v3 (NumPy NEP 1), parsed with
 * `npyjs`, which handles the header and the little-endian dtypes; this module adds the checks npyjs
 * leaves out (data length = product of the shape, Fortran order, integer conversion).
 */
import { unzipSync } from 'fflate';
import { parse as parseNpy } from 'npyjs';

/** One array from an `.npz`: values in C (row-major) order, as float64. */
export interface NpzArray {
  shape: number[];
  data: Float64Array;
}

/**
 * Unzips `bytes` and parses the entries named `keys` (without `.npy`).
 *
 * @param file the file name, used in error messages.
 * @returns a map key → array; keys absent from the archive are absent from the map.
 * @throws Error `file: key: problem` for a corrupt zip, an unsupported dtype (big-endian, strings,
 *   objects) or a data length that does not match the shape.
 */
export function readNpz(bytes: Uint8Array, keys: readonly string[], file: string): Map<string, NpzArray> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => keys.includes(f.name.replace(/\.npy$/, '')) });
  } catch (e) {
    throw new Error(`${file}: not a readable .npz (zip) archive: ${(e as Error).message}`);
  }
  const out = new Map<string, NpzArray>();
  for (const [name, entry] of Object.entries(entries)) {
    const key = name.replace(/\.npy$/, '');
    let parsed: ReturnType<typeof parseNpy>;
    try {
      parsed = parseNpy(entry.slice().buffer);
    } catch (e) {
      throw new Error(`${file}: ${key}: unreadable .npy: ${(e as Error).message}`);
    }
    const count = parsed.shape.reduce((a, b) => a * b, 1);
    const src = parsed.data as unknown as ArrayLike<number | bigint>;
    if (typeof (src as { length?: number }).length !== 'number' || src.length < count) {
      throw new Error(`${file}: ${key}: dtype ${parsed.dtype} with shape [${parsed.shape}] has ${src.length ?? 0} values`);
    }
    const data = new Float64Array(count);
    for (let i = 0; i < count; i++) data[i] = Number(src[i]);
    out.set(key, { shape: parsed.shape, data: parsed.fortranOrder ? fortranToC(data, parsed.shape) : data });
  }
  return out;
}

/** Reorders column-major (Fortran) data of `shape` to row-major. */
function fortranToC(data: Float64Array, shape: number[]): Float64Array {
  const out = new Float64Array(data.length);
  const n = shape.length;
  const idx = new Array<number>(n).fill(0);
  for (let c = 0; c < data.length; c++) {
    let f = 0, stride = 1;
    for (let d = 0; d < n; d++) {
      f += idx[d] * stride;
      stride *= shape[d];
    }
    out[c] = data[f];
    for (let d = n - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}
