/**
 * Polygonal obstacles for ORCA, in RVO2's representation (`RVOSimulator::addObstacle`,
 * `Obstacle.h`): each polygon vertex is one obstacle edge from itself to the next vertex, with the
 * edge's unit direction, its neighbours, and whether the vertex is convex. Polygons are given
 * counter-clockwise in the world x-y plane (metres); a 2-vertex "polygon" is a two-sided segment.
 *
 * Differences from RVO2, both deliberate: edges are never split (RVO2's obstacle kd-tree splits
 * edges that cross a splitting line; with brute-force search per environment no split is needed),
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
  const found: { d: number; k: number }[] = [];
  for (let k = range[0]; k < range[1]; k++) {
    const a = vertices[k];
    const b = vertices[a.next];
    if (leftOf(a.point, b.point, position) >= 0) continue;
    const d = distSqPointLineSegment(a.point, b.point, position);
    if (d < rangeSq) found.push({ d, k });
  }
  found.sort((p, q) => p.d - q.d || p.k - q.k);
  return found.slice(0, maxCount).map((f) => f.k);
}
