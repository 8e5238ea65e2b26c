/**
 * The screenshots of `arena:serve` (src/arena/control/http.ts): the avatar's first-person view,
 * rendered by the headless page under the session's time of day and weather, or, while the map is
 * open, the map view (north-up, top-down: the focus and span of `map_pan`/`map_zoom`, the avatar's
 * marker, the selected point, the `navigate` route, the task's closures in red, street and place
 * labels). JPEG or PNG.
 *
 * One open world view per image size and look, kept (at most {@link MAX_VIEWS}, least recently used
 * closed); the look's time is rounded to {@link LOOK_STEP_MINUTES} so a walking clock does not
 * reopen views.
 *
 * The session's pedestrians (its crowd's walkers, `ControlSession.pedestrians`) are drawn in the
 * first-person view as the skinned pedestrians of the robot camera, where they stand at the moment of
 * the screenshot (at most {@link MAX_DRAWN_PEDESTRIANS}, in crowd order so each keeps its look), their
 * gaits advanced by the simulation seconds they walked since the view's last frame (at most 1 s).
 */
import { pageWorldOf } from './osm-option';
import * as PImage from 'pureimage';
import jpeg from 'jpeg-js';
import type { ControlImages, ScreenshotRequest } from '../arena/control/http';
import type { ControlSession } from '../arena/control/session';
import { EYE_HEIGHT } from '../arena/episode';
import { decorateArenaMap } from '../arena/map-images';
import { renderWorldMap, worldToPixel, type MapAgent, type MapImage } from '../world/map-render';
import type { Conditions } from '../world/conditions';
import type { LabelCanvas } from '../world/map-labels';
import type { Harness } from '../tools/browser-harness';
import type { FramePedestrians } from '../gpu/view-session';
import { encodePng } from './arena-render';
import { LABEL_FONT_FAMILY, registerLabelFont } from './map-labels';

/** Open world views kept at once. */
export const MAX_VIEWS = 3;
/** Pedestrians a first-person view draws at most (the first of the session's walkers, in crowd order). */
export const MAX_DRAWN_PEDESTRIANS = 64;
/** Rendering resolution of the clock, minutes. */
export const LOOK_STEP_MINUTES = 30;

