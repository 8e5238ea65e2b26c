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
import type { ArenaTask } from '../arena/task';
import type { WorldInventory } from '../world/inventory';
import { renderWorldMap, type MapAgent, type MapImage } from '../world/map-render';
import type { World } from '../world/world';
import type { Harness } from '../tools/browser-harness';
import { drawMapLabels, registerLabelFont, LABEL_FONT_FAMILY } from './map-labels';

/** First-person camera of the arena agent: image size, pixels, and vertical field of view, degrees. */
export interface ArenaCameraSpec {
  width: number;
  height: number;
  fovYDeg: number;
}

/** 360CityArena's map view side, pixels. */
export const ARENA_MAP_PX = 640;
/** Side of the current-location map, metres. */
export const LOCATION_MAP_METRES = 200;

/** PNG bytes of RGBA8 pixels. */
export function encodePng(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const png = new PNG({ width, height });
  png.data.set(rgba);
  return new Uint8Array(PNG.sync.write(png));
}

const BLUE: [number, number, number, number] = [30, 90, 230, 255];
const RED: [number, number, number, number] = [220, 30, 30, 255];
const ORANGE: [number, number, number, number] = [255, 140, 0, 255];

/** Draws grid lines and their 0-based column/row labels (x from the left, y from the top) over a map. */
function drawGrid(img: MapImage, cells: number): void {
  registerLabelFont();
  const bmp = PImage.make(img.width, img.height);
  bmp.data.set(img.data);
  const ctx = bmp.getContext('2d');
  ctx.fillStyle = 'rgba(0,0,0,0.85)';
  for (let k = 1; k < cells; k++) {
    const x = Math.round((k * img.width) / cells);
    const y = Math.round((k * img.height) / cells);
    ctx.fillRect(x - 1, 0, 2, img.height);
    ctx.fillRect(0, y - 1, img.width, 2);
  }
  ctx.font = `15px '${LABEL_FONT_FAMILY}'`;
  for (let i = 0; i < cells; i++) {
    for (let j = 0; j < cells; j++) {
      const label = `x:${i} y:${j}`;
      const x = (i * img.width) / cells + 4;
      const y = (j * img.height) / cells + 17;
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(x - 2, y - 14, ctx.measureText(label).width + 4, 18);
      ctx.fillStyle = 'rgba(0,0,0,1)';
      ctx.fillText(label, x, y);
    }
  }
  img.data.set(bmp.data);
}

/**
 * The task's reference map (map navigation: start and goal markers; localization: the grid and its
 * labels), or null when the task has none.
 */
export function taskMapImage(world: World, inventory: WorldInventory, task: ArenaTask): MapImage | null {
  if (!task.map) return null;
  const agents: MapAgent[] = [];
  if (task.map.start) agents.push({ position: task.map.start, radius: 5, color: BLUE });
  if (task.map.goal) agents.push({ position: task.map.goal, radius: 5, color: RED });
  const img = renderWorldMap(world, { widthPx: task.map.sizePx, heightPx: task.map.sizePx, bounds: task.map.bounds, agents });
  drawMapLabels(img, inventory);
  if (task.map.grid) drawGrid(img, task.map.grid);
  return img;
}

/**
 * The current-location map of a step: the {@link LOCATION_MAP_METRES} around the agent with its own
 * marker (position and heading), or null when the task does not grant location.
 */
export function locationMapImage(world: World, inventory: WorldInventory, task: ArenaTask, self: { position: [number, number]; yaw: number }): MapImage | null {
  if (!task.grantsLocation) return null;
  const h = LOCATION_MAP_METRES / 2;
  const bounds: [number, number, number, number] = [self.position[0] - h, self.position[1] - h, self.position[0] + h, self.position[1] + h];
  const img = renderWorldMap(world, { widthPx: ARENA_MAP_PX, heightPx: ARENA_MAP_PX, bounds, agents: [{ position: self.position, yaw: self.yaw, radius: 6, color: ORANGE }] });
  drawMapLabels(img, inventory);
  return img;
}


/** Renders the images of arena steps through an open world view of the headless page. */
export class ArenaImageRenderer {
  private session: number | null = null;
  private readonly references = new Map<string, Uint8Array>();
  /** Milliseconds spent opening the view (world generation and the first chunks' bake). */
  openMs = 0;

  constructor(private readonly h: Harness, private readonly world: World, private readonly inventory: WorldInventory, private readonly camera: ArenaCameraSpec) {}

  private async ensureView(first: { eye: [number, number, number]; target: [number, number, number] }): Promise<number> {
    if (this.session !== null) return this.session;
    const t0 = performance.now();
    const opened = await this.h.call('openWorldView', { seed: this.world.seed, worldSize: this.world.size, width: this.camera.width, height: this.camera.height, fovYDeg: this.camera.fovYDeg, eye: first.eye, target: first.target, up: [0, 0, 1] });
    this.openMs = performance.now() - t0;
    this.session = opened.session;
    return opened.session;
  }

  /** PNG of the view from `pose`. */
  async view(pose: { eye: [number, number, number]; target: [number, number, number] }): Promise<Uint8Array> {
    const session = await this.ensureView(pose);
    const f = await this.h.call('renderViewFrame', { session, orbitDeg: 0, pose });
    const rgba = Buffer.from(f.rgbaBase64, 'base64');
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    return encodePng(f.width, f.height, rgba);
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
    const mapImg = locationMapImage(this.world, this.inventory, ep.task, { position: [x, y], yaw: pose.yaw });
    const map = mapImg ? encodePng(mapImg.width, mapImg.height, mapImg.data) : null;
    let reference = this.references.get(ep.task.id) ?? null;
    if (!reference) {
      const taskMap = taskMapImage(this.world, this.inventory, ep.task);
      if (taskMap) reference = encodePng(taskMap.width, taskMap.height, taskMap.data);
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
