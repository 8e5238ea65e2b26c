/**
 * The robot's monocular RGB camera: renders what the robot sees — the baked city's splats within
 * view distance and the skinned pedestrians — into a GPU texture that the policy's observation
 * pass reads directly (no readback). Pedestrians are drawn first into colour and depth; the splat
 * pass then composites around them; the clear colour is a sky tint.
 *
 * Mount (from the policy manifest): height above the ground under the robot, metres; pitch,
 * degrees (positive looks down); vertical field of view, degrees. The camera sits over the robot's
 * base looking along its heading (robot frame x forward, world Z up).
 *
 * Conditions (time of day, fog, rain; src/world/conditions.ts) shade the splats and pedestrians, set
 * the sky behind them and, in rain, blend falling streaks over the frame (rain-streaks.ts). Without
 * conditions the camera draws the look of earlier versions (neutral splats, a fixed afternoon sun on
 * the pedestrians, {@link SKY_CLEAR}), which the trained baselines were trained on.
 *
 * The background splats come from a {@link SplatBackground} (default: the world's baked chunks).
 * {@link RobotCamera.encode} records a view into the caller's command encoder, so several cameras
 * (B environments, see camera-batch.ts) render in one submission; each camera owns its uniforms,
 * sort buffers and target, so their views do not overwrite each other before the submit.
 */
import { cameraModel, type PinholeCamera } from '../gpu/camera';
import { submit } from '../gpu/gpu-stats';
import { makeHumanBodies, makeHumanMaterial, MAKEHUMAN_LOD_DISTANCES } from '../humans/makehuman-set';
import { PedestrianLodGroup } from '../humans/pedestrian-lod';
import { randomAppearance, type PedestrianAppearance, type PedestrianPlacement } from '../humans/pedestrian-appearance';
import { PedestrianMotion } from '../humans/motion/pedestrian-motion';
import { POSE_FLOATS, type MotionState } from '../humans/motion/procedural-gait';
import { skeletonFromModel, type MotionSkeleton } from '../humans/motion/skeleton';
import type { BodyModel } from '../humans/body-model';
import { deriveSeed } from '../core/random';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from '../splats/offscreen';
import { SplatRenderer } from '../splats/splat-renderer';
import type { SplatBackground } from '../splats/splat-background';
import { SplatSceneBuffers } from '../splats/splat-scene-buffers';
import { ChunkedWorld } from '../world/bake/chunks';
import { groundHeight } from '../world/queries';
import type { World } from '../world/world';
import type { RobotState } from '../robot/unicycle';
import type { RobotSpec } from '../robot/robot-spec';
import { GaitOdometer, gaitCameraPose, gaitOffset, type GaitModel } from '../robot/gait';
import type { PedestrianGesture } from '../sim/episode-contracts';
import { conditionsShading, type Conditions, type ConditionsShading } from '../world/conditions';
import { DEFAULT_PEDESTRIAN_LIGHTING } from '../humans/pedestrian-appearance';
import { NEUTRAL_SPLAT_SHADING } from '../splats/splat-shading';
import { RainPass } from './rain-streaks';

/** Where the camera is on the robot. */
export interface CameraMount {
  height: number;
  pitchDeg: number;
  fovYDeg: number;
}

/** A pedestrian as the camera draws it: ground position, heading and what it is doing. */
export interface PedestrianView {
  x: number;
  y: number;
  heading: number;
  walkSpeed: number;
  gesture: PedestrianGesture;
}

export interface RobotCameraOptions {
  world: World;
  mount: CameraMount;
  width: number;
  height: number;
  /** Splat chunks within this distance are drawn, metres. */
  viewDistance?: number;
  /** Most pedestrians drawn. */
  maxPedestrians?: number;
  /** Seeds pedestrian appearance and gait phase. */
  seed?: number;
  /**
   * One pedestrian body for every walker (e.g. the built-in procedural body); default the shipped
   * MakeHuman set with its distance LODs (makehuman-set.ts: LOD0 nearer than 7 m, LOD1 to 15 m, LOD2 beyond).
   */
  body?: BodyModel;
  /** Background splats (default `new ChunkedWorld(world)`); e.g. a scanned scene placed in the world frame. */
  background?: SplatBackground;
  /** Time of day and weather (default none: the look of earlier versions, see the module comment). */
  conditions?: Conditions;
  /**
   * The embodiment whose gait moves the camera (robot/gait.ts: bob, sway, roll and pitch by distance
   * travelled between rendered views); default none, as for the wheeled robot: the camera rides level.
   * Its height and pitch are `mount`'s (robot/embodiments.ts: embodiedMount).
   */
  robot?: RobotSpec;
}

/** Sky tint behind the splats (linear RGB). */
export const SKY_CLEAR: GPUColor = { r: 0.62, g: 0.74, b: 0.88, a: 1 };

