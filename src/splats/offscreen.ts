/**
 * One-shot offscreen rendering of a splat scene to pixels, for the CLI, tests and benchmarks.
 */
import { cameraModel, type SplatCamera } from '../gpu/camera';
import { beginRenderPass, submit } from '../gpu/gpu-stats';
import { readTexture } from '../gpu/readback';
import type { SplatCloud } from './splat-cloud';
import { SplatRenderer } from './splat-renderer';
import { DEFAULT_LOD_PIXEL_FRACTION } from './splat-lod';
import { SplatSceneBuffers } from './splat-scene-buffers';

/**
 * Colour and depth formats of offscreen frames. rgba8unorm blends ~10–15 % faster than rgba16float on
 * SwiftShader and stays ≥ 53 dB from the f64 reference on the shared captures (bench/RESULTS.md), far
 * above the 35 dB bar, so the extra precision buys nothing visible.
 */
export const OFFSCREEN_COLOR_FORMAT: GPUTextureFormat = 'rgba8unorm';
export const OFFSCREEN_DEPTH_FORMAT: GPUTextureFormat = 'depth32float';

/** An offscreen colour + depth target of one size. */
export class OffscreenTarget {
  readonly color: GPUTexture;
  readonly depth: GPUTexture;
  constructor(private readonly device: GPUDevice, readonly width: number, readonly height: number) {
    this.color = device.createTexture({
      label: 'OffscreenTarget.color',
      size: [width, height],
      format: OFFSCREEN_COLOR_FORMAT,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
    });
    this.depth = device.createTexture({
      label: 'OffscreenTarget.depth',
      size: [width, height],
      format: OFFSCREEN_DEPTH_FORMAT,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
  }

  /** Records a clear of the depth buffer to the far plane (1.0). */
  clearDepth(encoder: GPUCommandEncoder): void {
    beginRenderPass(this.device, encoder, {
      label: 'OffscreenTarget.clearDepth',
      colorAttachments: [],
      depthStencilAttachment: { view: this.depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
    }).end();
  }

  destroy(): void {
    this.color.destroy();
    this.depth.destroy();
  }
}

/**
 * A splat renderer with its own target, kept across frames: pipelines and the target are created
 * once, the scene's GPU buffers when {@link setCloud} is called, and {@link render} draws and reads
 * back one frame (`npm run render --frames`: an orbit of N frames reuses one of these).
 */
export class OffscreenSplatView {
  private scene: SplatSceneBuffers | null = null;

  private constructor(
    private readonly device: GPUDevice,
    private readonly renderer: SplatRenderer,
    readonly target: OffscreenTarget,
    private readonly lodPixelFraction: number,
  ) {}

  /**
   * @param minAlphaMass the renderer's total-α cull threshold, px² (`SplatRendererOptions`; 0 draws every splat).
   * @param lodPixelFraction the renderer's level of detail (`SplatRendererOptions.lodPixelFraction`; 0 draws the capture's own splats).
   */
  static async create(device: GPUDevice, width: number, height: number, minAlphaMass = 0, lodPixelFraction = DEFAULT_LOD_PIXEL_FRACTION): Promise<OffscreenSplatView> {
    const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, minAlphaMass, lodPixelFraction });
    return new OffscreenSplatView(device, renderer, new OffscreenTarget(device, width, height), lodPixelFraction);
  }

  /** Uploads `cloud` (replacing the previous one) as the scene of the next frames. */
  async setCloud(cloud: SplatCloud, file = 'scene'): Promise<void> {
    const scene = new SplatSceneBuffers(this.device, cloud, file, undefined, undefined, this.lodPixelFraction);
    try {
      await this.renderer.setScene(scene);
    } catch (e) {
      scene.destroy();
      throw e;
    }
    this.scene?.destroy();
    this.scene = scene;
  }

  /**
   * Renders the scene from `camera` (of the target's size) and returns linear RGBA floats
   * (width×height×4, top row first) over a transparent black background.
   *
   * @throws Error before {@link setCloud}, or when the camera's size is not the target's.
   */
  async render(camera: SplatCamera): Promise<Float32Array> {
    if (!this.scene) throw new Error('OffscreenSplatView.render: no cloud set');
    if (camera.width !== this.target.width || camera.height !== this.target.height) throw new Error(`OffscreenSplatView.render: a ${camera.width}×${camera.height} camera for a ${this.target.width}×${this.target.height} target`);
    const encoder = this.device.createCommandEncoder({ label: 'OffscreenSplatView.render' });
    // Splats alone: no depth test (raster-pass.ts, SplatRenderTarget.depth).
    this.renderer.encode(encoder, cameraModel(camera), { color: this.target.color.createView(), depth: null, clearColor: { r: 0, g: 0, b: 0, a: 0 } });
    submit(this.device, encoder);
    return readTexture(this.device, this.target.color);
  }

  destroy(): void {
    this.target.destroy();
    this.renderer.destroy();
    this.scene?.destroy();
    this.scene = null;
  }
}

/**
 * Renders `cloud` from `camera` and returns linear RGBA floats (width×height×4, top row first)
 * over a black background.
 *
 * @param minAlphaMass the renderer's total-α cull threshold, px² (`SplatRendererOptions`; 0 draws every splat).
 * @param lodPixelFraction the renderer's level of detail (`SplatRendererOptions.lodPixelFraction`; 0 draws the capture's own splats).
 */
export async function renderSplatsOffscreen(device: GPUDevice, cloud: SplatCloud, camera: SplatCamera, file = 'scene', minAlphaMass = 0, lodPixelFraction = DEFAULT_LOD_PIXEL_FRACTION): Promise<Float32Array> {
  const view = await OffscreenSplatView.create(device, camera.width, camera.height, minAlphaMass, lodPixelFraction);
  try {
    await view.setCloud(cloud, file);
    return await view.render(camera);
  } finally {
    view.destroy();
  }
}
