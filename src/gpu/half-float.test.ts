import { describe, expect, it } from 'vitest';
import { fromHalfBits, toHalfBits } from './half-float';

describe('binary16 packing', () => {
  it('encodes known bit patterns', () => {
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(65504)).toBe(0x7bff);
    expect(toHalfBits(1e6)).toBe(0x7c00);
    expect(toHalfBits(2 ** -24)).toBe(0x0001);
    expect(toHalfBits(0.1)).toBe(0x2e66);
  });
  it('round-trips within half a unit in the last place', () => {
    for (const v of [0.333, -1.7, 12.5, 1e-3, -4.2e-5]) {
      const back = fromHalfBits(toHalfBits(v));
      expect(Math.abs(back - v)).toBeLessThanOrEqual(Math.max(Math.abs(v) * 2 ** -11, 2 ** -25));
    }
  });
});
