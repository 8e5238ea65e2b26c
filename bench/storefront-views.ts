/**
 * Arena viewpoints facing storefronts from the sidewalk (`npm run bench:signs`, `npm run bench:look`):
 * for a storefront, a standing point on walkable ground at 4, 6, 8 and 10 m (horizontal distance)
 * from its sign board's centre, as square to the board as possible (turned off its normal by 0°,
 * ±5°, … ±45°, the first that works), with no obstacle taller than the eye between it and the
 * board's ends and centre, and the whole board (in either sign style) inside a 640 × 480 frame with
 * a 60° vertical field of view, eye at the arena's EYE_HEIGHT, looking up by the least pitch of 0°,
 * 5°, … 40° that frames it. World frame, Z up, metres.
 */
import { createRng } from '../src/core/random';
import { cameraModel, worldToCamera, type PinholeCamera, type Vec3 } from '../src/gpu/camera';
import { EYE_HEIGHT } from '../src/arena/episode';
import { storefrontSign } from '../src/world/bake/buildings';
import { SIGN_STYLES } from '../src/world/bake/sign';
import { shopSigns } from '../src/world/names';
import { isWalkable, obstaclesInBox, obstaclesNear } from '../src/world/queries';
import type { World } from '../src/world/world';

/** Distances from the board's centre, metres. */
export const DISTANCES = [4, 6, 8, 10] as const;
/** Camera pitches tried, degrees up, in order. */
const PITCHES = [0, 5, 10, 15, 20, 25, 30, 35, 40];
/** Turns off the board's normal tried, degrees, in order. */
const TURNS = [0, ...Array.from({ length: 9 }, (_, k) => [5 * (k + 1), -5 * (k + 1)]).flat()];
export const CAMERA = { width: 640, height: 480, fovYDeg: 60 };
/** Frame margin the board's corners must keep, pixels. */
const FRAME_MARGIN = 8;

export interface Viewpoint {
  world: number;
  shop: string;
  buildingId: number;
  distance: number;
  turnDeg: number;
  /** Camera pitch, degrees up. */
  pitchDeg: number;
  eye: Vec3;
  target: Vec3;
}

export const camera = (eye: Vec3, target: Vec3): PinholeCamera => ({ eye, target, up: [0, 0, 1], fovYDeg: CAMERA.fovYDeg, width: CAMERA.width, height: CAMERA.height, near: 0.02, far: 500 });

