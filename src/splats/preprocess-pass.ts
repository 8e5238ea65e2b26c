/**
 * The splat preprocess compute pass (`shaders/splats/preprocess.wgsl`): culling, EWA projection to
 * an eigenbasis, SH colour, then the compaction of the visible splats (in splat order, by a scan of
 * per-workgroup counts) with their depth keys quantised over the visible depth range, so the sort
 * and the draw see only visible splats. One projection pipeline per SH degree (an `override`).
 * Reference: projection.ts and spherical-harmonics.ts.
 */
import { dispatchSize1d } from '../gpu/dispatch';
import { beginComputePass } from '../gpu/gpu-stats';
import { createComputePipelineSync, deviceCached } from '../gpu/pipeline-cache';
import type { PrefixScan } from '../gpu/prefix-scan';
import { createKernelModule } from '../gpu/shader-loader';
import { shRestStride } from './gpu-layout';
import { ALPHA_MIN, COV2D_DILATION, DEPTH_BINS, FRUSTUM_CLAMP } from './projection';

export const PREPROCESS_WORKGROUP_SIZE = 256;
/** Consecutive splats one preprocess invocation projects (a divisor of 32: they share a visibility word). */
export const SPLATS_PER_INVOCATION = 32;

/** Buffers one preprocess dispatch reads and writes. */
export interface PreprocessBindings {
  camera: GPUBuffer;
  frame: GPUBuffer;
  splats: GPUBuffer;
  shRest: GPUBuffer;
  projected: GPUBuffer;
  /** f32 bits of each splat's camera depth, valid where its visibility bit is set (N u32). */
  depths: GPUBuffer;
  /** Compacted depth keys and splat indices of the visible splats (N u32 each; the first V used). */
  sortKeys: GPUBuffer;
  sortValues: GPUBuffer;
  /** FRAME_COUNTERS (FRAME_COUNTERS.words u32): visible count, depth range, draw arguments, depth histogram. */
  counters: GPUBuffer;
  /** ⌈N / COMPACT_BLOCK_SIZE⌉ u32: visible splats per block, then their exclusive scan. */
  blockOffsets: GPUBuffer;
  /** This frame's visible cell ranges: (start, count, prefix, 0) u32 quadruples (SplatSceneBuffers.visibleRanges). */
  ranges: GPUBuffer;
  /** One bit per splat, whole blocks (compactBlocks(N) · COMPACT_BLOCK_SIZE / 32 u32): visible this frame (cleared to 0 every frame). */
  visibleBits: GPUBuffer;
}

/**
 * The per-frame counters buffer (u32 indices; `counters` in preprocess.wgsl): the visible count
 * (the radix sort's GPU count: index 0), ~bits of the smallest and bits of the largest visible
 * depth, at 4–7 the drawIndirect arguments of the raster pass, then from `depthBins` the histogram
 * of sampled visible depths (DEPTH_BINS counts) and its cumulative distribution (DEPTH_BINS + 1
 * f32; projection.ts: depthBinCdf). Words 0–4 and the histogram are cleared each frame.
 */
export const FRAME_COUNTERS = { visibleCount: 0, minDepth: 1, maxDepth: 2, drawArgs: 4, depthBins: 8, words: 8 + 2 * DEPTH_BINS + 1 } as const;

/** Splats per compaction block (`BLOCK_SIZE` in preprocess.wgsl: 8 words of visibility bits). */
export const COMPACT_BLOCK_SIZE = 256;

export class SplatPreprocessPass {
  private constructor(
    private readonly device: GPUDevice,
    private readonly module: GPUShaderModule,
    private readonly layout: GPUBindGroupLayout,
    private readonly pipelineLayout: GPUPipelineLayout,
  ) {}

  private readonly pipelines = new Map<number, GPUComputePipeline>();
  private compactPipelines: { countBlocks: GPUComputePipeline; depthCdf: GPUComputePipeline; compact: GPUComputePipeline } | null = null;

  /**
   * The pass of `device`: its module, layouts and pipelines are made once per device and shared by
   * every renderer on it (pipeline-cache.ts); per-view state lives in the bind groups.
   */
  static create(device: GPUDevice): Promise<SplatPreprocessPass> {
    return deviceCached(device, 'SplatPreprocessPass', () => SplatPreprocessPass.compile(device));
  }

