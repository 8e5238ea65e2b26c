/**
 * The arena's map images in the page, as `npm run arena` makes them for agents that see
 * (src/arena/map-images.ts decides what they show: the current-location map around the agent where
 * the task grants location, the task's reference map with its markers or grid): the world map
 * rasterised in TypeScript, its labels and grid drawn on a 2D canvas.
 */
import { decorateArenaMap, type ArenaMapSpec } from '../../arena/map-images';
import type { WorldInventory } from '../../world/inventory';
import type { LabelCanvas } from '../../world/map-labels';
import { renderWorldMap, type MapImage } from '../../world/map-render';
import type { World } from '../../world/world';

export { locationMapSpec, taskMapSpec, type ArenaMapSpec } from '../../arena/map-images';

/** Font of the labels: the Node renderer's DejaVu Sans where the browser has it. */
const FONT_FAMILY = "'DejaVu Sans', sans-serif";

/** A 2D context of a fresh canvas of the given size (OffscreenCanvas where the browser has it). */
function context2d(width: number, height: number): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D {
  if (typeof OffscreenCanvas !== 'undefined') {
    const ctx = new OffscreenCanvas(width, height).getContext('2d');
    if (ctx) return ctx;
  }
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  const ctx = c.getContext('2d');
  if (!ctx) throw new Error('the browser has no 2D canvas');
  return ctx;
}

/** Renders a map of `spec`: the world map, its labels and grid. */
export function drawArenaMap(world: World, inventory: WorldInventory, spec: ArenaMapSpec): MapImage {
  const img = renderWorldMap(world, { widthPx: spec.sizePx, heightPx: spec.sizePx, bounds: spec.bounds, agents: spec.agents });
  const ctx = context2d(img.width, img.height);
  ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
  decorateArenaMap(ctx as unknown as LabelCanvas, img, inventory, spec, FONT_FAMILY);
  img.data.set(ctx.getImageData(0, 0, img.width, img.height).data);
  return img;
}