/** `conditions` with its time rounded down to {@link LOOK_STEP_MINUTES}. */
export function renderLook(c: Conditions): Conditions {
  const [h, m] = c.time.split(':').map(Number);
  const minutes = Math.floor((h * 60 + m) / LOOK_STEP_MINUTES) * LOOK_STEP_MINUTES;
  return { ...c, time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}` };
}

/** Encodes RGBA8 pixels as PNG or JPEG (quality 1–100). */
export function encodeImage(img: { width: number; height: number; data: Uint8Array | Uint8ClampedArray }, format: 'png' | 'jpeg', quality: number): Uint8Array {
  if (format === 'png') return encodePng(img.width, img.height, img.data);
  return new Uint8Array(jpeg.encode({ width: img.width, height: img.height, data: Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength) }, quality).data);
}

/** The open map of a session as an image of `width`×`height` pixels (see the module comment). */
export function controlMapImage(session: ControlSession, width: number, height: number): MapImage {
  const { view, route } = session.mapView;
  const [cx, cy] = view.centre;
  // The span covers the shorter side; the longer side shows more.
  const hy = width >= height ? view.halfSpan : (view.halfSpan * height) / width;
  const hx = (hy * width) / height;
  const pose = session.cameraPose(EYE_HEIGHT);
  const agents: MapAgent[] = [{ position: session.position, yaw: pose.yaw, radius: 6, color: [255, 140, 0, 255] }];
  if (view.selected) agents.push({ position: view.selected, radius: 5, color: [220, 30, 30, 255] });
  const img = renderWorldMap(session.world, { widthPx: width, heightPx: height, bounds: [cx - hx, cy - hy, cx + hx, cy + hy], agents, ...(route ? { route } : {}) });
  registerLabelFont();
  const bmp = PImage.make(img.width, img.height);
  bmp.data.set(img.data);
  const ctx = bmp.getContext('2d');
  decorateArenaMap(ctx as unknown as LabelCanvas, img, session.inventory, { bounds: [cx - hx, cy - hy, cx + hx, cy + hy], sizePx: width, agents, grid: 0 }, `'${LABEL_FONT_FAMILY}'`);
  // The task's closures, as red lines.
  ctx.strokeStyle = 'rgba(220,20,20,1)';
  ctx.lineWidth = Math.max(3, Math.round(width / 160));
  for (const c of session.task?.closures ?? []) {
    ctx.beginPath();
    c.line.forEach((p, k) => {
      const [x, y] = worldToPixel(img, p);
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.stroke();
  }
  img.data.set(bmp.data);
  return img;
}

/** Screenshots through the headless page (see the module comment). */
export class ServeImages implements ControlImages {
  private readonly views = new Map<string, number>();
  /** Per open view: the session's pedestrian clock at its last frame (s). */
  private readonly gaitClock = new Map<number, number>();
  /** Milliseconds the last view opening took (world generation and the first bake in the page). */
  lastOpenMs = 0;

  /** @param fovYDeg vertical field of view of the first-person camera, degrees. */
  constructor(private readonly h: Harness, private readonly fovYDeg: number) {}

  private async viewFor(session: ControlSession, width: number, height: number, look: Conditions, pose: { eye: [number, number, number]; target: [number, number, number] }): Promise<number> {
    const key = `${width}x${height}|${look.time}|${look.weather}`;
    const open = this.views.get(key);
    if (open !== undefined) {
      this.views.delete(key);
      this.views.set(key, open);
      return open;
    }
    while (this.views.size >= MAX_VIEWS) {
      const [oldKey, oldSession] = this.views.entries().next().value as [string, number];
      this.views.delete(oldKey);
      this.gaitClock.delete(oldSession);
      await this.h.call('closeView', { session: oldSession });
    }
    const t0 = performance.now();
    const opened = await this.h.call('openWorldView', { ...(await pageWorldOf(session.world)), width, height, fovYDeg: this.fovYDeg, eye: pose.eye, target: pose.target, up: [0, 0, 1], conditions: look, maxPedestrians: MAX_DRAWN_PEDESTRIANS });
    this.lastOpenMs = performance.now() - t0;
    this.views.set(key, opened.session);
    return opened.session;
  }

  async screenshot(session: ControlSession, r: ScreenshotRequest): Promise<Uint8Array> {
    if (session.mapView.view.open) return encodeImage(controlMapImage(session, r.width, r.height), r.format, r.quality);
    const p = session.cameraPose(EYE_HEIGHT);
    const [x, y, z] = p.eye;
    const pose = { eye: p.eye, target: [x + Math.cos(p.yaw) * Math.cos(p.pitch), y + Math.sin(p.yaw) * Math.cos(p.pitch), z + Math.sin(p.pitch)] as [number, number, number] };
    const view = await this.viewFor(session, r.width, r.height, renderLook(session.conditions()), pose);
    const f = await this.h.call('renderViewFrame', { session: view, orbitDeg: 0, pose, encode: { format: r.format, quality: r.quality / 100 }, pedestrians: this.framePedestrians(session, view) });
    return new Uint8Array(Buffer.from(f.encodedBase64 ?? '', 'base64'));
  }

  /** The session's walkers for a frame of `view`, and the seconds their gaits advance (the pedestrian clock's change since the view's last frame, 0–1 s; 1 s for its first, so legs are mid-stride). */
  private framePedestrians(session: ControlSession, view: number): FramePedestrians {
    const clock = session.pedestrianSeconds;
    const last = this.gaitClock.get(view);
    this.gaitClock.set(view, clock);
    const dt = last === undefined ? 1 : Math.min(1, Math.max(0, clock - last));
    const pedestrians = session.pedestrians.slice(0, MAX_DRAWN_PEDESTRIANS).map((p) => ({ x: p.position[0], y: p.position[1], heading: p.heading, walkSpeed: p.walkSpeed }));
    return { pedestrians, dt };
  }

  /** Closes every open view. */
  async close(): Promise<void> {
    for (const v of this.views.values()) await this.h.call('closeView', { session: v }).catch(() => {});
    this.views.clear();
    this.gaitClock.clear();
  }
}
