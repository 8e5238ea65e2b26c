/**
 * Image sharpness as the mean absolute Laplacian of luma: a standard focus/blur measure (Pech-Pacheco
 * et al. 2000, "Diatom autofocusing in brightfield microscopy: a comparative study", ICPR; the
 * variance form is the more common autofocus score, the mean absolute form is less dominated by a
 * few edges). Luma is Rec. 601 (0.299 R + 0.587 G + 0.114 B) on 0–255 sRGB values; the Laplacian is
 * the 4-neighbour kernel [0 1 0; 1 −4 1; 0 1 0].
 */

/**
 * Mean |∇² Y| over the rows `[rowFrom, rowTo)` of an RGBA8 image (row-major, top row first),
 * interior pixels only (the first and last row and column have no 4-neighbourhood and are skipped).
 *
 * @param rgba width × height × 4 bytes.
 * @param rowFrom first row counted (clamped to 1).
 * @param rowTo one past the last row counted (clamped to height − 1; default the bottom).
 * @returns mean absolute Laplacian in luma units per pixel (0 for a flat image).
 * @throws RangeError when `rgba` is not width × height × 4 bytes or the row range holds no interior row.
 */
export function meanAbsLaplacian(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, rowFrom = 1, rowTo = height - 1): number {
  if (rgba.length !== width * height * 4) throw new RangeError(`meanAbsLaplacian: ${rgba.length} bytes is not ${width}×${height} RGBA`);
  const r0 = Math.max(1, Math.floor(rowFrom)), r1 = Math.min(height - 1, Math.ceil(rowTo));
  if (r1 <= r0 || width < 3) throw new RangeError(`meanAbsLaplacian: rows ${rowFrom}..${rowTo} hold no interior row of a ${width}×${height} image`);
  const luma = new Float32Array(width * height);
  for (let i = 0; i < width * height; i++) luma[i] = 0.299 * rgba[4 * i] + 0.587 * rgba[4 * i + 1] + 0.114 * rgba[4 * i + 2];
  let sum = 0;
  for (let y = r0; y < r1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      sum += Math.abs(luma[i - 1] + luma[i + 1] + luma[i - width] + luma[i + width] - 4 * luma[i]);
    }
  }
  return sum / ((r1 - r0) * (width - 2));
}
