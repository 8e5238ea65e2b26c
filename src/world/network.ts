/**
 * Street-network generation: a jittered grid of junctions joined by spline-routed streets, with the
 * seven primitive block types of SidewalkBench §3.1 (after MetaUrban / MetaDrive's block set):
 * straight, curve, T-intersection, four-way intersection, roundabout, narrowing (bottleneck) and
 * fork/merge. Streets reaching the world's edge end there (dead ends on the boundary).
 *
 * All coordinates are world-frame metres on the ground plane; the world is centred on the origin.
 */
import type { Rng } from '../core/random';
import type { Vec2 } from './geometry';
import { cubicBezier } from './polyline';
import { sampleProfile, sampleSide, type StreetProfile } from './profile';

/**
 * Kinds of junction. `deadEnd` is a street end on the world boundary (or, in a world from OSM, where
 * a street ends); `bend` joins two streets whose cross-sections differ (worlds from OSM only: no
 * crossings, no block of its own).
 */
export type JunctionKind = 'intersection' | 'tJunction' | 'roundabout' | 'fork' | 'deadEnd' | 'bend';

/** Kinds of street (the block type of its mid-block part; `ring` is a roundabout's circulatory road). */
export type StreetKind = 'straight' | 'curve' | 'narrowing' | 'forkBranch' | 'ring';

/** One street end at a junction. */
export interface Arm {
  streetId: number;
  /** True when the street's centreline starts at this junction (false: it ends there). */
  atStart: boolean;
}

/** A junction (network node). */
export interface Junction {
  id: number;
  kind: JunctionKind;
  /** Centre, metres. */
  centre: Vec2;
  arms: Arm[];
  /** Roundabouts: radius of the circulatory road's centreline, metres (0 otherwise). */
  ringRadius: number;
  /** Roundabouts: radius of the central island, metres (0 otherwise). */
  islandRadius: number;
  /** Roundabouts: id of the ring street (−1 otherwise). */
  ringStreetId: number;
}

/** A street: a centreline polyline with a cross-section profile. */
export interface Street {
  id: number;
  kind: StreetKind;
  /** Centreline vertices, metres; a closed loop for rings (last vertex not repeated). */
  centreline: Vec2[];
  closed: boolean;
  profile: StreetProfile;
  /** Junction at the first vertex, or −1. */
  startJunction: number;
  /** Junction at the last vertex, or −1. */
  endJunction: number;
}

/** The generated network. */
export interface StreetNetwork {
  junctions: Junction[];
  streets: Street[];
}

/** Parameters of the network generator. */
export interface NetworkOptions {
  /** World side length, metres (square world centred on the origin). */
  size: number;
}

interface GNode { pos: Vec2; boundary: boolean }
interface GEdge { a: number; b: number; stub: boolean; removed: boolean }

const deg = (d: number): number => (d * Math.PI) / 180;
const rot = (v: Vec2, a: number): Vec2 => [v[0] * Math.cos(a) - v[1] * Math.sin(a), v[0] * Math.sin(a) + v[1] * Math.cos(a)];

function connected(n: number, edges: GEdge[]): boolean {
  const parent = [...Array(n).keys()];
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const e of edges) if (!e.removed) parent[find(e.a)] = find(e.b);
  const r = find(0);
  for (let i = 1; i < n; i++) if (find(i) !== r) return false;
  return true;
}

/**
 * Generates a connected street network.
 *
 * @param rng the network's own stream (fork it from the world seed).
 * @throws RangeError when `size` is outside [150, 2000] metres.
 */
