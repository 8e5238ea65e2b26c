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
 * Renders `cloud` from `camera` and returns linear RGBA floats (width×height×4, top row first)
 * over a black background.
 *
 * @param minAlphaMass the renderer's total-α cull threshold, px² (`SplatRendererOptions`; 0 draws every splat).
 * @param lodPixelFraction the renderer's level of detail (`SplatRendererOptions.lodPixelFraction`; 0 draws the capture's own splats).
 */
export async function renderSplatsOffscreen(device: GPUDevice, cloud: SplatCloud, camera: SplatCamera, file = 'scene', minAlphaMass = 0, lodPixelFraction = DEFAULT_LOD_PIXEL_FRACTION): Promise<Float32Array> {
  const scene = new SplatSceneBuffers(device, cloud, file, undefined, undefined, lodPixelFraction);
  const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, minAlphaMass, lodPixelFraction });
  const target = new OffscreenTarget(device, camera.width, camera.height);
  try {
    await renderer.setScene(scene);
    const encoder = device.createCommandEncoder({ label: 'renderSplatsOffscreen' });
    // Splats alone: no depth test (raster-pass.ts, SplatRenderTarget.depth).
    renderer.encode(encoder, cameraModel(camera), { color: target.color.createView(), depth: null, clearColor: { r: 0, g: 0, b: 0, a: 0 } });
    submit(device, encoder);
    return await readTexture(device, target.color);
  } finally {
    target.destroy();
    renderer.destroy();
    scene.destroy();
  }
}
