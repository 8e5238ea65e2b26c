/**
 * Labels on a rendered world map (Node only): street names along each named street, bus stops, and,
 * when the map is zoomed in to at most {@link STOREFRONT_LABEL_MPP} m/px, storefront names at their
 * entrances. Text is rasterised with pureimage (pure-JS canvas) in DejaVu Sans, dark with a white
 * halo; a label that would overlap one already placed is left out (streets first, longest first).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as PImage from 'pureimage';
import type { WorldInventory } from '../world/inventory';
import { namedStreetLine } from '../world/names';
import { worldToPixel, type MapImage } from '../world/map-render';
import { arcLengths, sampleAt } from '../world/polyline';

/** Largest map scale, metres per pixel, at which storefront names are drawn. */
export const STOREFRONT_LABEL_MPP = 0.15;

const FAMILY = 'DejaVu Sans';
let fontLoaded = false;

function loadFont(): void {
  if (fontLoaded) return;
  const dir = join(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'), '..', 'ttf');
  PImage.registerFont(join(dir, 'DejaVuSans.ttf'), FAMILY).loadSync();
  fontLoaded = true;
}

type Box = [number, number, number, number];
const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Draws the inventory's labels onto `img` in place (its RGBA pixels).
 *
 * @param fontPx text height, pixels (default scales with the image: 1/50 of its width, 9–16 px).
 * @returns how many labels of each kind were placed.
 */
export function drawMapLabels(img: MapImage, inv: WorldInventory, fontPx = Math.max(9, Math.min(16, Math.round(img.width / 50)))): { streets: number; busStops: number; storefronts: number } {
  loadFont();
  const bmp = PImage.make(img.width, img.height);
  bmp.data.set(img.data);
  const ctx = bmp.getContext('2d');
  ctx.font = `${fontPx}px '${FAMILY}'`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const placed: Box[] = [];
  const label = (text: string, x: number, y: number, color: string): boolean => {
    const w = ctx.measureText(text).width;
    const box: Box = [x - w / 2 - 2, y - fontPx / 2 - 2, x + w / 2 + 2, y + fontPx / 2 + 2];
    if (box[0] < 0 || box[1] < 0 || box[2] > img.width || box[3] > img.height || placed.some((b) => overlaps(b, box))) return false;
    placed.push(box);
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    for (const [dx, dy] of [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, 1], [-1, 1], [1, -1]]) ctx.fillText(text, x + dx, y + dy);
    ctx.fillStyle = color;
    ctx.fillText(text, x, y);
    return true;
  };
  const counts = { streets: 0, busStops: 0, storefronts: 0 };
  // Streets, longest first: at the first of a few points along the street (middle, then ¼ and ¾) that fits.
  for (const s of [...inv.streets].sort((a, b) => b.length - a.length || a.id - b.id)) {
    const line = namedStreetLine(s);
    const cum = arcLengths(line);
    const total = cum[cum.length - 1];
    for (const f of [0.5, 0.25, 0.75, 0.125, 0.875]) {
      const [x, y] = worldToPixel(img, sampleAt(line, f * total, cum).p);
      if (label(s.name, x, y, 'rgb(30,30,40)')) {
        counts.streets++;
        break;
      }
    }
  }
  for (const l of inv.landmarks) {
    const [x, y] = worldToPixel(img, l.entrance);
    if (l.kind === 'bus-stop') {
      ctx.fillStyle = 'rgb(20,90,200)';
      ctx.fillRect(x - 3, y - 3, 6, 6);
      if (label('BUS', x, y - fontPx, 'rgb(20,90,200)')) counts.busStops++;
    } else if (img.metresPerPixel <= STOREFRONT_LABEL_MPP) {
      ctx.fillStyle = 'rgb(190,60,20)';
      ctx.fillRect(x - 2, y - 2, 4, 4);
      if (label(l.name, x, y - fontPx, 'rgb(150,40,10)')) counts.storefronts++;
    }
  }
  img.data.set(bmp.data);
  return counts;
}