  private static async compile(device: GPUDevice): Promise<SplatPreprocessPass> {
    const module = await createKernelModule(device, 'splats/preprocess.wgsl');
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'SplatPreprocessPass.layout',
      entries: [
        entry(0, 'uniform'),
        entry(1, 'uniform'),
        entry(2, 'read-only-storage'),
        entry(3, 'read-only-storage'),
        entry(4, 'storage'),
        entry(5, 'storage'),
        entry(6, 'storage'),
        entry(7, 'storage'),
        entry(8, 'storage'),
        entry(9, 'storage'),
        entry(10, 'storage'),
        entry(11, 'read-only-storage'),
      ],
    });
    const pipelineLayout = device.createPipelineLayout({ label: 'SplatPreprocessPass.pipelineLayout', bindGroupLayouts: [layout] });
    return new SplatPreprocessPass(device, module, layout, pipelineLayout);
  }

  /** The pipeline for an SH degree (0–3) and projection (orthographic or perspective), created on first use. */
  pipeline(shDegree: number, orthographic = false): GPUComputePipeline {
    const key = shDegree + (orthographic ? 4 : 0);
    let p = this.pipelines.get(key);
    if (!p) {
      p = createComputePipelineSync(this.device, {
        label: `SplatPreprocessPass.pipeline[sh${shDegree}${orthographic ? ', orthographic' : ''}]`,
        layout: this.pipelineLayout,
        compute: {
          module: this.module,
          entryPoint: 'preprocess',
          constants: {
            WORKGROUP_SIZE: PREPROCESS_WORKGROUP_SIZE,
            SPLATS_PER_INVOCATION,
            SH_DEGREE: shDegree,
            SH_REST_STRIDE: shRestStride(shDegree),
            FRUSTUM_CLAMP,
            COV2D_DILATION,
            ALPHA_MIN,
            ORTHOGRAPHIC: orthographic ? 1 : 0,
          },
        },
      });
      this.pipelines.set(key, p);
    }
    return p;
  }

  /** The compaction pipelines (entry points `countBlocks`, `depthCdf` and `compact`; independent of the SH degree). */
  private compaction() {
    const make = (entryPoint: string) => createComputePipelineSync(this.device, {
      label: `SplatPreprocessPass.${entryPoint}`,
      layout: this.pipelineLayout,
      compute: { module: this.module, entryPoint, constants: { WORKGROUP_SIZE: PREPROCESS_WORKGROUP_SIZE } },
    });
    this.compactPipelines ??= { countBlocks: make('countBlocks'), depthCdf: make('depthCdf'), compact: make('compact') };
    return this.compactPipelines;
  }

  bindGroup(b: PreprocessBindings): GPUBindGroup {
    const buffers = [b.camera, b.frame, b.splats, b.shRest, b.projected, b.depths, b.sortKeys, b.sortValues, b.counters, b.blockOffsets, b.visibleBits, b.ranges];
    return this.device.createBindGroup({
      label: 'SplatPreprocessPass.bindGroup',
      layout: this.layout,
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /**
   * Records the projection dispatch over this frame's `count` splats (those of the visible cell
   * ranges, written to the range table and the frame uniform by the caller), the per-block visible counts and their
   * scan (`blockScan` over `blockOffsets`), the cumulative distribution of the sampled visible
   * depths (`depthCdf`, one invocation), and the compaction of the visible splats' keys (it needs the
   * depth range and distribution of every visible splat and the scanned offsets). The caller clears
   * the visible count, the depth range, the depth histogram and the visibility bits before.
   */
  encode(
    encoder: GPUCommandEncoder, bindGroup: GPUBindGroup, shDegree: number, count: number,
    blockScan: PrefixScan, blockOffsets: GPUBuffer, timestampWrites?: GPUComputePassTimestampWrites, orthographic = false,
  ): void {
    const pass = beginComputePass(this.device, encoder, { label: 'SplatPreprocessPass', timestampWrites });
    const maxGroups = this.device.limits.maxComputeWorkgroupsPerDimension;
    // One invocation per SPLATS_PER_INVOCATION splats (projection) and per 32 (compaction: a visibleBits word).
    const words = dispatchSize1d(Math.ceil(count / 32), PREPROCESS_WORKGROUP_SIZE, maxGroups);
    pass.setBindGroup(0, bindGroup);
    pass.setPipeline(this.pipeline(shDegree, orthographic));
    pass.dispatchWorkgroups(...dispatchSize1d(Math.ceil(count / SPLATS_PER_INVOCATION), PREPROCESS_WORKGROUP_SIZE, maxGroups));
    const { countBlocks, depthCdf, compact } = this.compaction();
    pass.setPipeline(countBlocks);
    pass.dispatchWorkgroups(...dispatchSize1d(compactBlocks(count), PREPROCESS_WORKGROUP_SIZE, maxGroups));
    pass.setPipeline(depthCdf);
    pass.dispatchWorkgroups(1);
    blockScan.encodePass(pass, blockOffsets, compactBlocks(count));
    pass.setBindGroup(0, bindGroup);
    pass.setPipeline(compact);
    pass.dispatchWorkgroups(...words);
    pass.end();
  }
}

/** Compaction blocks (of COMPACT_BLOCK_SIZE splats) over `count` splats. */
export function compactBlocks(count: number): number {
  return Math.max(1, Math.ceil(count / COMPACT_BLOCK_SIZE));
}
