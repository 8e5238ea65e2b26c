/**
 * Street furniture of the baked city: lamp posts, trees, hydrants, benches, bins, bollards, sign
 * posts, stop signs, bus shelters, bike racks, post boxes, kiosks, statues and fountains, each built from a few primitives (cylinders, boxes, discs,
 * an ellipsoid canopy) of flattened splats tangent to the primitive's surface. World frame, Z up,
 * metres; every object stands on the ground height at its base.
 *
 * Density: cylinders and boxes ≈ 1 splat per (0.08–0.15 m)² of surface (≈ 50–150 splats/m², small
 * surfaces need it to stay solid at 1 m); tree canopies ≈ 1 splat per 0.1 m² of ellipsoid surface
 * plus 25 % inside (σ 0.3 × 0.25 m). Typical counts: lamp post ≈ 650, tree ≈ 700–1,600, bench ≈ 500,
 * bus shelter ≈ 2,500.
 */
import type { Vec2 } from '../geometry';
import type { StaticObject } from '../objects';
import { arcLengths, projectOnPolyline, sampleAt } from '../polyline';
import type { World } from '../world';
import { hash01 } from './noise';
import { type SplatBuilder, Z_AXIS, type Rgb } from './splat-builder';

/** Object colours (display RGB in [0, 1]). */
export const FURNITURE_COLORS = {
  pole: [0.3, 0.32, 0.33],
  lampHead: [0.95, 0.92, 0.75],
  bark: [0.3, 0.22, 0.15],
  leaf: [0.2, 0.4, 0.14],
  hydrant: [0.78, 0.12, 0.1],
  wood: [0.55, 0.36, 0.2],
  metal: [0.18, 0.2, 0.2],
  bin: [0.14, 0.3, 0.2],
  bollard: [0.35, 0.35, 0.37],
  reflector: [0.95, 0.8, 0.2],
  signBlue: [0.1, 0.3, 0.7],
  stopRed: [0.78, 0.08, 0.08],
  white: [0.95, 0.95, 0.95],
  glass: [0.7, 0.82, 0.9],
  shelterFrame: [0.25, 0.28, 0.3],
  kiosk: [0.12, 0.42, 0.28],
  awning: [0.85, 0.2, 0.15],
  stone: [0.66, 0.64, 0.6],
  bronze: [0.36, 0.42, 0.34],
  water: [0.25, 0.5, 0.75],
  postYellow: [0.93, 0.75, 0.1],
} as const satisfies Record<string, Rgb>;

type ColorFn = (t: number, a: number) => readonly number[];

/**
 * A vertical cylinder of surface splats from z0 to z1 (metres) of radius r about (cx, cy), with
 * rings every ≤ `dz` metres and ≥ 6 splats per ring; `color(tz, angle)` with tz ∈ [0, 1].
 */
export function addCylinder(out: SplatBuilder, cx: number, cy: number, z0: number, z1: number, r: number, color: ColorFn, dz = 0.1, cap = true): void {
  const nz = Math.max(1, Math.ceil((z1 - z0) / dz));
  const na = Math.max(6, Math.ceil((2 * Math.PI * r) / 0.08));
  const hz = (z1 - z0) / nz;
  const su = ((2 * Math.PI * r) / na) * 0.65, sv = hz * 0.65;
  const u = [0, 0, 0];
  for (let k = 0; k < nz; k++) {
    const z = z0 + (k + 0.5) * hz;
    for (let a = 0; a < na; a++) {
      const th = ((a + 0.5 * (k & 1)) / na) * 2 * Math.PI;
      const c = Math.cos(th), s = Math.sin(th);
      u[0] = -s; u[1] = c;
      // u × z = radial outward normal.
      out.add(cx + r * c, cy + r * s, z, u, Z_AXIS, su, sv, color((k + 0.5) / nz, th));
    }
  }
  if (cap) addDisc(out, cx, cy, z1, r, color(1, 0));
}