export class RobotCamera {
  readonly target: OffscreenTarget;
  private scene: SplatSceneBuffers | null = null;
  private readonly motions: PedestrianMotion[] = [];
  private readonly appearances: PedestrianAppearance[] = [];
  private readonly poses: Float32Array;
  private readonly placements: PedestrianPlacement[] = [];
  private readonly skeleton: MotionSkeleton;
  private shading: ConditionsShading | null = null;
  private clearColor: GPUColor = SKY_CLEAR;
  /** Seconds of view time since the last {@link resetPedestrians} (the rain's time). */
  private elapsed = 0;
  /** The gait moving the camera and the distance walked this episode (null: the camera rides level). */
  private walking: { gait: GaitModel; odometer: GaitOdometer } | null = null;

  private constructor(
    private readonly device: GPUDevice,
    private readonly options: Required<Omit<RobotCameraOptions, 'body' | 'background' | 'conditions' | 'robot'>> & { background: SplatBackground },
    private readonly splats: SplatRenderer,
    private readonly people: PedestrianLodGroup,
    private readonly rain: RainPass,
  ) {
    this.target = new OffscreenTarget(device, options.width, options.height);
    this.poses = new Float32Array(options.maxPedestrians * POSE_FLOATS);
    this.skeleton = skeletonFromModel(people.models[0]);
  }

