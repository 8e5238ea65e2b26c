/**
 * Noise for diffusion policies (NoMaD, Sridhar et al. 2024, arXiv:2310.07896 §III; DDPM sampling,
 * Ho et al. 2020, Alg. 2): the graph takes its noise as an input, and Curbside draws it from the
 * episode's seed so the same seed and actions give the same episode (product brief, Conventions).
 */
import { createRng, deriveSeed, type Rng } from '../core/random';

/** Label of the noise stream derived from an episode seed (`deriveSeed(seed, label)`). */
export const DIFFUSION_NOISE_LABEL = 'policy.diffusion-noise';

/**
 * Standard-normal noise of a fixed per-environment shape, one seeded stream per environment.
 * Environment b's draws depend only on its episode seed and on how many steps it has taken since
 * its reset, never on the other environments.
 */
export class DiffusionNoise {
  /** Elements per environment (product of `shape`). */
  readonly size: number;
  private readonly streams: Rng[];

  /**
   * @param shape Per-environment noise shape (the manifest's `noise.shape`, batch excluded).
   * @param batch B.
   * @throws Error when a dim or the batch is not a positive integer.
   */
  constructor(readonly shape: readonly number[], readonly batch: number) {
    if (!shape.every((d) => Number.isInteger(d) && d > 0) || !(Number.isInteger(batch) && batch > 0)) {
      throw new Error(`DiffusionNoise: shape [${shape.join(', ')}] and batch ${batch} must be positive integers`);
    }
    this.size = shape.reduce((a, b) => a * b, 1);
    this.streams = Array.from({ length: batch }, () => createRng(deriveSeed(0, DIFFUSION_NOISE_LABEL)));
  }

  /** Restarts the streams of `envs` (all when omitted) from episode seed `seed`. */
  reset(seed: number, envs?: readonly number[]): void {
    for (const b of envs ?? this.streams.keys()) {
      if (!(b >= 0 && b < this.batch)) throw new Error(`DiffusionNoise.reset: environment ${b} outside [0, ${this.batch})`);
      this.streams[b] = createRng(deriveSeed(seed, DIFFUSION_NOISE_LABEL));
    }
  }

  /** Draws one step of noise: [B, …shape] float32, N(0, 1). */
  next(): Float32Array {
    const out = new Float32Array(this.batch * this.size);
    for (let b = 0; b < this.batch; b++) {
      const rng = this.streams[b];
      for (let i = 0; i < this.size; i++) out[b * this.size + i] = rng.normal();
    }
    return out;
  }
}
