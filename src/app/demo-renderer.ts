/**
 * The demo's frame: skinning (compute) → pedestrians (render, clears colour and depth) → markers
 * (robot, goal, stand-in pedestrians) → splats (preprocess, sort, raster; depth-tested against the
 * opaque passes) → present (sky, time-of-day tint, to the canvas) → inset (an ONNX policy's
 * robot-eye frame in a corner, when the frame has one). Offscreen colour is rgba8unorm,
 * depth depth32float (src/splats/offscreen.ts). Every pass is timed by the GpuProfiler when the
 * adapter has `timestamp-query`; the sort is the gap between preprocess and raster.
 *
 * Owns its passes, the offscreen target and the uploaded splat scene; `render` records and submits
 * one frame (the frame loop is the only submitter).
 */
import { cameraModel, type PinholeCamera } from '../gpu/camera';
import { GpuProfiler } from '../gpu/profiler';
import { createProceduralBody } from '../humans/procedural-body';
import { makeHumanBody } from '../humans/makehuman-set';
import type { PedestrianAppearance } from '../humans/pedestrian-appearance';
import { pedestrianBetasFor } from '../humans/pedestrian-wardrobe';
import { PedestrianPass } from '../humans/pedestrian-pass';
import { PedestrianSkinner } from '../humans/pedestrian-skinner';
import type { BodyModel } from '../humans/body-model';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../splats/offscreen';
import type { SplatCloud } from '../splats/splat-cloud';
import { SplatRenderer } from '../splats/splat-renderer';
import { SplatSceneBuffers } from '../splats/splat-scene-buffers';
import { BoxPass, type Box3 } from './box-pass';
import type { CrowdFrame } from './crowd-view';
import type { TimeOfDayLighting } from '../world/lighting';
import type { ConditionsShading } from '../world/conditions';
import { RainPass } from '../sensors/rain-streaks';
import { InsetPass } from './inset-pass';
import { PresentPass } from './present-pass';

/** Most marker boxes per frame (robot, goal, two per stand-in pedestrian). */
export const MAX_BOXES = 2048;

/** What one frame draws. */
export interface DemoFrame {
  camera: PinholeCamera;
  crowd: CrowdFrame | null;
  /** Draw pedestrians as skinned bodies (true) or stand-in boxes (false). */
  bodies: boolean;
  boxes: Box3[];
  /** A small picture drawn into a corner of the canvas (the robot-eye frame an ONNX policy sees). */
  inset?: GPUTexture | null;
}

/** Per-pass GPU times of one frame, ms (null without timestamp queries). */
export type PassTimes = Map<string, number> | null;

/** Renders demo frames into a canvas texture (see the module doc). */
export class DemoRenderer {
  private target: OffscreenTarget;
  private skinner: PedestrianSkinner | null = null;
  /** The appearances whose body shapes (β) the skinner holds. */
  private shapedFor: readonly PedestrianAppearance[] | null = null;
  private pedestrians: PedestrianPass | null = null;
  private scene: SplatSceneBuffers | null = null;
  /** The last scene change, so overlapping `setSplats` calls apply one after another. */
  private sceneChange: Promise<void> = Promise.resolve();
  private lighting: TimeOfDayLighting | null = null;
  /** The main view's conditions (rain streaks), and the clock the rain falls by. */
  private conditions: ConditionsShading | null = null;
  private readonly started = performance.now();
  /** Splats in the uploaded scene (0 when none). */
  splatCount = 0;

  private constructor(
    readonly device: GPUDevice,
    readonly profiler: GpuProfiler,
    private readonly model: BodyModel,
    private readonly splats: SplatRenderer,
    private readonly boxes: BoxPass,
    private readonly present: PresentPass,
    private readonly inset: InsetPass,
    private readonly rain: RainPass,
    width: number,
    height: number,
  ) {
    this.target = new OffscreenTarget(device, width, height);
  }

