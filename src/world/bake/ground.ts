/**
 * Ground surfaces of the baked city: zone paving on a world-anchored lattice, curb faces, lane
 * markings, zebra crosswalks and sidewalk slab joints. World frame, Z up, metres.
 *
 * Splat density per surface kind (splats per m², lattice spacing in brackets; σ = in-plane
 * standard deviation, all with 4 mm thickness along the normal):
 *
 * | surface            | spacing | splats/m² | σ (m)       | height z (m)            |
 * |--------------------|---------|-----------|-------------|-------------------------|
 * | road (asphalt)     | 0.25    | 16        | 0.16        | 0                       |
 * | crosswalk (base)   | 0.25    | 16        | 0.16        | `groundHeight` (ramps)  |
 * | curb top           | 0.25    | 16        | 0.16        | curb height (0.15)      |
 * | sidewalk (paving)  | 0.25    | 16        | 0.16        | curb height             |
 * | verge (grass)      | 0.25    | 16        | 0.16        | curb height + 0.01      |
 * | frontage (pavers)  | 0.25    | 16        | 0.16        | curb height             |
 * | open lot           | 0.75    | 1.8       | 0.5         | curb height             |
 * | curb face          | 0.1 × 2 rows | 20 per m of curb | 0.07 × 0.045 | 0 … curb height |
 * | lane lines         | 0.2 along | 5 per m of line | 0.12 × 0.05 | 0.01                 |
 * | zebra stripes      | 0.25 × 0.12 | 33 per m² of stripe | 0.15 × 0.07 | ground + 0.01    |
 * | slab joints        | 0.15 along | ~7 per m² of sidewalk | 0.09 × 0.012 | curb height + 0.003 |
 *
 * At a 0.25 m lattice with ±0.3-spacing jitter and σ = 0.16 m, neighbouring Gaussians overlap at
 * more than 1σ, so paving has no holes from 1–10 m at any robot camera height.
 */
import type { Box, Vec2 } from '../geometry';
import { groundHeight, worldIndex } from '../queries';
import { arcLengths, sampleAt } from '../polyline';
import { zoneOffsets } from '../profile';
import type { World } from '../world';
import { fbm2, hash01, valueNoise } from './noise';
import { type SplatBuilder, Z_AXIS, type Rgb } from './splat-builder';

/** Lattice spacing of paved/grass ground, metres. */
export const GROUND_SPACING = 0.25;
/** Lattice spacing of open lots (every third ground lattice point), metres. */
export const LOT_SPACING = 3 * GROUND_SPACING;

/** Base colours of the ground surfaces (display RGB in [0, 1]). */
export const GROUND_COLORS = {
  asphalt: [0.25, 0.25, 0.27],
  curb: [0.7, 0.69, 0.66],
  curbFace: [0.6, 0.6, 0.58],
  sidewalk: [0.64, 0.63, 0.6],
  joint: [0.42, 0.42, 0.4],
  grass: [0.28, 0.44, 0.17],
  mulch: [0.36, 0.28, 0.2],
  frontage: [0.58, 0.5, 0.44],
  lot: [0.4, 0.47, 0.28],
  paintWhite: [0.92, 0.92, 0.9],
  paintYellow: [0.93, 0.76, 0.2],
  gutter: [0.5, 0.5, 0.48],
} as const satisfies Record<string, Rgb>;

const tmp: Rgb = [0, 0, 0];
function shade(base: readonly number[], k: number, out: Rgb = tmp): Rgb {
  out[0] = base[0] * k; out[1] = base[1] * k; out[2] = base[2] * k;
  return out;
}

const NO_ZONES: ReadonlySet<string> = new Set();

/** Whether (x, y) lies in the half-open box [x0, x1) × [y0, y1). */
export function inHalfOpenBox(box: Box, x: number, y: number): boolean {
  return x >= box[0] && x < box[2] && y >= box[1] && y < box[3];
}

/**
 * The ground zones a lattice point is classified by, in priority order (crosswalk, sidewalk, road,
 * curb, verge, frontage), keeping those whose bounding box comes within 1 m of `box`.
 */
export function groundZoneOrder(world: World, box: Box): ('crosswalk' | 'sidewalk' | 'road' | 'curb' | 'verge' | 'frontage')[] {
  const idx = worldIndex(world);
  return (['crosswalk', 'sidewalk', 'road', 'curb', 'verge', 'frontage'] as const).filter((k) => {
    const b = idx.zones[k].box;
    return b !== null && b !== undefined && b[0] <= box[2] + 1 && b[2] >= box[0] - 1 && b[1] <= box[3] + 1 && b[3] >= box[1] - 1;
  });
}

