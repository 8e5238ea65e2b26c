/**
 * Gaussian-splat renderer: preprocess (compute: projection, then key quantisation) → radix sort by
 * depth (compute) → raster (render).
 *
 * Owns the per-scene working buffers (projected splats, sort keys and values, indirect draw args,
 * the visible depth range), grown by capacity when a larger scene is set. `encode` only records;
 * the caller submits. The visible count never comes back to the CPU: the preprocess pass appends
 * it to the indirect draw arguments (6 vertices per splat, one draw). Keys are `depthKeyBits(count)`
 * wide (12–20 bits, 3–5 radix passes), quantised over the depth range of the splats visible in that
 * frame; culled splats get the largest key and sort to the end, past the drawn ones.
 */
import { CAMERA_LAYOUT, packCameraUniform, type CameraModel } from '../gpu/camera';
import type { GpuProfiler } from '../gpu/profiler';
import { RadixSort } from '../gpu/radix-sort';
import { PROJECTED_SPLAT_LAYOUT, SPLAT_FRAME_LAYOUT } from './gpu-layout';
import { depthKeyBits } from './projection';
import { SplatPreprocessPass } from './preprocess-pass';
import { SplatRasterPass, type SplatRenderTarget } from './raster-pass';
import type { SplatSceneBuffers } from './splat-scene-buffers';

export type { SplatRenderTarget };

export interface SplatRendererOptions {
  colorFormat: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  /** Times the preprocess, sort and raster passes when given and enabled. */
  profiler?: GpuProfiler;
}

export class SplatRenderer {
  private readonly cameraBuffer: GPUBuffer;
  private readonly frameBuffer: GPUBuffer;
  private readonly drawArgs: GPUBuffer;
  private readonly depthRange: GPUBuffer;
  private readonly cameraScratch: Float32Array<ArrayBuffer> = new Float32Array(CAMERA_LAYOUT.size / 4);
  private readonly frameScratch = new Uint32Array(SPLAT_FRAME_LAYOUT.size / 4);
  private capacity = 0;
  private projected: GPUBuffer | null = null;
  private sortKeys: GPUBuffer | null = null;
  private sortValues: GPUBuffer | null = null;
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
    this.drawArgs = device.createBuffer({
      label: 'SplatRenderer.drawArgs',
      size: 16,
      usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    new Uint32Array(this.drawArgs.getMappedRange()).set([0, 1, 0, 0]);
    this.drawArgs.unmap();
    this.depthRange = device.createBuffer({ label: 'SplatRenderer.depthRange', size: 8, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  }

  static async create(device: GPUDevice, options: SplatRendererOptions): Promise<SplatRenderer> {
    const [preprocess, raster] = await Promise.all([
      SplatPreprocessPass.create(device),
      SplatRasterPass.create(device, options.colorFormat, options.depthFormat),
    ]);
    return new SplatRenderer(device, preprocess, raster, options.profiler);
  }

  /** Makes `scene` the one drawn by `encode`, growing the working buffers if it is larger. */
  async setScene(scene: SplatSceneBuffers): Promise<void> {
    if (scene.count > this.capacity) {
      this.destroyWorkingBuffers();
      const n = scene.count;
      const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      this.projected = this.device.createBuffer({ label: 'SplatRenderer.projected', size: n * PROJECTED_SPLAT_LAYOUT.size, usage: storage });
      this.sortKeys = this.device.createBuffer({ label: 'SplatRenderer.sortKeys', size: n * 4, usage: storage });
      this.sortValues = this.device.createBuffer({ label: 'SplatRenderer.sortValues', size: n * 4, usage: storage });
      this.sort = await RadixSort.create(this.device, n, 'SplatRenderer.sort');
      this.capacity = n;
    }
    this.scene = scene;
    this.frameScratch[SPLAT_FRAME_LAYOUT.splatCount / 4] = scene.count;
    this.frameScratch[SPLAT_FRAME_LAYOUT.keyBits / 4] = depthKeyBits(scene.count);
    this.device.queue.writeBuffer(this.frameBuffer, 0, this.frameScratch);
    this.preprocessBindGroup = this.preprocess.bindGroup({
      camera: this.cameraBuffer,
      frame: this.frameBuffer,
      splats: scene.splats,
      shRest: scene.shRest,
      projected: this.projected!,
      sortKeys: this.sortKeys!,
      sortValues: this.sortValues!,
      drawArgs: this.drawArgs,
      depthRange: this.depthRange,
    });
    this.rasterBindGroup = this.raster.bindGroup(this.cameraBuffer, this.projected!, this.sortValues!);
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
    encoder.clearBuffer(this.drawArgs, 0, 4);
    encoder.clearBuffer(this.depthRange);
    this.preprocess.encode(encoder, this.preprocessBindGroup, scene.shDegree, scene.count, this.profiler?.span('splats.preprocess'));
    this.sort.encode(encoder, this.sortKeys!, this.sortValues!, scene.count, depthKeyBits(scene.count), this.profiler?.span('splats.sort'));
    this.raster.encode(encoder, this.rasterBindGroup, this.drawArgs, target, this.profiler?.span('splats.raster'));
  }

  /** The buffers written by the last frame, for tests: projected splats, sorted keys and values, draw args, depth range. */
  get debugBuffers() {
    return { projected: this.projected, sortKeys: this.sortKeys, sortValues: this.sortValues, drawArgs: this.drawArgs, depthRange: this.depthRange };
  }

  private destroyWorkingBuffers(): void {
    this.projected?.destroy();
    this.sortKeys?.destroy();
    this.sortValues?.destroy();
    this.sort?.destroy();
    this.projected = this.sortKeys = this.sortValues = null;
    this.sort = null;
    this.capacity = 0;
  }

  destroy(): void {
    this.destroyWorkingBuffers();
    this.cameraBuffer.destroy();
    this.frameBuffer.destroy();
    this.drawArgs.destroy();
    this.depthRange.destroy();
  }
}
