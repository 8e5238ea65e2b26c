/**
 * Headless-page functions of the world (collected by `src/tools/headless-entry.ts` for
 * `npm run render -- --world SEED --map`): plain JSON in, plain JSON out, images as base64 RGBA8.
 * Everything here is plain TypeScript (no GPU), so it runs in the page and in Node alike.
 */
import { toBase64 } from '../core/bytes';
import type { Box, Vec2 } from './geometry';
import { renderWorldMap, type MapAgent } from './map-render';
import { generateWorld } from './world';

/** A map request: world seed and size, image size, optional region, route and agents (world frame, metres). */
export interface WorldMapRequest {
  seed: number;
  /** World side length, metres (default 400). */
  worldSize?: number;
  widthPx: number;
  heightPx: number;
  bounds?: Box;
  route?: Vec2[];
  agents?: MapAgent[];
}

/** A rendered map: RGBA8 pixels (row-major from the top-left), scale and centre of the image. */
export interface WorldMapResult {
  width: number;
  height: number;
  rgbaBase64: string;
  metresPerPixel: number;
  centre: Vec2;
  seed: number;
  worldSize: number;
}

/**
 * Generates the world of `seed` and renders its top-down map.
 *
 * @throws RangeError on a bad seed, world size, image size or bounds (see `generateWorld`, `renderWorldMap`).
 */
export async function renderWorldMapImage(req: WorldMapRequest): Promise<WorldMapResult> {
  const world = generateWorld({ seed: req.seed, size: req.worldSize });
  const img = renderWorldMap(world, { widthPx: req.widthPx, heightPx: req.heightPx, bounds: req.bounds, route: req.route, agents: req.agents });
  return { width: img.width, height: img.height, rgbaBase64: toBase64(img.data), metresPerPixel: img.metresPerPixel, centre: img.centre, seed: world.seed, worldSize: world.size };
}
