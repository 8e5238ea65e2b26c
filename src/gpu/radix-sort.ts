/**
 * Portable multi-pass GPU key-value radix sort (`shaders/gpu/radix-sort.wgsl`): the splat
 * renderer's per-frame depth sort, usable as a general u32 sort. The element count may come from
 * the CPU or from a GPU buffer written by an earlier pass (e.g. the number of visible splats), in
 * which case the dispatch sizes are derived on the GPU and the sort runs by indirect dispatch.
 *
 * Stable LSD radix sort with RADIX_BITS-bit digits after Satish, Harris & Garland (2009),
 * "Designing efficient sorting algorithms for manycore GPUs": per digit, a per-block histogram,
 * an exclusive scan of all histograms (Merrill & Grimshaw 2009, see {@link PrefixScan}), and a
 * scatter. Each invocation owns a contiguous segment of KEYS_PER_THREAD keys and counts and
 * scatters it serially (per-digit counts packed in bytes), so the scatter needs no barrier and the
 * histogram one: barriers are what CPU implementations of WebGPU (SwiftShader) pay most for, and
 * this replaced a bitmask-ranking scatter with two barriers per 256 keys (sort of guitar's 90 k
 * depth keys 60 → 10 ms on SwiftShader, bench/RESULTS.md). No subgroup operations and no inter-workgroup forward-progress assumption (no decoupled
 * look-back), so it runs wherever WebGPU does. Plain TypeScript twin: `radixSortReference`;
 * the earlier split-sort kernel (`SplitRadixSort`) is kept as a second reference in tests.
 */
import { beginComputePass } from './gpu-stats';
import { createComputePipeline, deviceCached } from './pipeline-cache';
import { PrefixScan } from './prefix-scan';
import { createKernelModule } from './shader-loader';

/** Invocations per workgroup of the block kernels (WGSL `override` of the same name). */
export const RADIX_SORT_WORKGROUP_SIZE = 64;
/** Keys of one invocation's contiguous segment (at most 255: segment counts are packed in bytes). */
export const KEYS_PER_THREAD = 128;
/** Keys per block (one workgroup). */
export const KEYS_PER_BLOCK = RADIX_SORT_WORKGROUP_SIZE * KEYS_PER_THREAD;
/** Bits per digit, i.e. per pass. */
export const RADIX_BITS = 4;
/** Bins per digit. */
export const RADIX_SIZE = 1 << RADIX_BITS;
/** Width of a key. */
export const KEY_BITS = 32;

/** `SortParams` in radix-sort.wgsl: shift, maxBlocks, pad, maxWorkgroupsX, capacity, pad ×3 (u32). */
export const SORT_PARAMS_LAYOUT = { size: 32, shift: 0, maxBlocks: 4, maxWorkgroupsX: 12, capacity: 16 } as const;
const MAX_PASSES = Math.ceil(KEY_BITS / RADIX_BITS);

/** CPU counts one sort can hold at once: sorts encoded into one submission may use this many different CPU counts. */
export const SORT_COUNT_SLOTS = 16;

/** Bytes between CPU count slots (a valid dynamic storage offset on `device`). */
const countSlotStride = (device: GPUDevice) => Math.max(256, device.limits.minStorageBufferOffsetAlignment);

/** Where `encode` reads the element count: a number known on the CPU, or the first u32 of a GPU buffer. */
export type SortCount = number | GPUBuffer;

/**
 * The sort's shader module, bind group layouts and pipelines (prepare, histogramBlocks, scatter):
 * compiled once per device and shared by every {@link RadixSort} on it.
 */
function radixSortKernels(device: GPUDevice) {
  return deviceCached(device, 'RadixSort', async () => {
    const module = await createKernelModule(device, 'gpu/radix-sort.wgsl');
    // Binding 6, the count, takes a dynamic offset: one of the CPU count slots, or 0 for a GPU count buffer.
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type, hasDynamicOffset: binding === 6 } });
    const blocks = device.createBindGroupLayout({
      label: 'RadixSort.blocksLayout',
      entries: [entry(0, 'uniform'), entry(1, 'read-only-storage'), entry(2, 'read-only-storage'), entry(3, 'storage'), entry(4, 'storage'), entry(5, 'storage'), entry(6, 'read-only-storage'), entry(8, 'storage')],
    });
    const prepare = device.createBindGroupLayout({ label: 'RadixSort.prepareLayout', entries: [entry(0, 'uniform'), entry(6, 'read-only-storage'), entry(7, 'storage')] });
    const constants = { RADIX_SORT_WORKGROUP_SIZE, KEYS_PER_THREAD, RADIX_BITS, RADIX_SIZE };
    const pipeline = (entryPoint: string, layout: GPUBindGroupLayout) =>
      createComputePipeline(device, {
        label: `RadixSort.${entryPoint}`,
        layout: device.createPipelineLayout({ label: `RadixSort.${entryPoint}Layout`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint, constants },
      });
    const [preparePipeline, histogramPipeline, scatterPipeline] = await Promise.all([pipeline('prepare', prepare), pipeline('histogramBlocks', blocks), pipeline('scatter', blocks)]);
    return { layouts: { blocks, prepare }, pipelines: { prepare: preparePipeline, histogram: histogramPipeline, scatter: scatterPipeline } };
  });
}