/** A horizontal disc (top cap) of radius r at height z. */
export function addDisc(out: SplatBuilder, cx: number, cy: number, z: number, r: number, rgb: readonly number[]): void {
  const rings = Math.max(1, Math.round(r / 0.08));
  out.addFlat(cx, cy, z, Math.min(r, 0.05), rgb);
  for (let q = 1; q <= rings; q++) {
    const rr = (q / rings) * r * 0.9;
    const na = Math.max(6, Math.ceil((2 * Math.PI * rr) / 0.08));
    for (let a = 0; a < na; a++) {
      const th = (a / na) * 2 * Math.PI;
      out.addFlat(cx + rr * Math.cos(th), cy + rr * Math.sin(th), z, 0.05, rgb);
    }
  }
}

/**
 * A box centred on (cx, cy) at heights z0..z1, `length` along heading `yaw` (rad from +x) and
 * `width` across, with all six faces sampled every ≤ `step` metres.
 */
export function addBox(out: SplatBuilder, cx: number, cy: number, z0: number, z1: number, length: number, width: number, yaw: number, rgb: readonly number[], step = 0.1, opacity = 1): void {
  const ax: [number, number, number] = [Math.cos(yaw), Math.sin(yaw), 0];
  const ay: [number, number, number] = [-Math.sin(yaw), Math.cos(yaw), 0];
  const az: [number, number, number] = [0, 0, 1];
  const half = [length / 2, width / 2, (z1 - z0) / 2];
  const cz = (z0 + z1) / 2;
  const axes = [ax, ay, az];
  for (let f = 0; f < 3; f++) {
    const n = axes[f], p = axes[(f + 1) % 3], q = axes[(f + 2) % 3];
    const hp = half[(f + 1) % 3], hq = half[(f + 2) % 3];
    const np = Math.max(1, Math.ceil((2 * hp) / step)), nq = Math.max(1, Math.ceil((2 * hq) / step));
    for (const sg of [1, -1]) {
      if (f === 2 && sg === -1 && z0 <= 0.2) continue; // bottom face on the ground: unseen
      for (let i = 0; i < np; i++) {
        for (let j = 0; j < nq; j++) {
          const a = -hp + ((i + 0.5) / np) * 2 * hp, b = -hq + ((j + 0.5) / nq) * 2 * hq;
          const x = cx + n[0] * sg * half[f] + p[0] * a + q[0] * b;
          const y = cy + n[1] * sg * half[f] + p[1] * a + q[1] * b;
          const z = cz + n[2] * sg * half[f] + p[2] * a + q[2] * b;
          out.add(x, y, z, p, q, (hp / np) * 1.3, (hq / nq) * 1.3, rgb, opacity);
        }
      }
    }
  }
}

/**
 * A flat vertical panel (sign plate, glass pane) centred at (cx, cy, cz) facing `normal` (unit, in
 * the ground plane), `w` wide and `h` high, sampled every ≤ `step` metres; `color(a, b)` gets the
 * panel coordinates in metres from its centre (a horizontal, b vertical).
 */
export function addPanel(out: SplatBuilder, cx: number, cy: number, cz: number, normal: Vec2, w: number, h: number, color: (a: number, b: number) => readonly number[] | null, step = 0.05, opacity = 1): void {
  const u = [normal[1], -normal[0], 0]; // u × z = normal
  const nu = Math.max(1, Math.ceil(w / step)), nv = Math.max(1, Math.ceil(h / step));
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const a = -w / 2 + ((i + 0.5) / nu) * w, b = -h / 2 + ((j + 0.5) / nv) * h;
      const c = color(a, b);
      if (!c) continue;
      out.add(cx + u[0] * a, cy + u[1] * a, cz + b, u, Z_AXIS, (w / nu) * 0.7, (h / nv) * 0.7, c, opacity);
    }
  }
}

