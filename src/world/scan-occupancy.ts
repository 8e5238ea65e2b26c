/**
 * Static obstacles from a scan: an occupancy grid of the opaque splats at body height above the
 * ground, and convex obstacle polygons proposed from its connected regions (the scene editor's
 * "obstacles from the scan"; SidewalkBench takes this geometry from the scanned mesh, Curbside from
 * the splats).
 *
 * A cell (side `cell` metres, world frame after levelling) is occupied when it is touched (the
 * splat's 1.5 σ disc, at most 1 m) by at least `minSplats` splats of opacity ≥ `minOpacity` whose centres lie `minHeight`…`maxHeight` above the
 * ground (walls, trunks, poles, parked things; not kerbs of ≈ 0.15 m), or that many above
 * `maxHeight` and none on the ground (a roof: the scan saw no ground there). A canopy over visible
 * ground stays free. Free cells enclosed by occupied ones (a building's interior, seen only as roof) are
 * filled. Each 8-connected region becomes the convex hull of its cells, split in halves along its
 * longer side while the hull exceeds `maxHullRatio` × the region's area (an L-shaped block becomes
 * two boxes instead of one hull over the street corner).
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import type { SplatCloud } from '../splats/splat-cloud';
import { orient, signedArea } from './geometry';

/** Options of {@link occupancyGrid} and {@link obstacleProposals} (defaults in {@link DEFAULT_OCCUPANCY}). */
export interface OccupancyOptions {
  /** Cell side, metres. */
  cell: number;
  /** Height band above the ground that blocks walking, metres. */
  minHeight: number;
  maxHeight: number;
  minOpacity: number;
  /** Splats in the band needed to occupy a cell. */
  minSplats: number;
  /** Regions smaller than this are dropped as noise, m². */
  minArea: number;
  /** Largest hull area / region area before a region is split. */
  maxHullRatio: number;
}

export const DEFAULT_OCCUPANCY: OccupancyOptions = { cell: 0.25, minHeight: 0.3, maxHeight: 2.0, minOpacity: 0.5, minSplats: 3, minArea: 0.1, maxHullRatio: 1.5 };

/** An occupancy grid over [x0, x0 + cols·cell) × [y0, y0 + rows·cell). */
export interface OccupancyGrid {
  x0: number;
  y0: number;
  cell: number;
  cols: number;
  rows: number;
  /** 1 = occupied (after filling enclosed cells), row-major from (x0, y0). */
  occupied: Uint8Array;
  /** Highest splat centre above the ground in each cell (any height), metres; 0 where none. */
  top: Float32Array;
}

/**
 * The occupancy grid of a levelled cloud over `bounds` = [minX, minY, maxX, maxY] (world metres),
 * the ground at height `groundZ`.
 *
 * @throws RangeError for empty bounds, a cell ≤ 0, or a grid of more than 16 M cells.
 */
export function occupancyGrid(cloud: SplatCloud, bounds: readonly number[], groundZ: number, options: Partial<OccupancyOptions> = {}): OccupancyGrid {
  const o = { ...DEFAULT_OCCUPANCY, ...options };
  const [x0, y0, x1, y1] = bounds;
  if (!(o.cell > 0) || !(x1 > x0) || !(y1 > y0)) throw new RangeError(`occupancy grid: need cell > 0 and non-empty bounds, got cell ${o.cell}, bounds ${bounds.join(', ')}`);
  const cols = Math.ceil((x1 - x0) / o.cell), rows = Math.ceil((y1 - y0) / o.cell);
  if (cols * rows > 16_000_000) throw new RangeError(`occupancy grid: ${cols} × ${rows} cells of ${o.cell} m is too many; use a larger cell`);
  // Opaque splats per cell: in the blocking band, on the ground (below minHeight), overhead (above maxHeight).
  const band = new Uint16Array(cols * rows);
  const ground = new Uint16Array(cols * rows);
  const overhead = new Uint16Array(cols * rows);
  const top = new Float32Array(cols * rows);
  for (let i = 0; i < cloud.count; i++) {
    const x = cloud.positions[3 * i], y = cloud.positions[3 * i + 1];
    const h = cloud.positions[3 * i + 2] - groundZ;
    // A splat counts in every cell its 1.5 σ disc (of its largest axis, at most 1 m) touches: coarse
    // splats (a roof of few large ones) cover the cells they paint.
    const radius = Math.min(1, 1.5 * Math.max(cloud.scales[3 * i], cloud.scales[3 * i + 1], cloud.scales[3 * i + 2]));
    const c0 = Math.max(0, Math.floor((x - radius - x0) / o.cell)), c1 = Math.min(cols - 1, Math.floor((x + radius - x0) / o.cell));
    const r0 = Math.max(0, Math.floor((y - radius - y0) / o.cell)), r1 = Math.min(rows - 1, Math.floor((y + radius - y0) / o.cell));
    const opaque = cloud.opacities[i] >= o.minOpacity;
    const counter = h < o.minHeight ? ground : h <= o.maxHeight ? band : overhead;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
      const k = r * cols + c;
      if (h > top[k]) top[k] = h;
      if (opaque && counter[k] < 65535) counter[k]++;
    }
  }
  const occupied = new Uint8Array(cols * rows);
  // Blocked: enough at body height, or a roof with no ground seen under it (a building's top).
  for (let k = 0; k < occupied.length; k++) occupied[k] = band[k] >= o.minSplats || (overhead[k] >= o.minSplats && ground[k] === 0) ? 1 : 0;
  fillEnclosed(occupied, cols, rows);
  return { x0, y0, cell: o.cell, cols, rows, occupied, top };
}

