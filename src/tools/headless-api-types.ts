/**
 * The headless page's API as one type, for `Harness.call`: every function exported by a
 * `headless-api.ts` module (and the benchmarks' `bench/*.headless-api.ts`), the same set that
 * headless-entry.ts collects into `window.curbsideHeadless` by name. Type-only imports: nothing
 * here runs in Node. A new headless-api module must be added to `Modules` (the harness test
 * checks the two lists agree).
 */
type Modules =
  & typeof import('../bench/headless-api')
  & typeof import('../crowd/headless-api')
  & typeof import('../policy/headless-api')
  & typeof import('../splats/headless-api')
  & typeof import('../sensors/headless-api')
  & typeof import('../world/headless-api')
  & typeof import('../../bench/crowd-batch.headless-api')
  & typeof import('../../bench/crowd.headless-api')
  & typeof import('../../bench/gpu.headless-api')
  & typeof import('../../bench/pedestrians.headless-api')
  & typeof import('../../bench/peers.headless-api')
  & typeof import('../../bench/profile-scene.headless-api')
  & typeof import('../../bench/profile.headless-api')
  & typeof import('../../bench/splats.headless-api');

/** Name → function of every page function taking one JSON argument and returning a promise. */
export type HeadlessApi = {
  // biome-ignore lint/suspicious/noExplicitAny: matches any one-argument page function
  [K in keyof Modules as Modules[K] extends (arg: any) => Promise<unknown> ? K : never]: Modules[K];
};

/** The page files whose exports make up {@link HeadlessApi} (relative to the repository root). */
export const HEADLESS_API_MODULES = [
  'src/bench/headless-api.ts',
  'src/crowd/headless-api.ts',
  'src/policy/headless-api.ts',
  'src/splats/headless-api.ts',
  'src/sensors/headless-api.ts',
  'src/world/headless-api.ts',
  'bench/crowd-batch.headless-api.ts',
  'bench/crowd.headless-api.ts',
  'bench/gpu.headless-api.ts',
  'bench/pedestrians.headless-api.ts',
  'bench/peers.headless-api.ts',
  'bench/profile-scene.headless-api.ts',
  'bench/profile.headless-api.ts',
  'bench/splats.headless-api.ts',
] as const;
