/**
 * Test helpers for the splat loaders: a minimal binary PLY writer and byte-editing utilities.
 * Not used by the loaders themselves.
 */
import { expect } from 'vitest';
import type { SplatCloud } from '../splat-cloud';
import { PLY_TYPE_SIZE, type PlyScalarType } from './ply-reader';

/** One element to write: `value(row, property)` supplies every scalar. */
export interface PlyWriteElement {
  name: string;
  count: number;
  properties: { name: string; type: PlyScalarType }[];
  value(row: number, property: string): number;
}

const TYPE_NAMES: Record<PlyScalarType, string> = {
  int8: 'char', uint8: 'uchar', int16: 'short', uint16: 'ushort',
  int32: 'int', uint32: 'uint', float32: 'float', float64: 'double',
};

/**
 * Writes a binary little-endian PLY with the given elements (rows in element order).
 * `typeSpelling: 'sized'` writes `float32`/`uint8`… instead of `float`/`uchar`….
 */
export function writePly(elements: PlyWriteElement[], opts: { typeSpelling?: 'classic' | 'sized'; comments?: string[] } = {}): Uint8Array {
  const lines = ['ply', 'format binary_little_endian 1.0', ...(opts.comments ?? []).map((c) => `comment ${c}`)];
  let bodySize = 0;
  for (const el of elements) {
    lines.push(`element ${el.name} ${el.count}`);
    for (const p of el.properties) {
      lines.push(`property ${opts.typeSpelling === 'sized' ? p.type : TYPE_NAMES[p.type]} ${p.name}`);
      bodySize += el.count * PLY_TYPE_SIZE[p.type];
    }
  }
  lines.push('end_header', '');
  const header = new TextEncoder().encode(lines.join('\n'));
  const out = new Uint8Array(header.length + bodySize);
  out.set(header);
  const view = new DataView(out.buffer);
  let pos = header.length;
  for (const el of elements) {
    for (let r = 0; r < el.count; r++) {
      for (const p of el.properties) {
        const v = el.value(r, p.name);
        switch (p.type) {
          case 'int8': view.setInt8(pos, v); break;
          case 'uint8': view.setUint8(pos, v); break;
          case 'int16': view.setInt16(pos, v, true); break;
          case 'uint16': view.setUint16(pos, v, true); break;
          case 'int32': view.setInt32(pos, v, true); break;
          case 'uint32': view.setUint32(pos, v, true); break;
          case 'float32': view.setFloat32(pos, v, true); break;
          case 'float64': view.setFloat64(pos, v, true); break;
        }
        pos += PLY_TYPE_SIZE[p.type];
      }
    }
  }
  return out;
}

/** Byte offset just past `end_header\n`. */
export function headerLength(bytes: Uint8Array): number {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 1 << 16)));
  const i = text.indexOf('end_header\n');
  if (i < 0) throw new Error('no end_header');
  return i + 'end_header\n'.length;
}

/** Returns a copy of a PLY whose header has `from` replaced by `to` (exactly one occurrence). */
export function editPlyHeader(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const n = headerLength(bytes);
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, n));
  if (text.split(from).length !== 2) throw new Error(`"${from}" must occur exactly once in the header`);
  const header = new TextEncoder().encode(text.replace(from, to));
  const out = new Uint8Array(header.length + bytes.length - n);
  out.set(header);
  out.set(bytes.subarray(n), header.length);
  return out;
}

/** Per-splat comparison of two clouds' fields with absolute tolerances (rotation up to sign). */
export function expectCloudsClose(a: SplatCloud, b: SplatCloud, tol: {
  position: number; scaleLog: number; opacity: number; dc: number; rotation: number; shRest?: number;
}): void {
  expect(b.count).toBe(a.count);
  for (let i = 0; i < a.count; i++) {
    for (let c = 0; c < 3; c++) {
      const k = 3 * i + c;
      expect(Math.abs(b.positions[k] - a.positions[k]), `position ${k}`).toBeLessThanOrEqual(tol.position);
      expect(Math.abs(Math.log(b.scales[k] / a.scales[k])), `scale ${k}`).toBeLessThanOrEqual(tol.scaleLog);
      expect(Math.abs(b.shDc[k] - a.shDc[k]), `dc ${k}`).toBeLessThanOrEqual(tol.dc);
    }
    expect(Math.abs(b.opacities[i] - a.opacities[i]), `opacity ${i}`).toBeLessThanOrEqual(tol.opacity);
    const dot = [0, 1, 2, 3].reduce((s, j) => s + a.rotations[4 * i + j] * b.rotations[4 * i + j], 0);
    const sign = dot < 0 ? -1 : 1;
    for (let j = 0; j < 4; j++) {
      const d = Math.abs(sign * b.rotations[4 * i + j] - a.rotations[4 * i + j]);
      expect(d, `rotation ${i}.${j}`).toBeLessThanOrEqual(tol.rotation);
    }
  }
  if (tol.shRest !== undefined) {
    expect(b.shDegree).toBe(a.shDegree);
    for (let k = 0; k < a.shRest.length; k++) {
      expect(Math.abs(b.shRest[k] - a.shRest[k]), `shRest ${k}`).toBeLessThanOrEqual(tol.shRest);
    }
  }
}

/** Asserts every field of a cloud is sane: finite, opacity in [0, 1], positive scales, unit quaternions. */
export function expectSaneCloud(cloud: SplatCloud): void {
  const check = (name: string, arr: Float32Array, ok: (v: number) => boolean): void => {
    const bad = arr.findIndex((v) => !ok(v));
    expect(bad, `${name}[${bad}] = ${arr[bad]}`).toBe(-1);
  };
  check('positions', cloud.positions, Number.isFinite);
  check('scales', cloud.scales, (v) => Number.isFinite(v) && v > 0);
  check('opacities', cloud.opacities, (v) => v >= 0 && v <= 1);
  check('shDc', cloud.shDc, Number.isFinite);
  check('shRest', cloud.shRest, Number.isFinite);
  for (let i = 0; i < cloud.count; i++) {
    const r = cloud.rotations.subarray(4 * i, 4 * i + 4);
    const n = Math.hypot(r[0], r[1], r[2], r[3]);
    if (Math.abs(n - 1) > 1e-5) expect.fail(`rotation ${i} has norm ${n}`);
  }
}
