/**
 * Browser side of `npm run bench:peers`: Curbside's `SplatRenderer` and PlayCanvas's WebGPU
 * gsplat renderer (npm `playcanvas`, unified rendering with GPU sort) draw the same capture at the
 * same resolution along the same camera path, alternating renderer blocks, in one page.
 *
 * Camera path: the default framing of the capture (`frameSplatBounds`), orbiting the target about
 * the up axis by `orbitDeg` per frame, so no frame can reuse the previous frame's sort. Frame time
 * is wall clock from the start of the frame's CPU work to `onSubmittedWorkDone` (each renderer on
 * its own GPUDevice), median over the timed frames after `warmup` untimed ones.
 *
 * Fidelity: both images of the first camera are compared with the f64 reference renderer
 * (`renderSplatsReference`, the 3DGS equations) by PSNR over RGB, when the capture is small
 * enough for the reference (`referenceMaxSplats`).
 */
import type * as PC from 'playcanvas';
import { median } from '../src/bench/metrics';
import type { PinholeCamera } from '../src/gpu/camera';
import { acquireDevice, describeAdapter } from '../src/gpu/device';
import { readTexture, toRgba8 } from '../src/gpu/readback';
import { splatBounds } from '../src/splats/formats';
import { loadSplatSource } from '../src/splats/load-source';
import { frameSplatBounds } from '../src/splats/framing';
import { psnr, renderSplatsReference } from '../src/splats/reference-renderer';
import { boundsViewCamera, SplatFrameTimer, orbitCamera, type BoundsView } from './splat-frame-timer';
import { SplatSceneBuffers } from '../src/splats/splat-scene-buffers';
import { toBase64 } from '../src/core/bytes';

/** A start view relative to a capture's bounds (see boundsViewCamera). */
export type PeerView = BoundsView;

export interface PeerBenchRequest {
  /** Captures served by the harness (a file, or a folder with its SOG parts); optional start view (default: `frameSplatBounds`). */
  files: { url: string; name: string; sogParts?: string[]; view?: PeerView }[];
  width: number;
  height: number;
  /** Vertical field of view, degrees. */
  fovYDeg: number;
  /** Degrees the camera turns about the target per frame. */
  orbitDeg: number;
  warmup: number;
  /** Timed frames per renderer block. */
  frames: number;
  /** Blocks per renderer, alternated (Curbside, PlayCanvas, Curbside, …). */
  rounds: number;
  /** Largest capture the f64 reference renders for PSNR (it is slow). */
  referenceMaxSplats: number;
  /** Curbside's total-α cull threshold, px² (`SplatRendererOptions.minAlphaMass`; 0 draws every splat). */
  minAlphaMass: number;
  /** Curbside's level of detail (`SplatRendererOptions.lodPixelFraction`); above 0 Curbside is also timed with it off ("exact"). */
  lodPixelFraction: number;
}

export interface PeerBenchRow {
  scene: string;
  splats: number;
  width: number;
  height: number;
  /** Median frame ms of each block, in run order. */
  curbsideMs: number[];
  /** Curbside with its level of detail off (every splat of the capture); equal to `curbsideMs` when the run's fraction is 0. */
  curbsideExactMs: number[];
  playcanvasMs: number[];
  /** PlayCanvas with its screen-space culling off (minContribution = minPixelSize = 0): every splat drawn, as Curbside does. */
  playcanvasExactMs: number[];
  /** Median over all timed frames. */
  curbsideMedianMs: number;
  curbsideExactMedianMs: number;
  playcanvasMedianMs: number;
  playcanvasExactMedianMs: number;
  /** PSNR (dB) of each image of the first camera against the f64 reference; null when skipped. */
  curbsidePsnr: number | null;
  curbsideExactPsnr: number | null;
  /** PSNR (dB) of Curbside's image against its exact one (the level of detail's own error; ∞ when none was drawn coarse). */
  curbsideVsExactPsnr: number;
  /** Cells Curbside drew at a coarse level in the first frame (of the scene's spatial cells). */
  coarseCells: number;
  cells: number;
  playcanvasPsnr: number | null;
  playcanvasExactPsnr: number | null;
  /** PlayCanvas's default culling parameters in this run. */
  playcanvasCulling: { minContribution: number; minPixelSize: number };
  /** Curbside's median GPU ms per pass (preprocess, sort, raster), from timestamp queries; {} without them. */
  curbsidePasses: Record<string, number>;
  /** The PlayCanvas gsplat renderer in effect (GSPLAT_RENDERER_* name). */
  playcanvasRenderer: string;
  /** First-camera images, RGBA8 base64, width×height each: Curbside, Curbside exact (or '' without a level of detail), PlayCanvas, reference (or ''). */
  images: { curbside: string; curbsideExact: string; playcanvas: string; reference: string };
}

