/**
 * The scene editor's background: a true orthographic top-down render of the levelled capture
 * (`OrthographicCamera`, looking down −z with image up = world +y), at a view centre and a ground
 * sampling distance, read back as RGBA8 for the editor's 2D canvas. One renderer, scene buffers and
 * target per editor; the target is recreated only when the canvas size changes.
 */
import { cameraModel, type OrthographicCamera } from '../../gpu/camera';
import { readTextureBytes } from '../../gpu/readback';
import { OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT, OffscreenTarget } from '../../splats/offscreen';
import type { SplatCloud } from '../../splats/splat-cloud';
import { SplatRenderer } from '../../splats/splat-renderer';
import { SplatSceneBuffers } from '../../splats/splat-scene-buffers';

/** What part of the ground the view shows: centre (world x, y, metres) and metres per pixel. */
export interface MapView {
  centre: [number, number];
  metresPerPixel: number;
}

/** The orthographic camera of a map view over a cloud whose heights lie in [zMin, zMax]. */
export function mapCamera(view: MapView, width: number, height: number, zMin: number, zMax: number): OrthographicCamera {
  const top = zMax + 1;
  return {
    projection: 'orthographic', eye: [view.centre[0], view.centre[1], top], target: [view.centre[0], view.centre[1], zMin], up: [0, 1, 0],
    metresPerPixel: view.metresPerPixel, width, height, near: 0.01, far: top - zMin + 1,
  };
}

/** World (x, y) → canvas pixel, and back, for a map view of a width × height canvas. */
export function worldToPixel(view: MapView, width: number, height: number, x: number, y: number): [number, number] {
  return [width / 2 + (x - view.centre[0]) / view.metresPerPixel, height / 2 - (y - view.centre[1]) / view.metresPerPixel];
}
export function pixelToWorld(view: MapView, width: number, height: number, px: number, py: number): [number, number] {
  return [view.centre[0] + (px - width / 2) * view.metresPerPixel, view.centre[1] - (py - height / 2) * view.metresPerPixel];
}

/** Renders a levelled capture top-down. */
export class TopDownView {
  private scene: SplatSceneBuffers | null = null;
  private target: OffscreenTarget | null = null;
  private zRange: [number, number] = [0, 1];

  private constructor(private readonly device: GPUDevice, private readonly renderer: SplatRenderer) {}

  static async create(device: GPUDevice): Promise<TopDownView> {
    return new TopDownView(device, await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT }));
  }

  /** Uploads the cloud (world frame). @throws SplatMemoryError when it exceeds the adapter's limits. */
  async setCloud(cloud: SplatCloud, name: string): Promise<void> {
    this.scene?.destroy();
    this.scene = null;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < cloud.count; i++) {
      const z = cloud.positions[3 * i + 2];
      if (z < lo) lo = z;
      if (z > hi) hi = z;
    }
    this.zRange = cloud.count ? [lo, hi] : [0, 1];
    this.scene = new SplatSceneBuffers(this.device, cloud, name);
    await this.renderer.setScene(this.scene);
  }

  /** One top-down frame: RGBA8 pixels, width × height, top row first, over black. */
  async render(view: MapView, width: number, height: number): Promise<Uint8ClampedArray<ArrayBuffer>> {
    if (!this.scene) throw new Error('TopDownView.render: no capture loaded');
    if (!this.target || this.target.color.width !== width || this.target.color.height !== height) {
      this.target?.destroy();
      this.target = new OffscreenTarget(this.device, width, height);
    }
    const camera = mapCamera(view, width, height, this.zRange[0], this.zRange[1]);
    const encoder = this.device.createCommandEncoder({ label: 'TopDownView' });
    this.target.clearDepth(encoder);
    this.renderer.encode(encoder, cameraModel(camera), { color: this.target.color.createView(), depth: this.target.depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 1 } });
    this.device.queue.submit([encoder.finish()]);
    const bytes = await readTextureBytes(this.device, this.target.color);
    const out = new Uint8ClampedArray(bytes.length);
    out.set(bytes);
    for (let i = 3; i < out.length; i += 4) out[i] = 255;
    return out;
  }

  destroy(): void {
    this.target?.destroy();
    this.scene?.destroy();
    this.renderer.destroy();
  }
}
