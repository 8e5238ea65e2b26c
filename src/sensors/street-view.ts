/**
 * A still view of the default city with walking pedestrians (`npm run render -- --world SEED
 * --pedestrians N`): pedestrians are placed on sidewalk waypoints of the navigation graph in front
 * of the camera, heading along a graph edge, mid-stride; pedestrians placed at chosen spots
 * (`--pedestrian-at`) stand there; then the robot camera draws them and the city's splats.
 */
import { createRng } from '../core/random';
import type { PinholeCamera } from '../gpu/camera';
import type { FramePedestrians } from '../gpu/view-session';
import { readTexture } from '../gpu/readback';
import type { World } from '../world/world';
import { RobotCamera, type PedestrianView } from './robot-camera';
import type { Conditions } from '../world/conditions';
import type { SplatBackground } from '../splats/splat-background';

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

/** A pedestrian placed at a chosen spot (`npm run render -- --pedestrian-at x,y[,heading]`), world frame. */
export interface PlacedPedestrian {
  x: number;
  y: number;
  /** Radians from +x, counter-clockwise; default: facing the camera's eye. */
  heading?: number;
}

/** Options of {@link StreetView.create}. */
export interface StreetViewOptions {
  world: World;
  /** The first frame's camera: the walking pedestrians are placed in its view, placed ones face its eye. */
  camera: PinholeCamera;
  /** Walking pedestrians placed on sidewalk waypoints in view ({@link pedestriansInView}). */
  count: number;
  /** Standing pedestrians at chosen spots (drawn first, so their looks do not depend on `count`). */
  placed?: readonly PlacedPedestrian[];
  /** Room for pedestrians given frame by frame ({@link StreetView.render}'s `frame`), at least the placed and walking ones (default: those). */
  capacity?: number;
  seed: number;
  viewDistance: number;
  /** Background splats (default: the world's baked chunks). */
  background?: SplatBackground;
  /** Time of day and weather (default: the default look). */
  conditions?: Conditions;
}

/**
 * The robot camera's view of a world with pedestrians, kept across frames (`npm run render`: one
 * frame or an orbit): the camera's passes are created once; the first frame advances the walkers'
 * gait one second (from standing, so legs are mid-stride), later frames show the same moment.
 */
export class StreetView {
  private rendered = false;

  private constructor(private readonly device: GPUDevice, private readonly rc: RobotCamera, readonly pedestrians: readonly PedestrianView[]) {}

  static async create(device: GPUDevice, o: StreetViewOptions): Promise<StreetView> {
    const [ex, ey] = o.camera.eye;
    const placed: PedestrianView[] = (o.placed ?? []).map((p) => ({ x: p.x, y: p.y, heading: p.heading ?? Math.atan2(ey - p.y, ex - p.x), walkSpeed: 0, gesture: 'none' }));
    const walkers = pedestriansInView(o.world, o.camera, o.count, o.seed).filter((w) => !placed.some((p) => Math.hypot(p.x - w.x, p.y - w.y) < 1));
    const peds = [...placed, ...walkers];
    const rc = await RobotCamera.create(device, {
      world: o.world, mount: { height: 0.8, pitchDeg: 0, fovYDeg: o.camera.fovYDeg }, width: o.camera.width, height: o.camera.height,
      viewDistance: o.viewDistance, maxPedestrians: Math.max(1, peds.length, o.capacity ?? 0), seed: o.seed, conditions: o.conditions, background: o.background,
    });
    return new StreetView(device, rc, peds);
  }

  /**
   * Renders the view from `camera` (of the first frame's size); returns linear RGBA floats. With
   * `frame`, its pedestrians (up to the capacity, not gesturing) replace the view's own, their gaits
   * advanced by its `dt`.
   */
  async render(camera: PinholeCamera, frame?: FramePedestrians): Promise<Float32Array> {
    if (frame) await this.rc.renderView(camera, frame.pedestrians.map((p) => ({ x: p.x, y: p.y, heading: p.heading, walkSpeed: p.walkSpeed, gesture: 'none' as const })), frame.dt);
    else await this.rc.renderView(camera, this.pedestrians, this.rendered ? 0 : 1);
    this.rendered = true;
    return readTexture(this.device, this.rc.target.color);
  }

  destroy(): void {
    this.rc.destroy();
  }
}
