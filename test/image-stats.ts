/** Image statistics the tests read. */

/** Standard deviation of luma (BT.601 weights) over the first `n` RGBA8 pixels (default all): a real image is not one flat colour. */
export function lumaStd(rgba: Uint8Array | Uint8ClampedArray, n = rgba.length / 4): number {
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const y = 0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2];
    s += y;
    s2 += y * y;
  }
  return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
}
