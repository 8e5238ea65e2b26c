/**
 * The arena's images in Node, for agents that need them (`npm run arena` with an image agent): the
 * first-person view rendered by the headless page (the baked city at the agent's eye, one world view
 * opened per run and re-aimed each step), and the map images drawn here (pure TypeScript map,
 * labels with pureimage). As in 360CityArena, a step carries the view, a current-location map (the
 * 200 m around the agent with its own marker, where the task grants location; no route, no
 * coordinates) and the task's reference image: its map (map navigation's start and goal markers,
 * the localization grid with its 0-based labels) or the landmark's view (search by image), made
 * once per task. PNG bytes.
 */
import * as PImage from 'pureimage';
import { PNG } from 'pngjs';
import type { ObservationImages } from '../arena/agent';
import type { ArenaEpisode } from '../arena/episode';
import type { WorldInventory } from '../world/inventory';
import { renderWorldMap, type MapImage } from '../world/map-render';
import { decorateArenaMap, locationMapSpec, taskMapSpec, type ArenaMapSpec } from '../arena/map-images';
import type { LabelCanvas } from '../world/map-labels';
import type { World } from '../world/world';
import type { Conditions } from '../world/conditions';
import type { Harness } from '../tools/browser-harness';
import type { FrameEncoding } from '../gpu/view-session';
import { registerLabelFont, LABEL_FONT_FAMILY } from './map-labels';
import { pageWorldOf } from './osm-option';

/** First-person camera of the arena agent: image size, pixels, and vertical field of view, degrees. */
export interface ArenaCameraSpec {
  width: number;
  height: number;
  fovYDeg: number;
}

/** PNG bytes of RGBA8 pixels. */
export function encodePng(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const png = new PNG({ width, height });
  png.data.set(rgba);
  return new Uint8Array(PNG.sync.write(png));
}

/** A map of `spec` with its labels and grid (src/arena/map-images.ts), rasterised with pureimage. */
export function arenaMapImage(world: World, inventory: WorldInventory, spec: ArenaMapSpec): MapImage {
  const img = renderWorldMap(world, { widthPx: spec.sizePx, heightPx: spec.sizePx, bounds: spec.bounds, agents: spec.agents });
  registerLabelFont();
  const bmp = PImage.make(img.width, img.height);
  bmp.data.set(img.data);
  decorateArenaMap(bmp.getContext('2d') as unknown as LabelCanvas, img, inventory, spec, `'${LABEL_FONT_FAMILY}'`);
  img.data.set(bmp.data);
  return img;
}

const png = (img: MapImage) => encodePng(img.width, img.height, img.data);

/** Renders the images of arena steps through an open world view of the headless page. */
export class ArenaImageRenderer {
  private session: number | null = null;
  private readonly references = new Map<string, Uint8Array>();
  private readonly maps = new Map<string, Uint8Array>();
  /** Milliseconds spent opening the view (world generation and the first chunks' bake). */
  openMs = 0;
  /** The WebGPU adapter the view renders on (known once the view is open). */
  adapter = '';

  /** @param conditions time of day and weather of the view (default: the default look). */
  constructor(private readonly h: Harness, private readonly world: World, private readonly inventory: WorldInventory, private readonly camera: ArenaCameraSpec, private readonly conditions?: Conditions) {}

  private async ensureView(first: { eye: [number, number, number]; target: [number, number, number] }): Promise<number> {
    if (this.session !== null) return this.session;
    const t0 = performance.now();
    const opened = await this.h.call('openWorldView', { ...(await pageWorldOf(this.world)), width: this.camera.width, height: this.camera.height, fovYDeg: this.camera.fovYDeg, eye: first.eye, target: first.target, up: [0, 0, 1], conditions: this.conditions });
    this.openMs = performance.now() - t0;
    this.adapter = opened.adapter;
    this.session = opened.session;
    return opened.session;
  }

  /** The view from `pose` as a PNG (or JPEG with `encoding`), encoded in the page. */
  async view(pose: { eye: [number, number, number]; target: [number, number, number] }, encoding: FrameEncoding = { format: 'png' }): Promise<Uint8Array> {
    const session = await this.ensureView(pose);
    const f = await this.h.call('renderViewFrame', { session, orbitDeg: 0, pose, encode: encoding });
    return new Uint8Array(Buffer.from(f.encodedBase64 ?? '', 'base64'));
  }

  /**
   * The images of the episode's current step: the view; the current-location map where the task
   * grants location; the task's reference image (its map, or the landmark's view), made once per task.
   */
  async render(ep: ArenaEpisode): Promise<ObservationImages> {
    const pose = ep.cameraPose();
    const [x, y, z] = pose.eye;
    const target: [number, number, number] = [x + Math.cos(pose.yaw) * Math.cos(pose.pitch), y + Math.sin(pose.yaw) * Math.cos(pose.pitch), z + Math.sin(pose.pitch)];
    const view = await this.view({ eye: pose.eye, target });
    const locationSpec = locationMapSpec(ep.task, { position: [x, y], yaw: pose.yaw });
    const map = locationSpec ? png(arenaMapImage(this.world, this.inventory, locationSpec)) : null;
    let reference = this.references.get(ep.task.id) ?? null;
    if (!reference) {
      const taskSpec = taskMapSpec(ep.task);
      if (taskSpec) {
        // Tasks with the same map (localization's grid over the same region) share one image.
        const key = JSON.stringify(taskSpec);
        reference = this.maps.get(key) ?? png(arenaMapImage(this.world, this.inventory, taskSpec));
        this.maps.set(key, reference);
      }
      else if (ep.task.referenceView) reference = await this.view(ep.task.referenceView);
      if (reference) this.references.set(ep.task.id, reference);
    }
    return { view, map, reference };
  }

  async close(): Promise<void> {
    if (this.session !== null) await this.h.call('closeView', { session: this.session });
    this.session = null;
  }
}