/** Distance from point p to segment ab (2D). */
function segmentDistance(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** The viewpoint of a storefront at `distance` (see the module comment), or why there is none. */
function viewpointAt(world: World, buildingId: number, shop: string, distance: number): Viewpoint | string {
  const b = world.obstacles.find((o) => o.id === buildingId)!;
  const signs = SIGN_STYLES.map((s) => storefrontSign(b, world.curbHeight, shop, s));
  if (signs.some((s) => !s)) return 'no sign';
  const { centre: c, normal: n, along: a } = signs[0]!;
  const half = Math.max(...signs.map((s) => s!.layout.width)) / 2;
  const height = Math.max(...signs.map((s) => s!.layout.height)) / 2;
  const ends = [[c[0] - a[0] * half, c[1] - a[1] * half], [c[0], c[1]], [c[0] + a[0] * half, c[1] + a[1] * half]];
  let why = 'not walkable';
  for (const turn of TURNS) {
    const r = (turn * Math.PI) / 180;
    const p = [c[0] + distance * (Math.cos(r) * n[0] + Math.sin(r) * a[0]), c[1] + distance * (Math.cos(r) * n[1] + Math.sin(r) * a[1])];
    if (!isWalkable(world, p[0], p[1])) continue;
    if (obstaclesNear(world, p as [number, number], 0.4).length > 0) { why = 'standing in an obstacle'; continue; }
    const box: [number, number, number, number] = [Math.min(p[0], ...ends.map((e) => e[0])) - 8, Math.min(p[1], ...ends.map((e) => e[1])) - 8, Math.max(p[0], ...ends.map((e) => e[0])) + 8, Math.max(p[1], ...ends.map((e) => e[1])) + 8];
    const blocked = obstaclesInBox(world, box).some((o) => o.id !== b.id && o.height > EYE_HEIGHT && ends.some((e) => segmentDistance(o.centre, p, e) < Math.max(o.radius, o.canopyRadius)));
    if (blocked) { why = 'sight line blocked'; continue; }
    const eye: Vec3 = [p[0], p[1], EYE_HEIGHT];
    // Turned towards the board, looking up by the least pitch (0°, 5°, …) that frames all of it.
    const yaw = Math.atan2(c[1] - p[1], c[0] - p[0]);
    for (const pitchDeg of PITCHES) {
      const pr = (pitchDeg * Math.PI) / 180;
      const target: Vec3 = [p[0] + Math.cos(yaw) * Math.cos(pr), p[1] + Math.sin(yaw) * Math.cos(pr), EYE_HEIGHT + Math.sin(pr)];
      const m = cameraModel(camera(eye, target));
      const inFrame = [-1, 1].every((sa) => [-1, 1].every((sb) => {
        const q = worldToCamera(m, [c[0] + a[0] * half * sa, c[1] + a[1] * half * sa, c[2] + height * sb]);
        if (q[2] <= 0) return false;
        const u = m.fx * (q[0] / q[2]) + m.cx, v = m.fy * (q[1] / q[2]) + m.cy;
        return u >= FRAME_MARGIN && v >= FRAME_MARGIN && u < CAMERA.width - FRAME_MARGIN && v < CAMERA.height - FRAME_MARGIN;
      }));
      if (inFrame) return { world: world.size, shop, buildingId, distance, turnDeg: turn, pitchDeg, eye, target };
    }
    why = 'board not in the frame';
  }
  return why;
}

/** A world's storefronts (building id, name) in the benchmarks' seeded order. */
function shuffledShops(world: World): [number, string][] {
  const shops = [...shopSigns(world)];
  const rng = createRng(world.seed).fork(`bench-signs-${world.size}`);
  for (let i = shops.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [shops[i], shops[j]] = [shops[j], shops[i]];
  }
  return shops;
}

/** The first `per` storefronts (seeded order) with a viewpoint at every distance; the reasons others were passed over. */
export function chooseViewpoints(world: World, per: number): { views: Viewpoint[]; skipped: Map<string, number> } {
  const views: Viewpoint[] = [];
  const skipped = new Map<string, number>();
  let used = 0;
  for (const [id, shop] of shuffledShops(world)) {
    if (used === per) break;
    const vs = DISTANCES.map((d) => viewpointAt(world, id, shop, d));
    const bad = vs.find((v) => typeof v === 'string') as string | undefined;
    if (bad) {
      skipped.set(bad, (skipped.get(bad) ?? 0) + 1);
      continue;
    }
    views.push(...(vs as Viewpoint[]));
    used++;
  }
  return { views, skipped };
}

/**
 * One viewpoint per distance of `distances`, each of a different storefront: the k-th from the first
 * storefront (seeded order) not used yet that has a viewpoint at distances[k].
 *
 * @throws Error when the world runs out of storefronts before every distance has a view.
 */
export function viewpointsAtDistances(world: World, distances: readonly number[]): Viewpoint[] {
  const shops = shuffledShops(world);
  const used = new Set<number>();
  return distances.map((d) => {
    for (const [id, shop] of shops) {
      if (used.has(id)) continue;
      const v = viewpointAt(world, id, shop, d);
      if (typeof v === 'string') continue;
      used.add(id);
      return v;
    }
    throw new Error(`world ${world.seed} (${world.size} m): no storefront left with a viewpoint at ${d} m`);
  });
}
