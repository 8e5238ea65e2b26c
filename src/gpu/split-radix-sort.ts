/**
 * The first portable GPU key-value radix sort (`shaders/gpu/split-radix-sort.wgsl`), kept as an
 * independent reference for {@link RadixSort} in tests: per 8-bit digit, each block sorts itself
 * with eight one-bit split steps in workgroup memory, which costs many barriers (see
 * bench/RESULTS.md for the measured difference). Not used by the renderer.
 *
 * Stable LSD radix sort with RADIX_BITS-bit digits after Satish, Harris & Garland (2009),
 * "Designing efficient sorting algorithms for manycore GPUs": per digit, a per-block histogram,
 * an exclusive scan of all histograms (the reduce-then-scan of Merrill & Grimshaw 2009, see
 * {@link PrefixScan}), then a scatter in which each block split-sorts its keys in workgroup memory
 * and writes them to their global positions. No subgroup operations and no inter-workgroup
 * forward-progress assumption (no decoupled look-back), so it runs wherever WebGPU does.
 * The plain TypeScript twin is `radixSortReference` in `radix-sort-reference.ts`.
 */
import { PrefixScan, workgroupGrid } from './prefix-scan';
import { createKernelModule } from './shader-loader';

/** Invocations per workgroup of both sort kernels (WGSL `override` of the same name). */
const RADIX_SORT_WORKGROUP_SIZE = 256;
/** Keys each invocation handles; fewer blocks means a shorter histogram to scan. */
const KEYS_PER_THREAD = 4;
/** Keys per block (one workgroup); at most 65536, the split sort packs local indices in 16 bits. */
const KEYS_PER_BLOCK = RADIX_SORT_WORKGROUP_SIZE * KEYS_PER_THREAD;
/** Bits per digit, i.e. per pass. */
const RADIX_BITS = 8;
/** Bins per digit. */
const RADIX_SIZE = 1 << RADIX_BITS;
/** Width of a key. */
const KEY_BITS = 32;

/** `SortParams` in radix-sort.wgsl: count, numBlocks, shift, pad0 (u32 each). */
const SORT_PARAMS_SIZE_BYTES = 16;
const MAX_PASSES = Math.ceil(KEY_BITS / RADIX_BITS);

/**
 * Sorts up to `capacity` (key, value) pairs of u32, ascending by key and stable, in place.
 *
 * Owns: a second key/value buffer pair (`keysTemp`, `valuesTemp`) that the passes ping-pong with,
 * the histogram buffer, one uniform buffer per digit pass, the histogram scan, both pipelines, and
 * one bind group per pass for the key/value buffers last passed to `encode`.
 *
 * Buffers (u32 each; numBlocks = ⌈count / KEYS_PER_BLOCK⌉, a block being one workgroup's keys):
 *
 * | buffer                   | u32 count              | contents                                       |
 * |--------------------------|------------------------|------------------------------------------------|
 * | `histogram`              | RADIX_SIZE × numBlocks | `[d * numBlocks + b]`: after histogramBlocks,  |
 * |                          |                        | keys of block b with digit d; after the scan,  |
 * |                          |                        | output index of block b's first digit-d key    |
 * | `params[p]` (uniform)    | 4 (SortParams)         | count, numBlocks, shift = p × RADIX_BITS, pad  |
 * | `keysTemp`, `valuesTemp` | capacity               | output of even passes, input of odd passes     |
 *
 * After an even number of passes (4 for 32-bit keys) the sorted pairs are back in the caller's
 * buffers; after an odd number they are copied back.
 *
 * Uniforms are written with `queue.writeBuffer` at encode time, and only when the count changes;
 * all sorts encoded into one submission must therefore use the same count.
 */