export interface PeerBenchResult {
  adapter: string;
  software: boolean;
  playcanvasVersion: string;
  rows: PeerBenchRow[];
}

/** PlayCanvas app drawing gsplat assets (one scene) into a fixed-size canvas, frames driven by hand. */
class PlayCanvasPeer {
  private constructor(
    readonly pc: typeof PC,
    readonly app: PC.AppBase,
    readonly canvas: HTMLCanvasElement,
    readonly cameraEntity: PC.Entity,
    readonly splatEntity: PC.Entity,
    readonly gpu: GPUDevice,
  ) {}

  static async create(assets: { url: string; name: string }[], width: number, height: number): Promise<PlayCanvasPeer> {
    const pc = await import('playcanvas');
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    document.body.appendChild(canvas);
    const device = await pc.createGraphicsDevice(canvas, { deviceTypes: [pc.DEVICETYPE_WEBGPU], antialias: false, alpha: false });
    if (device.deviceType !== pc.DEVICETYPE_WEBGPU) throw new Error(`bench:peers: PlayCanvas got a ${device.deviceType} device, not WebGPU`);
    device.maxPixelRatio = 1;
    const options = new pc.AppOptions();
    options.graphicsDevice = device;
    options.componentSystems = [pc.CameraComponentSystem, pc.GSplatComponentSystem];
    options.resourceHandlers = [pc.GSplatHandler, pc.TextureHandler]; // SOG images load as textures
    const app = new pc.AppBase(canvas);
    app.init(options);
    app.setCanvasFillMode(pc.FILLMODE_NONE, width, height);
    app.setCanvasResolution(pc.RESOLUTION_FIXED, width, height);
    const splatEntity = new pc.Entity('splats');
    app.root.addChild(splatEntity);
    for (const { url, name } of assets) {
      const asset = new pc.Asset(name, 'gsplat', { url, filename: name });
      app.assets.add(asset);
      await new Promise<void>((resolve, reject) => {
        asset.once('load', () => resolve());
        asset.once('error', (e: unknown) => reject(new Error(`PlayCanvas could not load ${name}: ${String(e)}`)));
        app.assets.load(asset);
      });
      const part = new pc.Entity(name);
      part.addComponent('gsplat', { asset });
      splatEntity.addChild(part);
    }
    const cameraEntity = new pc.Entity('camera');
    cameraEntity.addComponent('camera', { clearColor: new pc.Color(0, 0, 0, 1), fov: 50 });
    app.root.addChild(cameraEntity);
    const gpu = (device as unknown as { wgpu: GPUDevice }).wgpu;
    const peer = new PlayCanvasPeer(pc, app, canvas, cameraEntity, splatEntity, gpu);
    peer.defaults.minContribution = app.scene.gsplat.minContribution;
    peer.defaults.minPixelSize = app.scene.gsplat.minPixelSize;
    return peer;
  }

  setCamera(c: PinholeCamera): void {
    const cam = this.cameraEntity.camera!;
    cam.fov = c.fovYDeg;
    cam.nearClip = c.near;
    cam.farClip = c.far;
    this.cameraEntity.setPosition(c.eye[0], c.eye[1], c.eye[2]);
    this.cameraEntity.lookAt(new this.pc.Vec3(...c.target), new this.pc.Vec3(...c.up));
  }