  static async create(device: GPUDevice, opts: RobotCameraOptions): Promise<RobotCamera> {
    const { body, ...rest } = opts;
    const options = { viewDistance: 30, maxPedestrians: 16, seed: 1, ...rest, background: opts.background ?? new ChunkedWorld(opts.world) };
    const models = body ? [body] : makeHumanBodies();
    const [splats, people, rain] = await Promise.all([
      SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT }),
      PedestrianLodGroup.create(device, {
        colorFormat: OFFSCREEN_COLOR_FORMAT,
        depthFormat: OFFSCREEN_DEPTH_FORMAT,
        models,
        materials: body ? undefined : models.map((_, k) => makeHumanMaterial(k)),
        switchDistances: body ? [] : MAKEHUMAN_LOD_DISTANCES,
        capacity: options.maxPedestrians,
        label: 'RobotCamera.pedestrians',
      }),
      RainPass.create(device, OFFSCREEN_COLOR_FORMAT),
    ]);
    const camera = new RobotCamera(device, options, splats, people, rain);
    camera.setConditions(opts.conditions);
    camera.setRobot(opts.robot);
    return camera;
  }

  /**
   * Sets the time of day and weather of the next views (undefined: the look of earlier versions).
   *
   * @throws RangeError for a bad time or weather (conditions.ts: conditionsShading).
   */
  setConditions(conditions: Conditions | undefined): void {
    this.shading = conditions ? conditionsShading(conditions) : null;
    this.splats.shading = this.shading?.splats ?? NEUTRAL_SPLAT_SHADING;
    this.people.setLighting(this.shading?.pedestrians ?? DEFAULT_PEDESTRIAN_LIGHTING);
    const sky = this.shading?.sky;
    this.clearColor = sky ? { r: sky[0], g: sky[1], b: sky[2], a: 1 } : SKY_CLEAR;
  }

  /** The conditions of the next views (undefined: none set). */
  get conditions(): Conditions | undefined {
    return this.shading?.conditions;
  }

  /** The world the camera is in (ground heights). */
  get world(): World {
    return this.options.world;
  }

  /** Moves the camera to another world (its background: default the world's baked chunks). */
  setWorld(world: World, background: SplatBackground = new ChunkedWorld(world)): void {
    Object.assign(this.options, { world, background });
    this.scene?.destroy();
    this.scene = null;
  }

  /**
   * Forgets the pedestrians' gaits and looks and reseeds them from `seed` (a new episode: what the
   * camera shows then depends only on that episode, not on the ones rendered before).
   */
  resetPedestrians(seed: number): void {
    this.options.seed = seed;
    this.elapsed = 0;
    this.walking?.odometer.reset();
    this.motions.length = 0;
    this.appearances.length = 0;
  }

  /**
   * Sets the embodiment whose gait moves the camera (undefined, or a robot without a gait: the camera
   * rides level); the distance walked starts again from 0.
   */
  setRobot(robot: RobotSpec | undefined): void {
    this.walking = robot?.gait ? { gait: robot.gait, odometer: new GaitOdometer(robot.maxLinearSpeed) } : null;
  }

  /**
   * The pinhole camera for a robot state (world frame): the mount over the base, moved by the gait
   * (when walking) at the distance walked so far this episode.
   */
  cameraFor(state: Pick<RobotState, 'x' | 'y' | 'yaw'>): PinholeCamera {
    const { mount, width, height, world } = this.options;
    if (this.walking) {
      const { gait, odometer } = this.walking;
      const pose = gaitCameraPose(state.x, state.y, state.yaw, groundHeight(world, state.x, state.y), mount.height, mount.pitchDeg, gaitOffset(gait, odometer.distance, odometer.speed));
      return { ...pose, fovYDeg: mount.fovYDeg, width, height, near: 0.05, far: this.options.viewDistance + 40 };
    }
    const z = groundHeight(world, state.x, state.y) + mount.height;
    const pitch = (mount.pitchDeg * Math.PI) / 180;
    const c = Math.cos(state.yaw);
    const s = Math.sin(state.yaw);
    return {
      eye: [state.x, state.y, z],
      target: [state.x + c * Math.cos(pitch), state.y + s * Math.cos(pitch), z - Math.sin(pitch)],
      up: [0, 0, 1],
      fovYDeg: mount.fovYDeg,
      width,
      height,
      near: 0.05,
      far: this.options.viewDistance + 40,
    };
  }

  /**
   * Renders the view from `state` with `pedestrians` (advancing their gait by `dt` seconds) into
   * {@link target}; resolves when the GPU work is submitted (not finished).
   */
  async render(state: Pick<RobotState, 'x' | 'y' | 'yaw'>, pedestrians: readonly PedestrianView[], dt: number): Promise<void> {
    this.walking?.odometer.advance(state.x, state.y, dt);
    return this.renderView(this.cameraFor(state), pedestrians, dt);
  }

  /** As {@link render}, from any pinhole camera of the target's size (e.g. a free view of the city). */
  async renderView(pinhole: PinholeCamera, pedestrians: readonly PedestrianView[], dt: number): Promise<void> {
    const encoder = this.device.createCommandEncoder({ label: 'RobotCamera.render' });
    await this.encodeView(encoder, pinhole, pedestrians, dt);
    submit(this.device, encoder);
  }

  /**
   * As {@link render}, recorded into `encoder` (submit it before this camera's next encode: the
   * view's uniforms and pedestrians are written with `queue.writeBuffer` now).
   */
  async encode(encoder: GPUCommandEncoder, state: Pick<RobotState, 'x' | 'y' | 'yaw'>, pedestrians: readonly PedestrianView[], dt: number): Promise<void> {
    this.walking?.odometer.advance(state.x, state.y, dt);
    return this.encodeView(encoder, this.cameraFor(state), pedestrians, dt);
  }

  /** As {@link renderView}, recorded into `encoder` (see {@link encode}). */
  async encodeView(encoder: GPUCommandEncoder, pinhole: PinholeCamera, pedestrians: readonly PedestrianView[], dt: number): Promise<void> {
    const view = this.options.background.view(pinhole, { viewDistance: this.options.viewDistance });
    if (view.changed || !this.scene) {
      this.scene?.destroy();
      this.scene = new SplatSceneBuffers(this.device, view.cloud, 'city view', 'RobotCamera.scene');
      await this.splats.setScene(this.scene);
    }
    const n = Math.min(pedestrians.length, this.options.maxPedestrians);
    const { world, seed } = this.options;
    this.elapsed += dt;
    for (let i = 0; i < n; i++) {
      const p = pedestrians[i];
      if (!this.motions[i]) {
        this.motions[i] = new PedestrianMotion(this.skeleton, deriveSeed(seed, `gait${i}`), { x: p.x, y: p.y, yaw: p.heading });
        // The walker's look and body shape (β from its appearance; the LOD group re-shapes only when a
        // walker changes LOD) are its own at every distance.
        this.appearances[i] = randomAppearance(deriveSeed(seed, `look${i}`));
      }
      const m = this.motions[i];
      const motion: MotionState = { walkSpeed: p.walkSpeed, turnRate: 0, gesture: p.gesture, idle: 'stand' };
      m.update(dt, motion);
      // The crowd simulation owns where pedestrians are; the gait only animates the limbs.
      Object.assign(m.root, { x: p.x, y: p.y, yaw: p.heading });
      m.pose(this.poses, i * POSE_FLOATS);
      this.placements[i] = { position: [p.x, p.y, groundHeight(world, p.x, p.y)], yaw: p.heading };
    }
    const cam = cameraModel(pinhole);
    const color = this.target.color.createView();
    const depth = this.target.depth.createView();
    this.placements.length = n;
    this.people.setFrame(pinhole.eye, this.placements, this.appearances.slice(0, n), this.poses);
    this.people.encode(encoder, cam, { color, depth, clearColor: this.clearColor });
    this.splats.encode(encoder, cam, { color, depth, clearColor: null });
    const shading = this.shading;
    if (shading && shading.rain > 0) this.rain.encode(encoder, color, this.options.height, this.elapsed, shading.rain, shading.rainColor);
  }

  destroy(): void {
    this.scene?.destroy();
    this.splats.destroy();
    this.people.destroy();
    this.rain.destroy();
    this.target.destroy();
  }
}
