import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { allocateSplatCloud, SplatFormatError } from '../splat-cloud';
import { loadSplatFile, sniffSplatFormat, splatBounds } from './index';
import { loadSplat } from './splat';

const FIX = 'splats/fixtures/test-splat.3-points-from-train';

describe('sniffSplatFormat / loadSplatFile', () => {
  it('sniffs by magic, .splat by name', () => {
    expect(sniffSplatFormat('a.bin', readSharedData(`${FIX}.ply`))).toBe('ply');
    expect(sniffSplatFormat('a.bin', readSharedData('splats/guitar.compressed.ply'))).toBe('ply');
    expect(sniffSplatFormat('a.bin', readSharedData(`${FIX}.spz`))).toBe('spz');
    expect(sniffSplatFormat('a.bin', gunzipSync(readSharedData(`${FIX}.spz`)))).toBe('spz');
    expect(sniffSplatFormat('a.SPLAT', readSharedData(`${FIX}.splat`))).toBe('splat');
    expect(sniffSplatFormat('a.bin', readSharedData(`${FIX}.splat`))).toBeNull();
  });

  it('dispatches compressed PLY to the compressed loader', () => {
    const cloud = loadSplatFile('angel.compressed.ply', readSharedData('splats/angel.compressed.ply'));
    expect(cloud.count).toBe(71377);
  });

  it('unknown format names the file and lists the supported formats', () => {
    const bytes = readSharedData(`${FIX}.splat`);
    expect(() => loadSplatFile('scene.bin', bytes)).toThrow(SplatFormatError);
    expect(() => loadSplatFile('scene.bin', bytes)).toThrow(/^scene\.bin: unknown splat format \(96 bytes, starting .*\.splat extension.*supported formats: .*\.ply.*compressed\.ply.*\.spz.*\.splat/);
    expect(() => loadSplatFile('empty.xyz', new Uint8Array(0))).toThrow(/empty\.xyz: unknown splat format \(0 bytes/);
  });
});

describe('loadSplat', () => {
  it('.splat with a bad size', () => {
    const bytes = readSharedData(`${FIX}.splat`);
    const bad = new Uint8Array(bytes.length + 1);
    bad.set(bytes);
    expect(() => loadSplatFile('bad.splat', bad)).toThrow(/^bad\.splat: \.splat size 97 bytes is not a multiple of the 32-byte record \(1 bytes left over\)/);
    expect(() => loadSplat('empty.splat', new Uint8Array(0))).toThrow(/empty\.splat: empty/);
  });

  it('non-finite position', () => {
    const bytes = readSharedData(`${FIX}.splat`).slice();
    new DataView(bytes.buffer).setFloat32(32 + 4, Infinity, true);
    expect(() => loadSplat('inf.splat', bytes)).toThrow(/inf\.splat: non-finite value Infinity in field "y" of splat 1/);
  });
});

describe('splatBounds', () => {
  it('ignores floaters via per-axis percentiles', () => {
    const n = 1001;
    const cloud = allocateSplatCloud(n, 0);
    for (let i = 0; i < n; i++) {
      cloud.positions[3 * i] = i / (n - 1); // x uniform in [0, 1]
      cloud.positions[3 * i + 1] = 2; // y constant
      cloud.positions[3 * i + 2] = i < 5 ? 1000 : -1; // 5 floaters far away in z
    }
    const b = splatBounds(cloud);
    expect(b.min[0]).toBeCloseTo(0.02, 6);
    expect(b.max[0]).toBeCloseTo(0.98, 6);
    expect([b.min[1], b.max[1], b.min[2], b.max[2]]).toEqual([2, 2, -1, -1]);
    expect(b.center).toEqual([expect.closeTo(0.5, 6), 2, -1]);
    expect(b.radius).toBeCloseTo(0.48, 6);
    expect(splatBounds(cloud, 0, 1).max[2]).toBe(1000);
  });

  it('rejects empty clouds and bad percentiles', () => {
    expect(() => splatBounds(allocateSplatCloud(0, 0))).toThrow(RangeError);
    expect(() => splatBounds(allocateSplatCloud(3, 0), 0.9, 0.1)).toThrow(RangeError);
  });
});