/**
 * Sorts up to `capacity` (key, value) pairs of u32, ascending by key and stable, in place.
 *
 * Owns: a second key/value buffer pair (`keysTemp`, `valuesTemp`) the passes ping-pong with, the
 * histogram (RADIX_SIZE × maxBlocks u32, maxBlocks = ⌈capacity / KEYS_PER_BLOCK⌉, digit-major:
 * `[d * maxBlocks + b]` = keys of block b with digit d, then after the scan the output index of
 * block b's first digit-d key), the segment offsets (`[(b * RADIX_SIZE + d) * WG + t]`: digit-d
 * keys of block b before segment t), one uniform per digit pass (written once, at creation), the
 * indirect dispatch arguments, {@link SORT_COUNT_SLOTS} slots for CPU counts and the scan; the pipelines are shared by
 * every sort on the device (pipeline-cache.ts).
 *
 * After an even number of passes (2 for 16-bit keys) the sorted pairs are back in the caller's
 * buffers; after an odd number they are copied back. A CPU count is written with
 * `queue.writeBuffer` at encode time into a slot of its own (the slot already holding that count, or
 * the next one round-robin), selected by a dynamic offset, so sorts encoded into one submission may
 * use up to {@link SORT_COUNT_SLOTS} different CPU counts; sorts with GPU counts have no such limit.
 */
