/**
 * The map observation (UrbanGround / 360CityArena agents read a map): a top-down map image of the
 * world around the robot (streets, street names, bus stops, buildings, furniture: the map of
 * src/world/map-render.ts; no route drawn), at a requested size and scale, optionally with a
 * self-location marker and heading tick at the image centre, north-up or heading-up.
 *
 * A {@link MapObservation} renders its world's base map once (the region around a route, at the
 * requested metres per pixel, labelled when asked), then each control step samples it (nearest
 * pixel) around the robot into a [3, H, W] float32 RGB plane in [0, 1], channel-major, row 0 at the
 * top. Frames: north-up puts +y (north) up and +x right; heading-up puts the robot's forward up and
 * its right to the right. Pixels beyond the base map are black.
 */
import type { Box, Vec2 } from '../core/geometry2d';
import { worldInventory } from '../world/inventory';
import { layoutMapLabels, type LabelCanvas } from '../world/map-labels';
import { MAP_COLORS, renderWorldMap, worldToPixel, type MapImage } from '../world/map-render';
import type { World } from '../world/world';

/** What the map observation shows (the ONNX manifest's `map` field without its input name). */
export interface MapObservationSpec {
  /** Image size, pixels. */
  width: number;
  height: number;
  /** Scale, metres per pixel. */
  metresPerPixel: number;
  /** `north-up` (+y up) or `heading-up` (the robot's forward up). */
  orientation: 'north-up' | 'heading-up';
  /** Draw the self-location marker (a disc of radius 3 px and a heading tick) at the centre. */
  marker: boolean;
  /** Draw street names and bus stops (storefront names too at ≤ 0.15 m/px). */
  labels: boolean;
}

/** Margin around the route that the base map covers beyond half the view's diagonal, metres. */
const BASE_MARGIN = 60;
/** Largest base map side, pixels (a 2 km route at 0.5 m/px still fits). */
const MAX_BASE_PX = 4096;
/** Marker radius, pixels. */
const MARKER_PX = 3;

/**
 * The world region a base map must cover for a view of `spec` around `points`: their bounding box
 * grown by half the view's diagonal plus 60 m (room for a detour), clipped to the world, metres.
 */
function regionFor(world: World, spec: MapObservationSpec, points: readonly Vec2[]): Box {
  const reach = (Math.hypot(spec.width, spec.height) / 2) * spec.metresPerPixel + BASE_MARGIN;
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const wb = world.bounds;
  return [Math.max(wb[0], Math.min(...xs) - reach), Math.max(wb[1], Math.min(...ys) - reach), Math.min(wb[2], Math.max(...xs) + reach), Math.min(wb[3], Math.max(...ys) + reach)];
}

/**
 * Draws labels onto a map image in the page (OffscreenCanvas, sans-serif); false (nothing drawn)
 * where there is no OffscreenCanvas (Node: src/cli/map-labels.ts draws them with pureimage).
 */
function drawLabelsInPage(img: MapImage, world: World): boolean {
  if (typeof OffscreenCanvas === 'undefined') return false;
  const canvas = new OffscreenCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
  layoutMapLabels(ctx as unknown as LabelCanvas, img, worldInventory(world), 'sans-serif', Math.max(9, Math.min(14, Math.round(12 * (0.5 / img.metresPerPixel) ** 0.25))));
  img.data.set(ctx.getImageData(0, 0, img.width, img.height).data);
  return true;
}

/** One world's map observation (see the module comment). */
export class MapObservation {
  /** The base map the observation samples. */
  readonly base: MapImage;
  /** Whether the base map carries labels (false in Node, where no OffscreenCanvas exists). */
  readonly labelled: boolean;

  /**
   * Renders the base map: the bounding box of `around` (e.g. the route) grown by half the view's
   * diagonal plus 20 m, clipped to the world, at the spec's scale.
   *
   * @throws RangeError when the spec's size or scale is not positive, or the region needs more
   *   than 4096 pixels a side at that scale.
   */
  constructor(readonly world: World, readonly spec: MapObservationSpec, around: readonly Vec2[]) {
    const { width: W, height: H, metresPerPixel: mpp } = spec;
    if (!(Number.isInteger(W) && Number.isInteger(H) && W > 0 && H > 0 && mpp > 0)) throw new RangeError(`MapObservation: bad spec ${W}×${H} at ${mpp} m/px`);
    const box = regionFor(world, spec, around);
    const wPx = Math.ceil((box[2] - box[0]) / mpp), hPx = Math.ceil((box[3] - box[1]) / mpp);
    if (wPx > MAX_BASE_PX || hPx > MAX_BASE_PX) throw new RangeError(`MapObservation: a ${wPx}×${hPx} px base map at ${mpp} m/px exceeds ${MAX_BASE_PX} px a side`);
    // Exact scale: the bounds span whole pixels.
    this.base = renderWorldMap(world, { widthPx: wPx, heightPx: hPx, bounds: [box[0], box[1], box[0] + wPx * mpp, box[1] + hPx * mpp] });
    this.labelled = spec.labels && drawLabelsInPage(this.base, world);
    this.region = [box[0], box[1], box[0] + wPx * mpp, box[1] + hPx * mpp];
  }