  /** One whole frame (update, render, submit), awaited until the GPU is done; ms. */
  async frame(): Promise<number> {
    const t0 = performance.now();
    this.app.update(1 / 60);
    this.app.render();
    await this.gpu.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  }

  /** Renders a frame and copies the canvas (sRGB-encoded display values) to RGBA floats in [0, 1]. */
  async image(): Promise<Float32Array> {
    this.app.update(1 / 60);
    this.app.render();
    const copy = document.createElement('canvas');
    copy.width = this.canvas.width;
    copy.height = this.canvas.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(this.canvas, 0, 0); // same task as the render: the current texture is still readable
    await this.gpu.queue.onSubmittedWorkDone();
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    return Float32Array.from(data, (v) => v / 255);
  }

  /** PlayCanvas's default screen-space culling, read at creation. */
  readonly defaults = { minContribution: 0, minPixelSize: 0 };

  /** Turns PlayCanvas's minimum-contribution and minimum-pixel-size culling on (its defaults) or off. */
  setCulling(on: boolean): void {
    const g = this.app.scene.gsplat;
    g.minContribution = on ? this.defaults.minContribution : 0;
    g.minPixelSize = on ? this.defaults.minPixelSize : 0;
  }

  get rendererName(): string {
    const current = this.app.scene.gsplat.currentRenderer;
    const names = ['GSPLAT_RENDERER_AUTO', 'GSPLAT_RENDERER_RASTER_CPU_SORT', 'GSPLAT_RENDERER_RASTER_GPU_SORT', 'GSPLAT_RENDERER_COMPUTE'] as const;
    return names.find((n) => this.pc[n] === current) ?? String(current);
  }

  destroy(): void {
    this.app.destroy();
    this.canvas.remove();
  }
}

/**
 * Times Curbside and PlayCanvas (as shipped, then with its culling off) on each file of `req`, in
 * alternating blocks, and returns the medians, the pass times, the PSNRs and the first-frame images.
 *
 * @throws SplatFormatError for a capture that does not load; Error when PlayCanvas cannot load it
 *   or gets no WebGPU device.
 */
