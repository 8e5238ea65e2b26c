/**
 * Headless-page functions of the splat renderer (called by `npm run render` through the browser
 * harness): plain JSON in, plain JSON out. A capture's view is opened once (file loaded, renderer
 * created) and rendered frame by frame with `renderViewFrame` (src/gpu/view-session.ts).
 */
import { acquireDevice, describeAdapter, raceDeviceLoss } from '../gpu/device';
import { orbitCamera, type PinholeCamera } from '../gpu/camera';
import { openViewSession } from '../gpu/view-session';
import { splatBounds } from './formats';
import { loadSplatSource } from './load-source';
import { captureCamera, reachAllSplats, type CaptureViewRequest } from './framing';
import { OffscreenSplatView } from './offscreen';

/** A render request from `npm run render`. */
export interface RenderRequest extends CaptureViewRequest {
  fileUrl: string;
  fileName: string;
  /** For a folder of SOG datasets: their meta.json paths relative to `fileUrl`. */
  sogParts?: string[];
  /** Total-α cull threshold, px² (`SplatRendererOptions.minAlphaMass`; default 0 draws every splat). */
  minAlphaMass?: number;
  /** Level of detail (`SplatRendererOptions.lodPixelFraction`; default DEFAULT_LOD_PIXEL_FRACTION, 0 draws every splat of the capture). */
  lodPixelFraction?: number;
}

/** An opened capture view: its session for `renderViewFrame` / `closeView`. */
export interface CaptureViewOpened {
  session: number;
  adapter: string;
  splatCount: number;
  /** The first frame's camera. */
  camera: PinholeCamera;
}

/**
 * Loads a capture and creates its renderer (once for every frame of the view). Frames are drawn
 * over transparent black; orbiting frames keep the first frame's depth range, or with an explicit
 * eye or target reach past every splat from each frame's eye (`captureCamera`).
 *
 * @throws SplatFormatError naming the file; SplatMemoryError when it does not fit the adapter.
 */
export async function openCaptureView(req: RenderRequest): Promise<CaptureViewOpened> {
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  let view: OffscreenSplatView | undefined;
  try {
    const cloud = await raceDeviceLoss(acquired, loadSplatSource({ url: req.fileUrl, name: req.fileName, sogParts: req.sogParts }, acquired.device));
    const camera = captureCamera(cloud, req);
    const all = req.eye || req.target ? splatBounds(cloud, 0, 1) : null;
    view = await raceDeviceLoss(acquired, OffscreenSplatView.create(acquired.device, req.width, req.height, req.minAlphaMass ?? 0, req.lodPixelFraction));
    await raceDeviceLoss(acquired, view.setCloud(cloud, req.fileName));
    const splatCount = cloud.count;
    const v = view;
    const session = openViewSession(acquired, {
      cameraAt: (deg) => (all ? reachAllSplats(orbitCamera(camera, deg), all) : orbitCamera(camera, deg)),
      async render(cam) {
        const pixels = await v.render(cam);
        let coveredPixels = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) coveredPixels++;
        return { pixels, splatCount, chunkCount: 1, coveredPixels };
      },
      destroy: () => v.destroy(),
    });
    return { session, adapter: describeAdapter(acquired), splatCount, camera };
  } catch (e) {
    view?.destroy();
    acquired.device.destroy();
    throw e;
  }
}
