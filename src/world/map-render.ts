/**
 * Top-down map of a world as RGBA8 pixels, rasterised on the CPU (scanline polygon fill, even-odd,
 * sampled at pixel centres): the map observation UrbanGround / 360CityArena-style agents receive.
 *
 * Image frame: north (+y) up, east (+x) right; one uniform scale (`metresPerPixel`) fitted so the
 * requested bounds are fully visible and centred.
 */
import { circleRing, rectRing, type Box, type Ring, type Vec2 } from './geometry';
import type { ObjectKind } from './objects';
import type { World } from './world';

/** An RGBA colour, 0–255 per channel. */
export type Rgba = [number, number, number, number];

/** Map colours (fixed palette; tests read them back). */
export const MAP_COLORS = {
  lot: [196, 206, 184, 255],
  building: [142, 128, 116, 255],
  frontage: [214, 206, 190, 255],
  sidewalk: [246, 242, 230, 255],
  verge: [126, 176, 94, 255],
  curb: [168, 168, 168, 255],
  road: [70, 70, 76, 255],
  crosswalkGround: [214, 214, 210, 255],
  crosswalkStripe: [255, 255, 255, 255],
  route: [30, 100, 255, 255],
  agent: [230, 30, 200, 255],
  outside: [0, 0, 0, 255],
} as const satisfies Record<string, Rgba>;

/** Obstacle colours by kind. */
export const OBSTACLE_COLORS: Record<ObjectKind, Rgba> = {
  lampPost: [250, 200, 40, 255],
  tree: [34, 100, 44, 255],
  hydrant: [220, 40, 40, 255],
  bench: [140, 90, 50, 255],
  bin: [50, 50, 50, 255],
  bollard: [95, 95, 95, 255],
  signPost: [40, 80, 200, 255],
  stopSign: [200, 20, 20, 255],
  busShelter: [60, 120, 200, 255],
  building: [142, 128, 116, 255],
  kiosk: [40, 130, 90, 255],
  statue: [120, 110, 150, 255],
  fountain: [70, 150, 220, 255],
  bikeRack: [110, 110, 120, 255],
  postBox: [230, 190, 20, 255],
};

/** An agent marker: position (metres), optional heading (rad, CCW from +x), radius (metres, default 0.5) and colour. */
export interface MapAgent {
  position: Vec2;
  yaw?: number;
  radius?: number;
  color?: Rgba;
}

/** Options of {@link renderWorldMap}. */
export interface MapOptions {
  widthPx: number;
  heightPx: number;
  /** World region to show `[minX, minY, maxX, maxY]`, metres; default the world bounds. */
  bounds?: Box;
  /** Route polyline to draw (metres). */
  route?: Vec2[];
  agents?: MapAgent[];
}

/** A rendered map. */
export interface MapImage {
  width: number;
  height: number;
  /** RGBA8, row-major from the top-left pixel. */
  data: Uint8ClampedArray;
  metresPerPixel: number;
  /** World point at the image centre, metres. */
  centre: Vec2;
}

/** Pixel coordinates (x right, y down; pixel (i, j) covers [i, i+1) × [j, j+1)) of a world point. */
export function worldToPixel(img: Pick<MapImage, 'width' | 'height' | 'metresPerPixel' | 'centre'>, p: Vec2): Vec2 {
  return [(p[0] - img.centre[0]) / img.metresPerPixel + img.width / 2, img.height / 2 - (p[1] - img.centre[1]) / img.metresPerPixel];
}

/** World point at the centre of pixel (i, j). */
export function pixelToWorld(img: Pick<MapImage, 'width' | 'height' | 'metresPerPixel' | 'centre'>, i: number, j: number): Vec2 {
  return [img.centre[0] + (i + 0.5 - img.width / 2) * img.metresPerPixel, img.centre[1] - (j + 0.5 - img.height / 2) * img.metresPerPixel];
}

/** Fills rings (even-odd over all of them) with a colour; rings are in pixel coordinates. */
function fillPx(img: MapImage, rings: Ring[], c: Rgba): void {
  const rows: number[][] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [x0, y0] = r[j], [x1, y1] = r[i];
      if (y0 === y1) continue;
      const lo = Math.max(0, Math.ceil(Math.min(y0, y1) - 0.5)), hi = Math.min(img.height - 1, Math.ceil(Math.max(y0, y1) - 0.5) - 1);
      for (let row = lo; row <= hi; row++) {
        const y = row + 0.5;
        (rows[row] ??= []).push(x0 + ((y - y0) * (x1 - x0)) / (y1 - y0));
      }
    }
  }
  const d = img.data;
  rows.forEach((xs, row) => {
    if (!xs) return;
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const a = Math.max(0, Math.ceil(xs[k] - 0.5)), b = Math.min(img.width - 1, Math.ceil(xs[k + 1] - 0.5) - 1);
      for (let i = a; i <= b; i++) {
        const o = (row * img.width + i) * 4;
        const al = c[3] / 255;
        d[o] = d[o] * (1 - al) + c[0] * al;
        d[o + 1] = d[o + 1] * (1 - al) + c[1] * al;
        d[o + 2] = d[o + 2] * (1 - al) + c[2] * al;
        d[o + 3] = 255;
      }
    }
  });
}

