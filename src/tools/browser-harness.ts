/**
 * Node side of the command-line tools: serves the project with Vite on 127.0.0.1, opens
 * `src/tools/headless.html` in Chromium (headless with SwiftShader flags by default, or a visible
 * window / hardware GPU on request) through playwright-core, and serves local input files and
 * folders to the page under `/__curbside/file/<n>/…`: streamed from disk by a Vite middleware, so
 * files of any size (a 2.5 GB street scan) never pass through `page.evaluate` or a base64 string.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, relative, resolve, sep } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { CliError } from '../core/user-error';
import type { HeadlessApi } from './headless-api-types';
import { PeakMemorySampler } from './process-memory';
import { CHROMIUM_PATH, HARDWARE_GPU_FLAGS, SWIFTSHADER_FLAGS } from './chromium-flags';

const ROOT = resolve(import.meta.dirname, '../..');

export interface HarnessOptions {
  /** Show a browser window instead of running headless. */
  headed?: boolean;
  /** Use the machine's GPU instead of SwiftShader. */
  hardwareGpu?: boolean;
}

/** A running page with the headless API, and a way to hand it local files. */
export interface Harness {
  page: Page;
  /**
   * Makes a local file readable by the page; returns its URL and base name. A folder (e.g. an
   * unbundled SOG capture: `meta.json` and its images) is served whole: the URL ends in `/` and
   * the page fetches `url + relative path`.
   */
  serveFile(path: string): Promise<{ url: string; name: string }>;
  /**
   * Peak memory of the browser's processes since the harness started, bytes (PSS summed over
   * Chromium's process tree, sampled every 250 ms and now; see process-memory.ts); null off Linux.
   */
  peakMemoryBytes(): number | null;
  /**
   * Calls `window.curbsideHeadless[fn](arg)` in the page (`fn` is an export of a `headless-api.ts`
   * module). Errors keep the page's message, as a CliError.
   */
  /**
   * Calls a page function of the headless API by name; the name checks the argument's and the
   * result's types ({@link HeadlessApi}).
   */
  call<K extends keyof HeadlessApi>(fn: K, arg: Parameters<HeadlessApi[K]>[0]): Promise<Awaited<ReturnType<HeadlessApi[K]>>>;
}

/**
 * Serves the project with Vite on 127.0.0.1 (a free port, the project's vite.config.ts, whose
 * optimizeDeps list pre-bundles CommonJS/UMD dependencies), without HMR or file watching.
 *
 * @throws Error when the server does not report a listening address.
 */
export async function startViteServer(plugins: Plugin[] = []): Promise<{ server: ViteDevServer; origin: string }> {
  const server = await createServer({
    root: ROOT,
    configFile: resolve(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    plugins,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('vite: no listening address');
  }
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

/** URL path prefix of served local files. */
const FILE_PREFIX = '/__curbside/file/';

/**
 * A Vite plugin serving registered local paths under {@link FILE_PREFIX}: `<n>/<name>` is file n,
 * `<n>/<rest>` a file inside folder n. Bodies are streamed from disk with their length, so the
 * page can fetch files larger than any string or single Node buffer.
 */
export function localFilesPlugin(paths: Map<string, { abs: string; dir: boolean }>): Plugin {
  const handle = async (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (!url.pathname.startsWith(FILE_PREFIX)) return next();
    const [id, ...rest] = url.pathname.slice(FILE_PREFIX.length).split('/');
    const entry = paths.get(id);
    let file: string | undefined;
    if (entry && !entry.dir) file = entry.abs;
    if (entry?.dir) {
      const candidate = resolve(entry.abs, ...rest.map(decodeURIComponent));
      const rel = relative(entry.abs, candidate);
      if (rel && !rel.startsWith('..') && !rel.startsWith(sep)) file = candidate;
    }
    const size = file ? await stat(file).then((s) => (s.isFile() ? s.size : -1), () => -1) : -1;
    if (!file || size < 0) {
      res.statusCode = 404;
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size), 'Cache-Control': 'no-store' });
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  };
  return {
    name: 'curbside-local-files',
    configureServer(server) {
      server.middlewares.use((req, res, next) => void handle(req, res, next));
    },
  };
}

/**
 * Starts the server and browser, runs `body`, and always tears both down.
 *
 * @throws CliError when Chromium is missing or a served file cannot be read.
 */
export async function withHarness<T>(options: HarnessOptions, body: (h: Harness) => Promise<T>): Promise<T> {
  try {
    await stat(CHROMIUM_PATH);
  } catch {
    throw new CliError(`Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CURBSIDE_CHROMIUM`);
  }
  let server: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let memory: PeakMemorySampler | undefined;
  try {
    let origin: string;
    const files = new Map<string, { abs: string; dir: boolean }>();
    ({ server, origin } = await startViteServer([localFilesPlugin(files)]));
    const args = options.hardwareGpu ? HARDWARE_GPU_FLAGS : SWIFTSHADER_FLAGS;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: !options.headed, args });
    memory = new PeakMemorySampler();
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (process.env.CURBSIDE_PAGE_LOG) console.log('[page]', m.type(), m.text().slice(0, 300)); });
    await page.goto(`${origin}/src/tools/headless.html`);
    // Ready when the entry script sets the title; a module error fails at once instead of waiting.
    const started = Date.now();
    while (!(await page.title().then((t) => t === 'curbside-ready'))) {
      if (pageErrors.length > 0) throw new Error(`the headless page did not start: ${pageErrors.join('; ')}`);
      if (Date.now() - started > 120_000) throw new Error('the headless page did not start within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const sampler = memory;
    const harness: Harness = {
      page,
      peakMemoryBytes() {
        sampler.sample();
        return sampler.peak;
      },
      async serveFile(path: string) {
        const abs = resolve(path);
        const s = await stat(abs).catch(() => null);
        if (!s || !(s.isFile() || s.isDirectory())) throw new CliError(`${path}: no such file`);
        const id = String(files.size);
        files.set(id, { abs, dir: s.isDirectory() });
        const name = basename(abs);
        return { url: `${origin}${FILE_PREFIX}${id}/${s.isDirectory() ? '' : encodeURIComponent(name)}`, name };
      },
      async call<K extends keyof HeadlessApi>(fn: K, arg: Parameters<HeadlessApi[K]>[0]): Promise<Awaited<ReturnType<HeadlessApi[K]>>> {
        try {
          return await page.evaluate(
            ([f, a]) => (window as unknown as { curbsideHeadless: Record<string, (x: unknown) => unknown> }).curbsideHeadless[f](a),
            [fn as string, arg as unknown] as const,
          ) as Awaited<ReturnType<HeadlessApi[K]>>;
        } catch (e) {
          // Playwright wraps page errors as "page.evaluate: Error: <message>\n    at ...".
          const msg = (e as Error).message.replace(/^page\.evaluate:\s*(\w*Error:\s*)?/, '').split('\n    at ')[0];
          throw new CliError(msg.trim());
        }
      },
    };
    return await body(harness);
  } finally {
    memory?.stop();
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
  }
}
