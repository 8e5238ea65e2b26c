/**
 * Labels on a rendered world map: street names along each named street, bus stops, and, when the
 * map is zoomed in to at most {@link STOREFRONT_LABEL_MPP} m/px, storefront names at their
 * entrances; dark text with a white halo; a label that would overlap one already placed is left out
 * (streets first, longest first). Names a world made up for streets OSM leaves unnamed are not drawn. Drawn through the subset of the canvas 2D API in
 * {@link LabelCanvas}: pureimage in Node (src/cli/map-labels.ts), an OffscreenCanvas in the page
 * (src/sensors/map-observation.ts).
 */
import type { WorldInventory } from './inventory';
import { namedStreetLine } from './names';
import { worldToPixel, type MapImage } from './map-render';
import { arcLengths, sampleAt } from './polyline';

/** Largest map scale, metres per pixel, at which storefront names are drawn. */
export const STOREFRONT_LABEL_MPP = 0.15;

/** The canvas 2D calls the labels need (pureimage's context and CanvasRenderingContext2D both have them). */
export interface LabelCanvas {
  font: string;
  textAlign: string;
  textBaseline: string;
  fillStyle: string | unknown;
  measureText(text: string): { width: number };
  fillText(text: string, x: number, y: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
}

type Box = [number, number, number, number];
const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Draws the inventory's labels with `ctx` onto a canvas that holds `img`'s pixels (the caller copies
 * them in before and out after).
 *
 * @param family CSS font family, e.g. `'DejaVu Sans'`.
 * @param fontPx text height, pixels.
 * @returns how many labels of each kind were placed.
 */
export function layoutMapLabels(ctx: LabelCanvas, img: Pick<MapImage, 'width' | 'height' | 'metresPerPixel' | 'centre'>, inv: WorldInventory, family: string, fontPx: number): { streets: number; busStops: number; storefronts: number } {
  ctx.font = `${fontPx}px ${family}`;
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
  for (const s of inv.streets.filter((x) => !x.generated).sort((a, b) => b.length - a.length || a.id - b.id)) {
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
  return counts;
}
