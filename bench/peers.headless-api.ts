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
import { cameraModel, type PinholeCamera, type Vec3 } from '../src/gpu/camera';
import { acquireDevice, describeAdapter } from '../src/gpu/device';
import { GpuProfiler } from '../src/gpu/profiler';
import { readTexture, toRgba8 } from '../src/gpu/readback';
import { loadSplatFile, splatBounds } from '../src/splats/formats';
import { frameSplatBounds } from '../src/splats/framing';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../src/splats/offscreen';
import { psnr, renderSplatsReference } from '../src/splats/reference-renderer';
import { SplatRenderer } from '../src/splats/splat-renderer';
import { SplatSceneBuffers } from '../src/splats/splat-scene-buffers';
import { fetchBytes, toBase64 } from '../src/cli/page-io';

export interface PeerBenchRequest {
  /** Captures served by the harness: `url` for both renderers, `name` gives the format. */
  files: { url: string; name: string }[];
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
}

export interface PeerBenchRow {
  scene: string;
  splats: number;
  width: number;
  height: number;
  /** Median frame ms of each block, in run order. */
  curbsideMs: number[];
  playcanvasMs: number[];
  /** Median over all timed frames. */
  curbsideMedianMs: number;
  playcanvasMedianMs: number;
  /** PSNR (dB) of each image of the first camera against the f64 reference; null when skipped. */
  curbsidePsnr: number | null;
  playcanvasPsnr: number | null;
  /** Curbside's median GPU ms per pass (preprocess, sort, raster), from timestamp queries; {} without them. */
  curbsidePasses: Record<string, number>;
  /** The PlayCanvas gsplat renderer in effect (GSPLAT_RENDERER_* name). */
  playcanvasRenderer: string;
  /** First-camera images, RGBA8 base64, width×height each: Curbside, PlayCanvas, reference (or ''). */
  images: { curbside: string; playcanvas: string; reference: string };
}

export interface PeerBenchResult {
  adapter: string;
  software: boolean;
  playcanvasVersion: string;
  rows: PeerBenchRow[];
}

/** `camera` turned about its target, around its up axis, by `deg` degrees (Rodrigues). */
export function orbitCamera(camera: PinholeCamera, deg: number): PinholeCamera {
  const a = (deg * Math.PI) / 180;
  const k = camera.up.map((v) => v / Math.hypot(...camera.up)) as Vec3;
  const v = camera.eye.map((e, i) => e - camera.target[i]) as Vec3;
  const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
  const cross: Vec3 = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
  const c = Math.cos(a);
  const s = Math.sin(a);
  const eye = v.map((vi, i) => camera.target[i] + vi * c + cross[i] * s + k[i] * kv * (1 - c)) as Vec3;
  return { ...camera, eye };
}

/** PlayCanvas app drawing one gsplat asset into a fixed-size canvas, frames driven by hand. */
class PlayCanvasPeer {
  private constructor(
    readonly pc: typeof PC,
    readonly app: PC.AppBase,
    readonly canvas: HTMLCanvasElement,
    readonly cameraEntity: PC.Entity,
    readonly splatEntity: PC.Entity,
    readonly gpu: GPUDevice,
  ) {}

