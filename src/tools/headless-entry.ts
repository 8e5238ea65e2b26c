/**
 * Browser side of the command-line tools: the page the CLI opens in headless Chromium.
 *
 * Every subsystem that the CLI drives has a `headless-api.ts` module (benchmarks: `bench/*.headless-api.ts`)
 * whose exported functions take plain JSON and return plain JSON (images as base64 RGBA8). They are
 * collected here into `window.curbsideHeadless` by name; errors thrown keep the one-line message the
 * CLI prints. Exported names must be unique across modules (checked below).
 */
type HeadlessFn = (arg: never) => Promise<unknown>;

const modules = import.meta.glob<Record<string, unknown>>(['../**/headless-api.ts', '../../bench/*.headless-api.ts'], { eager: true });
const api: Record<string, HeadlessFn> = {};
for (const [path, mod] of Object.entries(modules)) {
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== 'function') continue;
    if (api[name]) throw new Error(`headless API: '${name}' is exported by two modules (${path})`);
    api[name] = value as HeadlessFn;
  }
}
(window as unknown as { curbsideHeadless: Record<string, HeadlessFn> }).curbsideHeadless = api;
document.title = 'curbside-ready';
