/**
 * The default robot view of a world: on a sidewalk, looking along it, at robot camera height.
 */
import type { PinholeCamera } from '../../gpu/camera';
import type { Vec2 } from '../geometry';
import { groundHeight, isWalkable, zoneAt } from '../queries';
import type { World } from '../world';

/** Default camera height above the ground, metres (a delivery robot's camera). */
export const ROBOT_CAMERA_HEIGHT = 0.8;

/** Options of {@link defaultWorldCamera}. */
export interface DefaultCameraOptions {
  widthPx: number;
  heightPx: number;
  /** Vertical field of view, degrees (default 60). */
  fovYDeg?: number;
  /** Camera height above the ground, metres (default {@link ROBOT_CAMERA_HEIGHT}). */
  height?: number;
  /** Ground point (metres) near which to stand (default the world's centre). */
  near?: Vec2;
}

/**
 * A camera on the sidewalk: the navigation-graph node on sidewalk ground closest to `near` that has a sidewalk edge
 * along which the ground stays walkable for 12 m; the eye is `height` metres above the ground there,
 * looking 10 m along the edge and slightly down (0.25 m drop over 10 m). World frame, Z up.
 *
 * @throws Error when the world's navigation graph has no sidewalk edge.
 */
export function defaultWorldCamera(world: World, opts: DefaultCameraOptions): PinholeCamera {
  const c = opts.near ?? [(world.bounds[0] + world.bounds[2]) / 2, (world.bounds[1] + world.bounds[3]) / 2];
  const h = opts.height ?? ROBOT_CAMERA_HEIGHT;
  const nodes = world.nav.nodes;
  const adj: number[][] = nodes.map(() => []);
  world.nav.edges.forEach((e) => {
    if (e.kind === 'sidewalk') { adj[e.a].push(e.b); adj[e.b].push(e.a); }
  });
  const order = nodes.map((_, i) => i).filter((i) => adj[i].length > 0 && zoneAt(world, nodes[i][0], nodes[i][1]) === 'sidewalk');
  if (order.length === 0) throw new Error(`defaultWorldCamera: world ${world.seed} has no sidewalk navigation edge`);
  order.sort((a, b) => Math.hypot(nodes[a][0] - c[0], nodes[a][1] - c[1]) - Math.hypot(nodes[b][0] - c[0], nodes[b][1] - c[1]) || a - b);
  let pick: { p: Vec2; d: Vec2 } | null = null;
  for (const i of order.slice(0, 400)) {
    for (const j of adj[i]) {
      const p = nodes[i];
      const l = Math.hypot(nodes[j][0] - p[0], nodes[j][1] - p[1]);
      const d: Vec2 = [(nodes[j][0] - p[0]) / l, (nodes[j][1] - p[1]) / l];
      let ok = true;
      for (let s = 1; s <= 12 && ok; s += 1) ok = isWalkable(world, p[0] + d[0] * s, p[1] + d[1] * s);
      if (ok) { pick = { p, d }; break; }
    }
    if (pick) break;
  }
  if (!pick) {
    const i = order[0], j = adj[i][0];
    const l = Math.hypot(nodes[j][0] - nodes[i][0], nodes[j][1] - nodes[i][1]);
    pick = { p: nodes[i], d: [(nodes[j][0] - nodes[i][0]) / l, (nodes[j][1] - nodes[i][1]) / l] };
  }
  const z = groundHeight(world, pick.p[0], pick.p[1]) + h;
  return {
    eye: [pick.p[0], pick.p[1], z],
    target: [pick.p[0] + pick.d[0] * 10, pick.p[1] + pick.d[1] * 10, z - 0.25],
    up: [0, 0, 1],
    fovYDeg: opts.fovYDeg ?? 60,
    width: opts.widthPx,
    height: opts.heightPx,
    near: 0.05,
    far: 300,
  };
}
