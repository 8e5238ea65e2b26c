/**
 * A still view of the default city with walking pedestrians (`npm run render -- --world SEED
 * --pedestrians N`): pedestrians are placed on sidewalk waypoints of the navigation graph in front
 * of the camera, heading along a graph edge, mid-stride; then the robot camera draws them and the
 * city's splats.
 */
import { createRng } from '../core/random';
import type { PinholeCamera } from '../gpu/camera';
import { readTexture } from '../gpu/readback';
import type { World } from '../world/world';
import { RobotCamera, type PedestrianView } from './robot-camera';
import type { Conditions } from '../world/conditions';

/**
 * Up to `count` pedestrians on waypoints 3–25 m in front of the camera within its horizontal field
 * of view, at least 1 m apart, each heading along one of its waypoint's edges at 1.1–1.65 m/s.
 */
export function pedestriansInView(world: World, camera: PinholeCamera, count: number, seed: number): PedestrianView[] {
  const rng = createRng(seed).fork('street-view');
  const [ex, ey] = camera.eye;
  const fx = camera.target[0] - ex;
  const fy = camera.target[1] - ey;
  const heading = Math.atan2(fy, fx);
  const halfFov = Math.atan(Math.tan((camera.fovYDeg * Math.PI) / 360) * (camera.width / camera.height)) * 0.85;
  const neighbours = new Map<number, number[]>();
  for (const e of world.nav.edges) {
    if (e.kind !== 'sidewalk') continue;
    neighbours.set(e.a, [...(neighbours.get(e.a) ?? []), e.b]);
    neighbours.set(e.b, [...(neighbours.get(e.b) ?? []), e.a]);
  }
  const candidates = world.nav.nodes
    .map((p, i) => ({ p, i, d: Math.hypot(p[0] - ex, p[1] - ey), a: Math.atan2(p[1] - ey, p[0] - ex) - heading }))
    .filter(({ i, d, a }) => neighbours.has(i) && d > 3 && d < 25 && Math.abs(Math.atan2(Math.sin(a), Math.cos(a))) < halfFov);
  const out: PedestrianView[] = [];
  for (let tries = 0; out.length < count && tries < count * 20 && candidates.length > 0; tries++) {
    const c = rng.pick(candidates);
    const jitter = [rng.range(-0.4, 0.4), rng.range(-0.4, 0.4)];
    const x = c.p[0] + jitter[0];
    const y = c.p[1] + jitter[1];
    if (out.some((q) => Math.hypot(q.x - x, q.y - y) < 1)) continue;
    const to = world.nav.nodes[rng.pick(neighbours.get(c.i)!)];
    out.push({ x, y, heading: Math.atan2(to[1] - c.p[1], to[0] - c.p[0]), walkSpeed: rng.range(1.1, 1.65), gesture: 'none' });
  }
  return out;
}

/**
 * Renders `camera`'s view of `world` with `count` walking pedestrians (0: none) under `conditions`
 * (default: the default look); returns linear RGBA floats.
 */
export async function renderStreetView(device: GPUDevice, world: World, camera: PinholeCamera, count: number, seed: number, viewDistance: number, conditions?: Conditions): Promise<{ pixels: Float32Array; placed: number }> {
  const peds = pedestriansInView(world, camera, count, seed);
  const rc = await RobotCamera.create(device, { world, mount: { height: 0.8, pitchDeg: 0, fovYDeg: camera.fovYDeg }, width: camera.width, height: camera.height, viewDistance, maxPedestrians: Math.max(1, peds.length), seed, conditions });
  try {
    // One second of gait (from standing) so legs are mid-stride.
    await rc.renderView(camera, peds, 1);
    return { pixels: await readTexture(device, rc.target.color), placed: peds.length };
  } finally {
    rc.destroy();
  }
}
