/**
 * Labels on a rendered world map in Node (src/world/map-labels.ts lays them out): rasterised with
 * pureimage (pure-JS canvas) in DejaVu Sans.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as PImage from 'pureimage';
import type { WorldInventory } from '../world/inventory';
import type { MapImage } from '../world/map-render';
import { layoutMapLabels, type LabelCanvas } from '../world/map-labels';

export { STOREFRONT_LABEL_MPP } from '../world/map-labels';

/** The font family the labels (and the arena's map grid) are drawn in. */
export const LABEL_FONT_FAMILY = 'DejaVu Sans';
let fontLoaded = false;

/** Registers DejaVu Sans with pureimage (once). */
export function registerLabelFont(): void {
  if (fontLoaded) return;
  const dir = join(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'), '..', 'ttf');
  PImage.registerFont(join(dir, 'DejaVuSans.ttf'), LABEL_FONT_FAMILY).loadSync();
  fontLoaded = true;
}

/**
 * Draws the inventory's labels onto `img` in place (its RGBA pixels).
 *
 * @param fontPx text height, pixels (default scales with the image: 1/50 of its width, 9–16 px).
 * @returns how many labels of each kind were placed.
 */
export function drawMapLabels(img: MapImage, inv: WorldInventory, fontPx = Math.max(9, Math.min(16, Math.round(img.width / 50)))): { streets: number; busStops: number; storefronts: number } {
  registerLabelFont();
  const bmp = PImage.make(img.width, img.height);
  bmp.data.set(img.data);
  const counts = layoutMapLabels(bmp.getContext('2d') as unknown as LabelCanvas, img, inv, `'${LABEL_FONT_FAMILY}'`, fontPx);
  img.data.set(bmp.data);
  return counts;
}
