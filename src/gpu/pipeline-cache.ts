/**
 * Pipelines once per device, state per view: each pass compiles its shader modules, bind group
 * layouts and pipelines once per `GPUDevice` ({@link deviceCached}, keyed by kernel name, override
 * constants and formats) and every instance on that device — one per robot camera, environment or
 * scene size — shares them, keeping only its own buffers, uniforms and bind groups. Pipelines are
 * created through {@link createComputePipeline} / {@link createRenderPipeline}, which count them
 * (gpu-stats.ts `pipelinesCreated`).
 *
 * Bind groups made with a cached layout (or with a cached `layout: 'auto'` pipeline's
 * `getBindGroupLayout`) are valid with the cached pipelines, whichever instance made them.
 */
import { countPipelineCreated } from './gpu-stats';

const caches = new WeakMap<GPUDevice, Map<string, Promise<unknown>>>();

/**
 * A cache key from a kernel name and what selects its variant (override constants, texture formats,
 * …), e.g. `cacheKey('RadixSort', constants)`; parts are JSON-encoded.
 */
export function cacheKey(name: string, ...parts: unknown[]): string {
  return parts.length === 0 ? name : `${name}:${JSON.stringify(parts)}`;
}

/**
 * The value cached under `key` for `device`, made by `make` on the first call (concurrent first
 * calls share one `make`). A `make` that rejects is forgotten, so a later call tries again.
 *
 * @throws whatever `make` rejects with.
 */
export function deviceCached<T>(device: GPUDevice, key: string, make: () => Promise<T>): Promise<T> {
  let cache = caches.get(device);
  if (!cache) caches.set(device, (cache = new Map()));
  let value = cache.get(key) as Promise<T> | undefined;
  if (!value) {
    const made = make();
    value = made;
    cache.set(key, made);
    made.catch(() => {
      if (cache.get(key) === made) cache.delete(key);
    });
  }
  return value;
}

/** `device.createComputePipelineAsync(descriptor)`, counted as one pipeline created. */
export function createComputePipeline(device: GPUDevice, descriptor: GPUComputePipelineDescriptor): Promise<GPUComputePipeline> {
  countPipelineCreated(device);
  return device.createComputePipelineAsync(descriptor);
}

/** `device.createComputePipeline(descriptor)` (synchronous, for pipelines made on first use), counted. */
export function createComputePipelineSync(device: GPUDevice, descriptor: GPUComputePipelineDescriptor): GPUComputePipeline {
  countPipelineCreated(device);
  return device.createComputePipeline(descriptor);
}

/** `device.createRenderPipelineAsync(descriptor)`, counted as one pipeline created. */
export function createRenderPipeline(device: GPUDevice, descriptor: GPURenderPipelineDescriptor): Promise<GPURenderPipeline> {
  countPipelineCreated(device);
  return device.createRenderPipelineAsync(descriptor);
}