/**
 * Paves the zones inside `box` (half-open) on the world-anchored lattice of {@link GROUND_SPACING},
 * classifying each lattice point by zone (crosswalk, sidewalk, road, curb, verge, frontage, then
 * building footprints (skipped) and open lots on every third point). Points in a zone of `skip` are
 * left out (the `fine` surface detail paves the pedestrian network on its own lattice: fine-paving.ts).
 */
export function bakeGroundZones(world: World, box: Box, seed: number, out: SplatBuilder, skip: ReadonlySet<string> = NO_ZONES): void {
  const idx = worldIndex(world);
  const G = GROUND_SPACING;
  const ox = world.bounds[0], oy = world.bounds[1];
  const i0 = Math.round((box[0] - ox) / G), i1 = Math.round((box[2] - ox) / G);
  const j0 = Math.round((box[1] - oy) / G), j1 = Math.round((box[3] - oy) / G);
  const order = groundZoneOrder(world, box);
  const buildings = idx.obstacles.query(box).filter((o) => o.kind === 'building');
  const h = world.curbHeight;
  const s = 0.64 * G;
  for (let j = j0; j < j1; j++) {
    for (let i = i0; i < i1; i++) {
      const x = ox + (i + 0.2 + 0.6 * hash01(seed, i, j, 1)) * G;
      const y = oy + (j + 0.2 + 0.6 * hash01(seed, i, j, 2)) * G;
      let zone: string | null = null;
      for (const k of order) if (idx.zones[k].contains(x, y)) { zone = k; break; }
      if (zone !== null && skip.has(zone)) continue;
      const grain = 0.92 + 0.16 * hash01(seed, i, j, 3);
      switch (zone) {
        case 'road': {
          const k = (0.8 + 0.35 * fbm2(seed + 1, x, y, 4)) * grain;
          out.addFlat(x, y, 0, s, shade(GROUND_COLORS.asphalt, k));
          break;
        }
        case 'crosswalk': {
          const k = (0.8 + 0.35 * fbm2(seed + 1, x, y, 4)) * grain;
          const z = groundHeight(world, x, y);
          out.addFlat(x, y, z, s, z > h * 0.99 ? shade(GROUND_COLORS.sidewalk, grain) : shade(GROUND_COLORS.asphalt, k));
          break;
        }
        case 'sidewalk': {
          const k = (0.9 + 0.15 * fbm2(seed + 2, x, y, 2.5)) * grain;
          out.addFlat(x, y, h, s, shade(GROUND_COLORS.sidewalk, k));
          break;
        }
        case 'curb':
          out.addFlat(x, y, h, s, shade(GROUND_COLORS.curb, grain));
          break;
        case 'verge': {
          const n = fbm2(seed + 3, x, y, 1.5);
          const base = valueNoise(seed + 4, x, y, 6) > 0.82 ? GROUND_COLORS.mulch : GROUND_COLORS.grass;
          const c = shade(base, (0.75 + 0.45 * n) * (0.85 + 0.3 * hash01(seed, i, j, 4)));
          c[0] += 0.05 * (valueNoise(seed + 5, x, y, 3) - 0.5);
          out.addFlat(x, y, h + 0.01, s, c);
          break;
        }
        case 'frontage': {
          // Brick pavers in a 0.2 × 0.1 m running bond, shaded per brick.
          const brick = Math.floor(x / 0.2 + (Math.floor(y / 0.1) % 2) * 0.5);
          const k = (0.85 + 0.25 * hash01(seed, brick, Math.floor(y / 0.1), 5)) * (0.95 + 0.1 * hash01(seed, i, j, 6));
          out.addFlat(x, y, h, s, shade(GROUND_COLORS.frontage, k));
          break;
        }
        default: {
          // Open lot behind the frontage (or a building footprint, left to the roof).
          if (i % 3 !== 0 || j % 3 !== 0) break;
          const cx = x + G, cy = y + G;
          let inBuilding = false;
          for (const b of buildings) if (pointInConvex(cx, cy, b.footprint)) { inBuilding = true; break; }
          if (inBuilding) break;
          const k = (0.7 + 0.5 * fbm2(seed + 6, cx, cy, 5)) * grain;
          out.addFlat(cx, cy, h, 0.5, shade(GROUND_COLORS.lot, k));
        }
      }
    }
  }
}

