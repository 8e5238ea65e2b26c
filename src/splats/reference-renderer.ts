/**
 * Plain TypeScript reference renderer for Gaussian splats (f64, one pixel at a time), the oracle
 * the GPU renderer is tested against.
 *
 * Implements 3DGS α-blending (Kerbl et al. 2023, eq. 3): C = Σᵢ cᵢ αᵢ Πⱼ<ᵢ (1 − αⱼ) over splats
 * sorted front to back, with αᵢ = min(0.99, oᵢ exp(−½ dᵀ Σ'⁻¹ d)) and fragments with αᵢ < 1/255
 * skipped, as the reference CUDA rasteriser does. Composited back to front here with the
 * premultiplied "over" operator, which gives the same sum. Every pixel whose centre gets α ≥ 1/255
 * contributes (the ellipse of `projectSplat`'s extent; the CUDA rasteriser's 3-sigma tile
 * bounds are an implementation limit, not part of the equations).
 */
import { cameraModel, type SplatCamera } from '../gpu/camera';
import { ALPHA_MAX, ALPHA_MIN, projectSplat, type ProjectedSplat } from './projection';
import { evalSplatColor } from './spherical-harmonics';
import type { SplatCloud } from './splat-cloud';

export { ALPHA_MAX, ALPHA_MIN };

/**
 * Renders `cloud` from `camera` into a linear RGBA float image (width×height×4, row-major, top row
 * first), premultiplied over the given background (default black, alpha 0).
 *
 * @param depthLimit Optional per-pixel camera depth (metres) of opaque geometry: splats whose
 *   centre is at or behind it are hidden at that pixel, as by the GPU depth test.
 * @param minAlphaMass Cull splats whose total α is below this, px² (`alphaMass`; 0 keeps all), as
 *   the GPU renderer's option of the same name.
 */
export function renderSplatsReference(
  cloud: SplatCloud,
  camera: SplatCamera,
  depthLimit?: Float32Array,
  minAlphaMass = 0,
): Float32Array {
  const cam = cameraModel(camera);
  const { width, height } = camera;
  const projected: (ProjectedSplat & { index: number })[] = [];
  for (let i = 0; i < cloud.count; i++) {
    const p = projectSplat(cloud, i, cam, minAlphaMass);
    if (p) projected.push({ ...p, index: i });
  }
  // Back to front by exact (f64) camera depth; ties keep file order. The GPU sorts quantised
  // depth, so any order error it makes shows up in the PSNR against this image.
  projected.sort((a, b) => b.depth - a.depth || a.index - b.index);
  const img = new Float64Array(width * height * 4);
  const color = new Float64Array(3);
  const dir = new Float64Array(3);
  for (const s of projected) {
    const i = s.index;
    // View direction for the spherical harmonics: eye → splat, or the axis (orthographic: parallel rays).
    for (let k = 0; k < 3; k++) dir[k] = cam.orthographic ? cam.rotation[6 + k] : cloud.positions[i * 3 + k] - cam.eye[k];
    const n = Math.hypot(dir[0], dir[1], dir[2]);
    for (let k = 0; k < 3; k++) dir[k] /= n;
    evalSplatColor(cloud, i, dir, color);
    const [ca, cb, cc] = s.conic;
    const [hx, hy] = s.halfExtent;
    const x0 = Math.max(0, Math.floor(s.u - hx));
    const x1 = Math.min(width - 1, Math.ceil(s.u + hx));
    const y0 = Math.max(0, Math.floor(s.v - hy));
    const y1 = Math.min(height - 1, Math.ceil(s.v + hy));
    for (let py = y0; py <= y1; py++) {
      const dy = py + 0.5 - s.v;
      for (let px = x0; px <= x1; px++) {
        const dx = px + 0.5 - s.u;
        if (depthLimit && s.depth >= depthLimit[py * width + px]) continue;
        const power = -0.5 * (ca * dx * dx + cc * dy * dy) - cb * dx * dy;
        if (power > 0) continue;
        const alpha = Math.min(ALPHA_MAX, s.opacity * Math.exp(power));
        if (alpha < ALPHA_MIN) continue;
        const o = (py * width + px) * 4;
        for (let k = 0; k < 3; k++) img[o + k] = color[k] * alpha + img[o + k] * (1 - alpha);
        img[o + 3] = alpha + img[o + 3] * (1 - alpha);
      }
    }
  }
  return Float32Array.from(img);
}

/**
 * Peak signal-to-noise ratio in dB between two RGB(A) float images in [0, 1] (alpha ignored),
 * values clamped to [0, 1] first: 10 log₁₀(1 / MSE). Infinity when identical.
 */
export function psnr(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`psnr: image sizes differ (${a.length} vs ${b.length})`);
  let se = 0;
  let n = 0;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  for (let i = 0; i < a.length; i += 4) {
    for (let k = 0; k < 3; k++) {
      const d = clamp(a[i + k]) - clamp(b[i + k]);
      se += d * d;
      n++;
    }
  }
  return se === 0 ? Infinity : 10 * Math.log10(n / se);
}
