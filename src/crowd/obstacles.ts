/**
 * Polygonal obstacles for ORCA, in RVO2's representation (`RVOSimulator::addObstacle`,
 * `Obstacle.h`): each polygon vertex is one obstacle edge from itself to the next vertex, with the
 * edge's unit direction, its neighbours, and whether the vertex is convex. Polygons are given
 * counter-clockwise in the world x-y plane (metres); a 2-vertex "polygon" is a two-sided segment.
 *
 * Differences from RVO2, both deliberate: edges are never split (RVO2's obstacle kd-tree splits
 * edges that cross a splitting line; with brute-force search per environment, or a grid that lists
 * a whole edge in every cell it touches ({@link ObstacleEdgeGrid}), no split is needed),
 * and the obstacle-neighbour list can be capped (`maxObstacleNeighbors`, the GPU's fixed capacity).
 */
import { type Vec2, distSqPointLineSegment, leftOf, normalize, sub } from './vec2';

/** One obstacle vertex = the edge from `point` to `vertices[next].point`. */
export interface ObstacleVertex {
  /** Vertex position, world x-y, m. */
  point: Vec2;
  /** Unit direction of the edge to the next vertex. */
  unitDir: Vec2;
  /** Index of the next / previous vertex of the same polygon. */
  next: number;
  prev: number;
  /** RVO2's `isConvex_`: leftOf(prev, this, next) ≥ 0, or true for a 2-vertex segment. */
  isConvex: boolean;
  /** Environment this obstacle belongs to. */
  env: number;
}

/** A polygon as given by a scenario: CCW vertices (m) in environment `env`. */
export interface ObstaclePolygon {
  env: number;
  vertices: readonly Vec2[];
}

/**
 * Builds obstacle vertices from polygons, grouped by environment (vertices of env e are contiguous,
 * in input order), as RVO2's `addObstacle` does per polygon.
 *
 * @returns the vertices and, per environment 0..envCount−1, the [begin, end) range of its vertices.
 * @throws Error `obstacles[i]: …` for fewer than 2 vertices, non-finite coordinates, zero-length
 *   edges, clockwise order (negative signed area), or an env outside [0, envCount).
 */
export function buildObstacleVertices(
  polygons: readonly ObstaclePolygon[], envCount: number,
): { vertices: ObstacleVertex[]; envRanges: [number, number][] } {
  polygons.forEach((p, i) => {
    const where = `obstacles[${i}]`;
    if (!Number.isInteger(p.env) || p.env < 0 || p.env >= envCount) throw new Error(`${where}.env: ${p.env} is not in [0, ${envCount})`);
    if (p.vertices.length < 2) throw new Error(`${where}.vertices: needs at least 2 vertices, got ${p.vertices.length}`);
    p.vertices.forEach((v, k) => {
      if (!Number.isFinite(v.x) || !Number.isFinite(v.y)) throw new Error(`${where}.vertices[${k}]: non-finite coordinate`);
      const w = p.vertices[(k + 1) % p.vertices.length];
      if (v.x === w.x && v.y === w.y) throw new Error(`${where}.vertices[${k}]: zero-length edge to the next vertex`);
    });
    if (p.vertices.length > 2) {
      let area2 = 0;
      p.vertices.forEach((v, k) => {
        const w = p.vertices[(k + 1) % p.vertices.length];
        area2 += v.x * w.y - w.x * v.y;
      });
      if (area2 <= 0) throw new Error(`${where}.vertices: polygon is clockwise or degenerate (RVO2 needs counter-clockwise)`);
    }
  });
  const vertices: ObstacleVertex[] = [];
  const envRanges: [number, number][] = [];
  for (let env = 0; env < envCount; env++) {
    const begin = vertices.length;
    for (const p of polygons) {
      if (p.env !== env) continue;
      const first = vertices.length;
      const n = p.vertices.length;
      p.vertices.forEach((point, k) => {
        const next = p.vertices[(k + 1) % n];
        const prev = p.vertices[(k + n - 1) % n];
        vertices.push({
          point,
          unitDir: normalize(sub(next, point)),
          next: first + ((k + 1) % n),
          prev: first + ((k + n - 1) % n),
          isConvex: n === 2 ? true : leftOf(prev, point, next) >= 0,
          env,
        });
      });
    }
    envRanges.push([begin, vertices.length]);
  }
  return { vertices, envRanges };
}

/**
 * RVO2's obstacle neighbours (`KdTree::computeObstacleNeighbors` + `Agent::insertObstacleNeighbor`):
 * every edge the agent is strictly right of (it faces the edge's outside) whose segment lies closer
 * than √rangeSq, ordered by (squared distance, vertex index), at most `maxCount` of them.
 * RVO2 uses rangeSq = (timeHorizonObst·maxSpeed + radius)².
 */
