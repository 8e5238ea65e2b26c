import { describe, expect, it } from 'vitest';
import { syntheticSplats } from '../../bench/synthetic-splats';
import { packShRest, packSplats, shRestStride, SPLAT_LAYOUT } from './gpu-layout';

describe('packing splats for upload', () => {
  it('packs a slice [from, to) exactly as that part of the whole pack, with and without an upload order', () => {
    const cloud = syntheticSplats(1000, 3, 4);
    const order = Uint32Array.from({ length: cloud.count }, (_, k) => (k * 7919) % cloud.count);
    for (const o of [undefined, order]) {
      const whole = packSplats(cloud, o);
      const sh = packShRest(cloud, o);
      const stride = shRestStride(3);
      for (const [from, to] of [[0, 1000], [0, 1], [300, 701], [999, 1000]]) {
        expect(packSplats(cloud, o, from, to)).toEqual(whole.subarray((from * SPLAT_LAYOUT.size) / 4, (to * SPLAT_LAYOUT.size) / 4));
        expect(packShRest(cloud, o, from, to)).toEqual(sh.subarray(from * stride, to * stride));
      }
    }
    // Record k holds splat order[k]: its position and opacity are where the layout says.
    const p = packSplats(cloud, order, 10, 11);
    expect(Array.from(p.subarray(0, 3))).toEqual(Array.from(cloud.positions.subarray(order[10] * 3, order[10] * 3 + 3)));
    expect(p[SPLAT_LAYOUT.opacity / 4]).toBe(cloud.opacities[order[10]]);
  });
});
