/**
 * Projection of OSM nodes into the world frame and clipping of ways at the selection's edge.
 */
import { geodeticToWorld, type Georeference } from '../georef';
import type { Box, Vec2 } from '../geometry';
import type { OsmData } from './elements';

/** A vertex of a clipped way: its position and the OSM node it is (null where the way was cut at the edge). */
export interface ClipVertex {
  p: Vec2;
  node: number | null;
}

/** World-frame positions of OSM nodes, projected once each (ENU about the georeference, metres). */
export class NodeProjector {
  private readonly cache = new Map<number, Vec2>();
  constructor(private readonly data: OsmData, private readonly georef: Georeference) {}

  /** The node's ground position, or null when the file lacks the node. */
  at(id: number): Vec2 | null {
    let p = this.cache.get(id);
    if (p) return p;
    const n = this.data.nodes.get(id);
    if (!n) return null;
    const q = geodeticToWorld(this.georef, { lat: n.lat, lon: n.lon, height: 0 });
    p = [q[0], q[1]];
    this.cache.set(id, p);
    return p;
  }
}

const inside = (p: Vec2, b: Box) => p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];

/** Liang–Barsky: the parameter interval [t0, t1] ⊆ [0, 1] of segment a→b inside box b, or null. */
export function clipSegment(a: Vec2, c: Vec2, b: Box): [number, number] | null {
  let t0 = 0, t1 = 1;
  const dx = c[0] - a[0], dy = c[1] - a[1];
  for (const [p, q] of [[-dx, a[0] - b[0]], [dx, b[2] - a[0]], [-dy, a[1] - b[1]], [dy, b[3] - a[1]]] as const) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
    }
  }
  return t0 <= t1 ? [t0, t1] : null;
}

/**
 * Clips a way (its node ids) to `box`: the runs of it inside, each a polyline of at least two
 * vertices; a run cut at the edge ends at a new vertex (`node: null`). Nodes missing from the file
 * split the way there (`missing` counts them).
 */
export function clipWay(nodes: readonly number[], proj: NodeProjector, box: Box): { runs: ClipVertex[][]; missing: number } {
  const runs: ClipVertex[][] = [];
  let missing = 0;
  let cur: ClipVertex[] = [];
  const flush = () => {
    if (cur.length >= 2) runs.push(cur);
    cur = [];
  };
  let prev: ClipVertex | null = null;
  for (const id of nodes) {
    const p = proj.at(id);
    if (!p) {
      missing++;
      flush();
      prev = null;
      continue;
    }
    const v: ClipVertex = { p, node: id };
    if (!prev) {
      if (inside(p, box)) cur.push(v);
      prev = v;
      continue;
    }
    const seg = clipSegment(prev.p, p, box);
    const lerp = (t: number): Vec2 => [prev!.p[0] + t * (p[0] - prev!.p[0]), prev!.p[1] + t * (p[1] - prev!.p[1])];
    if (seg) {
      const [t0, t1] = seg;
      if (t0 > 0) {
        flush();
        cur.push({ p: lerp(t0), node: null });
      } else if (cur.length === 0) cur.push(prev);
      if (t1 < 1) {
        cur.push({ p: lerp(t1), node: null });
        flush();
      } else cur.push(v);
    } else flush();
    prev = v;
  }
  flush();
  return { runs, missing };
}