/** Street frame at an object: unit tangent of its street and the unit vector towards the road. */
export function streetFrame(world: World, o: StaticObject): { along: Vec2; toRoad: Vec2 } {
  const st = world.network.streets[o.streetId];
  if (!st) return { along: [Math.cos(o.yaw), Math.sin(o.yaw)], toRoad: [-Math.sin(o.yaw), Math.cos(o.yaw)] };
  const line = st.closed ? [...st.centreline, st.centreline[0]] : st.centreline;
  const cum = arcLengths(line);
  const pr = projectOnPolyline(line, o.centre[0], o.centre[1], cum);
  const { t } = sampleAt(line, pr.s, cum);
  // The object is on side `pr.side` (+1 left of the centreline); the road is the other way.
  return { along: t, toRoad: [pr.side * t[1], -pr.side * t[0]] };
}

const solid = (c: readonly number[]): ColorFn => () => c;

/**
 * Bakes one street-furniture object (any kind but `building`).
 *
 * @param z ground height at its base, metres.
 * @param seed per-world noise seed.
 */
export function bakeFurniture(world: World, o: StaticObject, z: number, seed: number, out: SplatBuilder): void {
  const [cx, cy] = o.centre;
  const C = FURNITURE_COLORS;
  const jitter = (k: number): number => 0.9 + 0.2 * hash01(seed, o.id, k, 11);
  switch (o.kind) {
    case 'lampPost': {
      const { toRoad } = streetFrame(world, o);
      addCylinder(out, cx, cy, z, z + o.height, o.radius, (t) => (t < 0.05 ? C.metal : C.pole), 0.15);
      addCylinder(out, cx, cy, z, z + 0.9, o.radius * 1.5, solid(C.metal), 0.12);
      // Arm towards the road and a lamp head.
      const arm = 1.2;
      const hx = cx + toRoad[0] * arm, hy = cy + toRoad[1] * arm;
      addBox(out, (cx + hx) / 2, (cy + hy) / 2, z + o.height - 0.1, z + o.height, arm, 0.08, Math.atan2(toRoad[1], toRoad[0]), C.pole, 0.1);
      addBox(out, hx, hy, z + o.height - 0.22, z + o.height + 0.02, 0.6, 0.3, Math.atan2(toRoad[1], toRoad[0]), C.metal, 0.1);
      // The lamp is a light source: it stays bright at night (SplatCloud.emissive).
      out.emission = 1;
      addDisc(out, hx, hy, z + o.height - 0.23, 0.13, C.lampHead);
      out.emission = 0;
      break;
    }
    case 'tree': {
      const trunkTop = o.height * 0.45;
      addCylinder(out, cx, cy, z, z + trunkTop + 0.5, o.radius, (t, a) => shadeRgb(C.bark, 0.8 + 0.3 * hash01(seed, o.id, Math.round(t * 40), Math.round(a * 5))), 0.1, false);
      const rx = Math.max(1, o.canopyRadius), rz = Math.max(1.2, (o.height - trunkTop) / 2);
      const czc = z + trunkTop + rz * 0.9;
      const area = 4 * Math.PI * ((rx * rx * 2 + rx * rz * 2) / 4); // ≈ ellipsoid surface
      const n = Math.round(area / 0.3);
      const golden = Math.PI * (3 - Math.sqrt(5));
      const tint = jitter(1);
      const u = [0, 0, 0], v = [0, 0, 0];
      const nInner = Math.round(n * 0.25);
      for (let i = 0; i < n + nInner; i++) {
        const inner = i >= n;
        const k = inner ? i - n : i;
        const m = inner ? nInner : n;
        const yy = 1 - (2 * (k + 0.5)) / m;
        const rr = Math.sqrt(Math.max(0, 1 - yy * yy));
        const th = k * golden + (inner ? 1.3 : 0);
        const jr = inner ? 0.55 + 0.3 * hash01(seed, o.id, i, 12) : 0.9 + 0.15 * hash01(seed, o.id, i, 12);
        const lump = 1 + 0.12 * Math.sin(3 * th + 2 * yy * 3);
        const nx = Math.cos(th) * rr, ny = Math.sin(th) * rr, nz = yy;
        const px = cx + nx * rx * jr * lump, py = cy + ny * rx * jr * lump, pz = czc + nz * rz * jr * lump;
        // A leaf cluster facing outwards, tilted randomly.
        const tiltA = hash01(seed, o.id, i, 13) * 2 * Math.PI;
        const ax = -Math.sin(tiltA), ay = Math.cos(tiltA);
        u[0] = ax; u[1] = ay; u[2] = 0;
        // v = n × u, normalised (n is the outward direction).
        v[0] = ny * 0 - nz * ay; v[1] = nz * ax - nx * 0; v[2] = nx * ay - ny * ax;
        const vl = Math.hypot(v[0], v[1], v[2]) || 1;
        v[0] /= vl; v[1] /= vl; v[2] /= vl;
        const light = 0.55 + 0.45 * (0.5 + 0.5 * nz) * (inner ? 0.6 : 1);
        const g = light * tint * (0.85 + 0.3 * hash01(seed, o.id, i, 14));
        out.add(px, py, pz, u, v, 0.3, 0.25, [C.leaf[0] * g * (0.9 + 0.2 * hash01(seed, o.id, i, 15)), C.leaf[1] * g, C.leaf[2] * g], 0.95, 0.03);
      }
      break;
    }
    case 'hydrant': {
      addCylinder(out, cx, cy, z, z + o.height * 0.85, o.radius, solid(C.hydrant), 0.05);
      addCylinder(out, cx, cy, z + o.height * 0.85, z + o.height, o.radius * 0.7, solid(shadeRgb(C.hydrant, 0.85)), 0.04);
      addBox(out, cx, cy, z + o.height * 0.55, z + o.height * 0.68, o.radius * 3, 0.1, 0.7, shadeRgb(C.hydrant, 0.9), 0.04);
      break;
    }
    case 'bench': {
      const { toRoad } = streetFrame(world, o);
      const [len, dep] = boxSides(o);
      const L = Math.max(len, dep), D = Math.min(len, dep);
      addBox(out, cx, cy, z + 0.4, z + 0.46, L, D, o.yaw, C.wood, 0.07);
      // Backrest on the road side (the bench faces the sidewalk).
      const bx = cx + toRoad[0] * (D / 2 - 0.04), by = cy + toRoad[1] * (D / 2 - 0.04);
      addBox(out, bx, by, z + 0.5, z + o.height, L, 0.05, o.yaw, C.wood, 0.07);
      for (const sg of [-1, 1]) {
        const lx = cx + Math.cos(o.yaw) * sg * (L / 2 - 0.1), ly = cy + Math.sin(o.yaw) * sg * (L / 2 - 0.1);
        addBox(out, lx, ly, z, z + 0.4, 0.06, D * 0.9, o.yaw, C.metal, 0.06);
      }
      break;
    }
    case 'bin':
      addCylinder(out, cx, cy, z, z + o.height, o.radius, (t) => (t > 0.9 ? C.metal : shadeRgb(C.bin, jitter(2))), 0.08);
      break;
    case 'bollard':
      addCylinder(out, cx, cy, z, z + o.height, o.radius, (t) => (t > 0.78 && t < 0.86 ? C.reflector : C.bollard), 0.06);
      break;
    case 'signPost': {
      const { along } = streetFrame(world, o);
      addCylinder(out, cx, cy, z, z + o.height, Math.max(0.04, o.radius), solid(C.pole), 0.15);
      const sc = hash01(seed, o.id, 3) < 0.5 ? C.signBlue : ([0.1, 0.45, 0.2] as const);
      addPanel(out, cx - along[0] * 0.03, cy - along[1] * 0.03, z + o.height - 0.3, along, 0.6, 0.45, (a, b) => (Math.abs(a) > 0.26 || Math.abs(b) > 0.19 ? C.white : Math.abs(b) < 0.05 && Math.abs(a) < 0.2 ? C.white : sc), 0.04);
      break;
    }
    case 'stopSign': {
      const { along } = streetFrame(world, o);
      const r = 0.38;
      addCylinder(out, cx, cy, z, z + o.height - r, Math.max(0.04, o.radius), solid(C.pole), 0.15);
      // Octagon (MUTCD R1-1): red with a white border; the apothem is r·cos(π/8).
      const octagon = (a: number, b: number): number => {
        let m = 0;
        for (let k = 0; k < 8; k++) {
          const th = (k * Math.PI) / 4;
          m = Math.max(m, a * Math.cos(th) + b * Math.sin(th));
        }
        return m;
      };
      const ap = r * Math.cos(Math.PI / 8);
      addPanel(out, cx - along[0] * 0.03, cy - along[1] * 0.03, z + o.height, along, 2 * r, 2 * r, (a, b) => {
        const m = octagon(a, b);
        if (m > ap) return null;
        if (m > ap - 0.035) return C.white;
        // A white bar where the lettering goes.
        if (Math.abs(b) < 0.06 && Math.abs(a) < 0.25 && hash01(seed, Math.floor((a + 1) / 0.05), 21) < 0.7) return C.white;
        return C.stopRed;
      }, 0.035);
      break;
    }
    case 'busShelter': {
      const { toRoad } = streetFrame(world, o);
      const [len, dep] = boxSides(o);
      const h = o.height;
      const ca = Math.cos(o.yaw), sa = Math.sin(o.yaw);
      // Roof.
      addBox(out, cx, cy, z + h - 0.1, z + h, len + 0.2, dep + 0.2, o.yaw, C.shelterFrame, 0.12);
      // Posts at the four corners.
      for (const [pa, pb] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const px = cx + ca * pa * (len / 2 - 0.05) - sa * pb * (dep / 2 - 0.05), py = cy + sa * pa * (len / 2 - 0.05) + ca * pb * (dep / 2 - 0.05);
        addCylinder(out, px, py, z, z + h - 0.1, 0.04, solid(C.shelterFrame), 0.12, false);
      }
      // Glass back panel on the sidewalk side, glass side panels, and an advert.
      const back: Vec2 = [-toRoad[0], -toRoad[1]];
      const bx = cx + back[0] * (dep / 2 - 0.05), by = cy + back[1] * (dep / 2 - 0.05);
      addPanel(out, bx, by, z + 0.2 + (h - 0.4) / 2, back, len - 0.1, h - 0.4, () => C.glass, 0.1, 0.3);
      for (const sg of [-1, 1]) {
        const sx = cx + ca * sg * (len / 2 - 0.05), sy = cy + sa * sg * (len / 2 - 0.05);
        const adv = sg === 1;
        addPanel(out, sx, sy, z + 0.2 + (h - 0.4) / 2, [ca, sa], dep - 0.1, h - 0.4, (a, b) => (adv && Math.abs(a) < dep / 2 - 0.2 && Math.abs(b) < (h - 0.4) / 2 - 0.2 ? [0.85, 0.55, 0.15] : C.glass), 0.08, adv ? 0.9 : 0.3);
      }
      // Bench inside along the back.
      const ix = cx + back[0] * (dep / 2 - 0.3), iy = cy + back[1] * (dep / 2 - 0.3);
      addBox(out, ix, iy, z + 0.42, z + 0.47, len * 0.7, 0.35, o.yaw, C.metal, 0.07);
      break;
    }
    case 'kiosk': {
      // A green booth with a striped awning and a counter of magazines facing the sidewalk.
      const { toRoad } = streetFrame(world, o);
      const [len, dep] = boxSides(o);
      const h = o.height;
      addBox(out, cx, cy, z, z + h - 0.35, len, dep, o.yaw, C.kiosk, 0.1);
      addBox(out, cx, cy, z + h - 0.35, z + h - 0.25, len + 0.4, dep + 0.4, o.yaw, C.white, 0.1);
      addBox(out, cx, cy, z + h - 0.25, z + h, len + 0.2, dep + 0.2, o.yaw, C.kiosk, 0.1);
      const face: Vec2 = [-toRoad[0], -toRoad[1]];
      addPanel(out, cx + face[0] * (dep / 2 + 0.02), cy + face[1] * (dep / 2 + 0.02), z + 1.3, face, len - 0.3, 0.8, (a, b) => {
        const k = hash01(seed, o.id, Math.floor((a + 2) / 0.18), Math.floor((b + 1) / 0.25));
        return k < 0.3 ? C.white : k < 0.55 ? C.awning : k < 0.8 ? C.signBlue : C.reflector;
      }, 0.06);
      addPanel(out, cx + face[0] * (dep / 2 + 0.3), cy + face[1] * (dep / 2 + 0.3), z + h - 0.3, face, len + 0.4, 0.1, (a) => (Math.floor((a + 3) / 0.25) % 2 === 0 ? C.awning : C.white), 0.05);
      break;
    }
    case 'statue': {
      // A stone pedestal and a bronze figure (body, shoulders, head).
      const [side] = boxSides(o);
      const ped = o.height * 0.42;
      addBox(out, cx, cy, z, z + ped, side, side, o.yaw, C.stone, 0.08);
      addBox(out, cx, cy, z + ped, z + ped + 0.08, side + 0.1, side + 0.1, o.yaw, shadeRgb(C.stone, 0.85), 0.05);
      const body = o.height - ped - 0.3;
      addCylinder(out, cx, cy, z + ped + 0.08, z + ped + body, 0.22, solid(C.bronze), 0.08);
      addBox(out, cx, cy, z + ped + body - 0.25, z + ped + body - 0.05, 0.7, 0.25, o.yaw, C.bronze, 0.06);
      addCylinder(out, cx, cy, z + ped + body, z + o.height, 0.13, solid(shadeRgb(C.bronze, 1.1)), 0.05);
      break;
    }
    case 'fountain': {
      // A round stone basin of water with a column and a bowl in the middle.
      const r = o.radius;
      addCylinder(out, cx, cy, z, z + 0.5, r, solid(C.stone), 0.08, false);
      addCylinder(out, cx, cy, z + 0.35, z + 0.5, r - 0.15, solid(shadeRgb(C.stone, 0.9)), 0.08, false);
      addDisc(out, cx, cy, z + 0.42, r - 0.16, C.water);
      addCylinder(out, cx, cy, z + 0.42, z + o.height - 0.15, 0.15, solid(C.stone), 0.08);
      addCylinder(out, cx, cy, z + o.height - 0.15, z + o.height, 0.45, solid(C.stone), 0.05);
      addDisc(out, cx, cy, z + o.height - 0.02, 0.4, C.water);
      break;
    }
    case 'bikeRack': {
      // Three hoops across the rack's length.
      const [len, dep] = boxSides(o);
      const ca = Math.cos(o.yaw), sa = Math.sin(o.yaw);
      for (const k of [-1, 0, 1]) {
        const hx = cx + ca * k * (len / 3), hy = cy + sa * k * (len / 3);
        for (const sg of [-1, 1]) addCylinder(out, hx - sa * sg * (dep / 2 - 0.05), hy + ca * sg * (dep / 2 - 0.05), z, z + o.height, 0.03, solid(C.metal), 0.08, false);
        addBox(out, hx, hy, z + o.height - 0.05, z + o.height, 0.06, dep, o.yaw, C.metal, 0.05);
      }
      break;
    }
    case 'postBox': {
      // A pillar box: a painted post with a darker slot band and a cap.
      addCylinder(out, cx, cy, z, z + o.height, o.radius, (t) => (t > 0.72 && t < 0.76 ? C.metal : C.postYellow), 0.06);
      addDisc(out, cx, cy, z + o.height + 0.02, o.radius * 1.1, shadeRgb(C.postYellow, 0.8));
      break;
    }
    case 'building':
      throw new RangeError(`bakeFurniture: object ${o.id} is a building (use bakeBuilding)`);
  }
}

/** Side lengths of a box object's footprint (its first and second edges), metres. */
function boxSides(o: StaticObject): [number, number] {
  const f = o.footprint;
  return [Math.hypot(f[1][0] - f[0][0], f[1][1] - f[0][1]), Math.hypot(f[2][0] - f[1][0], f[2][1] - f[1][1])];
}

function shadeRgb(c: readonly number[], k: number): Rgb {
  return [c[0] * k, c[1] * k, c[2] * k];
}
