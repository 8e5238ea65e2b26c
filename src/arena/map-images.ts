/**
 * What the arena's map images show, for the Node renderer (`src/cli/arena-render.ts`) and the arena
 * page alike (`src/app/arena/arena-map.ts`): a step carries, as in 360CityArena, a current-location
 * map (the {@link LOCATION_MAP_METRES} around the agent with its own marker, where the task grants
 * location) and the task's reference map (map navigation's blue start and red goal markers; the
 * localization grid with its 0-based `x:i y:j` labels, x from the left, y from the top). No route,
 * never coordinates. Each side rasterises on its own canvas (pureimage in Node, a 2D canvas in the
 * page) through {@link LabelCanvas}.
 */
import type { Box, Vec2 } from '../core/geometry2d';
import type { WorldInventory } from '../world/inventory';
import { layoutMapLabels, type LabelCanvas } from '../world/map-labels';
import type { MapAgent, MapImage, Rgba } from '../world/map-render';
import type { ArenaTask } from './task';

/** 360CityArena's map view side, pixels. */
export const ARENA_MAP_PX = 640;
/** Side of the current-location map, metres. */
export const LOCATION_MAP_METRES = 200;

const BLUE: Rgba = [30, 90, 230, 255];
const RED: Rgba = [220, 30, 30, 255];
const ORANGE: Rgba = [255, 140, 0, 255];

/** What a map shows: its world region (metres), side in pixels, markers and grid cells per side (0: none). */
export interface ArenaMapSpec {
  bounds: Box;
  sizePx: number;
  agents: MapAgent[];
  grid: number;
}

/** The task's reference map, or null when it has none. */
export function taskMapSpec(task: ArenaTask): ArenaMapSpec | null {
  if (!task.map) return null;
  const agents: MapAgent[] = [];
  if (task.map.start) agents.push({ position: task.map.start, radius: 5, color: BLUE });
  if (task.map.goal) agents.push({ position: task.map.goal, radius: 5, color: RED });
  return { bounds: task.map.bounds, sizePx: task.map.sizePx, agents, grid: task.map.grid ?? 0 };
}

/** The current-location map around `self` (position, metres; camera yaw, rad), or null when the task does not grant location. */
export function locationMapSpec(task: ArenaTask, self: { position: Vec2; yaw: number }): ArenaMapSpec | null {
  if (!task.grantsLocation) return null;
  const h = LOCATION_MAP_METRES / 2;
  const [x, y] = self.position;
  return { bounds: [x - h, y - h, x + h, y + h], sizePx: ARENA_MAP_PX, agents: [{ position: self.position, yaw: self.yaw, radius: 6, color: ORANGE }], grid: 0 };
}

/**
 * Draws a map's labels (street names, bus stops; font 1/50 of the width, 9–16 px) and its grid with
 * `ctx` onto a canvas holding `img`'s pixels (the caller copies them in before and out after).
 */
export function decorateArenaMap(ctx: LabelCanvas, img: MapImage, inventory: WorldInventory, spec: ArenaMapSpec, fontFamily: string): void {
  layoutMapLabels(ctx, img, inventory, fontFamily, Math.max(9, Math.min(16, Math.round(img.width / 50))));
  if (!spec.grid) return;
  const [w, h, cells] = [img.width, img.height, spec.grid];
  ctx.textAlign = 'start';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = 'rgba(0,0,0,0.85)';
  for (let k = 1; k < cells; k++) {
    ctx.fillRect(Math.round((k * w) / cells) - 1, 0, 2, h);
    ctx.fillRect(0, Math.round((k * h) / cells) - 1, w, 2);
  }
  ctx.font = `15px ${fontFamily}`;
  for (let i = 0; i < cells; i++) {
    for (let j = 0; j < cells; j++) {
      const label = `x:${i} y:${j}`;
      const x = (i * w) / cells + 4;
      const y = (j * h) / cells + 17;
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(x - 2, y - 14, ctx.measureText(label).width + 4, 18);
      ctx.fillStyle = 'rgba(0,0,0,1)';
      ctx.fillText(label, x, y);
    }
  }
}
