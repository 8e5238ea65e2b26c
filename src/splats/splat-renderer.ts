/**
 * Gaussian-splat renderer: cells in view (CPU, scenes with spatial cells) → preprocess (compute:
 * projection, then compaction of the visible splats with their depth keys) → radix sort by depth
 * (compute) → corners (compute: each visible splat's triangle vertices, in draw order) → raster (render).
 *
 * Owns the per-scene working buffers (projected splats, depths, compacted sort keys and values,
 * per-workgroup visible counts and their scan, the visible count and depth range, indirect draw
 * args), grown by capacity when a larger scene is set. `encode` only records; the caller submits.
 * The visible count never comes back to the CPU: the preprocess pass compacts the visible splats
 * (in splat order, so frames are deterministic), the radix sort runs on that GPU-written count by
 * indirect dispatch, and the draw has 3 vertices (one triangle) per visible splat. Keys are `depthKeyBits(count)`
 * wide (12 or 16 bits, 3 or 4 radix passes), their levels spread over the depth range of the
 * splats visible in that frame by those splats' sampled depth distribution (projection.ts: depthSortKey).
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel } from '../gpu/camera';
import type { GpuProfiler } from '../gpu/profiler';
import { PrefixScan } from '../gpu/prefix-scan';
import { RadixSort } from '../gpu/radix-sort';
import { PROJECTED_SPLAT_LAYOUT, SPLAT_FRAME_LAYOUT, SPLAT_VERTEX_BYTES_PER_SPLAT } from './gpu-layout';
import { DEPTH_BINS, depthKeyBits } from './projection';
import { DEFAULT_LOD_PIXEL_FRACTION } from './splat-lod';
import { COMPACT_BLOCK_SIZE, compactBlocks, FRAME_COUNTERS, SplatPreprocessPass } from './preprocess-pass';
import { SplatRasterPass, type SplatRenderTarget } from './raster-pass';
import type { SplatSceneBuffers } from './splat-scene-buffers';
import { NEUTRAL_SPLAT_SHADING, writeSplatShading, type SplatShading } from './splat-shading';

export type { SplatRenderTarget };

export interface SplatRendererOptions {
  colorFormat: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  /** Times the preprocess, sort and raster passes when given and enabled. */
  profiler?: GpuProfiler;
  /**
   * Cull splats whose total α over the image (`alphaMass`: 2π·o·√det Σ', px²) is below this.
   * Default 0: every splat that reaches α = 1/255 is drawn, as the 3DGS equations say. Larger values
   * trade fidelity for speed (bench/RESULTS.md measures both); settable later with `minAlphaMass`.
   */
  minAlphaMass?: number;
  /**
   * Level of detail (scenes built with coarse levels: `SplatSceneBuffers`'s `lodPixelFraction`,
   * splat-lod.ts): each cell is drawn at the coarsest level whose merged voxels are at most this
   * fraction of a pixel at its distance. Default
   * {@link DEFAULT_LOD_PIXEL_FRACTION}; 0 draws every splat of the capture (exact to the 3DGS equations).
   */
  lodPixelFraction?: number;
  /** Colour shading by the scene's conditions (tint, fog, wet ground); default none. Settable later with `shading`. */
  shading?: SplatShading;
}

export class SplatRenderer {
  private readonly cameraBuffer: GPUBuffer;
  private readonly frameBuffer: GPUBuffer;
  private readonly counters: GPUBuffer;
  private readonly cameraScratch: Float32Array<ArrayBuffer> = new Float32Array(CAMERA_LAYOUT.size / 4);
  private readonly frameScratch = new Uint32Array(SPLAT_FRAME_LAYOUT.size / 4);
  private readonly frameScratchF32 = new Float32Array(this.frameScratch.buffer);
  private capacity = 0;
  private projected: GPUBuffer | null = null;
  private ranges: GPUBuffer | null = null;
  private rangeScratch = new Uint32Array(4);
  /** Splats in the visible cell ranges of the last encoded frame (M ≤ the scene's count). */
  lastFrameSplats = 0;
  private depths: GPUBuffer | null = null;
  private blockOffsets: GPUBuffer | null = null;
  private visibleBits: GPUBuffer | null = null;
  private blockScan: PrefixScan | null = null;
  private sortKeys: GPUBuffer | null = null;
  private sortValues: GPUBuffer | null = null;
  private vertices: GPUBuffer | null = null;
  private sort: RadixSort | null = null;
  private scene: SplatSceneBuffers | null = null;
  private preprocessBindGroup: GPUBindGroup | null = null;
  private rasterBindGroup: GPUBindGroup | null = null;

