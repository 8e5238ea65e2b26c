/**
 * Per-device counters of the GPU work Curbside itself issues: queue submissions, compute and render
 * passes begun, bytes mapped back to the CPU, and pipelines created. They count through the helpers
 * below, which the passes call instead of the raw `GPUQueue.submit`, `beginComputePass`,
 * `beginRenderPass` and `mapAsync` (and {@link countPipelineCreated} from pipeline-cache.ts); the
 * WebGPU objects themselves are not wrapped or patched. Work that onnxruntime-web does on the same
 * device is not counted, except the policy outputs it downloads ({@link countReadback}).
 *
 * `npm run bench -- --stats` reads them ({@link gpuStats}) to print the work per control step.
 */

/** What a device has done so far (counts since the device was first seen here). */
export interface GpuStats {
  /** `GPUQueue.submit` calls. */
  submissions: number;
  /** Compute passes begun. */
  computePasses: number;
  /** Render passes begun. */
  renderPasses: number;
  /** Bytes read back to the CPU: buffers mapped for reading, plus downloads counted by {@link countReadback}. */
  readbackBytes: number;
  /** Compute and render pipelines created (pipeline-cache.ts). */
  pipelinesCreated: number;
}

/** All counters 0: a device that has done nothing yet. */
export const NO_GPU_WORK: Readonly<GpuStats> = { submissions: 0, computePasses: 0, renderPasses: 0, readbackBytes: 0, pipelinesCreated: 0 };

const counters = new WeakMap<GPUDevice, GpuStats>();

function countersOf(device: GPUDevice): GpuStats {
  let c = counters.get(device);
  if (!c) counters.set(device, (c = { ...NO_GPU_WORK }));
  return c;
}

/** A snapshot of `device`'s counters (all 0 for a device that did nothing through these helpers). */
export function gpuStats(device: GPUDevice): GpuStats {
  return { ...countersOf(device) };
}

/** The counters of `after` minus those of `before`, field by field. */
export function gpuStatsDelta(after: GpuStats, before: GpuStats): GpuStats {
  return {
    submissions: after.submissions - before.submissions,
    computePasses: after.computePasses - before.computePasses,
    renderPasses: after.renderPasses - before.renderPasses,
    readbackBytes: after.readbackBytes - before.readbackBytes,
    pipelinesCreated: after.pipelinesCreated - before.pipelinesCreated,
  };
}

/** Finishes `encoder` and submits it to `device`'s queue as one submission (counted). */
export function submit(device: GPUDevice, encoder: GPUCommandEncoder): void {
  countersOf(device).submissions++;
  device.queue.submit([encoder.finish()]);
}

/** `encoder.beginComputePass(descriptor)`, counted against `device` (the encoder's device). */
export function beginComputePass(device: GPUDevice, encoder: GPUCommandEncoder, descriptor?: GPUComputePassDescriptor): GPUComputePassEncoder {
  countersOf(device).computePasses++;
  return encoder.beginComputePass(descriptor);
}

/** `encoder.beginRenderPass(descriptor)`, counted against `device` (the encoder's device). */
export function beginRenderPass(device: GPUDevice, encoder: GPUCommandEncoder, descriptor: GPURenderPassDescriptor): GPURenderPassEncoder {
  countersOf(device).renderPasses++;
  return encoder.beginRenderPass(descriptor);
}

/**
 * `buffer.mapAsync(GPUMapMode.READ, offset, size)`, counting `size` bytes (default: the rest of the
 * buffer from `offset`) as read back once the mapping succeeds.
 *
 * @param offset bytes, a multiple of 8; @param size bytes, a multiple of 4 (WebGPU's mapAsync rules).
 * @throws whatever `mapAsync` rejects with (e.g. an OperationError when the device is lost).
 */
export async function mapForReading(device: GPUDevice, buffer: GPUBuffer, offset = 0, size = buffer.size - offset): Promise<void> {
  await buffer.mapAsync(GPUMapMode.READ, offset, size);
  countersOf(device).readbackBytes += size;
}

/** Counts `bytes` read back from `device` by other means (e.g. onnxruntime-web's output download). */
export function countReadback(device: GPUDevice, bytes: number): void {
  countersOf(device).readbackBytes += bytes;
}

/** Counts one pipeline created on `device` (called by pipeline-cache.ts's create helpers). */
export function countPipelineCreated(device: GPUDevice): void {
  countersOf(device).pipelinesCreated++;
}

/**
 * The one-line report of `npm run bench -- --stats`: `stats:` then `key=value` pairs — submissions,
 * compute passes, render passes and bytes read back per control step (2 decimals), the pipelines
 * created over the run, and the control steps. Per-step values are 0 when no step ran.
 *
 * @param controlSteps lockstep control steps the counters cover (≥ 0).
 */
export function statsLine(stats: GpuStats, controlSteps: number): string {
  const per = (n: number) => (controlSteps > 0 ? n / controlSteps : 0).toFixed(2);
  return (
    `stats: submissions/step=${per(stats.submissions)} computePasses/step=${per(stats.computePasses)} renderPasses/step=${per(stats.renderPasses)}` +
    ` readbackBytes/step=${per(stats.readbackBytes)} pipelinesCreated=${stats.pipelinesCreated} controlSteps=${controlSteps}`
  );
}