/** Marks free cells not 4-connected to the grid border as occupied (flood fill from the border). */
function fillEnclosed(occ: Uint8Array, cols: number, rows: number): void {
  const outside = new Uint8Array(occ.length);
  const stack: number[] = [];
  const push = (k: number) => {
    if (!occ[k] && !outside[k]) {
      outside[k] = 1;
      stack.push(k);
    }
  };
  for (let c = 0; c < cols; c++) { push(c); push((rows - 1) * cols + c); }
  for (let r = 0; r < rows; r++) { push(r * cols); push(r * cols + cols - 1); }
  while (stack.length) {
    const k = stack.pop()!;
    const c = k % cols, r = (k - c) / cols;
    if (c > 0) push(k - 1);
    if (c < cols - 1) push(k + 1);
    if (r > 0) push(k - cols);
    if (r < rows - 1) push(k + cols);
  }
  for (let k = 0; k < occ.length; k++) if (!occ[k] && !outside[k]) occ[k] = 1;
}

/** A proposed obstacle: a convex CCW ring (world metres), its height above the ground, its cells. */
export interface ObstacleProposal {
  polygon: Ring;
  height: number;
  cells: number;
}

/** Convex hull (Andrew's monotone chain) of points, CCW. */
function convexHull(points: Vec2[]): Ring {
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const lower: Vec2[] = [];
  for (const q of p) {
    while (lower.length >= 2 && orient(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Vec2[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && orient(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/**
 * Obstacle polygons for the occupied regions of a grid (see the module comment), sorted by area,
 * largest first. Deterministic.
 */
export function obstacleProposals(grid: OccupancyGrid, options: Partial<OccupancyOptions> = {}): ObstacleProposal[] {
  const o = { ...DEFAULT_OCCUPANCY, ...options };
  const { cols, rows, cell, occupied } = grid;
  const seen = new Uint8Array(occupied.length);
  const out: ObstacleProposal[] = [];
  for (let start = 0; start < occupied.length; start++) {
    if (!occupied[start] || seen[start]) continue;
    const region: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      region.push(k);
      const c = k % cols, r = (k - c) / cols;
      for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) {
        const cc = c + dc, rr = r + dr;
        if (cc < 0 || rr < 0 || cc >= cols || rr >= rows) continue;
        const n = rr * cols + cc;
        if (occupied[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    if (region.length * cell * cell >= o.minArea) split(region, grid, o.maxHullRatio, out);
  }
  return out.sort((a, b) => signedArea(b.polygon) - signedArea(a.polygon));
}

/** Hull of a region's cells, split in halves along the longer side while the hull is too loose. */
function split(region: number[], grid: OccupancyGrid, maxRatio: number, out: ObstacleProposal[]): void {
  const { cols, cell, x0, y0 } = grid;
  const cr = region.map((k) => [k % cols, Math.floor(k / cols)] as const);
  const corners: Vec2[] = [];
  let height = 0;
  for (const [c, r] of cr) {
    corners.push([x0 + c * cell, y0 + r * cell], [x0 + (c + 1) * cell, y0 + r * cell], [x0 + c * cell, y0 + (r + 1) * cell], [x0 + (c + 1) * cell, y0 + (r + 1) * cell]);
    height = Math.max(height, grid.top[r * cols + c]);
  }
  const hull = convexHull(corners);
  const area = region.length * cell * cell;
  if (signedArea(hull) <= maxRatio * area || region.length <= 4) {
    out.push({ polygon: hull, height: Math.max(height, 0.1), cells: region.length });
    return;
  }
  let cMin = Infinity, cMax = -Infinity, rMin = Infinity, rMax = -Infinity;
  for (const [c, r] of cr) {
    cMin = Math.min(cMin, c); cMax = Math.max(cMax, c);
    rMin = Math.min(rMin, r); rMax = Math.max(rMax, r);
  }
  const alongCols = cMax - cMin >= rMax - rMin;
  const mid = alongCols ? (cMin + cMax + 1) / 2 : (rMin + rMax + 1) / 2;
  const a: number[] = [], b: number[] = [];
  region.forEach((k, i) => ((alongCols ? cr[i][0] : cr[i][1]) < mid ? a : b).push(k));
  for (const half of [a, b]) if (half.length) split(half, grid, maxRatio, out);
}