  static async create(url: string, name: string, width: number, height: number): Promise<PlayCanvasPeer> {
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
    options.resourceHandlers = [pc.GSplatHandler];
    const app = new pc.AppBase(canvas);
    app.init(options);
    app.setCanvasFillMode(pc.FILLMODE_NONE, width, height);
    app.setCanvasResolution(pc.RESOLUTION_FIXED, width, height);
    const asset = new pc.Asset(name, 'gsplat', { url, filename: name });
    app.assets.add(asset);
    await new Promise<void>((resolve, reject) => {
      asset.once('load', () => resolve());
      asset.once('error', (e: unknown) => reject(new Error(`PlayCanvas could not load ${name}: ${String(e)}`)));
      app.assets.load(asset);
    });
    const splatEntity = new pc.Entity('splats');
    splatEntity.addComponent('gsplat', { asset });
    app.root.addChild(splatEntity);
    const cameraEntity = new pc.Entity('camera');
    cameraEntity.addComponent('camera', { clearColor: new pc.Color(0, 0, 0, 1), fov: 50 });
    app.root.addChild(cameraEntity);
    const gpu = (device as unknown as { wgpu: GPUDevice }).wgpu;
    return new PlayCanvasPeer(pc, app, canvas, cameraEntity, splatEntity, gpu);
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

export async function runPeerBenchmark(req: PeerBenchRequest): Promise<PeerBenchResult> {
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const device = acquired.device;
  const profiler = new GpuProfiler(device, 4);
  const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT, profiler });
  const target = new OffscreenTarget(device, req.width, req.height);
  const pcVersion = (await import('playcanvas')).version;
  const rows: PeerBenchRow[] = [];
  try {
    for (const file of req.files) {
      const cloud = loadSplatFile(file.name, await fetchBytes(file.url, file.name));
      const start = frameSplatBounds(splatBounds(cloud), req.width, req.height, req.fovYDeg);
      const scene = new SplatSceneBuffers(device, cloud, file.name);
      await renderer.setScene(scene);
      const peer = await PlayCanvasPeer.create(file.url, file.name, req.width, req.height);
      try {
        const passTimes = new Map<string, number[]>();
        const curbsideFrame = async (camera: PinholeCamera): Promise<number> => {
          const t0 = performance.now();
          profiler.beginFrame();
          const encoder = device.createCommandEncoder({ label: 'bench:peers' });
          target.clearDepth(encoder);
          renderer.encode(encoder, cameraModel(camera), { color: target.color.createView(), depth: target.depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 1 } });
          profiler.resolve(encoder);
          device.queue.submit([encoder.finish()]);
          await device.queue.onSubmittedWorkDone();
          const ms = performance.now() - t0;
          for (const [name, t] of (await profiler.read()) ?? []) {
            if (!name.includes('→')) passTimes.set(name, [...(passTimes.get(name) ?? []), t]);
          }
          return ms;
        };
        // First camera: images and PSNR (also warms both renderers up).
        await curbsideFrame(start);
        const curbsideImage = await readTexture(device, target.color);
        peer.setCamera(start);
        for (let i = 0; i < req.warmup; i++) await peer.frame();
        const playcanvasImage = await peer.image();
        const reference = cloud.count <= req.referenceMaxSplats ? renderSplatsReference(cloud, start) : null;
        const curbsideMs: number[] = [];
        const playcanvasMs: number[] = [];
        const allCurbside: number[] = [];
        const allPlaycanvas: number[] = [];
        for (let r = 0; r < req.rounds; r++) {
          for (const who of ['curbside', 'playcanvas'] as const) {
            const times: number[] = [];
            for (let f = -req.warmup; f < req.frames; f++) {
              const camera = orbitCamera(start, (f + req.warmup + 1) * req.orbitDeg);
              let ms: number;
              if (who === 'curbside') {
                ms = await curbsideFrame(camera);
              } else {
                peer.setCamera(camera);
                ms = await peer.frame();
              }
              if (f >= 0) times.push(ms);
            }
            (who === 'curbside' ? curbsideMs : playcanvasMs).push(median(times));
            (who === 'curbside' ? allCurbside : allPlaycanvas).push(...times);
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
          curbsideMs,
          playcanvasMs,
          curbsideMedianMs: median(allCurbside),
          playcanvasMedianMs: median(allPlaycanvas),
          curbsidePsnr: reference ? psnr(curbsideImage, reference) : null,
          playcanvasPsnr: reference ? psnr(playcanvasImage, reference) : null,
          playcanvasRenderer: peer.rendererName,
          curbsidePasses: Object.fromEntries([...passTimes].map(([k, v]) => [k.replace(/^splats\./, ''), median(v)])),
          images: { curbside: opaque(curbsideImage), playcanvas: opaque(playcanvasImage), reference: reference ? opaque(reference) : '' },
        });
      } finally {
        peer.destroy();
        scene.destroy();
      }
    }
  } finally {
    target.destroy();
    renderer.destroy();
    profiler.destroy();
    device.destroy();
  }
  return { adapter: describeAdapter(acquired), software: acquired.isSoftware, playcanvasVersion: pcVersion, rows };
}