export function obstacleNeighbors(
  vertices: readonly ObstacleVertex[], range: readonly [number, number], position: Vec2, rangeSq: number, maxCount = Infinity,
): number[] {
  const edges: number[] = [];
  for (let k = range[0]; k < range[1]; k++) edges.push(k);
  return nearestEdges(vertices, edges, position, rangeSq, maxCount);
}

/**
 * Of the edges `edges` (vertex indices), those that face `position` (it lies on their right, the
 * obstacle's outside) closer than √`rangeSq`, nearest first (ties by index), at most `maxCount`.
 */
function nearestEdges(vertices: readonly ObstacleVertex[], edges: Iterable<number>, position: Vec2, rangeSq: number, maxCount: number): number[] {
  const found: { d: number; k: number }[] = [];
  for (const k of edges) {
    const a = vertices[k];
    const b = vertices[a.next];
    if (leftOf(a.point, b.point, position) >= 0) continue;
    const d = distSqPointLineSegment(a.point, b.point, position);
    if (d < rangeSq) found.push({ d, k });
  }
  found.sort((p, q) => p.d - q.d || p.k - q.k);
  return found.slice(0, maxCount).map((f) => f.k);
}

/** Side of an {@link ObstacleEdgeGrid} cell, metres (about twice a pedestrian's obstacle range, ≈ 4.3 m). */
export const OBSTACLE_GRID_CELL = 8;

/**
 * A uniform grid over the obstacle edges of one vertex range, built once for static obstacles: each
 * edge (vertex k to its next) is listed in every cell its bounding box overlaps, so the edges within
 * a distance of a point are found among a few cells instead of all of them
 * ({@link obstacleNeighborsInGrid}).
 */
export class ObstacleEdgeGrid {
  private readonly cells = new Map<number, number[]>();
  /** Per vertex: the query that last listed it (deduplicates edges spanning cells). */
  private readonly seen: Int32Array;
  private query = 0;

  /** @param cell cell side, metres. @throws RangeError for a cell side that is not positive. */
  constructor(readonly vertices: readonly ObstacleVertex[], readonly range: readonly [number, number], readonly cell = OBSTACLE_GRID_CELL) {
    if (!(cell > 0)) throw new RangeError(`ObstacleEdgeGrid: cell ${cell} is not a positive length`);
    this.seen = new Int32Array(vertices.length);
    for (let k = range[0]; k < range[1]; k++) {
      const a = vertices[k].point;
      const b = vertices[vertices[k].next].point;
      const [x0, x1] = [Math.floor(Math.min(a.x, b.x) / cell), Math.floor(Math.max(a.x, b.x) / cell)];
      const [y0, y1] = [Math.floor(Math.min(a.y, b.y) / cell), Math.floor(Math.max(a.y, b.y) / cell)];
      for (let i = x0; i <= x1; i++) {
        for (let j = y0; j <= y1; j++) {
          const key = ObstacleEdgeGrid.key(i, j);
          const list = this.cells.get(key);
          if (list) list.push(k);
          else this.cells.set(key, [k]);
        }
      }
    }
  }

  private static key(i: number, j: number): number {
    return (i + 0x8000) * 0x10000 + (j + 0x8000);
  }

  /** The edges (vertex indices, each once, in no particular order) whose bounding box may lie within `radius` metres of `position`. */
  candidates(position: Vec2, radius: number): number[] {
    const c = this.cell;
    const q = ++this.query;
    const out: number[] = [];
    for (let i = Math.floor((position.x - radius) / c); i <= Math.floor((position.x + radius) / c); i++) {
      for (let j = Math.floor((position.y - radius) / c); j <= Math.floor((position.y + radius) / c); j++) {
        for (const k of this.cells.get(ObstacleEdgeGrid.key(i, j)) ?? []) {
          if (this.seen[k] === q) continue;
          this.seen[k] = q;
          out.push(k);
        }
      }
    }
    return out;
  }
}

/**
 * {@link obstacleNeighbors} over a grid of the same vertices and range: the same edges in the same
 * order (every edge closer than √rangeSq lies in a cell the query box overlaps; the result is
 * sorted by (squared distance, vertex index)), found among nearby cells only.
 */
export function obstacleNeighborsInGrid(grid: ObstacleEdgeGrid, position: Vec2, rangeSq: number, maxCount = Infinity): number[] {
  // 1 µm of slack: an edge at the limit is never lost to rounding (the distance test decides).
  return nearestEdges(grid.vertices, grid.candidates(position, Math.sqrt(rangeSq) + 1e-6), position, rangeSq, maxCount);
}