  /** The world region the base map covers, metres. */
  readonly region: Box;

  /** Whether the base map covers a view around `points` (then it can serve an episode on that route). */
  covers(points: readonly Vec2[]): boolean {
    const need = regionFor(this.world, this.spec, points), r = this.region;
    return need[0] >= r[0] && need[1] >= r[1] && need[2] <= r[2] && need[3] <= r[3];
  }

  /**
   * Writes the observation for a robot at (x, y, yaw) (world frame, metres, radians) into
   * `out[offset … offset + 3·H·W)` as RGB planes in [0, 1].
   */
  fill(state: { x: number; y: number; yaw: number }, out: Float32Array, offset = 0): void {
    const { width: W, height: H, metresPerPixel: mpp, marker } = this.spec;
    const base = this.base, bd = base.data;
    const up = this.spec.orientation === 'heading-up';
    const c = Math.cos(state.yaw), s = Math.sin(state.yaw);
    // Base-map pixel of the robot, and base pixels per output pixel step along the image's x and y.
    const [bx, by] = worldToPixel(base, [state.x, state.y]);
    const k = mpp / base.metresPerPixel;
    // Image right (u) and down (v) in world metres: north-up (1, 0), (0, −1); heading-up right = (s, −c), down = (−c, −s).
    const [rx, ry] = up ? [s, -c] : [1, 0];
    const [dx, dy] = up ? [-c, -s] : [0, -1];
    const plane = W * H;
    // The heading tick's direction in the image (u right, v down).
    const tip: Vec2 = up ? [0, -1] : [c, -s];
    for (let j = 0; j < H; j++) {
      const v = j + 0.5 - H / 2;
      for (let i = 0; i < W; i++) {
        const u = i + 0.5 - W / 2;
        // World offset (u·right + v·down)·mpp, in base pixels (x right, y down: world y flips).
        const px = Math.floor(bx + k * (u * rx + v * dx)), py = Math.floor(by - k * (u * ry + v * dy));
        let r = 0, g = 0, b = 0;
        if (px >= 0 && py >= 0 && px < base.width && py < base.height) {
          const o = (py * base.width + px) * 4;
          r = bd[o];
          g = bd[o + 1];
          b = bd[o + 2];
        }
        if (marker) {
          const along = u * tip[0] + v * tip[1], across = Math.abs(u * tip[1] - v * tip[0]);
          if (u * u + v * v <= MARKER_PX * MARKER_PX || (along >= 0 && along <= 2.5 * MARKER_PX && across <= 0.75)) [r, g, b] = MAP_COLORS.agent;
        }
        const p = offset + j * W + i;
        out[p] = r / 255;
        out[p + plane] = g / 255;
        out[p + 2 * plane] = b / 255;
      }
    }
  }
}

/**
 * The map observations of B environments as one [B, 3, H, W] float32 tensor: `load` a slot's world
 * when its episode starts, `fill` every control step (idle slots are left as they were).
 */
export class MapObservationBatch {
  /** [B, 3, H, W], reused every step. */
  readonly tensor: Float32Array;
  private readonly slots: (MapObservation | null)[];

  constructor(readonly spec: MapObservationSpec, readonly batch: number) {
    this.tensor = new Float32Array(batch * 3 * spec.width * spec.height);
    this.slots = new Array(batch).fill(null);
  }

  /** Makes slot `slot` observe `world` around `route` (its previous base map is kept when it covers them). */
  load(slot: number, world: World, route: readonly Vec2[]): void {
    const prev = this.slots[slot];
    if (!(prev && prev.world === world && prev.covers(route))) this.slots[slot] = new MapObservation(world, this.spec, route);
  }

  /** Fills the tensor for the slots whose state is given and returns it. */
  fill(states: readonly ({ x: number; y: number; yaw: number } | null)[]): Float32Array {
    const n = 3 * this.spec.width * this.spec.height;
    states.forEach((s, b) => s && this.slots[b]?.fill(s, this.tensor, b * n));
    return this.tensor;
  }
}
