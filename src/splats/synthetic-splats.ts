/**
 * Seeded synthetic splat clouds for benchmarks: N anisotropic splats filling a box in front of a
 * fixed camera, so frame cost depends only on N and resolution.
 */
import { allocateSplatCloud, SH_C0, type SplatCloud } from './splat-cloud';
import { createRng } from '../core/random';
import type { PinholeCamera } from '../gpu/camera';

/**
 * `count` splats in the box x ∈ [−4, 4], y ∈ [2, 12], z ∈ [−3, 3] (Z-up world, metres), scales
 * 2–8 cm, opacity 0.3–1, random rotations and colours, with `shDegree` bands of small SH.
 */
export function syntheticSplats(count: number, shDegree = 0, seed = 1): SplatCloud {
  const rng = createRng(seed);
  const rand = () => rng.next();
  const c = allocateSplatCloud(count, shDegree);
  for (let i = 0; i < count; i++) {
    c.positions.set([rand() * 8 - 4, 2 + rand() * 10, rand() * 6 - 3], i * 3);
    c.scales.set([0.02 + rand() * 0.06, 0.02 + rand() * 0.06, 0.02 + rand() * 0.06], i * 3);
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
    const n = Math.hypot(...q);
    c.rotations.set(q.map((v) => v / n), i * 4);
    c.opacities[i] = 0.3 + 0.7 * rand();
    c.shDc.set([rand(), rand(), rand()].map((v) => (v - 0.5) / SH_C0), i * 3);
  }
  for (let k = 0; k < c.shRest.length; k++) c.shRest[k] = (rand() - 0.5) * 0.2;
  return c;
}

/** The camera the synthetic box is built for: at the origin, looking along +y, Z up. */
export function syntheticCamera(width: number, height: number): PinholeCamera {
  return { eye: [0, 0, 0], target: [0, 1, 0], up: [0, 0, 1], fovYDeg: 60, width, height, near: 0.1, far: 100 };
}
