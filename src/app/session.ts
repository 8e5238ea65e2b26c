/**
 * One demo session: a scenario's live episode, its crowd animation, the splat background around
 * the robot, the map image, and the frame description for the renderer. Simulation glue, no DOM:
 * the app shell (main.ts) calls `tick` and `frame` from its animation loop.
 *
 * Real-time pacing: simulated time follows wall-clock time × `speed`, at most
 * {@link MAX_STEPS_PER_TICK} control steps per animation frame (a slow renderer slows the episode
 * instead of making it jump). Determinism does not depend on pacing: the episode is a function of
 * the scenario, seed and action log only.
 */
import type { EpisodePolicy } from '../sim/episode-contracts';
import type { Scenario } from '../sim/scenario';
import type { Ring, Vec2 } from '../core/geometry2d';
import { FENCE_HEIGHT } from '../bench/blockers';
import { groundHeight } from '../world/queries';
import { renderWorldMap, worldToPixel, type MapImage } from '../world/map-render';
import { modeCamera, type CameraMode, type OrbitControl } from './cameras';
import { CitySplats, type CitySplatsOptions } from './city-splats';
import { CrowdView } from './crowd-view';
import type { Box3 } from './box-pass';
import type { DemoFrame } from './demo-renderer';
import { makeEpisodeFile, type EpisodeFile } from './episode-file';
import { LiveEpisode } from './live-episode';
import type { SplatCloud } from '../splats/splat-cloud';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { embodiedMount } from '../robot/embodiments';
import { DEFAULT_CAMERA_MOUNT } from '../policy/manifest';

/** Most control steps run per animation frame. */
export const MAX_STEPS_PER_TICK = 4;

/** A running demo episode (see the module doc). */
export class DemoSession {
  readonly episode: LiveEpisode;
  readonly crowd: CrowdView;
  readonly city: CitySplats;
  /** Map image of the area around the route (north up). */
  readonly map: MapImage;
  /** Wall-clock time of the last control step, ms. */
  stepMs = 0;
  private simDebt = 0;
  private animTime = 0;
  /** Marker boxes of the scenario's blockers (always standing) and, per closure, of its fences (standing once it is in force). */
  private readonly blockerBoxes: Box3[];
  private readonly closureBoxes: Box3[][];