  private constructor(
    private readonly device: GPUDevice,
    private readonly preprocess: SplatPreprocessPass,
    private readonly raster: SplatRasterPass,
    private readonly profiler?: GpuProfiler,
  ) {
    this.cameraBuffer = device.createBuffer({ label: 'SplatRenderer.camera', size: CAMERA_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.frameBuffer = device.createBuffer({ label: 'SplatRenderer.frame', size: SPLAT_FRAME_LAYOUT.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.counters = device.createBuffer({
      label: 'SplatRenderer.counters',
      size: FRAME_COUNTERS.words * 4,
      usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    // drawIndirect arguments: vertexCount (written on the GPU), one instance.
    new Uint32Array(this.counters.getMappedRange()).set([0, 1, 0, 0], FRAME_COUNTERS.drawArgs);
    this.counters.unmap();
  }

  static async create(device: GPUDevice, options: SplatRendererOptions): Promise<SplatRenderer> {
    const [preprocess, raster] = await Promise.all([
      SplatPreprocessPass.create(device),
      SplatRasterPass.create(device, options.colorFormat, options.depthFormat),
    ]);
    const renderer = new SplatRenderer(device, preprocess, raster, options.profiler);
    renderer.minAlphaMass = options.minAlphaMass ?? 0;
    renderer.lodPixelFraction = options.lodPixelFraction ?? DEFAULT_LOD_PIXEL_FRACTION;
    renderer.shading = options.shading ?? NEUTRAL_SPLAT_SHADING;
    return renderer;
  }

  /** See {@link SplatRendererOptions.lodPixelFraction}; settable between frames (≥ 0). */
  lodPixelFraction = DEFAULT_LOD_PIXEL_FRACTION;

  /** The total-α cull threshold in px² (see {@link SplatRendererOptions.minAlphaMass}). */
  get minAlphaMass(): number {
    return this.frameScratchF32[SPLAT_FRAME_LAYOUT.minAlphaMass / 4];
  }

  /** @throws Error when `px2` is negative or not finite. */
  set minAlphaMass(px2: number) {
    if (!(px2 >= 0 && Number.isFinite(px2))) throw new Error(`SplatRenderer: minAlphaMass ${px2} is not a finite number ≥ 0 (px²)`);
    this.frameScratchF32[SPLAT_FRAME_LAYOUT.minAlphaMass / 4] = px2;
  }

  private shadingValue: SplatShading = NEUTRAL_SPLAT_SHADING;

  /** The colour shading of the next frames (see {@link SplatShading}). */
  get shading(): SplatShading {
    return this.shadingValue;
  }

  /** @throws RangeError naming the field of a bad shading (splat-shading.ts: writeSplatShading). */
  set shading(s: SplatShading) {
    writeSplatShading(s, this.frameScratchF32);
    this.shadingValue = s;
  }

  /** Makes `scene` the one drawn by `encode`, growing the working buffers if it is larger. */
  async setScene(scene: SplatSceneBuffers): Promise<void> {
    if (scene.count > this.capacity) {
      this.destroyWorkingBuffers();
      const n = scene.count;
      const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      this.projected = this.device.createBuffer({ label: 'SplatRenderer.projected', size: n * PROJECTED_SPLAT_LAYOUT.size, usage: storage });
      this.depths = this.device.createBuffer({ label: 'SplatRenderer.depths', size: n * 4, usage: storage });
      this.blockOffsets = this.device.createBuffer({ label: 'SplatRenderer.blockOffsets', size: compactBlocks(n) * 4, usage: storage });
      // Whole blocks of bits: countBlocks reads all 8 words of the last block.
      this.visibleBits = this.device.createBuffer({ label: 'SplatRenderer.visibleBits', size: (compactBlocks(n) * COMPACT_BLOCK_SIZE) / 8, usage: storage });
      this.blockScan = await PrefixScan.create(this.device, compactBlocks(n), 'SplatRenderer.blockScan');
      this.sortKeys = this.device.createBuffer({ label: 'SplatRenderer.sortKeys', size: n * 4, usage: storage });
      this.sortValues = this.device.createBuffer({ label: 'SplatRenderer.sortValues', size: n * 4, usage: storage });
      this.vertices = this.device.createBuffer({ label: 'SplatRenderer.vertices', size: n * SPLAT_VERTEX_BYTES_PER_SPLAT, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC });
      this.sort = await RadixSort.create(this.device, n, 'SplatRenderer.sort');
      this.capacity = n;
    }
    this.scene = scene;
    if (scene.maxRanges * 4 > this.rangeScratch.length || !this.ranges) {
      this.ranges?.destroy();
      this.ranges = this.device.createBuffer({ label: 'SplatRenderer.ranges', size: scene.maxRanges * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      this.rangeScratch = new Uint32Array(scene.maxRanges * 4);
    }
    this.frameScratch[SPLAT_FRAME_LAYOUT.keyBits / 4] = depthKeyBits(scene.count);
    this.preprocessBindGroup = this.preprocess.bindGroup({
      camera: this.cameraBuffer,
      frame: this.frameBuffer,
      splats: scene.splats,
      shRest: scene.shRest,
      projected: this.projected!,
      depths: this.depths!,
      sortKeys: this.sortKeys!,
      sortValues: this.sortValues!,
      counters: this.counters,
      blockOffsets: this.blockOffsets!,
      visibleBits: this.visibleBits!,
      ranges: this.ranges,
    });
    this.rasterBindGroup = this.raster.bindGroup(this.cameraBuffer, this.projected!, this.sortValues!, this.counters, this.vertices!);
  }

  /**
   * Records one frame of the current scene seen by `camera` into `target`.
   *
   * @throws Error when no scene has been set.
   */
  encode(encoder: GPUCommandEncoder, camera: CameraModel, target: SplatRenderTarget): void {
    const scene = this.scene;
    if (!scene || !this.preprocessBindGroup || !this.rasterBindGroup || !this.sort) {
      throw new Error('SplatRenderer.encode: no scene set (call setScene first)');
    }
    this.device.queue.writeBuffer(this.cameraBuffer, 0, packCameraUniform(camera, this.cameraScratch));
    // The cells in view (CPU frustum test of their bounds): the preprocess runs over their splats only.
    const { ranges, splats } = scene.visibleRanges(camera, this.rangeScratch, this.lodPixelFraction);
    this.lastFrameSplats = splats;
    this.frameScratch[SPLAT_FRAME_LAYOUT.splatCount / 4] = splats;
    this.frameScratch[SPLAT_FRAME_LAYOUT.rangeCount / 4] = ranges;
    this.device.queue.writeBuffer(this.frameBuffer, 0, this.frameScratch);
    if (ranges > 0) this.device.queue.writeBuffer(this.ranges!, 0, this.rangeScratch, 0, ranges * 4);
    // Visible count, depth range and the draw's vertex count start at 0 (the instance count stays 1).
    encoder.clearBuffer(this.counters, 0, (FRAME_COUNTERS.drawArgs + 1) * 4);
    encoder.clearBuffer(this.visibleBits!);
    encoder.clearBuffer(this.counters, FRAME_COUNTERS.depthBins * 4, DEPTH_BINS * 4);
    this.preprocess.encode(encoder, this.preprocessBindGroup, scene.shDegree, splats, this.blockScan!, this.blockOffsets!, this.profiler?.span('splats.preprocess'), camera.orthographic);
    this.sort.encode(encoder, this.sortKeys!, this.sortValues!, this.counters, depthKeyBits(scene.count), this.profiler?.span('splats.sort'));
    this.raster.encode(
      encoder, this.rasterBindGroup, this.vertices!, splats, this.counters, FRAME_COUNTERS.drawArgs * 4, target,
      this.profiler?.span('splats.raster'), this.profiler?.span('splats.corners'),
    );
  }

  /**
   * The buffers written by the last frame, for tests: projected splats, sorted keys and values, the
   * frame counters (FRAME_COUNTERS, with the depth histogram and its distribution), the triangle
   * vertices (SPLAT_VERTEX_LAYOUT).
   */
  get debugBuffers() {
    return { projected: this.projected, sortKeys: this.sortKeys, sortValues: this.sortValues, counters: this.counters, vertices: this.vertices };
  }

  private destroyWorkingBuffers(): void {
    this.projected?.destroy();
    this.depths?.destroy();
    this.blockOffsets?.destroy();
    this.visibleBits?.destroy();
    this.blockScan?.destroy();
    this.sortKeys?.destroy();
    this.sortValues?.destroy();
    this.vertices?.destroy();
    this.sort?.destroy();
    this.projected = this.depths = this.blockOffsets = this.visibleBits = this.sortKeys = this.sortValues = this.vertices = null;
    this.blockScan = null;
    this.sort = null;
    this.capacity = 0;
  }

  destroy(): void {
    this.destroyWorkingBuffers();
    this.ranges?.destroy();
    this.cameraBuffer.destroy();
    this.frameBuffer.destroy();
    this.counters.destroy();
  }
}