export class RadixSort {
  /** The CPU count in each slot of `countBuffer` (−1: none yet), and the slot the next new count takes. */
  private readonly cpuCounts: number[] = new Array(SORT_COUNT_SLOTS).fill(-1);
  private nextCountSlot = 0;
  private bindings: { blocks: GPUBindGroup[]; prepare: GPUBindGroup; keys: GPUBuffer; values: GPUBuffer; count: GPUBuffer }[] = [];
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    /** Largest count sorted; larger GPU counts are clamped to it. */
    readonly capacity: number,
    readonly label: string,
    private readonly maxBlocks: number,
    private readonly pipelines: { prepare: GPUComputePipeline; histogram: GPUComputePipeline; scatter: GPUComputePipeline },
    private readonly layouts: { blocks: GPUBindGroupLayout; prepare: GPUBindGroupLayout },
    private readonly keysTemp: GPUBuffer,
    private readonly valuesTemp: GPUBuffer,
    private readonly histogram: GPUBuffer,
    private readonly segmentOffsets: GPUBuffer,
    private readonly dispatchArgs: GPUBuffer,
    private readonly countBuffer: GPUBuffer,
    private readonly params: GPUBuffer[],
    private readonly histogramScan: PrefixScan,
  ) {}

  /**
   * Allocates the scratch buffers for up to `capacity` pairs (the kernels are compiled once per device).
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
    label = 'RadixSort',
    maxWorkgroupsPerDimension = device.limits.maxComputeWorkgroupsPerDimension,
  ): Promise<RadixSort> {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`RadixSort.create: capacity ${capacity} is not a positive integer`);
    }
    const maxBlocks = Math.ceil(capacity / KEYS_PER_BLOCK);
    const histogramLength = RADIX_SIZE * maxBlocks;
    const largestBytes = Math.max(capacity, histogramLength) * 4;
    if (largestBytes > device.limits.maxStorageBufferBindingSize) {
      throw new Error(
        `RadixSort.create: capacity ${capacity} needs ${largestBytes}-byte buffers, above ` +
          `maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`,
      );
    }
    const [{ layouts, pipelines }, histogramScan] = await Promise.all([
      radixSortKernels(device),
      PrefixScan.create(device, histogramLength, `${label}.histogramScan`, maxWorkgroupsPerDimension),
    ]);
    const storage = (field: string, size: number, extra = 0) => device.createBuffer({ label: `${label}.${field}`, size, usage: GPUBufferUsage.STORAGE | extra });
    const params = Array.from({ length: MAX_PASSES }, (_, p) => {
      const buffer = device.createBuffer({ label: `${label}.params${p}`, size: SORT_PARAMS_LAYOUT.size, usage: GPUBufferUsage.UNIFORM, mappedAtCreation: true });
      const u = new Uint32Array(buffer.getMappedRange());
      u[SORT_PARAMS_LAYOUT.shift / 4] = p * RADIX_BITS;
      u[SORT_PARAMS_LAYOUT.maxBlocks / 4] = maxBlocks;
      u[SORT_PARAMS_LAYOUT.maxWorkgroupsX / 4] = maxWorkgroupsPerDimension;
      u[SORT_PARAMS_LAYOUT.capacity / 4] = capacity;
      buffer.unmap();
      return buffer;
    });
    return new RadixSort(
      device, capacity, label, maxBlocks,
      pipelines,
      layouts,
      storage('keysTemp', capacity * 4, GPUBufferUsage.COPY_SRC),
      storage('valuesTemp', capacity * 4, GPUBufferUsage.COPY_SRC),
      storage('histogram', histogramLength * 4),
      storage('segmentOffsets', histogramLength * RADIX_SORT_WORKGROUP_SIZE * 4),
      storage('dispatchArgs', 12, GPUBufferUsage.INDIRECT),
      storage('count', SORT_COUNT_SLOTS * countSlotStride(device), GPUBufferUsage.COPY_DST),
      params,
      histogramScan,
    );
  }

  /**
   * Records the digit passes that sort `keys[0 .. count)` ascending, stably, carrying
   * `values[0 .. count)` along; the sorted pairs end up in `keys` and `values`. Records only: the
   * caller submits `encoder`.
   *
   * @param keys u32 keys; STORAGE usage, at least `capacity` u32 for a GPU count, `count` otherwise.
   * @param values u32 values (e.g. splat indices), sized as `keys`.
   * @param count The element count: a number, or a buffer whose first u32 earlier commands write
   *   (STORAGE usage; clamped to `capacity`). A GPU count keeps the visible-splat
   *   count on the GPU: sizes come from a one-invocation pass and every block kernel is dispatched
   *   indirectly.
   * @param bitsToSort Sort by the low bits only: ⌈bitsToSort / RADIX_BITS⌉ passes compare that
   *   many whole low digits (16 → 2 passes; 12 also sorts 16 bits). With an odd number of passes
   *   the result is copied back, so `keys` and `values` then also need COPY_DST usage.
   * @param timestampWrites Optional timing of the sort's compute pass (see GpuProfiler).
   * @throws Error `RadixSort.encode: count N exceeds capacity C`, and on a negative or fractional
   *   count, a count buffer without STORAGE usage, a `bitsToSort` outside [1, 32], a buffer that is too
   *   small or lacks a usage, the same buffer for keys and values, or a call after `destroy()`.
   */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: SortCount, bitsToSort = KEY_BITS, timestampWrites?: GPUComputePassTimestampWrites): void {
    if (this.destroyed) throw new Error('RadixSort.encode: called after destroy()');
    let countBuffer = this.countBuffer;
    let copyLength = this.capacity;
    if (typeof count === 'number') {
      if (!Number.isInteger(count) || count < 0) throw new Error(`RadixSort.encode: count ${count} is not a non-negative integer`);
      if (count > this.capacity) throw new Error(`RadixSort.encode: count ${count} exceeds capacity ${this.capacity}`);
      copyLength = count;
    } else {
      countBuffer = count;
      if ((countBuffer.usage & GPUBufferUsage.STORAGE) === 0) throw new Error(`RadixSort.encode: count buffer '${countBuffer.label}' lacks STORAGE usage`);
    }
    if (!Number.isInteger(bitsToSort) || bitsToSort < 1 || bitsToSort > KEY_BITS) {
      throw new Error(`RadixSort.encode: bitsToSort ${bitsToSort} is not an integer in [1, ${KEY_BITS}]`);
    }
    if (keys === values) throw new Error('RadixSort.encode: keys and values must be different buffers');
    const passes = Math.ceil(bitsToSort / RADIX_BITS);
    const needed = GPUBufferUsage.STORAGE | (passes % 2 === 1 ? GPUBufferUsage.COPY_DST : 0);
    for (const [name, buffer] of [['keys', keys], ['values', values]] as const) {
      if ((buffer.usage & needed) !== needed) {
        throw new Error(
          `RadixSort.encode: ${name} buffer '${buffer.label}' lacks STORAGE` +
            (passes % 2 === 1 ? ' or COPY_DST usage (needed for an odd number of passes)' : ' usage'),
        );
      }
      if (buffer.size < copyLength * 4) {
        throw new Error(`RadixSort.encode: ${name} buffer '${buffer.label}' holds ${buffer.size} bytes, needs ${copyLength * 4}`);
      }
    }
    let countOffset = 0;
    if (typeof count === 'number') {
      if (count === 0) return;
      let slot = this.cpuCounts.indexOf(count);
      if (slot < 0) {
        slot = this.nextCountSlot;
        this.nextCountSlot = (slot + 1) % SORT_COUNT_SLOTS;
        this.cpuCounts[slot] = count;
        this.device.queue.writeBuffer(this.countBuffer, slot * countSlotStride(this.device), Uint32Array.of(count));
      }
      countOffset = slot * countSlotStride(this.device);
    }
    const bound = this.bind(keys, values, countBuffer);
    const pass = beginComputePass(this.device, encoder, { label: `${this.label}.pass`, timestampWrites });
    pass.setPipeline(this.pipelines.prepare);
    pass.setBindGroup(0, bound.prepare, [countOffset]);
    pass.dispatchWorkgroups(1);
    for (let p = 0; p < passes; p++) {
      pass.setPipeline(this.pipelines.histogram);
      pass.setBindGroup(0, bound.blocks[p], [countOffset]);
      pass.dispatchWorkgroupsIndirect(this.dispatchArgs, 0);
      this.histogramScan.encodePass(pass, this.histogram, RADIX_SIZE * this.maxBlocks);
      pass.setPipeline(this.pipelines.scatter);
      pass.setBindGroup(0, bound.blocks[p], [countOffset]);
      pass.dispatchWorkgroupsIndirect(this.dispatchArgs, 0);
    }
    pass.end();
    if (passes % 2 === 1) {
      encoder.copyBufferToBuffer(this.keysTemp, 0, keys, 0, copyLength * 4);
      encoder.copyBufferToBuffer(this.valuesTemp, 0, values, 0, copyLength * 4);
    }
  }

  /** Frees every GPU object this sort made; later calls to `encode` throw. */
  destroy(): void {
    for (const buffer of [this.keysTemp, this.valuesTemp, this.histogram, this.segmentOffsets, this.dispatchArgs, this.countBuffer, ...this.params]) buffer.destroy();
    this.histogramScan.destroy();
    this.bindings = [];
    this.destroyed = true;
  }

  /** Per-pass bind groups for a key/value/count buffer triple (even passes read the caller's buffers), cached. */
  private bind(keys: GPUBuffer, values: GPUBuffer, countBuffer: GPUBuffer) {
    const cached = this.bindings.find((b) => b.keys === keys && b.values === values && b.count === countBuffer);
    if (cached) return cached;
    // The count binding is one u32 at a dynamic offset (a CPU count slot, or 0 in a GPU count buffer).
    const group = (layout: GPUBindGroupLayout, entries: [number, GPUBuffer][], name: string) =>
      this.device.createBindGroup({ label: `${this.label}.${name}`, layout, entries: entries.map(([binding, buffer]) => ({ binding, resource: binding === 6 ? { buffer, size: 4 } : { buffer } })) });
    const blocks = this.params.map((params, p) => {
      const [keysIn, valuesIn, keysOut, valuesOut] =
        p % 2 === 0 ? [keys, values, this.keysTemp, this.valuesTemp] : [this.keysTemp, this.valuesTemp, keys, values];
      return group(this.layouts.blocks, [[0, params], [1, keysIn], [2, valuesIn], [3, keysOut], [4, valuesOut], [5, this.histogram], [6, countBuffer], [8, this.segmentOffsets]], `bindGroup${p}`);
    });
    const prepare = group(this.layouts.prepare, [[0, this.params[0]], [6, countBuffer], [7, this.dispatchArgs]], 'prepareBindGroup');
    const entry = { blocks, prepare, keys, values, count: countBuffer };
    // A few buffer triples at most (a renderer's own, a test's); forget the oldest beyond that.
    if (this.bindings.length >= 8) this.bindings.shift();
    this.bindings.push(entry);
    return entry;
  }
}
