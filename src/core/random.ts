/**
 * Seeded randomness for everything in Curbside that is random (world generation, spawn jitter,
 * behaviour parameters, diffusion noise): one generator per purpose, derived deterministically from
 * an episode seed and a label, so adding a draw in one subsystem never shifts another's numbers.
 *
 * Generator: xoroshiro128+ from `pure-rand` (Blackman & Vigna 2018). Seed derivation: FNV-1a over
 * the label mixed with the parent seed through the splitmix32 finaliser.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

/** A seeded random stream. All methods advance it. */
export interface Rng {
  /** The seed it was created from (a 32-bit unsigned integer). */
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number;
  /** Uniform integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A child stream for `label`, independent of how many draws this one has made. */
  fork(label: string | number): Rng;
}

function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** Derives a 32-bit seed from a parent seed and a label (deterministic, order-sensitive). */
export function deriveSeed(parent: number, label: string | number): number {
  let h = 0x811c9dc5 ^ splitmix32(parent >>> 0);
  const s = String(label);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return splitmix32(h);
}

/**
 * Creates a seeded stream.
 *
 * @throws RangeError when `seed` is not a finite integer.
 */
export function createRng(seed: number): Rng {
  if (!Number.isInteger(seed)) throw new RangeError(`createRng: seed must be an integer, got ${seed}`);
  const s = seed >>> 0;
  const g = xoroshiro128plus(s);
  const rng: Rng = {
    seed: s,
    next: () => uniformFloat64(g),
    range: (lo, hi) => lo + (hi - lo) * uniformFloat64(g),
    int: (lo, hi) => uniformInt(g, lo, hi),
    normal: () => {
      const u = 1 - uniformFloat64(g);
      const v = uniformFloat64(g);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => {
      if (items.length === 0) throw new RangeError('Rng.pick: empty array');
      return items[uniformInt(g, 0, items.length - 1)];
    },
    fork: (label) => createRng(deriveSeed(s, label)),
  };
  return rng;
}