export class SplitRadixSort {
  private count = -1;
  private numBlocks = 0;
  private boundKeys: GPUBuffer | undefined;
  private boundValues: GPUBuffer | undefined;
  private bindGroups: GPUBindGroup[] = [];
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    /** Largest `count` accepted by `encode`. */
    readonly capacity: number,
    readonly label: string,
    private readonly maxWorkgroupsPerDimension: number,
    private readonly histogramPipeline: GPUComputePipeline,
    private readonly scatterPipeline: GPUComputePipeline,
    private readonly bindGroupLayout: GPUBindGroupLayout,
    private readonly keysTemp: GPUBuffer,
    private readonly valuesTemp: GPUBuffer,
    private readonly histogram: GPUBuffer,
    /** `params[p]` holds SortParams of digit pass p (shift = p × RADIX_BITS). */
    private readonly params: GPUBuffer[],
    private readonly histogramScan: PrefixScan,
  ) {}

  /**
   * Compiles the kernels and allocates the scratch buffers for up to `capacity` pairs.
   *
   * @param label Prefix of every GPU object's label (`RadixSort.keysTemp`, …).
   * @param maxWorkgroupsPerDimension Defaults to the device limit; tests lower it to exercise the
   *   2D dispatch (linearised workgroup id) that counts above 65535 blocks need.
   * @throws Error when `capacity` is not a positive integer or its buffers exceed the device's
   *   maxStorageBufferBindingSize.
   */
  static async create(
    device: GPUDevice,
    capacity: number,
    label = 'SplitRadixSort',
    maxWorkgroupsPerDimension = device.limits.maxComputeWorkgroupsPerDimension,
  ): Promise<SplitRadixSort> {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`SplitRadixSort.create: capacity ${capacity} is not a positive integer`);
    }
    const histogramLength = RADIX_SIZE * Math.ceil(capacity / KEYS_PER_BLOCK);
    const largestBytes = Math.max(capacity, histogramLength) * 4;
    if (largestBytes > device.limits.maxStorageBufferBindingSize) {
      throw new Error(
        `SplitRadixSort.create: capacity ${capacity} needs ${largestBytes}-byte buffers, above ` +
          `maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`,
      );
    }
    const module = await createKernelModule(device, 'gpu/split-radix-sort.wgsl');
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const bindGroupLayout = device.createBindGroupLayout({
      label: `${label}.bindGroupLayout`,
      entries: [
        entry(0, 'uniform'),
        entry(1, 'read-only-storage'),
        entry(2, 'read-only-storage'),
        entry(3, 'storage'),
        entry(4, 'storage'),
        entry(5, 'storage'),
      ],
    });
    const layout = device.createPipelineLayout({ label: `${label}.pipelineLayout`, bindGroupLayouts: [bindGroupLayout] });
    const constants = { RADIX_SORT_WORKGROUP_SIZE, KEYS_PER_THREAD, KEYS_PER_BLOCK, RADIX_BITS, RADIX_SIZE };
    const [histogramPipeline, scatterPipeline, histogramScan] = await Promise.all([
      device.createComputePipelineAsync({
        label: `${label}.histogramPipeline`,
        layout,
        compute: { module, entryPoint: 'histogramBlocks', constants },
      }),
      device.createComputePipelineAsync({
        label: `${label}.scatterPipeline`,
        layout,
        compute: { module, entryPoint: 'scatter', constants },
      }),
      PrefixScan.create(device, histogramLength, `${label}.histogramScan`, maxWorkgroupsPerDimension),
    ]);
    const storage = (field: string, size: number, extra = 0) =>
      device.createBuffer({ label: `${label}.${field}`, size, usage: GPUBufferUsage.STORAGE | extra });
    const params = Array.from({ length: MAX_PASSES }, (_, p) =>
      device.createBuffer({
        label: `${label}.params${p}`,
        size: SORT_PARAMS_SIZE_BYTES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      }),
    );
    return new SplitRadixSort(
      device, capacity, label, maxWorkgroupsPerDimension, histogramPipeline, scatterPipeline, bindGroupLayout,
      storage('keysTemp', capacity * 4, GPUBufferUsage.COPY_SRC),
      storage('valuesTemp', capacity * 4, GPUBufferUsage.COPY_SRC),
      storage('histogram', histogramLength * 4),
      params,
      histogramScan,
    );
  }

  /**
   * Records the digit passes that sort `keys[0 .. count)` ascending, stably, carrying
   * `values[0 .. count)` along; the sorted pairs end up in `keys` and `values`. Records only: the
   * caller submits `encoder`.
   *
   * @param keys u32 keys; STORAGE usage, at least `count` u32.
   * @param values u32 values (e.g. splat indices); STORAGE usage, at least `count` u32.
   * @param bitsToSort Sort by the low bits only: ⌈bitsToSort / RADIX_BITS⌉ passes compare that
   *   many whole low digits (16 → 2 passes; 12 also sorts 16 bits). With an odd number of passes
   *   the result is copied back, so `keys` and `values` then also need COPY_DST usage.
   * @param timestampWrites Optional timing of the sort's compute pass (see GpuProfiler).
   * @throws Error `SplitRadixSort.encode: count N exceeds capacity C`, and on a negative or fractional
   *   count, a `bitsToSort` outside [1, 32], a buffer that is too small or lacks a usage, the same
   *   buffer for keys and values, or a call after `destroy()`.
   */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, bitsToSort = KEY_BITS, timestampWrites?: GPUComputePassTimestampWrites): void {
    if (this.destroyed) throw new Error('SplitRadixSort.encode: called after destroy()');
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(`SplitRadixSort.encode: count ${count} is not a non-negative integer`);
    }
    if (count > this.capacity) {
      throw new Error(`SplitRadixSort.encode: count ${count} exceeds capacity ${this.capacity}`);
    }
    if (!Number.isInteger(bitsToSort) || bitsToSort < 1 || bitsToSort > KEY_BITS) {
      throw new Error(`SplitRadixSort.encode: bitsToSort ${bitsToSort} is not an integer in [1, ${KEY_BITS}]`);
    }
    if (keys === values) throw new Error('SplitRadixSort.encode: keys and values must be different buffers');
    const passes = Math.ceil(bitsToSort / RADIX_BITS);
    const needed = GPUBufferUsage.STORAGE | (passes % 2 === 1 ? GPUBufferUsage.COPY_DST : 0);
    for (const [name, buffer] of [['keys', keys], ['values', values]] as const) {
      if ((buffer.usage & needed) !== needed) {
        throw new Error(
          `SplitRadixSort.encode: ${name} buffer '${buffer.label}' lacks STORAGE` +
            (passes % 2 === 1 ? ' or COPY_DST usage (needed for an odd number of passes)' : ' usage'),
        );
      }
      if (buffer.size < count * 4) {
        throw new Error(`SplitRadixSort.encode: ${name} buffer '${buffer.label}' holds ${buffer.size} bytes, needs ${count * 4}`);
      }
    }
    if (count === 0) return;
    this.setCount(count);
    this.bind(keys, values);
    const pass = encoder.beginComputePass({ label: `${this.label}.pass`, timestampWrites });
    const grid = workgroupGrid(this.numBlocks, this.maxWorkgroupsPerDimension);
    for (let p = 0; p < passes; p++) {
      pass.setPipeline(this.histogramPipeline);
      pass.setBindGroup(0, this.bindGroups[p]);
      pass.dispatchWorkgroups(...grid);
      this.histogramScan.encodePass(pass, this.histogram, RADIX_SIZE * this.numBlocks);
      pass.setPipeline(this.scatterPipeline);
      pass.setBindGroup(0, this.bindGroups[p]);
      pass.dispatchWorkgroups(...grid);
    }
    pass.end();
    if (passes % 2 === 1) {
      encoder.copyBufferToBuffer(this.keysTemp, 0, keys, 0, count * 4);
      encoder.copyBufferToBuffer(this.valuesTemp, 0, values, 0, count * 4);
    }
  }

  /** Frees every GPU object this sort made; later calls to `encode` throw. */
  destroy(): void {
    for (const buffer of [this.keysTemp, this.valuesTemp, this.histogram, ...this.params]) buffer.destroy();
    this.histogramScan.destroy();
    this.bindGroups = [];
    this.boundKeys = undefined;
    this.boundValues = undefined;
    this.destroyed = true;
  }

  /** Writes every pass's SortParams when `count` differs from the last one written. */
  private setCount(count: number): void {
    if (count === this.count) return;
    this.count = count;
    this.numBlocks = Math.ceil(count / KEYS_PER_BLOCK);
    const scratch = new Uint32Array(SORT_PARAMS_SIZE_BYTES / 4);
    this.params.forEach((buffer, p) => {
      scratch.set([count, this.numBlocks, p * RADIX_BITS, 0]);
      this.device.queue.writeBuffer(buffer, 0, scratch);
    });
  }

  /** Builds the per-pass bind groups (even passes read the caller's buffers) when they change. */
  private bind(keys: GPUBuffer, values: GPUBuffer): void {
    if (keys === this.boundKeys && values === this.boundValues) return;
    this.boundKeys = keys;
    this.boundValues = values;
    this.bindGroups = this.params.map((params, p) => {
      const [keysIn, valuesIn, keysOut, valuesOut] =
        p % 2 === 0 ? [keys, values, this.keysTemp, this.valuesTemp] : [this.keysTemp, this.valuesTemp, keys, values];
      return this.device.createBindGroup({
        label: `${this.label}.bindGroup${p}`,
        layout: this.bindGroupLayout,
        entries: [params, keysIn, valuesIn, keysOut, valuesOut, this.histogram].map((buffer, binding) => ({
          binding,
          resource: { buffer },
        })),
      });
    });
  }
}
