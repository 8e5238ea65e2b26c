/**
 * Mesh decimation by quadric-error **half-edge collapse** (Garland & Heckbert 1997, "Surface
 * Simplification Using Quadric Error Metrics", with the collapse target restricted to one of the
 * edge's two vertices). Because every surviving vertex is an original one, everything attached to
 * a vertex (skin weights, shape directions, UVs) carries over by index without resampling, and a
 * walker's look and shape at every level of detail (LOD) come from the same per-vertex data.
 *
 * Cost of collapsing u into v: vᵀ(Q_u + Q_v)v with Q the sum of area-weighted plane quadrics of the
 * faces around a vertex (plus heavily weighted planes perpendicular to open boundary edges, so holes
 * keep their rims). A collapse is refused when it would make the mesh non-manifold (the link
 * condition: u and v share exactly the neighbours opposite their common faces), move a boundary
 * vertex off its boundary, or flip/degenerate a face (new normal · old normal < 0.3).
 * Deterministic: ties are broken by vertex index, no randomness.
 */

/** Output of {@link decimateMesh}. */
export interface DecimatedMesh {
  /** Kept original vertex indices, ascending (the LOD's vertex i is original vertex `kept[i]`). */
  kept: Uint32Array;
  /** F'×3 triangles indexing `kept` (counter-clockwise kept from the input). */
  faces: Uint32Array;
}

/** A min-heap of (cost, u, v, stamp) entries. */
class CollapseHeap {
  private cost: number[] = [];
  private data: number[][] = [];
  get size(): number { return this.cost.length; }
  push(c: number, entry: number[]): void {
    this.cost.push(c);
    this.data.push(entry);
    let i = this.cost.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): number[] {
    const top = this.data[0];
    const lastC = this.cost.pop()!, lastD = this.data.pop()!;
    if (this.cost.length > 0) {
      this.cost[0] = lastC;
      this.data[0] = lastD;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < this.cost.length && this.less(l, m)) m = l;
        if (r < this.cost.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private less(a: number, b: number): boolean {
    const da = this.data[a], db = this.data[b];
    if (this.cost[a] !== this.cost[b]) return this.cost[a] < this.cost[b];
    return da[0] !== db[0] ? da[0] < db[0] : da[1] < db[1];
  }
  private swap(a: number, b: number): void {
    [this.cost[a], this.cost[b]] = [this.cost[b], this.cost[a]];
    [this.data[a], this.data[b]] = [this.data[b], this.data[a]];
  }
}

const BOUNDARY_WEIGHT = 100;
const MIN_NORMAL_DOT = 0.3;

/**
 * Decimates a triangle mesh to at most `targetVertices` used vertices (fewer collapses happen when
 * every remaining one is refused; the result then has more).
 *
 * @param positions V×3 positions (any unit; costs are in that unit squared).
 * @param faces F×3 counter-clockwise triangles.
 * @param protect optional per-vertex weight ≥ 0 added to the cost of collapsing that vertex away
 *   (times the squared edge length), e.g. to keep joints of the face.
 * @throws Error when `targetVertices` < 4.
 */
export function decimateMesh(positions: ArrayLike<number>, faces: ArrayLike<number>, targetVertices: number, protect?: ArrayLike<number>): DecimatedMesh {
  if (!(targetVertices >= 4)) throw new Error(`decimateMesh: targetVertices ${targetVertices} < 4`);
  const V = positions.length / 3;
  const F = faces.length / 3;
  const tri = Int32Array.from(faces);
  const faceAlive = new Uint8Array(F).fill(1);
  const vertFaces: Set<number>[] = Array.from({ length: V }, () => new Set());
  for (let f = 0; f < F; f++) for (let k = 0; k < 3; k++) vertFaces[tri[3 * f + k]].add(f);
  const p = (v: number, c: number) => positions[3 * v + c];
  const Q = new Float64Array(V * 10);
  const addPlane = (v: number, a: number, b: number, c: number, d: number, w: number) => {
    const q = [a * a, a * b, a * c, a * d, b * b, b * c, b * d, c * c, c * d, d * d];
    for (let i = 0; i < 10; i++) Q[10 * v + i] += w * q[i];
  };
  const faceNormal = (a: number, b: number, c: number): number[] => {
    const e1 = [p(b, 0) - p(a, 0), p(b, 1) - p(a, 1), p(b, 2) - p(a, 2)];
    const e2 = [p(c, 0) - p(a, 0), p(c, 1) - p(a, 1), p(c, 2) - p(a, 2)];
    return [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  };
  // Edge → face count, for boundaries.
  const edgeKey = (a: number, b: number) => (a < b ? a * V + b : b * V + a);
  const edgeFaces = new Map<number, number>();
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(tri[3 * f + k], tri[3 * f + ((k + 1) % 3)]);
      edgeFaces.set(key, (edgeFaces.get(key) ?? 0) + 1);
    }
  }
  const boundary = new Uint8Array(V);
  for (let f = 0; f < F; f++) {
    const [a, b, c] = [tri[3 * f], tri[3 * f + 1], tri[3 * f + 2]];
    const n = faceNormal(a, b, c);
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len === 0) continue;
    const [nx, ny, nz] = n.map((x) => x / len);
    const d = -(nx * p(a, 0) + ny * p(a, 1) + nz * p(a, 2));
    for (const v of [a, b, c]) addPlane(v, nx, ny, nz, d, len / 2);
    for (let k = 0; k < 3; k++) {
      const u = tri[3 * f + k], w = tri[3 * f + ((k + 1) % 3)];
      if (edgeFaces.get(edgeKey(u, w)) !== 1) continue;
      boundary[u] = boundary[w] = 1;
      // Plane through the edge, perpendicular to the face.
      const e = [p(w, 0) - p(u, 0), p(w, 1) - p(u, 1), p(w, 2) - p(u, 2)];
      const el = Math.hypot(e[0], e[1], e[2]);
      const m = [e[1] * nz - e[2] * ny, e[2] * nx - e[0] * nz, e[0] * ny - e[1] * nx].map((x) => x / el);
      const md = -(m[0] * p(u, 0) + m[1] * p(u, 1) + m[2] * p(u, 2));
      for (const v of [u, w]) addPlane(v, m[0], m[1], m[2], md, BOUNDARY_WEIGHT * el * el);
    }
  }
  const neighbours = (v: number): Set<number> => {
    const s = new Set<number>();
    for (const f of vertFaces[v]) for (let k = 0; k < 3; k++) if (tri[3 * f + k] !== v) s.add(tri[3 * f + k]);
    return s;
  };
  const stamp = new Uint32Array(V);
  const alive = new Uint8Array(V).fill(1);
  const cost = (u: number, v: number): number => {
    const q = new Float64Array(10);
    for (let i = 0; i < 10; i++) q[i] = Q[10 * u + i] + Q[10 * v + i];
    const x = p(v, 0), y = p(v, 1), z = p(v, 2);
    const e = q[0] * x * x + 2 * q[1] * x * y + 2 * q[2] * x * z + 2 * q[3] * x + q[4] * y * y + 2 * q[5] * y * z + 2 * q[6] * y + q[7] * z * z + 2 * q[8] * z + q[9];
    const l2 = (p(u, 0) - x) ** 2 + (p(u, 1) - y) ** 2 + (p(u, 2) - z) ** 2;
    return Math.max(0, e) + (protect ? protect[u] * l2 : 0);
  };
  const heap = new CollapseHeap();
  const pushVertex = (u: number) => {
    for (const v of neighbours(u)) {
      heap.push(cost(u, v), [u, v, stamp[u], stamp[v]]);
      heap.push(cost(v, u), [v, u, stamp[v], stamp[u]]);
    }
  };
  let used = 0;
  for (let v = 0; v < V; v++) if (vertFaces[v].size > 0) used++;
  for (let v = 0; v < V; v++) if (vertFaces[v].size > 0) for (const w of neighbours(v)) heap.push(cost(v, w), [v, w, 0, 0]);

