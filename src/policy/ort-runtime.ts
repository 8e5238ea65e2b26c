/**
 * onnxruntime-web 1.30 for the page (browser only): the `onnxruntime-web/webgpu` build — the native
 * WebGPU execution provider (WASM + asyncify), which honours a `GPUDevice` passed per session in
 * `executionProviders: [{ name: 'webgpu', device }]` (`webgpuRegisterDevice` in
 * `dist/ort.webgpu.mjs`); the default `onnxruntime-web` build silently ignores it (product brief).
 * The same module also runs the `wasm` (CPU) EP.
 *
 * Assets: the bundled build embeds its JS glue but loads `ort-wasm-simd-threaded.asyncify.wasm`
 * at run time. Vite serves it from node_modules (`?url` import; nothing comes from the network),
 * which works in the dev server, Vitest browser mode and the CLI harness page alike.
 */
import * as ort from 'onnxruntime-web/webgpu';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

let configured = false;

/**
 * The configured onnxruntime module: wasm path set to the served asset, one thread (threads need
 * cross-origin isolation, which the harness page does not have), no proxy worker (a proxy cannot
 * use our GPUDevice).
 */
export function getOrt(): typeof ort {
  if (!configured) {
    ort.env.wasm.wasmPaths = { wasm: ortWasmUrl };
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.logLevel = 'warning';
    configured = true;
  }
  return ort;
}

/** The onnxruntime module type (for signatures). */
export type Ort = typeof ort;
