/**
 * Node side of the command-line tools: serves the project with Vite on 127.0.0.1, opens
 * `src/cli/headless.html` in Chromium (headless with SwiftShader flags by default, or a visible
 * window / hardware GPU on request) through playwright-core, and serves local input files to the
 * page under `/__curbside/file/<n>` so large files never pass through `page.evaluate`.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { CHROMIUM_PATH, HARDWARE_GPU_FLAGS, SWIFTSHADER_FLAGS } from '../../test/chromium-flags';

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
  /** Makes a local file readable by the page; returns its URL and base name. */
  serveFile(path: string): Promise<{ url: string; name: string }>;
  /**
   * Calls `window.curbsideHeadless[fn](arg)` in the page (`fn` is an export of a `headless-api.ts`
   * module). Errors keep the page's message, as a CliError.
   */
  call<T>(fn: string, arg: unknown): Promise<T>;
}

/**
 * Serves the project with Vite on 127.0.0.1 (a free port, the project's vite.config.ts, whose
 * optimizeDeps list pre-bundles CommonJS/UMD dependencies), without HMR or file watching.
 *
 * @throws Error when the server does not report a listening address.
 */
export async function startViteServer(): Promise<{ server: ViteDevServer; origin: string }> {
  const server = await createServer({
    root: ROOT,
    configFile: resolve(ROOT, 'vite.config.ts'),
    logLevel: 'error',
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

/** A user-facing error: the CLI prints its message alone and exits 1. */
export class CliError extends Error {}

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
  try {
    let origin: string;
    ({ server, origin } = await startViteServer());
    const args = options.hardwareGpu ? HARDWARE_GPU_FLAGS : SWIFTSHADER_FLAGS;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: !options.headed, args });
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const files = new Map<string, string>();
    await page.route(`${origin}/__curbside/file/**`, async (route) => {
      const path = files.get(new URL(route.request().url()).pathname);
      if (!path) return route.fulfill({ status: 404 });
      return route.fulfill({ status: 200, body: await readFile(path), contentType: 'application/octet-stream' });
    });
    await page.goto(`${origin}/src/cli/headless.html`);
    // Ready when the entry script sets the title; a module error fails at once instead of waiting.
    const started = Date.now();
    while (!(await page.title().then((t) => t === 'curbside-ready'))) {
      if (pageErrors.length > 0) throw new Error(`the headless page did not start: ${pageErrors.join('; ')}`);
      if (Date.now() - started > 120_000) throw new Error('the headless page did not start within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const harness: Harness = {
      page,
      async serveFile(path: string) {
        const abs = resolve(path);
        try {
          const s = await stat(abs);
          if (!s.isFile()) throw new Error('not a file');
        } catch {
          throw new CliError(`${path}: no such file`);
        }
        const urlPath = `/__curbside/file/${files.size}/${encodeURIComponent(basename(abs))}`;
        files.set(urlPath, abs);
        return { url: `${origin}${urlPath}`, name: basename(abs) };
      },
      async call<T>(fn: string, arg: unknown): Promise<T> {
        try {
          return await page.evaluate(
            ([f, a]) => (window as unknown as { curbsideHeadless: Record<string, (x: unknown) => unknown> }).curbsideHeadless[f](a),
            [fn, arg] as const,
          ) as T;
        } catch (e) {
          // Playwright wraps page errors as "page.evaluate: Error: <message>\n    at ...".
          const msg = (e as Error).message.replace(/^page\.evaluate:\s*(\w*Error:\s*)?/, '').split('\n    at ')[0];
          throw new CliError(msg.trim());
        }
      },
    };
    return await body(harness);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
  }
}

/** Runs a CLI main: prints a CliError's message alone (exit 1), anything else with its stack. */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      if (e instanceof CliError) console.error(`error: ${e.message}`);
      else console.error(e);
      process.exit(1);
    },
  );
}
