import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_PATH, SWIFTSHADER_FLAGS } from './src/tools/chromium-flags.ts';

/** Shared test data lives beside the repository (`../shared/data`), never copied into it. */
export const SHARED_DATA = resolve(import.meta.dirname, process.env.CURBSIDE_SHARED_DATA ?? '../shared/data');

export default defineConfig({
  server: { fs: { allow: ['.', SHARED_DATA] } },
  // Pre-bundle CommonJS/large dependencies up front, so a first browser run on a clean clone does
  // not re-optimise and reload mid-test.
  optimizeDeps: { include: ['npyjs', '@gltf-transform/core', 'fflate', 'wgpu-matrix', 'zod', 'earcut', 'polygon-clipping', 'tinyqueue', 'onnxruntime-web/webgpu', 'playcanvas'] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['**/*.gpu.test.ts', '**/*.browser.test.ts', 'node_modules/**'],
          env: { CURBSIDE_SHARED_DATA: SHARED_DATA },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['src/**/*.gpu.test.ts', 'src/**/*.browser.test.ts', 'test/**/*.gpu.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: CHROMIUM_PATH, args: SWIFTSHADER_FLAGS },
            }),
            instances: [{ browser: 'chromium' }],
            commands: {
              /** Reads a file under `../shared/data` and returns it base64-encoded. */
              async readSharedData(_ctx, relPath: string) {
                const bytes = await readFile(resolve(SHARED_DATA, relPath));
                return bytes.toString('base64');
              },
              /** The URL under which the test page can fetch `../shared/data/<relPath>` (Vite's /@fs/). */
              async sharedDataUrl(_ctx, relPath: string) {
                return `/@fs${resolve(SHARED_DATA, relPath)}`;
              },
            },
          },
        },
      },
    ],
  },
});