function pointInConvex(x: number, y: number, ring: Vec2[]): boolean {
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
    if ((ring[i][0] - ring[j][0]) * (y - ring[j][1]) - (ring[i][1] - ring[j][1]) * (x - ring[j][0]) < 0) return false;
  }
  return true;
}

/**
 * Vertical curb faces: every boundary edge of a raised zone (curb, verge, sidewalk, frontage) whose
 * outside is road gets a face from z = 0 to the curb height, sampled every 0.1 m in two rows; only
 * samples inside `box` (half-open) are added. With `gutter` (the fine surface detail), a concrete
 * gutter 0.3 m wide runs along the foot of every face on the road side: three rows of splats
 * (σ 0.06 × 0.05 m) every 0.1 m, a darker joint every 1 m, 2 mm above the asphalt.
 */
export function bakeCurbFaces(world: World, box: Box, seed: number, out: SplatBuilder, gutter = false): void {
  const road = worldIndex(world).zones.road;
  const h = world.curbHeight;
  const u = [0, 0, 0];
  for (const k of ['curb', 'verge', 'sidewalk', 'frontage'] as const) {
    for (const poly of world.zones[k]) {
      for (const ring of [poly.outer, ...poly.holes]) {
        for (let a = ring.length - 1, b = 0; b < ring.length; a = b++) {
          const [ax, ay] = ring[a], [bx, by] = ring[b];
          if (Math.max(ax, bx) < box[0] - 0.1 || Math.min(ax, bx) > box[2] + 0.1 || Math.max(ay, by) < box[1] - 0.1 || Math.min(ay, by) > box[3] + 0.1) continue;
          const len = Math.hypot(bx - ax, by - ay);
          if (len < 1e-6) continue;
          const dx = (bx - ax) / len, dy = (by - ay) / len;
          // Outward normal: right of the edge for CCW outer rings and for CW holes alike.
          const nx = dy, ny = -dx;
          const mx = (ax + bx) / 2, my = (ay + by) / 2;
          if (!road.contains(mx + 0.05 * nx, my + 0.05 * ny)) continue;
          u[0] = dx; u[1] = dy;
          const n = Math.max(1, Math.ceil(len / 0.1));
          for (let q = 0; q < n; q++) {
            const t = (q + 0.5) / n;
            const x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
            if (!inHalfOpenBox(box, x, y)) continue;
            // A face whose normal (u × z) points out of the zone, towards the road.
            const hx = Math.round(x * 50), hy = Math.round(y * 50);
            for (const [z, r] of [[0.25 * h, 0], [0.72 * h, 1]] as const) {
              const c = shade(GROUND_COLORS.curbFace, (r ? 1 : 0.85) * (0.92 + 0.16 * hash01(seed, hx, hy, r)));
              out.add(x + 0.005 * nx, y + 0.005 * ny, z, u, Z_AXIS, 0.07, 0.3 * h, c);
            }
            if (gutter) {
              const along = t * len;
              const joint = along % 1 < 0.1;
              for (const [d, r] of [[0.05, 2], [0.15, 3], [0.25, 4]] as const) {
                const k = joint ? 0.7 : 0.88 + 0.2 * hash01(seed, hx, hy, r + 40);
                out.add(x + d * nx, y + d * ny, 0.002, u, gutterAcross(nx, ny), 0.06, 0.05, shade(GROUND_COLORS.gutter, k));
              }
            }
          }
        }
      }
    }
  }
}

const across = [0, 0, 0];
/** The in-plane unit vector of a flat gutter splat pointing away from the curb (the face's normal, horizontal). */
function gutterAcross(nx: number, ny: number): number[] {
  across[0] = nx; across[1] = ny;
  return across;
}

/** Radius around each junction centre kept free of lane markings, metres. */
function junctionClearRadii(world: World): Map<number, number> {
  const r = new Map<number, number>();
  for (const j of world.network.junctions) {
    if (j.kind === 'deadEnd') continue;
    let m = 0;
    for (const a of j.arms) {
      const st = world.network.streets[a.streetId];
      m = Math.max(m, st.profile.roadHalfWidth + Math.max(st.profile.left.curb, st.profile.right.curb));
    }
    r.set(j.id, j.kind === 'roundabout' ? j.ringRadius + m + 2 : m + 1.5);
  }
  return r;
}

/**
 * Lane markings along each (open) street's centreline: a dashed white centre line (3 m dash, 6 m
 * gap) on one-lane-per-direction streets; a double solid yellow centre line and dashed white lane
 * lines on two-lane streets; a solid white parking-lane line where there is parking. Markings are
 * kept only on road ground (not on crosswalks) and away from junction areas.
 */
