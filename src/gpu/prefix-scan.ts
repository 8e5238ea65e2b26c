/**
 * Multi-level exclusive prefix sum of u32 values on the GPU (`shaders/gpu/prefix-scan.wgsl`).
 *
 * Reduce-then-scan after Merrill & Grimshaw (2009), "Parallel Scan for Stream Architectures":
 * each level scans blocks of {@link PREFIX_SCAN_WORKGROUP_SIZE} elements and writes one sum per
 * block; the block sums are scanned the same way (recursively) until a single block remains, and
 * the scanned sums are then added back level by level. Needs no subgroup operations and no
 * forward-progress guarantee between workgroups. With 256-element blocks, three levels cover
 * 256³ = 16,777,216 elements; more levels are added as the capacity requires.
 */
import { beginComputePass } from './gpu-stats';
import { createComputePipeline, deviceCached } from './pipeline-cache';
import { createKernelModule } from './shader-loader';

/** Invocations per workgroup, and elements per scanned block (WGSL `override` of the same name). */
export const PREFIX_SCAN_WORKGROUP_SIZE = 256;

/** `ScanParams` in prefix-scan.wgsl: `count: u32` and three u32 of padding (uniform minimum). */
const SCAN_PARAMS_SIZE_BYTES = 16;

/** Element counts of each scan level for `count` elements: `[count, ⌈count/B⌉, …]`, last ≤ B. */
export function scanLevelSizes(count: number): number[] {
  const sizes = [count];
  while (sizes[sizes.length - 1] > PREFIX_SCAN_WORKGROUP_SIZE) {
    sizes.push(Math.ceil(sizes[sizes.length - 1] / PREFIX_SCAN_WORKGROUP_SIZE));
  }
  return sizes;
}

/**
 * Splits `workgroups` into an (x, y) grid with x ≤ `maxPerDimension`, for kernels that linearise
 * the workgroup id as `id.x + id.y * num_workgroups.x` and guard the surplus of the last row.
 */
export function workgroupGrid(workgroups: number, maxPerDimension: number): [number, number] {
  const x = Math.min(workgroups, maxPerDimension);
  return [x, Math.ceil(workgroups / x)];
}

/**
 * The scan's shader module, bind group layout and pipelines (scanBlocks, addBlockSums): compiled once
 * per device and shared by every {@link PrefixScan} on it.
 */
function prefixScanKernels(device: GPUDevice) {
  return deviceCached(device, 'PrefixScan', async () => {
    const module = await createKernelModule(device, 'gpu/prefix-scan.wgsl');
    const storage = { type: 'storage' } as const;
    const bindGroupLayout = device.createBindGroupLayout({
      label: 'PrefixScan.bindGroupLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: storage },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: storage },
      ],
    });
    const layout = device.createPipelineLayout({ label: 'PrefixScan.pipelineLayout', bindGroupLayouts: [bindGroupLayout] });
    const constants = { PREFIX_SCAN_WORKGROUP_SIZE };
    const [scanBlocksPipeline, addBlockSumsPipeline] = await Promise.all(
      (['scanBlocks', 'addBlockSums'] as const).map((entryPoint) =>
        createComputePipeline(device, {
          label: `PrefixScan.${entryPoint}Pipeline`,
          layout,
          compute: { module, entryPoint, constants },
        }),
      ),
    );
    return { bindGroupLayout, scanBlocksPipeline, addBlockSumsPipeline };
  });
}

/**
 * Exclusive prefix sum, in place, of the first `count` u32 of a storage buffer.
 *
 * Owns the block-sum buffer of every level (level k's block sums are level k+1's data; the top
 * level's single sum, the total, lands in the last one), one uniform buffer per level holding that
 * level's element count and the bind groups; the pipelines are shared by every scan on the device
 * (pipeline-cache.ts). `encode` records only; uniforms are
 * written with `queue.writeBuffer` when the count changes, so all scans encoded into one submission
 * must use the same count.
 */