export async function runPeerBenchmark(req: PeerBenchRequest): Promise<PeerBenchResult> {
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const device = acquired.device;
  const timer = await SplatFrameTimer.create(device, req.width, req.height);
  timer.renderer.minAlphaMass = req.minAlphaMass;
  timer.renderer.lodPixelFraction = req.lodPixelFraction;
  const pcVersion = (await import('playcanvas')).version;
  const rows: PeerBenchRow[] = [];
  try {
    for (const file of req.files) {
      const cloud = await loadSplatSource(file, device);
      const bounds = splatBounds(cloud);
      const start = file.view ? boundsViewCamera(bounds, file.view, req.width, req.height, req.fovYDeg) : frameSplatBounds(bounds, req.width, req.height, req.fovYDeg);
      const scene = new SplatSceneBuffers(device, cloud, file.name, undefined, undefined, req.lodPixelFraction);
      await timer.renderer.setScene(scene);
      const assets = file.sogParts ? file.sogParts.map((part) => ({ url: file.url + part, name: 'meta.json' })) : [file];
      const peer = await PlayCanvasPeer.create(assets, req.width, req.height);
      try {
        const curbsideFrame = (camera: PinholeCamera) => timer.frame(camera);
        // First camera: images and PSNR (also warms both renderers up).
        await curbsideFrame(start);
        const curbsideImage = await readTexture(device, timer.target.color);
        const coarseCells = scene.lastCoarseCells;
        const withLod = req.lodPixelFraction > 0;
        let curbsideExactImage = curbsideImage;
        if (withLod) {
          timer.renderer.lodPixelFraction = 0;
          await curbsideFrame(start);
          curbsideExactImage = await readTexture(device, timer.target.color);
          timer.renderer.lodPixelFraction = req.lodPixelFraction;
        }
        peer.setCamera(start);
        peer.setCulling(false);
        for (let i = 0; i < req.warmup; i++) await peer.frame();
        const playcanvasExactImage = await peer.image();
        peer.setCulling(true);
        for (let i = 0; i < req.warmup; i++) await peer.frame();
        const playcanvasImage = await peer.image();
        const reference = cloud.count <= req.referenceMaxSplats ? renderSplatsReference(cloud, start) : null;
        timer.takePassMedians(); // the first frame compiles pipelines: keep it out of the pass medians
        const blocks = { curbside: [] as number[], curbsideExact: [] as number[], playcanvas: [] as number[], playcanvasExact: [] as number[] };
        const all = { curbside: [] as number[], curbsideExact: [] as number[], playcanvas: [] as number[], playcanvasExact: [] as number[] };
        const renderers = withLod ? (['curbside', 'curbsideExact', 'playcanvas', 'playcanvasExact'] as const) : (['curbside', 'playcanvas', 'playcanvasExact'] as const);
        for (let r = 0; r < req.rounds; r++) {
          for (const who of renderers) {
            if (who === 'playcanvas' || who === 'playcanvasExact') peer.setCulling(who === 'playcanvas');
            if (withLod) timer.renderer.lodPixelFraction = who === 'curbsideExact' ? 0 : req.lodPixelFraction;
            const times: number[] = [];
            for (let f = -req.warmup; f < req.frames; f++) {
              const camera = orbitCamera(start, (f + req.warmup + 1) * req.orbitDeg);
              let ms: number;
              if (who === 'curbside' || who === 'curbsideExact') {
                ms = await curbsideFrame(camera);
              } else {
                peer.setCamera(camera);
                ms = await peer.frame();
              }
              if (f >= 0) times.push(ms);
            }
            blocks[who].push(median(times));
            all[who].push(...times);
          }
        }
        const opaque = (img: Float32Array) => {
          const out = Float32Array.from(img);
          for (let i = 3; i < out.length; i += 4) out[i] = 1;
          return toBase64(toRgba8(out));
        };
        rows.push({
          scene: file.name,
          splats: cloud.count,
          width: req.width,
          height: req.height,
          curbsideMs: blocks.curbside,
          curbsideExactMs: withLod ? blocks.curbsideExact : blocks.curbside,
          playcanvasMs: blocks.playcanvas,
          playcanvasExactMs: blocks.playcanvasExact,
          curbsideMedianMs: median(all.curbside),
          curbsideExactMedianMs: median(withLod ? all.curbsideExact : all.curbside),
          playcanvasMedianMs: median(all.playcanvas),
          playcanvasExactMedianMs: median(all.playcanvasExact),
          curbsidePsnr: reference ? psnr(curbsideImage, reference) : null,
          curbsideExactPsnr: reference ? psnr(curbsideExactImage, reference) : null,
          curbsideVsExactPsnr: psnr(curbsideImage, curbsideExactImage),
          coarseCells,
          cells: scene.cells?.count.length ?? 0,
          playcanvasPsnr: reference ? psnr(playcanvasImage, reference) : null,
          playcanvasExactPsnr: reference ? psnr(playcanvasExactImage, reference) : null,
          playcanvasCulling: { ...peer.defaults },
          playcanvasRenderer: peer.rendererName,
          curbsidePasses: timer.takePassMedians(),
          images: { curbside: opaque(curbsideImage), curbsideExact: withLod ? opaque(curbsideExactImage) : '', playcanvas: opaque(playcanvasImage), reference: reference ? opaque(reference) : '' },
        });
      } finally {
        peer.destroy();
        scene.destroy();
      }
    }
  } finally {
    timer.destroy();
    device.destroy();
  }
  return { adapter: describeAdapter(acquired), software: acquired.isSoftware, playcanvasVersion: pcVersion, rows };
}