export function generateNetwork(rng: Rng, opts: NetworkOptions): StreetNetwork {
  const W = opts.size;
  if (!(W >= 150 && W <= 2000)) throw new RangeError(`generateNetwork: size must be in [150, 2000] m, got ${W}`);
  const half = W / 2;
  // --- Grid of junctions (spacing 85–135 m: typical North-American/European block faces).
  const sx = rng.range(85, 135), sy = rng.range(85, 135);
  const nx = Math.max(2, Math.floor((W - 90) / sx) + 1), ny = Math.max(2, Math.floor((W - 90) / sy) + 1);
  const nodes: GNode[] = [];
  const jitter = 0.1;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x = -((nx - 1) * sx) / 2 + i * sx + rng.range(-jitter, jitter) * sx;
      const y = -((ny - 1) * sy) / 2 + j * sy + rng.range(-jitter, jitter) * sy;
      nodes.push({ pos: [x, y], boundary: i === 0 || j === 0 || i === nx - 1 || j === ny - 1 });
    }
  }
  const id = (i: number, j: number): number => j * nx + i;
  const edges: GEdge[] = [];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    if (i + 1 < nx) edges.push({ a: id(i, j), b: id(i + 1, j), stub: false, removed: false });
    if (j + 1 < ny) edges.push({ a: id(i, j), b: id(i, j + 1), stub: false, removed: false });
  }
  // --- Stubs to the world boundary (dead ends on the edge of the map).
  const addStub = (n: number, dir: Vec2): void => {
    const p = nodes[n].pos;
    const end: Vec2 = dir[0] !== 0 ? [dir[0] * half, p[1]] : [p[0], dir[1] * half];
    nodes.push({ pos: end, boundary: true });
    edges.push({ a: n, b: nodes.length - 1, stub: true, removed: false });
  };
  const gridCount = nodes.length;
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const dirs: Vec2[] = [];
    if (i === 0) dirs.push([-1, 0]);
    if (i === nx - 1) dirs.push([1, 0]);
    if (j === 0) dirs.push([0, -1]);
    if (j === ny - 1) dirs.push([0, 1]);
    if (dirs.length === 0) continue;
    const chosen = dirs.filter(() => rng.next() < 0.65);
    if (dirs.length === 2 && chosen.length === 0) chosen.push(rng.pick(dirs));
    for (const d of chosen) addStub(id(i, j), d);
  }
  const degree = (n: number): number => edges.reduce((c, e) => c + (!e.removed && (e.a === n || e.b === n) ? 1 : 0), 0);
  // --- Remove some grid edges (T-junctions), keeping every grid node at degree ≥ 3 and the graph connected.
  for (const e of edges) {
    if (e.stub || rng.next() >= 0.2) continue;
    if (degree(e.a) <= 3 || degree(e.b) <= 3) continue;
    e.removed = true;
    if (!connected(nodes.length, edges)) e.removed = false;
  }
  const live = edges.filter((e) => !e.removed);
  const len = (e: GEdge): number => Math.hypot(nodes[e.b].pos[0] - nodes[e.a].pos[0], nodes[e.b].pos[1] - nodes[e.a].pos[1]);
  // --- Junction kinds.
  const kind: JunctionKind[] = nodes.map((_, n) => (n >= gridCount ? 'deadEnd' : degree(n) === 4 ? 'intersection' : degree(n) === 3 ? 'tJunction' : 'deadEnd'));
  const incident = (n: number): GEdge[] => live.filter((e) => e.a === n || e.b === n);
  const canRoundabout = (n: number): boolean =>
    n < gridCount && degree(n) >= 3 && incident(n).every((e) => len(e) >= 75 && kind[e.a === n ? e.b : e.a] !== 'roundabout');
  for (let n = 0; n < gridCount; n++) {
    if (canRoundabout(n) && rng.next() < (degree(n) === 4 ? 0.22 : 0.1)) kind[n] = 'roundabout';
  }
  if (!kind.includes('roundabout')) {
    const cands = [...Array(gridCount).keys()].filter(canRoundabout);
    if (cands.length > 0) kind[rng.pick(cands)] = 'roundabout';
  }
  // --- Street kinds per edge.
  type EdgeKind = 'straight' | 'curve' | 'narrowing' | 'fork';
  const ek: EdgeKind[] = live.map(() => 'straight');
  const touchesRb = (e: GEdge): boolean => kind[e.a] === 'roundabout' || kind[e.b] === 'roundabout';
  live.forEach((e, k) => {
    if (touchesRb(e)) return;
    const r = rng.next();
    if (!e.stub && len(e) >= 110 && r < 0.15) ek[k] = 'fork';
    else if (r < 0.45) ek[k] = 'curve';
    else if (r < 0.65 && len(e) >= 50) ek[k] = 'narrowing';
  });
  const force = (k: EdgeKind, ok: (e: GEdge) => boolean): void => {
    if (ek.includes(k)) return;
    const cands = live.map((_e, i) => i).filter((i) => ek[i] === 'straight' && !touchesRb(live[i]) && ok(live[i]));
    if (cands.length > 0) ek[k === 'fork' ? cands.reduce((a, b) => (len(live[b]) > len(live[a]) ? b : a)) : rng.pick(cands)] = k;
  };
  force('fork', (e) => !e.stub && len(e) >= 95);
  force('curve', () => true);
  force('narrowing', (e) => len(e) >= 50);
  // --- Junction records.
  const junctions: Junction[] = nodes.map((nd, n) => ({ id: n, kind: kind[n], centre: nd.pos, arms: [], ringRadius: 0, islandRadius: 0, ringStreetId: -1 }));
  const streets: Street[] = [];
  const addStreet = (k: StreetKind, line: Vec2[], profile: StreetProfile, a: number, b: number): number => {
    const s: Street = { id: streets.length, kind: k, centreline: line, closed: false, profile, startJunction: a, endJunction: b };
    streets.push(s);
    if (a >= 0) junctions[a].arms.push({ streetId: s.id, atStart: true });
    if (b >= 0) junctions[b].arms.push({ streetId: s.id, atStart: false });
    return s.id;
  };
  for (const j of junctions) {
    if (j.kind !== 'roundabout') continue;
    const rr = rng.fork(`roundabout${j.id}`);
    const w = rr.range(2.6, 3.4);
    j.ringRadius = rr.range(12, 16);
    j.islandRadius = j.ringRadius - w;
    const side = sampleSide(rr, false);
    const profile: StreetProfile = { roadHalfWidth: w, lanesPerDirection: 1, parking: 0, left: { ...side, verge: 0, sidewalk: 0, frontage: 0 }, right: { ...side, verge: 0 }, narrowing: null };
    const circle: Vec2[] = [];
    for (let i = 0; i < 64; i++) {
      const a = (2 * Math.PI * i) / 64;
      circle.push([j.centre[0] + j.ringRadius * Math.cos(a), j.centre[1] + j.ringRadius * Math.sin(a)]);
    }
    const s: Street = { id: streets.length, kind: 'ring', centreline: circle, closed: true, profile, startJunction: j.id, endJunction: j.id };
    streets.push(s);
    j.ringStreetId = s.id;
  }
  live.forEach((e, k) => {
    const er = rng.fork(`edge${e.a}-${e.b}`);
    let A = nodes[e.a].pos, B = nodes[e.b].pos;
    const L = len(e);
    const c: Vec2 = [(B[0] - A[0]) / L, (B[1] - A[1]) / L];
    // Roundabout arms end on the ring's centreline.
    if (kind[e.a] === 'roundabout') A = [A[0] + c[0] * junctions[e.a].ringRadius, A[1] + c[1] * junctions[e.a].ringRadius];
    if (kind[e.b] === 'roundabout') B = [B[0] - c[0] * junctions[e.b].ringRadius, B[1] - c[1] * junctions[e.b].ringRadius];
    const profile = sampleProfile(er);
    const kk = ek[k];
    if (kk === 'curve') {
      const th = deg(er.range(20, 34)) * (er.next() < 0.5 ? 1 : -1);
      const t0 = rot(c, th), t1 = rot(c, -th);
      const line = cubicBezier(A, [A[0] + (t0[0] * L) / 3, A[1] + (t0[1] * L) / 3], [B[0] - (t1[0] * L) / 3, B[1] - (t1[1] * L) / 3], B, 2);
      addStreet('curve', line, profile, e.a, e.b);
    } else if (kk === 'narrowing') {
      const nl = er.range(8, 20), mid = L / 2 + er.range(-0.15, 0.15) * L;
      profile.narrowing = { s0: mid - nl / 2, s1: mid + nl / 2, taper: er.range(4, 6), pinch: er.range(1.2, 1.5), roadCut: profile.parking };
      addStreet('narrowing', [A, B], profile, e.a, e.b);
    } else if (kk === 'fork') {
      const a = er.range(24, 30);
      const F: Vec2 = [A[0] + c[0] * a, A[1] + c[1] * a], M: Vec2 = [B[0] - c[0] * a, B[1] - c[1] * a];
      const fId = junctions.length, mId = fId + 1;
      junctions.push({ id: fId, kind: 'fork', centre: F, arms: [], ringRadius: 0, islandRadius: 0, ringStreetId: -1 });
      junctions.push({ id: mId, kind: 'fork', centre: M, arms: [], ringRadius: 0, islandRadius: 0, ringStreetId: -1 });
      addStreet('straight', [A, F], profile, e.a, fId);
      addStreet('straight', [M, B], { ...profile }, mId, e.b);
      const bl = L - 2 * a, th = deg(er.range(30, 38));
      for (const sgn of [1, -1]) {
        const t0 = rot(c, sgn * th), t1 = rot(c, -sgn * th);
        const line = cubicBezier(F, [F[0] + (t0[0] * bl) / 3, F[1] + (t0[1] * bl) / 3], [M[0] - (t1[0] * bl) / 3, M[1] - (t1[1] * bl) / 3], M, 2);
        addStreet('forkBranch', line, sampleProfile(er.fork(`branch${sgn}`), true), fId, mId);
      }
    } else {
      addStreet('straight', [A, B], profile, e.a, e.b);
    }
  });
  return { junctions, streets };
}
