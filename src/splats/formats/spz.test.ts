import { gunzipSync, gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { SplatFormatError } from '../splat-cloud';
import { loadSpz } from './spz';
import { expectCloudsClose } from './test-utils';

const FILE = 'test-splat.3-points-from-train.spz';
const gz = () => readSharedData(`splats/fixtures/${FILE}`);
const payload = () => gunzipSync(gz());

function withPayload(edit: (p: Uint8Array, v: DataView) => Uint8Array | void): Uint8Array {
  const p = payload().slice();
  const out = edit(p, new DataView(p.buffer)) ?? p;
  return gzipSync(out);
}

function expectError(fn: () => unknown, ...parts: string[]): void {
  let err: unknown;
  try { fn(); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(SplatFormatError);
  for (const p of parts) expect((err as Error).message).toContain(p);
}

describe('loadSpz', () => {
  it('reads the v3 fixture header', () => {
    const v = new DataView(payload().buffer);
    expect([v.getUint32(0, true), v.getUint32(4, true), v.getUint32(8, true)]).toEqual([0x5053474e, 3, 3]);
    const cloud = loadSpz(FILE, gz());
    expect(cloud.count).toBe(3);
    expect(cloud.shDegree).toBe(3);
  });

  it('accepts an uncompressed NGSP payload', () => {
    expectCloudsClose(loadSpz(FILE, gz()), loadSpz(FILE, payload()),
      { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 0, shRest: 0 });
  });

  it('decodes version 2 (first-three rotation) like version 3', () => {
    // Re-encode the fixture's rotations the v2 way (xyz of the w ≥ 0 quaternion, b = v·127.5 + 127.5).
    const v3 = loadSpz(FILE, gz());
    const bytes = withPayload((p) => {
      const n = 3, rotOff = 16 + n * (9 + 1 + 3 + 3);
      const out = new Uint8Array(p.length - n);
      out.set(p.subarray(0, rotOff));
      for (let i = 0; i < n; i++) {
        const [w, x, y, z] = v3.rotations.subarray(4 * i, 4 * i + 4);
        const s = w < 0 ? -1 : 1;
        // Back to SPZ's RUB frame (undo the loader's (x, −y, −z) flip) before packing.
        [x, -y, -z].forEach((c, j) => { out[rotOff + 3 * i + j] = Math.round(s * c * 127.5 + 127.5); });
      }
      out.set(p.subarray(rotOff + 4 * n), rotOff + 3 * n);
      new DataView(out.buffer).setUint32(4, 2, true);
      return out;
    });
    const v2 = loadSpz('v2.spz', bytes);
    expectCloudsClose(v3, v2, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 1 / 127.5 + 0.003, shRest: 0 });
  });

  it('bad magic', () => {
    expectError(() => loadSpz(FILE, withPayload((p) => { p[0] = 0x4d; })), FILE, 'bad SPZ magic 0x5053474d');
  });

  it('unsupported versions', () => {
    expectError(() => loadSpz(FILE, withPayload((_p, v) => v.setUint32(4, 4, true))), FILE, 'unsupported SPZ version 4');
    expectError(() => loadSpz(FILE, withPayload((_p, v) => v.setUint32(4, 1, true))), FILE, 'unsupported SPZ version 1');
  });

  it('truncated gzip stream', () => {
    const bytes = gz();
    expectError(() => loadSpz(FILE, bytes.subarray(0, 60)), FILE, 'truncated or corrupt gzip stream');
    expectError(() => loadSpz(FILE, bytes.subarray(0, bytes.length - 3)), FILE, 'truncated or corrupt gzip stream');
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 6] ^= 0xff; // CRC-32
    expectError(() => loadSpz(FILE, corrupt), FILE, 'CRC-32');
  });

  it('truncated payload and impossible counts', () => {
    expectError(() => loadSpz(FILE, withPayload((p) => p.subarray(0, 150))), FILE, 'truncated SPZ payload', 'need 211 bytes, found 150');
    expectError(() => loadSpz(FILE, withPayload((_p, v) => v.setUint32(8, 1000, true))), FILE, 'truncated SPZ payload', '1000 points');
    expectError(() => loadSpz(FILE, withPayload((_p, v) => v.setUint32(8, 0xffffffff, true))), FILE, 'impossible SPZ point count 4294967295');
    expectError(() => loadSpz(FILE, withPayload((p) => { p[12] = 4; })), FILE, 'SH degree 4');
    expectError(() => loadSpz(FILE, withPayload((p) => { p[13] = 30; })), FILE, 'fractionalBits 30');
    expectError(() => loadSpz(FILE, withPayload((p) => p.subarray(0, 10))), FILE, 'header alone needs 16');
  });

  it('extensions flag is rejected', () => {
    expectError(() => loadSpz(FILE, withPayload((p) => { p[14] = 2; })), FILE, 'extensions');
  });
});