export function bakeLaneMarkings(world: World, box: Box, seed: number, out: SplatBuilder): void {
  const road = worldIndex(world).zones.road;
  const clear = junctionClearRadii(world);
  const u = [0, 0, 0], v = [0, 0, 0];
  for (const st of world.network.streets) {
    if (st.closed) continue;
    const line = st.centreline;
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (const [x, y] of line) { bx0 = Math.min(bx0, x); by0 = Math.min(by0, y); bx1 = Math.max(bx1, x); by1 = Math.max(by1, y); }
    const reach = st.profile.roadHalfWidth + 1;
    if (bx1 + reach < box[0] || bx0 - reach > box[2] || by1 + reach < box[1] || by0 - reach > box[3]) continue;
    const cum = arcLengths(line);
    const L = cum[cum.length - 1];
    const p = st.profile;
    const laneW = (p.roadHalfWidth - p.parking) / p.lanesPerDirection;
    // [lateral offset, dashed, colour]
    const lines: [number, boolean, Rgb][] = [];
    if (p.lanesPerDirection === 1) lines.push([0, true, [...GROUND_COLORS.paintWhite]]);
    else {
      lines.push([0.1, false, [...GROUND_COLORS.paintYellow]], [-0.1, false, [...GROUND_COLORS.paintYellow]]);
      for (let l = 1; l < p.lanesPerDirection; l++) lines.push([l * laneW, true, [...GROUND_COLORS.paintWhite]], [-l * laneW, true, [...GROUND_COLORS.paintWhite]]);
    }
    if (p.parking > 0) lines.push([p.roadHalfWidth - p.parking, false, [...GROUND_COLORS.paintWhite]], [-(p.roadHalfWidth - p.parking), false, [...GROUND_COLORS.paintWhite]]);
    const step = 0.2;
    for (let k = 0; k * step < L; k++) {
      const s = (k + 0.5) * step;
      const { p: c, t } = sampleAt(line, s, cum);
      if (c[0] < box[0] - reach || c[0] > box[2] + reach || c[1] < box[1] - reach || c[1] > box[3] + reach) continue;
      let nearJunction = false;
      for (const jid of [st.startJunction, st.endJunction]) {
        const r = clear.get(jid);
        if (r !== undefined) {
          const jc = world.network.junctions[jid].centre;
          if (Math.hypot(c[0] - jc[0], c[1] - jc[1]) < r) nearJunction = true;
        }
      }
      if (nearJunction) continue;
      u[0] = t[0]; u[1] = t[1];
      v[0] = -t[1]; v[1] = t[0];
      for (const [off, dashed, col] of lines) {
        if (dashed && s % 9 >= 3) continue;
        // Narrowings pull the road edge in: keep edge lines on the road.
        const x = c[0] - t[1] * off, y = c[1] + t[0] * off;
        if (!inHalfOpenBox(box, x, y) || !road.contains(x, y)) continue;
        const g = 0.9 + 0.1 * hash01(seed, k, Math.round(off * 10), 7);
        out.add(x, y, 0.01, u, v, 0.12, 0.05, shade(col, g));
      }
    }
  }
}

/**
 * Zebra crosswalks: white bars 0.5 m wide with 0.5 m gaps, parallel to the traffic, across the
 * road part of every crosswalk (|lateral| ≤ road half-width), 0.01 m above the local ground.
 */
export function bakeZebraStripes(world: World, box: Box, seed: number, out: SplatBuilder): void {
  const u = [0, 0, 0], v = [0, 0, 0];
  for (const c of world.crosswalks) {
    const R = c.roadHalfWidth + c.width;
    if (c.centre[0] + R < box[0] || c.centre[0] - R > box[2] || c.centre[1] + R < box[1] || c.centre[1] - R > box[3]) continue;
    u[0] = c.along[0]; u[1] = c.along[1];
    v[0] = c.across[0]; v[1] = c.across[1];
    const nBars = Math.floor((2 * c.roadHalfWidth - 0.25) / 1.0);
    const lat0 = -((nBars - 1) * 1.0) / 2;
    const nAlong = Math.max(1, Math.round((c.width - 0.5) / 0.25));
    for (let b = 0; b < nBars; b++) {
      const lat = lat0 + b * 1.0;
      for (const dl of [-0.17, -0.06, 0.06, 0.17]) {
        for (let a = 0; a < nAlong; a++) {
          const lon = -(c.width - 0.5) / 2 + (a + 0.5) * ((c.width - 0.5) / nAlong);
          const x = c.centre[0] + c.along[0] * lon + c.across[0] * (lat + dl);
          const y = c.centre[1] + c.along[1] * lon + c.across[1] * (lat + dl);
          if (!inHalfOpenBox(box, x, y)) continue;
          const g = 0.88 + 0.12 * hash01(seed, c.id, b * 1000 + a, Math.round(dl * 100));
          out.add(x, y, groundHeight(world, x, y) + 0.01, u, v, 0.15, 0.07, shade(GROUND_COLORS.paintWhite, g));
        }
      }
    }
  }
}

