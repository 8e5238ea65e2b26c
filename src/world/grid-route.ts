/**
 * Routes over walkable ground for worlds without a navigation graph (annotated scanned scenes):
 * A* on an 8-connected grid of cells whose centre has `clearance` of walkable ground around it and
 * is at least `clearance` from every static obstacle, then shortened by line of sight (string
 * pulling). Also: the nearest walkable point to a point off the walkable area.
 *
 * Frames: world ground plane, metres.
 */
import TinyQueue from 'tinyqueue';
import { pointInRing, pointRingDistance, type Vec2 } from '../core/geometry2d';
import { densify } from './polyline';
import { isWalkable, obstaclesNear } from './queries';
import type { World } from './world';

/** Options of {@link gridRoute} and {@link isClearGround}. */
export interface GridRouteOptions {
  /** Grid cell size, metres (default 0.25). */
  cell?: number;
  /** Walkable ground kept around every route point and distance kept from obstacles, metres (default 0.4). */
  clearance?: number;
  /** Margin around the start–goal box searched, metres (default 30). */
  margin?: number;
}

/** Whether `p` has `clearance` of walkable ground around it (8 directions) and is that far from every obstacle. */
export function isClearGround(world: World, p: Vec2, clearance = 0.4): boolean {
  if (!isWalkable(world, p[0], p[1])) return false;
  for (let k = 0; k < 8; k++) {
    const th = (k * Math.PI) / 4;
    if (!isWalkable(world, p[0] + clearance * Math.cos(th), p[1] + clearance * Math.sin(th))) return false;
  }
  return obstaclesNear(world, p, clearance + 0.01).every((o) => !pointInRing(p[0], p[1], o.footprint) && pointRingDistance(p[0], p[1], o.footprint) >= clearance);
}

/**
 * The nearest point to `p` that is clear ground (see {@link isClearGround}), searched on rings of
 * 5 cm steps and 64 directions up to `maxRadius` metres; `p` itself when it is clear; null when
 * none is within `maxRadius`.
 */
export function nearestClearPoint(world: World, p: Vec2, clearance = 0.4, maxRadius = 25): Vec2 | null {
  if (isClearGround(world, p, clearance)) return p;
  for (let r = 0.05; r <= maxRadius + 1e-9; r += 0.05) {
    for (let k = 0; k < 64; k++) {
      const th = (k * Math.PI) / 32;
      const q: Vec2 = [p[0] + r * Math.cos(th), p[1] + r * Math.sin(th)];
      if (isClearGround(world, q, clearance)) return q;
    }
  }
  return null;
}

/**
 * Shortest grid route from `from` to `to` over clear ground: A* (octile heuristic) on cells of
 * `cell` metres inside the start–goal box grown by `margin`, then each vertex joined to the
 * farthest later one in clear line of sight. The route starts at `from` and ends at `to` exactly.
 * Returns null when the two are not connected by clear ground inside the box.
 *
 * @throws RangeError when `from` or `to` is not clear ground (snap it with {@link nearestClearPoint} first).
 */
export function gridRoute(world: World, from: Vec2, to: Vec2, options: GridRouteOptions = {}): Vec2[] | null {
  const cell = options.cell ?? 0.25;
  const clearance = options.clearance ?? 0.4;
  const margin = options.margin ?? 30;
  for (const [name, p] of [['from', from], ['to', to]] as const) {
    if (!isClearGround(world, p, clearance)) throw new RangeError(`gridRoute: ${name} (${p[0].toFixed(2)}, ${p[1].toFixed(2)}) is not walkable ground ${clearance} m clear of obstacles and edges`);
  }
  const x0 = Math.min(from[0], to[0]) - margin, y0 = Math.min(from[1], to[1]) - margin;
  const nx = Math.ceil((Math.max(from[0], to[0]) + margin - x0) / cell) + 1;
  const ny = Math.ceil((Math.max(from[1], to[1]) + margin - y0) / cell) + 1;
  const centre = (i: number): Vec2 => [x0 + (i % nx) * cell, y0 + Math.floor(i / nx) * cell];
  const indexOf = (p: Vec2) => Math.round((p[1] - y0) / cell) * nx + Math.round((p[0] - x0) / cell);
  // 0 unknown, 1 free, 2 blocked.
  const state = new Uint8Array(nx * ny);
  const free = (i: number) => {
    if (state[i] === 0) state[i] = isClearGround(world, centre(i), clearance) ? 1 : 2;
    return state[i] === 1;
  };
  const s = indexOf(from), t = indexOf(to);
  state[s] = state[t] = 1; // the exact endpoints are clear; their cells' centres stand for them
  const goal = centre(t);
  const h = (i: number) => {
    const c = centre(i);
    const dx = Math.abs(c[0] - goal[0]), dy = Math.abs(c[1] - goal[1]);
    return Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
  };
  const g = new Float64Array(nx * ny).fill(Infinity);
  const prev = new Int32Array(nx * ny).fill(-1);
  g[s] = 0;
  const open = new TinyQueue<[number, number]>([[h(s), s]], (a, b) => a[0] - b[0] || a[1] - b[1]);
  const steps: [number, number, number][] = [[1, 0, 1], [-1, 0, 1], [0, 1, 1], [0, -1, 1], [1, 1, Math.SQRT2], [1, -1, Math.SQRT2], [-1, 1, Math.SQRT2], [-1, -1, Math.SQRT2]];
  let found = false;
  while (open.length > 0) {
    const [f, u] = open.pop()!;
    if (u === t) { found = true; break; }
    if (f > g[u] + h(u) + 1e-9) continue;
    const ux = u % nx, uy = Math.floor(u / nx);
    for (const [dx, dy, w] of steps) {
      const vx = ux + dx, vy = uy + dy;
      if (vx < 0 || vy < 0 || vx >= nx || vy >= ny) continue;
      const v = vy * nx + vx;
      // Diagonal moves need both side cells free (no corner cutting).
      if (!free(v) || (dx !== 0 && dy !== 0 && (!free(uy * nx + vx) || !free(vy * nx + ux)))) continue;
      const nd = g[u] + w * cell;
      if (nd < g[v] - 1e-12) {
        g[v] = nd;
        prev[v] = u;
        open.push([nd + h(v), v]);
      }
    }
  }
  if (!found) return null;
  const cells: Vec2[] = [];
  for (let i = t; i !== -1; i = prev[i]) cells.push(centre(i));
  cells.reverse();
  const path: Vec2[] = [from, ...cells.slice(1, -1), to];
  // String pulling: from each kept vertex, jump to the farthest later one in line of sight, a segment
  // whose points every half cell fall in free cells and are clear ground themselves.
  const sight = (a: Vec2, b: Vec2) => densify([a, b], cell / 2).every((p) => {
    const i = indexOf(p);
    return i >= 0 && i < state.length && free(i) && isClearGround(world, p, clearance);
  });
  const out: Vec2[] = [from];
  for (let i = 0; i < path.length - 1; ) {
    let j = i + 1;
    while (j + 1 < path.length && sight(path[i], path[j + 1])) j++;
    out.push(path[j]);
    i = j;
  }
  return out;
}