  /**
   * Compiles every pipeline. @throws Error when a shader fails to compile.
   *
   * @param body pedestrian body: the shipped MakeHuman set (default, LOD0) or the built-in procedural body.
   */
  static async create(device: GPUDevice, canvasFormat: GPUTextureFormat, width: number, height: number, body: 'makehuman' | 'procedural' = 'makehuman'): Promise<DemoRenderer> {
    const profiler = new GpuProfiler(device, 8, 'DemoRenderer.profiler');
    const [splats, boxes, present, inset, rain] = await Promise.all([
      SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, profiler }),
      BoxPass.create(device, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT, MAX_BOXES),
      PresentPass.create(device, canvasFormat),
      InsetPass.create(device, canvasFormat),
      RainPass.create(device, OFFSCREEN_COLOR_FORMAT),
    ]);
    return new DemoRenderer(device, profiler, body === 'procedural' ? createProceduralBody() : makeHumanBody(), splats, boxes, present, inset, rain, width, height);
  }

  /** Render size, pixels. */
  get size(): [number, number] {
    return [this.target.width, this.target.height];
  }

  /** Re-creates the offscreen target at a new size (no-op when unchanged). */
  resize(width: number, height: number): void {
    if (width === this.target.width && height === this.target.height) return;
    this.target.destroy();
    this.target = new OffscreenTarget(this.device, width, height);
  }

  /**
   * Uploads a new splat background (null: none). Frames rendered meanwhile draw no splats (never a
   * half-set scene), and calls that overlap (a user switching scenarios quickly) apply in call order.
   *
   * @throws SplatMemoryError when it does not fit the adapter.
   */
  setSplats(cloud: SplatCloud | null, name = 'scene'): Promise<void> {
    const change = this.sceneChange.then(() => this.replaceSplats(cloud, name));
    this.sceneChange = change.catch(() => undefined);
    return change;
  }

  private async replaceSplats(cloud: SplatCloud | null, name: string): Promise<void> {
    this.scene?.destroy();
    this.scene = null;
    this.splatCount = 0;
    if (!cloud || cloud.count === 0) return;
    const scene = new SplatSceneBuffers(this.device, cloud, name, 'DemoRenderer.scene');
    try {
      await this.splats.setScene(scene);
    } catch (e) {
      scene.destroy();
      throw e;
    }
    // Only now may frames draw it: the renderer's buffers and bind groups are ready.
    this.scene = scene;
    this.splatCount = cloud.count;
  }

  /** Sets the time-of-day lighting of every pass. */
  setLighting(l: TimeOfDayLighting): void {
    this.present.setSky(l.sky);
    this.boxes.setLighting(l.sunDirection, l.sunColor, 0.45);
    this.pedestrians?.setLighting(l.pedestrians);
    this.lighting = l;
  }

  /**
   * Sets the time of day and weather of every pass (src/world/conditions.ts). The present pass
   * multiplies the whole frame by the time-of-day tint, so the splats keep an untinted shading here
   * and the fog colours are divided by the tint, which the present pass then puts back.
   */
  setConditions(c: ConditionsShading): void {
    const t: [number, number, number] = [c.splats.tint[0], c.splats.tint[1], c.splats.tint[2]];
    const untint = (rgb: readonly number[]) => [0, 1, 2].map((k) => rgb[k] / Math.max(t[k], 1e-3)) as [number, number, number];
    const fog = c.pedestrians.fog;
    this.setLighting({
      ...c.lighting,
      sky: c.splats.fogDensity > 0 && c.rain === 0
        ? { ...c.lighting.sky, zenith: untint(c.sky), horizon: untint(c.sky), groundHaze: untint(c.sky), tint: t }
        : { ...c.lighting.sky, tint: t },
      pedestrians: { ...c.pedestrians, fog: fog && { color: untint(fog.color), density: fog.density } },
    });
    this.splats.shading = { ...c.splats, tint: [1, 1, 1], fogColor: untint(c.splats.fogColor) };
    this.conditions = c;
  }

  /** Grows the skinner and pedestrian pass to hold `count` pedestrians. */
  private async ensurePedestrians(count: number): Promise<void> {
    if (this.skinner && this.skinner.capacity >= count) return;
    this.skinner?.destroy();
    this.pedestrians?.destroy();
    const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, count))));
    this.skinner = await PedestrianSkinner.create(this.device, this.model, capacity);
    this.shapedFor = null;
    this.pedestrians = await PedestrianPass.create(this.device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, model: this.model, capacity });
    if (this.lighting) this.pedestrians.setLighting(this.lighting.pedestrians);
  }

  /** Prepares GPU capacity for a crowd of `count` (call when the episode changes, not per frame). */
  async prepare(count: number): Promise<void> {
    await this.ensurePedestrians(count);
  }

  /**
   * Records and submits one frame into `canvasTexture` (same size as the render target).
   *
   * @throws Error when the crowd exceeds the capacity prepared by `prepare`.
   */
  render(frame: DemoFrame, canvasTexture: GPUTexture): void {
    const cam = cameraModel(frame.camera);
    const color = this.target.color.createView(), depth = this.target.depth.createView();
    const clear = { r: 0, g: 0, b: 0, a: 0 };
    const encoder = this.device.createCommandEncoder({ label: 'DemoRenderer.frame' });
    this.profiler.beginFrame();
    const crowd = frame.crowd;
    let cleared = false;
    if (crowd && crowd.count > 0 && frame.bodies && this.skinner && this.pedestrians) {
      if (crowd.count > this.skinner.capacity) throw new Error(`DemoRenderer.render: ${crowd.count} pedestrians exceed capacity ${this.skinner.capacity}`);
      if (this.shapedFor !== crowd.appearances) {
        this.skinner.setShapes(pedestrianBetasFor(this.model, crowd.appearances));
        this.shapedFor = crowd.appearances;
      }
      this.skinner.setPoses(crowd.poses.subarray(0, crowd.poses.length));
      this.pedestrians.setInstances(crowd.placements, crowd.appearances);
      this.skinner.encode(encoder, crowd.count);
      this.pedestrians.encode(encoder, cam, this.skinner.skinnedVertices, crowd.count, { color, depth, clearColor: clear }, this.profiler.span('pedestrians'));
      cleared = true;
    }
    this.boxes.setBoxes(frame.boxes);
    this.boxes.encode(encoder, cam, color, depth, cleared ? null : clear, this.profiler.span('markers'));
    if (this.scene) this.splats.encode(encoder, cam, { color, depth, clearColor: null });
    const weather = this.conditions;
    if (weather && weather.rain > 0) this.rain.encode(encoder, color, this.target.height, (performance.now() - this.started) / 1000, weather.rain, weather.rainColor);
    const canvasView = canvasTexture.createView();
    this.present.encode(encoder, cam, this.target.color, canvasView, this.profiler.span('present'));
    if (frame.inset) this.inset.encode(encoder, frame.inset, canvasView, [canvasTexture.width, canvasTexture.height]);
    this.profiler.resolve(encoder);
    this.device.queue.submit([encoder.finish()]);
  }

  /** Reads the last frame's pass times (call after the frame's submission; resolves later). */
  readPassTimes(): Promise<PassTimes> {
    return this.profiler.read();
  }

  /** Frees everything it made. */
  destroy(): void {
    for (const r of [this.skinner, this.pedestrians, this.scene, this.splats, this.boxes, this.present, this.inset, this.rain, this.target, this.profiler]) r?.destroy();
  }
}
