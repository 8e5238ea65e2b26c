/**
 * Per-pass GPU timing with `timestamp-query` (WebGPU §20.4, "Timestamp Query").
 *
 * Each named span is one pass: the profiler hands out `timestampWrites` for it, resolves the query
 * set at the end of the frame's encoder and reads the times back asynchronously through a small pool
 * of readback buffers (no stall of the next frame). Where the adapter lacks `timestamp-query`, every
 * method is a no-op and `read` resolves to null, so callers need no branches.
 *
 * Chrome quantises timestamps to 100 µs unless started with
 * `--enable-dawn-features=allow_unsafe_apis`; docs/guide/profiling.md says so.
 */
import { mapForReading, submit } from './gpu-stats';

export class GpuProfiler {
  readonly enabled: boolean;
  private readonly querySet: GPUQuerySet | null;
  private readonly resolveBuffer: GPUBuffer | null;
  private readonly readbackPool: GPUBuffer[] = [];
  private names: string[] = [];
  private pending: { buffer: GPUBuffer; names: string[] } | null = null;

  /**
   * @param maxSpans Largest number of timed passes in one frame.
   */
  constructor(private readonly device: GPUDevice, readonly maxSpans = 16, label = 'GpuProfiler') {
    this.enabled = device.features.has('timestamp-query');
    this.querySet = this.enabled ? device.createQuerySet({ label: `${label}.querySet`, type: 'timestamp', count: maxSpans * 2 }) : null;
    this.resolveBuffer = this.enabled
      ? device.createBuffer({ label: `${label}.resolveBuffer`, size: maxSpans * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC })
      : null;
  }

  /** Starts a new frame's list of spans. */
  beginFrame(): void {
    this.names = [];
  }

  /** Timestamp writes for a pass named `name`, or undefined when disabled or over `maxSpans`. */
  span(name: string): GPUComputePassTimestampWrites | undefined {
    if (!this.querySet || this.names.length >= this.maxSpans) return undefined;
    const k = this.names.length;
    this.names.push(name);
    return { querySet: this.querySet, beginningOfPassWriteIndex: 2 * k, endOfPassWriteIndex: 2 * k + 1 };
  }

  /** Records the resolve and copy of this frame's timestamps; call once, after the last timed pass. */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || !this.resolveBuffer || this.names.length === 0 || this.pending) return;
    const count = this.names.length * 2;
    encoder.resolveQuerySet(this.querySet, 0, count, this.resolveBuffer, 0);
    const buffer =
      this.readbackPool.pop() ??
      this.device.createBuffer({ label: 'GpuProfiler.readback', size: this.maxSpans * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(this.resolveBuffer, 0, buffer, 0, count * 8);
    this.pending = { buffer, names: this.names };
  }

  /**
   * Ends a timed frame: records the resolve into `encoder`, submits it, waits for the GPU
   * (`onSubmittedWorkDone`) and reads the spans.
   *
   * @returns wall-clock ms from submit to completion, and the span durations (null when disabled).
   */
  async submitTimed(encoder: GPUCommandEncoder): Promise<{ wallMs: number; spans: Map<string, number> | null }> {
    this.resolve(encoder);
    const t0 = performance.now();
    submit(this.device, encoder);
    await this.device.queue.onSubmittedWorkDone();
    const wallMs = performance.now() - t0;
    return { wallMs, spans: await this.read() };
  }

  /**
   * Reads the last resolved frame after its submission: per-span durations in milliseconds, plus
   * the gaps between consecutive spans under `name→next` keys when they are positive. Null when
   * disabled or nothing was resolved.
   */
  async read(): Promise<Map<string, number> | null> {
    const p = this.pending;
    if (!p) return null;
    this.pending = null;
    await mapForReading(this.device, p.buffer);
    const t = new BigInt64Array(p.buffer.getMappedRange(0, p.names.length * 16).slice(0));
    p.buffer.unmap();
    this.readbackPool.push(p.buffer);
    const out = new Map<string, number>();
    p.names.forEach((name, k) => {
      out.set(name, Number(t[2 * k + 1] - t[2 * k]) / 1e6);
      if (k + 1 < p.names.length) {
        const gap = Number(t[2 * k + 2] - t[2 * k + 1]) / 1e6;
        if (gap > 0) out.set(`${name}→${p.names[k + 1]}`, gap);
      }
    });
    return out;
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    for (const b of this.readbackPool) b.destroy();
    this.pending?.buffer.destroy();
  }
}