  /** @param robot the embodiment (the demo's `?robot=` parameter; default the wheeled delivery robot). */
  constructor(readonly scenario: Scenario, readonly seed: number, policy: EpisodePolicy, splatOptions: CitySplatsOptions = {}, readonly robot: RobotSpec = DELIVERY_ROBOT) {
    this.episode = new LiveEpisode(scenario, seed, policy, robot);
    this.crowd = new CrowdView(scenario.pedestrians.length, seed);
    this.city = new CitySplats(this.episode.world.world, splatOptions);
    const r = scenario.robot.route;
    const xs = r.map((p) => p[0]), ys = r.map((p) => p[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const half = Math.max(30, (Math.max(...xs) - Math.min(...xs)) / 2 + 12, (Math.max(...ys) - Math.min(...ys)) / 2 + 12);
    this.map = renderWorldMap(this.episode.world.world, { widthPx: 200, heightPx: 200, bounds: [cx - half, cy - half, cx + half, cy + half], route: r });
    const box = (ring: Ring, height: number) => fenceBox(ring, this.groundZ(ring[0][0], ring[0][1]), height);
    this.blockerBoxes = (scenario.blockers ?? []).map((b) => box(b.polygon as Ring, b.height));
    this.closureBoxes = (this.episode.world.closures?.closures ?? []).map((c) => c.fences.map((f) => box(f, FENCE_HEIGHT)));
  }

  /** Starts the episode (policy reset). */
  start(): Promise<void> {
    return this.episode.start();
  }

  /** Ground height under a point, metres. */
  groundZ = (x: number, y: number): number => groundHeight(this.episode.world.world, x, y);

  /**
   * Advances simulated time by `dtWall` seconds × `speed` (0 pauses), running the control steps due.
   * Returns the number of steps run.
   */
  async tick(dtWall: number, speed: number): Promise<number> {
    const ep = this.episode;
    if (ep.metrics.end !== 'running' || speed <= 0) return 0;
    this.simDebt = Math.min(this.simDebt + dtWall * speed, MAX_STEPS_PER_TICK * ep.controlDt);
    let steps = 0;
    while (this.simDebt >= ep.controlDt && steps < MAX_STEPS_PER_TICK) {
      const t0 = performance.now();
      if (!(await ep.advance())) break;
      this.stepMs = performance.now() - t0;
      this.simDebt -= ep.controlDt;
      steps++;
    }
    return steps;
  }

  /** Runs the episode to its end as fast as possible (no rendering), at most `maxSteps` control steps. */
  async runToEnd(maxSteps = 100_000): Promise<void> {
    for (let i = 0; i < maxSteps && (await this.episode.advance()); i++);
  }

  /** The new splat background when the robot moved into other chunks, else null. */
  splatUpdate(): SplatCloud | null {
    const s = this.episode.state;
    return this.city.update([s.x, s.y]);
  }

  /** The frame to draw: camera of `mode`, animated crowd (advanced by `dtAnim` s), robot and goal boxes. */
  frame(mode: CameraMode, orbit: OrbitControl, width: number, height: number, bodies: boolean, dtAnim: number): DemoFrame {
    const ep = this.episode, s = ep.state;
    const gz = this.groundZ(s.x, s.y);
    this.animTime += dtAnim;
    const crowd = this.crowd.update(dtAnim, ep.pedestrians.discs(), ep.pedestrians.animation(), this.groundZ);
    const spec = ep.spec;
    const c = Math.cos(s.yaw), sn = Math.sin(s.yaw);
    const fx = s.x + spec.footprintOffsetX * c, fy = s.y + spec.footprintOffsetX * sn;
    const failed = ep.metrics.failures.length > 0 && ep.metrics.time - ep.metrics.failures[ep.metrics.failures.length - 1].time < 1;
    const boxes: Box3[] = [];
    if (mode !== 'robot-eye') {
      const body: [number, number, number] = failed ? [0.9, 0.15, 0.1] : [0.95, 0.55, 0.1];
      if (spec.name === 'wheeled') {
        boxes.push({ centre: [fx, fy, gz + 0.3], yaw: s.yaw, halfSize: [spec.length / 2, spec.width / 2, 0.25], color: body });
        boxes.push({ centre: [fx + 0.2 * c, fy + 0.2 * sn, gz + 0.68], yaw: s.yaw, halfSize: [0.08, 0.12, 0.08], color: [0.15, 0.15, 0.18] });
      } else {
        // A legged robot: its footprint up to its camera, and a head box at the camera.
        boxes.push({ centre: [fx, fy, gz + spec.cameraHeight / 2], yaw: s.yaw, halfSize: [spec.length / 2, spec.width / 2, spec.cameraHeight / 2 - 0.04], color: body });
        boxes.push({ centre: [fx + (spec.length / 2 - 0.04) * c, fy + (spec.length / 2 - 0.04) * sn, gz + spec.cameraHeight], yaw: s.yaw, halfSize: [0.05, 0.08, 0.06], color: [0.15, 0.15, 0.18] });
      }
    }
    const [gx, gy] = this.scenario.robot.goal;
    const gzz = this.groundZ(gx, gy);
    boxes.push({ centre: [gx, gy, gzz + 1.2], yaw: 0, halfSize: [0.06, 0.06, 1.2], color: [0.1, 0.8, 0.3] });
    boxes.push({ centre: [gx + 0.25, gy, gzz + 2.2], yaw: 0, halfSize: [0.25, 0.02, 0.18], color: [0.1, 0.8, 0.3] });
    boxes.push(...this.blockerBoxes);
    this.closureBoxes.forEach((fences, i) => ep.closureActive(i) && boxes.push(...fences));
    if (!bodies) boxes.push(...this.crowd.standIns(crowd));
    return { camera: modeCamera(mode, s, gz, orbit, width, height, embodiedMount(spec, DEFAULT_CAMERA_MOUNT)), crowd, bodies, boxes };
  }

  /** The scenario's closure areas (world frame, metres) and whether each is in force, for the minimap. */
  closureAreas(): { area: Ring; active: boolean }[] {
    return (this.episode.world.closures?.closures ?? []).map((c, i) => ({ area: c.area, active: this.episode.closureActive(i) }));
  }

  /** Map pixel of a world point (for the minimap overlay). */
  mapPixel(p: Vec2): Vec2 {
    return worldToPixel(this.map, p);
  }

  /** The episode so far as a recording. */
  recording(): EpisodeFile {
    const ep = this.episode;
    return makeEpisodeFile(this.scenario, this.seed, ep.policy.name, ep.policy.rateHz, ep.actions, this.robot.name);
  }
}

/** Construction orange of the demo's fence boxes. */
const FENCE_BOX_COLOR: [number, number, number] = [1, 0.35, 0.02];

/**
 * The marker box of a fence or blocker: a rectangle ring (its first edge gives the yaw and one
 * side, its second the other) standing on `groundZ`, `height` metres high.
 */
export function fenceBox(ring: Ring, groundZ: number, height: number): Box3 {
  const [a, b, c] = ring;
  const cx = ring.reduce((s, p) => s + p[0], 0) / ring.length, cy = ring.reduce((s, p) => s + p[1], 0) / ring.length;
  const along = Math.hypot(b[0] - a[0], b[1] - a[1]), across = Math.hypot(c[0] - b[0], c[1] - b[1]);
  return { centre: [cx, cy, groundZ + height / 2], yaw: Math.atan2(b[1] - a[1], b[0] - a[0]), halfSize: [along / 2, across / 2, height / 2], color: FENCE_BOX_COLOR };
}
