import { describe, expect, it } from 'vitest';
import { meanAbsLaplacian } from './image-sharpness';

/** A grey RGBA image from a luma function. */
function grey(width: number, height: number, f: (x: number, y: number) => number): Uint8Array {
  const a = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) a.set([f(x, y), f(x, y), f(x, y), 255], 4 * (y * width + x));
  return a;
}

describe('meanAbsLaplacian', () => {
  it('is zero on flat and linear images', () => {
    expect(meanAbsLaplacian(grey(8, 6, () => 90), 8, 6)).toBe(0);
    expect(meanAbsLaplacian(grey(8, 6, (x, y) => 10 * x + 5 * y), 8, 6)).toBeCloseTo(0, 4);
  });

  it('measures a checkerboard exactly: |4·(a − b)| at every pixel', () => {
    // Each pixel differs from its four neighbours by ±100: |4 · 100| = 400 (luma of grey v is v).
    expect(meanAbsLaplacian(grey(10, 10, (x, y) => ((x + y) % 2 ? 150 : 50)), 10, 10)).toBeCloseTo(400, 3);
  });

  it('counts only the given rows, and blurring lowers it', () => {
    const w = 12, h = 12;
    const sharp = grey(w, h, (x, y) => (y >= 6 && (x + y) % 2 ? 200 : 0));
    expect(meanAbsLaplacian(sharp, w, h, 1, 5)).toBe(0);
    const lower = meanAbsLaplacian(sharp, w, h, 7, 11);
    expect(lower).toBeCloseTo(800, 3); // 0 | 200 checkerboard: |4 · 200|
    const blurred = grey(w, h, (x, y) => (y >= 6 ? 100 + (((x + y) % 2 ? 1 : -1) * 100) / 2 : 0));
    expect(meanAbsLaplacian(blurred, w, h, 7, 11)).toBeCloseTo(lower / 2, 3);
  });

  it('rejects a wrong buffer size and an empty row range', () => {
    expect(() => meanAbsLaplacian(new Uint8Array(10), 4, 4)).toThrow(/not 4×4 RGBA/);
    expect(() => meanAbsLaplacian(grey(4, 4, () => 0), 4, 4, 3, 3)).toThrow(/no interior row/);
  });
});