/**
 * Renders a top-down map: zones (lot, frontage, sidewalk, verge, curb, road), crosswalks with zebra
 * stripes and curb ramps, buildings, street furniture (each at least ~2 px across), then the route
 * polyline and agent markers (a disc and a heading tick).
 *
 * @throws RangeError when the size is not a positive integer up to 8192 or the bounds are empty.
 */
export function renderWorldMap(world: World, opts: MapOptions): MapImage {
  const { widthPx: W, heightPx: H } = opts;
  if (!Number.isInteger(W) || !Number.isInteger(H) || W < 1 || H < 1 || W > 8192 || H > 8192) throw new RangeError(`renderWorldMap: bad image size ${W}×${H}`);
  const b = opts.bounds ?? world.bounds;
  if (!(b[2] > b[0] && b[3] > b[1])) throw new RangeError(`renderWorldMap: empty bounds [${b.join(', ')}]`);
  const mpp = Math.max((b[2] - b[0]) / W, (b[3] - b[1]) / H);
  const img: MapImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4), metresPerPixel: mpp, centre: [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] };
  const px = (r: Ring): Ring => r.map((p) => worldToPixel(img, p));
  const wb = world.bounds;
  for (let i = 0; i < W * H; i++) img.data.set(MAP_COLORS.outside, i * 4);
  fillPx(img, [px([[wb[0], wb[1]], [wb[2], wb[1]], [wb[2], wb[3]], [wb[0], wb[3]]])], MAP_COLORS.lot);
  const zone = (k: keyof World['zones'], c: Rgba): void => {
    for (const p of world.zones[k]) fillPx(img, [px(p.outer), ...p.holes.map(px)], c);
  };
  zone('frontage', MAP_COLORS.frontage);
  zone('sidewalk', MAP_COLORS.sidewalk);
  zone('verge', MAP_COLORS.verge);
  zone('curb', MAP_COLORS.curb);
  zone('road', MAP_COLORS.road);
  zone('crosswalk', MAP_COLORS.crosswalkGround);
  // Zebra bars over the road part: 0.5 m bars, 0.5 m gaps (at least ~1.5 px each on coarse maps).
  for (const c of world.crosswalks) {
    const period = Math.max(1, 3 * mpp);
    fillPx(img, [px(rectRing(c.centre[0], c.centre[1], c.width, 2 * c.roadHalfWidth, Math.atan2(c.along[1], c.along[0])))], MAP_COLORS.road);
    for (let u = -c.roadHalfWidth + period / 2; u <= c.roadHalfWidth - period / 4; u += period) {
      const x = c.centre[0] + c.across[0] * u, y = c.centre[1] + c.across[1] * u;
      fillPx(img, [px(rectRing(x, y, c.width, period / 2, Math.atan2(c.along[1], c.along[0])))], MAP_COLORS.crosswalkStripe);
    }
  }
  const minR = 1.1 * mpp;
  for (const o of world.obstacles) {
    const col = OBSTACLE_COLORS[o.kind];
    if (o.kind === 'tree' && o.canopyRadius > 0) fillPx(img, [px(circleRing(o.centre[0], o.centre[1], o.canopyRadius, 16))], [34, 110, 44, 90]);
    if (o.radius < minR) fillPx(img, [px(circleRing(o.centre[0], o.centre[1], minR, 8))], col);
    else fillPx(img, [px(o.footprint)], col);
  }
  if (opts.route && opts.route.length >= 2) {
    const w = Math.max(2.5 * mpp, 0.6);
    for (let i = 1; i < opts.route.length; i++) {
      const [a, c] = [opts.route[i - 1], opts.route[i]];
      const len = Math.hypot(c[0] - a[0], c[1] - a[1]);
      if (len > 0) fillPx(img, [px(rectRing((a[0] + c[0]) / 2, (a[1] + c[1]) / 2, len, w, Math.atan2(c[1] - a[1], c[0] - a[0])))], MAP_COLORS.route);
      fillPx(img, [px(circleRing(c[0], c[1], w / 2, 8))], MAP_COLORS.route);
    }
  }
  for (const a of opts.agents ?? []) {
    const r = Math.max(a.radius ?? 0.5, 3 * mpp);
    const col = a.color ?? MAP_COLORS.agent;
    fillPx(img, [px(circleRing(a.position[0], a.position[1], r, 16))], col);
    if (a.yaw !== undefined) {
      const tip: Vec2 = [a.position[0] + Math.cos(a.yaw) * r * 2, a.position[1] + Math.sin(a.yaw) * r * 2];
      fillPx(img, [px(rectRing((a.position[0] + tip[0]) / 2, (a.position[1] + tip[1]) / 2, r * 2, Math.max(r * 0.5, 1.5 * mpp), a.yaw))], col);
    }
  }
  return img;
}
