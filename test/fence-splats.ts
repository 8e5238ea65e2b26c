/** Test helper: counting the construction-fence splats of a background view. */
import { FENCE_COLORS } from '../src/bench/scenario-background';
import { SH_C0 } from '../src/splats/splat-cloud';

/** Splats of `cloud` with the fences' orange colour within `radius` metres (horizontal) of (cx, cy). */
export function orangeSplatsNear(cloud: { count: number; positions: Float32Array; shDc: Float32Array }, cx: number, cy: number, radius: number): number {
  let n = 0;
  for (let i = 0; i < cloud.count; i++) {
    const r = cloud.shDc[3 * i] * SH_C0 + 0.5, g = cloud.shDc[3 * i + 1] * SH_C0 + 0.5;
    if (Math.abs(r - FENCE_COLORS.orange[0]) < 1e-3 && Math.abs(g - FENCE_COLORS.orange[1]) < 1e-3 && Math.hypot(cloud.positions[3 * i] - cx, cloud.positions[3 * i + 1] - cy) < radius) n++;
  }
  return n;
}
