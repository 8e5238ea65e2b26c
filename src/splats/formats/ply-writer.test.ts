import { describe, expect, it } from 'vitest';
import { syntheticSplats } from '../synthetic-splats';
import { loadPly } from './ply';
import { plyFloatsPerSplat, writePly } from './ply-writer';

function toBytes(write: (sink: (b: Uint8Array) => void) => void): Uint8Array {
  const parts: Uint8Array[] = [];
  write((b) => parts.push(b.slice()));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe('writePly', () => {
  for (const degree of [0, 3]) {
    it(`round-trips through loadPly (SH degree ${degree}, batches smaller than the cloud)`, () => {
      const cloud = syntheticSplats(1000, degree, 5);
      const bytes = toBytes((sink) => writePly(cloud, sink, 300));
      const back = loadPly('baked.ply', bytes);
      expect(back.count).toBe(1000);
      expect(back.shDegree).toBe(degree);
      expect(Array.from(back.positions)).toEqual(Array.from(cloud.positions));
      expect(Array.from(back.shDc)).toEqual(Array.from(cloud.shDc));
      expect(Array.from(back.shRest)).toEqual(Array.from(cloud.shRest));
      for (let i = 0; i < 3000; i++) expect(back.scales[i]).toBeCloseTo(cloud.scales[i], 6);
      for (let i = 0; i < 1000; i++) expect(back.opacities[i]).toBeCloseTo(Math.min(1 - 1e-6, Math.max(1e-6, cloud.opacities[i])), 6);
      for (let i = 0; i < 4000; i++) expect(back.rotations[i]).toBeCloseTo(cloud.rotations[i], 6);
      expect(bytes.length).toBeGreaterThan(1000 * plyFloatsPerSplat(degree) * 4);
    });
  }

  it('refuses a non-positive scale, naming the splat', () => {
    const cloud = syntheticSplats(3, 0);
    cloud.scales[4] = 0;
    expect(() => writePly(cloud, () => undefined)).toThrow('writePly: splat 1 has scale 0 on axis 1');
  });
});
