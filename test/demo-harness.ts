/**
 * Node-side harness for the demo page's end-to-end tests and screenshot scripts: starts Vite on
 * 127.0.0.1 (random port, the project's config), launches /usr/bin/chromium with the SwiftShader
 * flags (src/tools/chromium-flags.ts) through playwright-core, and opens `index.html` with query options.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { startViteServer } from '../src/tools/browser-harness';
import { CHROMIUM_PATH, HARDWARE_GPU_FLAGS, SWIFTSHADER_FLAGS } from '../src/tools/chromium-flags';

/** A running demo server and browser. */
export interface DemoHarness {
  origin: string;
  browser: Browser;
  /** Opens the demo with `query` (e.g. `w=320&h=240&suite=smoke`) and waits for `curbsideDemo.ready` and one frame. */
  open(query: string, hash?: string): Promise<Page>;
  close(): Promise<void>;
}

/** Starts Vite and Chromium. @param hardwareGpu use the GPU flags instead of SwiftShader. */
export async function startDemo(options: { headed?: boolean; hardwareGpu?: boolean } = {}): Promise<DemoHarness> {
  const { server, origin } = await startViteServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: !options.headed, args: options.hardwareGpu ? HARDWARE_GPU_FLAGS : SWIFTSHADER_FLAGS });
  return {
    origin,
    browser,
    async open(query: string, hash = '') {
      const page = await browser.newPage({ viewport: { width: 900, height: 560 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${origin}/index.html?${query}${hash ? `#${hash}` : ''}`);
      const t0 = Date.now();
      for (;;) {
        const st = await page.evaluate(() => {
          const d = (window as unknown as { curbsideDemo?: { ready: boolean; frames: number; error: string | null } }).curbsideDemo;
          return d ? { ready: d.ready, frames: d.frames, error: d.error } : null;
        });
        if (st?.error) throw new Error(`demo page: ${st.error}`);
        if (errors.length) throw new Error(`demo page: ${errors.join('; ')}`);
        if (st?.ready && st.frames > 0) return page;
        if (Date.now() - t0 > 90_000) throw new Error('demo page: no frame within 90 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    },
  };
}