/**
 * Sidewalk slab joints along each street side: transverse joints every 0.9 m across the clear path
 * (from the verge edge to the frontage edge) and longitudinal joints, each as short thin splats 3 mm
 * above the paving, kept only on sidewalk ground. Longitudinal: with `squareFlags`, one every 0.9 m
 * across the path from the verge edge (square 0.9 m flags, the fine surface detail), else one along
 * its middle.
 */
export function bakeSlabJoints(world: World, box: Box, seed: number, out: SplatBuilder, squareFlags = false): void {
  const sidewalk = worldIndex(world).zones.sidewalk;
  const h = world.curbHeight;
  const u = [0, 0, 0], v = [0, 0, 0];
  for (const st of world.network.streets) {
    const line = st.closed ? [...st.centreline, st.centreline[0]] : st.centreline;
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (const [x, y] of line) { bx0 = Math.min(bx0, x); by0 = Math.min(by0, y); bx1 = Math.max(bx1, x); by1 = Math.max(by1, y); }
    const reach = zoneOffsets(st.profile, 1, 0)[4] + zoneOffsets(st.profile, -1, 0)[4] + 2;
    if (bx1 + reach < box[0] || bx0 - reach > box[2] || by1 + reach < box[1] || by0 - reach > box[3]) continue;
    const cum = arcLengths(line);
    const L = cum[cum.length - 1];
    const emit = (x: number, y: number, key: number): void => {
      if (!inHalfOpenBox(box, x, y) || !sidewalk.contains(x, y)) return;
      const g = 0.9 + 0.2 * hash01(seed, st.id, key, 8);
      out.add(x, y, h + 0.003, u, v, 0.09, 0.012, shade(GROUND_COLORS.joint, g), 0.9);
    };
    for (const side of [1, -1] as const) {
      // Transverse joints.
      for (let k = 0; k * 0.9 < L; k++) {
        const s = k * 0.9 + 0.45;
        const { p, t } = sampleAt(line, s, cum);
        if (p[0] < box[0] - reach || p[0] > box[2] + reach || p[1] < box[1] - reach || p[1] > box[3] + reach) continue;
        const d = zoneOffsets(st.profile, side, s);
        const w = d[3] - d[2];
        if (w < 0.5) continue;
        u[0] = -t[1] * side; u[1] = t[0] * side;
        v[0] = t[0]; v[1] = t[1];
        const n = Math.ceil(w / 0.15);
        for (let q = 0; q < n; q++) {
          const lat = side * (d[2] + ((q + 0.5) * w) / n);
          emit(p[0] - t[1] * lat, p[1] + t[0] * lat, k * 64 + q + (side > 0 ? 0 : 1 << 20));
        }
      }
      // Longitudinal joint along the middle of the clear path.
      for (let k = 0; k * 0.15 < L; k++) {
        const s = (k + 0.5) * 0.15;
        const { p, t } = sampleAt(line, s, cum);
        if (p[0] < box[0] - reach || p[0] > box[2] + reach || p[1] < box[1] - reach || p[1] > box[3] + reach) continue;
        const d = zoneOffsets(st.profile, side, s);
        if (d[3] - d[2] < 1.6) continue;
        u[0] = t[0]; u[1] = t[1];
        v[0] = -t[1]; v[1] = t[0];
        if (squareFlags) {
          for (let m = 1; d[2] + 0.9 * m < d[3] - 0.3; m++) {
            const lat = side * (d[2] + 0.9 * m);
            emit(p[0] - t[1] * lat, p[1] + t[0] * lat, k * 8 + m + (side > 0 ? 1 << 23 : 1 << 24));
          }
          continue;
        }
        const lat = side * (d[2] + d[3]) / 2;
        emit(p[0] - t[1] * lat, p[1] + t[0] * lat, k + (side > 0 ? 1 << 21 : 1 << 22));
      }
    }
  }
}
