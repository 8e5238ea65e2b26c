/**
 * A procedural sky behind rendered splats: the renderer composites over transparent black, so the
 * pixels' remaining transmittance (1 − alpha) shows a vertical gradient by each pixel ray's
 * elevation — hazy near the horizon, bluer towards the zenith, and a grey-green haze below the
 * horizon (ground beyond the view distance).
 */
import { cameraModel, type PinholeCamera } from '../../gpu/camera';

/** Sky colours (display RGB in [0, 1]). */
export const SKY_COLORS = {
  zenith: [0.36, 0.56, 0.86],
  horizon: [0.8, 0.86, 0.92],
  groundHaze: [0.62, 0.64, 0.6],
} as const;

/**
 * Composites the sky under premultiplied RGBA pixels (width × height × 4, top row first, as
 * `renderSplatsOffscreen` returns them) in place, and sets alpha to 1.
 *
 * @throws Error from `cameraModel` for an invalid camera, or RangeError when the pixel count does not match the camera.
 */
export function compositeSky(pixels: Float32Array, camera: PinholeCamera): Float32Array {
  const m = cameraModel(camera);
  if (pixels.length !== m.width * m.height * 4) throw new RangeError(`compositeSky: ${pixels.length / 4} pixels for a ${m.width}×${m.height} camera`);
  const R = m.rotation;
  const { zenith, horizon, groundHaze } = SKY_COLORS;
  for (let j = 0; j < m.height; j++) {
    for (let i = 0; i < m.width; i++) {
      const xc = (i + 0.5 - m.cx) / m.fx, yc = (j + 0.5 - m.cy) / m.fy;
      // World ray = Rᵀ (xc, yc, 1); only its z (elevation) matters.
      const dz = R[2] * xc + R[5] * yc + R[8];
      const e = dz / Math.hypot(xc, yc, 1);
      let c: readonly number[];
      const mix = [0, 0, 0];
      if (e >= 0) {
        const t = Math.min(1, Math.sqrt(e * 2.2));
        for (let k = 0; k < 3; k++) mix[k] = horizon[k] + (zenith[k] - horizon[k]) * t;
      } else {
        const t = Math.min(1, -e * 12);
        for (let k = 0; k < 3; k++) mix[k] = horizon[k] + (groundHaze[k] - horizon[k]) * t;
      }
      c = mix;
      const o = (j * m.width + i) * 4;
      const a = Math.min(1, Math.max(0, pixels[o + 3]));
      for (let k = 0; k < 3; k++) pixels[o + k] += (1 - a) * c[k];
      pixels[o + 3] = 1;
    }
  }
  return pixels;
}