export class PrefixScan {
  private count = -1;
  private levelSizes: number[] = [];
  private boundData: GPUBuffer | undefined;
  /** Level 0's bind group, for `boundData`. */
  private bindGroup0: GPUBindGroup | undefined;
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    /** Largest `count` accepted by `encode`. */
    readonly capacity: number,
    readonly label: string,
    private readonly maxWorkgroupsPerDimension: number,
    private readonly scanBlocksPipeline: GPUComputePipeline,
    private readonly addBlockSumsPipeline: GPUComputePipeline,
    private readonly bindGroupLayout: GPUBindGroupLayout,
    /** `blockSums[k]` holds one u32 per block of level k (level k+1's data). */
    private readonly blockSums: GPUBuffer[],
    private readonly params: GPUBuffer[],
    /** Bind groups of levels ≥ 1; level 0's is `bindGroup0`, rebuilt when the data buffer changes. */
    private readonly bindGroups: GPUBindGroup[],
  ) {}

  /**
   * Allocates the level buffers for up to `capacity` elements (the kernels are compiled once per device).
   *
   * @param label Prefix of every GPU object's label (`label.field`).
   * @param maxWorkgroupsPerDimension Defaults to the device limit; tests lower it to exercise the
   *   2D dispatch that arrays above 65535 blocks need.
   * @throws Error when `capacity` is not a positive integer or exceeds the storage binding limit.
   */
  static async create(
    device: GPUDevice,
    capacity: number,
    label = 'PrefixScan',
    maxWorkgroupsPerDimension = device.limits.maxComputeWorkgroupsPerDimension,
  ): Promise<PrefixScan> {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`PrefixScan.create: capacity ${capacity} is not a positive integer`);
    }
    if (capacity * 4 > device.limits.maxStorageBufferBindingSize) {
      throw new Error(
        `PrefixScan.create: capacity ${capacity} needs ${capacity * 4} bytes, above ` +
          `maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}`,
      );
    }
    const { bindGroupLayout, scanBlocksPipeline, addBlockSumsPipeline } = await prefixScanKernels(device);
    const sizes = scanLevelSizes(capacity);
    const blockSums = sizes.map((size, k) =>
      device.createBuffer({
        label: `${label}.blockSums${k}`,
        size: Math.ceil(size / PREFIX_SCAN_WORKGROUP_SIZE) * 4,
        usage: GPUBufferUsage.STORAGE,
      }),
    );
    const params = sizes.map((_, k) =>
      device.createBuffer({
        label: `${label}.params${k}`,
        size: SCAN_PARAMS_SIZE_BYTES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      }),
    );
    const bindGroups = sizes.slice(1).map((_, i) => {
      const k = i + 1;
      return device.createBindGroup({
        label: `${label}.bindGroup${k}`,
        layout: bindGroupLayout,
        entries: [
          { binding: 0, resource: { buffer: params[k] } },
          { binding: 1, resource: { buffer: blockSums[k - 1] } },
          { binding: 2, resource: { buffer: blockSums[k] } },
        ],
      });
    });
    return new PrefixScan(
      device, capacity, label, maxWorkgroupsPerDimension,
      scanBlocksPipeline, addBlockSumsPipeline, bindGroupLayout, blockSums, params, bindGroups,
    );
  }

  /** Records the scan into a new compute pass of `encoder`; see {@link encodePass}. */
  encode(encoder: GPUCommandEncoder, data: GPUBuffer, count: number): void {
    const pass = beginComputePass(this.device, encoder, { label: `${this.label}.pass` });
    this.encodePass(pass, data, count);
    pass.end();
  }

  /**
   * Records the dispatches that replace `data[0 .. count)` by its exclusive prefix sum.
   *
   * @param data Storage buffer of at least `count` u32, scanned in place.
   * @throws Error when destroyed, when `count` is not an integer in [0, capacity], or when `data`
   *   lacks STORAGE usage or is smaller than `count` u32.
   */
  encodePass(pass: GPUComputePassEncoder, data: GPUBuffer, count: number): void {
    if (this.destroyed) throw new Error('PrefixScan.encodePass: called after destroy()');
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(`PrefixScan.encodePass: count ${count} is not a non-negative integer`);
    }
    if (count > this.capacity) {
      throw new Error(`PrefixScan.encodePass: count ${count} exceeds capacity ${this.capacity}`);
    }
    if ((data.usage & GPUBufferUsage.STORAGE) === 0) {
      throw new Error(`PrefixScan.encodePass: buffer '${data.label}' lacks STORAGE usage`);
    }
    if (data.size < count * 4) {
      throw new Error(`PrefixScan.encodePass: buffer '${data.label}' holds ${data.size} bytes, needs ${count * 4}`);
    }
    if (count === 0) return;
    this.setCount(count);
    if (data !== this.boundData) {
      this.boundData = data;
      this.bindGroup0 = this.device.createBindGroup({
        label: `${this.label}.bindGroup0`,
        layout: this.bindGroupLayout,
        entries: [
          { binding: 0, resource: { buffer: this.params[0] } },
          { binding: 1, resource: { buffer: data } },
          { binding: 2, resource: { buffer: this.blockSums[0] } },
        ],
      });
    }
    const levels = this.levelSizes.length;
    const bindGroupOf = (k: number) => (k === 0 ? this.bindGroup0! : this.bindGroups[k - 1]);
    const dispatch = (k: number) => {
      const blocks = Math.ceil(this.levelSizes[k] / PREFIX_SCAN_WORKGROUP_SIZE);
      pass.setBindGroup(0, bindGroupOf(k));
      pass.dispatchWorkgroups(...workgroupGrid(blocks, this.maxWorkgroupsPerDimension));
    };
    pass.setPipeline(this.scanBlocksPipeline);
    for (let k = 0; k < levels; k++) dispatch(k);
    pass.setPipeline(this.addBlockSumsPipeline);
    for (let k = levels - 2; k >= 0; k--) dispatch(k);
  }

  /** Frees every buffer this scan made; later calls to `encode` throw. */
  destroy(): void {
    for (const buffer of [...this.blockSums, ...this.params]) buffer.destroy();
    this.blockSums.length = 0;
    this.params.length = 0;
    this.bindGroups.length = 0;
    this.bindGroup0 = undefined;
    this.boundData = undefined;
    this.destroyed = true;
  }

  /** Writes each level's element count when `count` differs from the last one written. */
  private setCount(count: number): void {
    if (count === this.count) return;
    this.count = count;
    this.levelSizes = scanLevelSizes(count);
    const scratch = new Uint32Array(SCAN_PARAMS_SIZE_BYTES / 4);
    this.levelSizes.forEach((size, k) => {
      scratch[0] = size;
      this.device.queue.writeBuffer(this.params[k], 0, scratch);
    });
  }
}
