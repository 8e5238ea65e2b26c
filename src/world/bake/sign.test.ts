import { describe, expect, it } from 'vitest';
import { GLYPH_H, rasteriseText, textWidth } from './glyphs';
import { bakeSign, SIGN_MARGIN, signLayout, signPixelPoint } from './sign';
import { SplatBuilder } from './splat-builder';

describe('sign text', () => {
  it('rasterises capitals in the 5 × 7 font with one blank column between glyphs; lower case as capitals, unknown characters blank', () => {
    const t = rasteriseText('Ti');
    expect([t.width, t.height]).toEqual([11, GLYPH_H]);
    const row = (j: number) => Array.from(t.ink.subarray(j * t.width, (j + 1) * t.width)).join('');
    expect(row(0)).toBe('11111' + '0' + '01110');
    expect(row(6)).toBe('00100' + '0' + '01110');
    expect(Array.from(rasteriseText('ti').ink)).toEqual(Array.from(t.ink));
    expect(rasteriseText('a~b').ink.subarray(6, 11).every((v) => v === 0)).toBe(true);
    expect(textWidth('Rossi Bakery')).toBe(71);
  });

  it('fits the text on the board with 1.5 glyph pixels of margin, at most 1/10 of the band height per glyph pixel', () => {
    const l = signLayout('Rossi Bakery', 8, 0.9)!;
    expect(l.pixel).toBeCloseTo(0.09, 12);
    expect(l.height).toBeCloseTo(0.9, 12);
    expect(l.width).toBeCloseTo((71 + 2 * SIGN_MARGIN) * 0.09, 12);
    const narrow = signLayout('Rossi Bakery', 3, 0.9)!;
    expect(narrow.width).toBeCloseTo(3, 12);
    expect(signLayout('   ', 8, 0.9)).toBeNull();
    expect(signLayout('A very long shop name indeed', 1, 0.9)).toBeNull();
  });

  it('bakes one splat per glyph pixel and margin cell, ink where the text has ink, centred on the board', () => {
    const l = signLayout('AB', 2, 0.9)!;
    const out = new SplatBuilder();
    bakeSign(out, l, [10, 20, 3], [1, 0], [0.1, 0.2, 0.6], [1, 1, 1]);
    const cells = (l.text.width + 4) * (l.text.height + 4);
    expect(out.count).toBe(cells);
    const cloud = out.toCloud([0, 0, 0]);
    // Glyph pixel (0, 0) of "A" is board (its top row is .###.), (1, 0) ink.
    const at = (i: number, j: number) => {
      const p = signPixelPoint(l, [10, 20, 3], [1, 0], i, j);
      for (let k = 0; k < cloud.count; k++) if (Math.hypot(cloud.positions[3 * k] - p[0], cloud.positions[3 * k + 1] - p[1], cloud.positions[3 * k + 2] - p[2]) < 1e-5) return k;
      return -1;
    };
    const ink = (k: number) => cloud.shDc[3 * k] > 0;
    expect(ink(at(0, 0))).toBe(false);
    expect(ink(at(1, 0))).toBe(true);
    // The text is centred: its first and last columns sit symmetrically about the centre.
    expect(signPixelPoint(l, [10, 20, 3], [1, 0], 0, 3)[0] - 10).toBeCloseTo(-(signPixelPoint(l, [10, 20, 3], [1, 0], l.text.width - 1, 3)[0] - 10), 12);
    expect(signPixelPoint(l, [10, 20, 3], [1, 0], 0, 3)[2]).toBeCloseTo(3, 12);
  });
});