  const canCollapse = (u: number, v: number): boolean => {
    if (boundary[u] && (!boundary[v] || edgeFaces.get(edgeKey(u, v)) !== 1)) return false;
    const shared: number[] = [];
    for (const f of vertFaces[u]) if (vertFaces[v].has(f)) shared.push(f);
    if (shared.length === 0) return false;
    const nu = neighbours(u), nv = neighbours(v);
    let common = 0;
    for (const x of nu) if (nv.has(x)) common++;
    if (common !== shared.length) return false;
    for (const f of vertFaces[u]) {
      if (vertFaces[v].has(f)) continue;
      const c = [tri[3 * f], tri[3 * f + 1], tri[3 * f + 2]];
      const before = faceNormal(c[0], c[1], c[2]);
      const after = faceNormal(...(c.map((x) => (x === u ? v : x)) as [number, number, number]));
      const lb = Math.hypot(before[0], before[1], before[2]), la = Math.hypot(after[0], after[1], after[2]);
      if (la < 1e-12 || lb < 1e-12) return false;
      if ((before[0] * after[0] + before[1] * after[1] + before[2] * after[2]) / (la * lb) < MIN_NORMAL_DOT) return false;
    }
    return true;
  };

  while (used > targetVertices && heap.size > 0) {
    const [u, v, su, sv] = heap.pop();
    if (!alive[u] || !alive[v] || su !== stamp[u] || sv !== stamp[v]) continue;
    if (!canCollapse(u, v)) continue;
    for (const f of [...vertFaces[u]]) {
      if (vertFaces[v].has(f)) {
        faceAlive[f] = 0;
        for (let k = 0; k < 3; k++) vertFaces[tri[3 * f + k]].delete(f);
      } else {
        for (let k = 0; k < 3; k++) if (tri[3 * f + k] === u) tri[3 * f + k] = v;
        vertFaces[v].add(f);
      }
    }
    vertFaces[u].clear();
    alive[u] = 0;
    used--;
    for (const x of [...neighbours(v)]) if (boundary[u] && edgeFaces.get(edgeKey(u, x)) === 1) edgeFaces.set(edgeKey(v, x), 1);
    for (let i = 0; i < 10; i++) Q[10 * v + i] += Q[10 * u + i];
    stamp[v]++;
    for (const x of neighbours(v)) stamp[x]++;
    pushVertex(v);
    for (const x of neighbours(v)) pushVertex(x);
  }
  const remap = new Int32Array(V).fill(-1);
  const kept: number[] = [];
  for (let v = 0; v < V; v++) if (alive[v] && vertFaces[v].size > 0) { remap[v] = kept.length; kept.push(v); }
  const out: number[] = [];
  for (let f = 0; f < F; f++) if (faceAlive[f]) out.push(remap[tri[3 * f]], remap[tri[3 * f + 1]], remap[tri[3 * f + 2]]);
  return { kept: Uint32Array.from(kept), faces: Uint32Array.from(out) };
}
