/**
 * ONNX policies in the live demo: loading a model (the served example, or dropped files) onto the
 * demo's GPUDevice, and {@link CameraPolicy}, which drives a {@link LiveEpisode} from the robot's
 * camera as the benchmark runner does (src/bench/headless-api.ts `runJob`): a {@link RobotCamera}
 * follows the robot and renders the city splats and skinned pedestrians into a GPU texture, which
 * the policy's observation pass reads on the same device (no frame goes through the CPU).
 *
 * The camera is rendered at the robot's state at the start of every control step (the first with
 * no gait advance, later ones advancing the pedestrians' gait by one control period), which is
 * the frame runJob renders after the previous step. Image-goal models get a goal image rendered
 * once per episode from the goal, looking along the route's last segment (no pedestrians).
 */
import { BlockedBackground, scenarioBackground } from '../bench/scenario-background';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import { CAMERA_OVERSAMPLE, CAMERA_VIEW_DISTANCE } from '../bench/headless-api';
import { singleEnvironmentPolicy } from '../policy/episode-adapter';
import { fetchPolicyFiles } from '../policy/load-policy';
import { parsePolicyManifest, type PolicyManifest } from '../policy/manifest';
import { OnnxPolicy } from '../policy/onnx-policy';
import { RobotCamera, type PedestrianView } from '../sensors/robot-camera';
import { MapObservationBatch } from '../sensors/map-observation';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { embodiedMount } from '../robot/embodiments';
import type { VelocityCommand } from '../robot/unicycle';
import type { LiveEpisode } from './live-episode';

/** The example model the policy picker offers (served by Vite from the repository root). */
export const EXAMPLE_ONNX_URLS = { model: '/assets/policies/single-frame/model.onnx', manifest: '/assets/policies/single-frame/model.json' } as const;

/** The models the policy picker offers, by picker value: the untrained example and the trained baseline. */
export const PICKER_ONNX_URLS: Record<string, { model: string; manifest: string }> = {
  'onnx-example': EXAMPLE_ONNX_URLS,
  'onnx-bc-gnm': { model: '/assets/policies/bc-gnm/model.onnx', manifest: '/assets/policies/bc-gnm/model.json' },
};

/** Most pedestrians the demo's robot camera draws (the nearest to the robot). */
export const DEMO_CAMERA_PEDESTRIANS = 24;

/** Loads the model at `modelUrl` with the manifest at `manifestUrl` onto `device`, for the embodiment `robot` (its speed limits scale and clip the model's output). */
export async function loadOnnxFromUrls(device: GPUDevice, modelUrl: string, manifestUrl: string, robot: RobotSpec = DELIVERY_ROBOT): Promise<OnnxPolicy> {
  const files = await fetchPolicyFiles(modelUrl, manifestUrl);
  return OnnxPolicy.create(device, { model: files.model, manifest: files.manifest, modelFile: files.modelFile, robot });
}

/**
 * Loads dropped model bytes with their manifest (JSON text or an already validated manifest), for
 * the embodiment `robot` (default the wheeled delivery robot).
 *
 * @throws ManifestError `manifest: field: problem`; Error `model: not a loadable ONNX model: …`;
 *   ModelMismatchError naming each input/output that does not match the manifest.
 */
export async function loadOnnxFromBytes(device: GPUDevice, model: Uint8Array, modelFile: string, manifest: string | PolicyManifest, manifestFile: string, robot: RobotSpec = DELIVERY_ROBOT): Promise<OnnxPolicy> {
  const m = typeof manifest === 'string' ? parsePolicyManifest(manifest, manifestFile) : manifest;
  return OnnxPolicy.create(device, { model, manifest: m, modelFile, robot });
}

/**
 * An {@link OnnxPolicy} (shared between episodes; the caller owns it) driving one live episode
 * from its own robot camera. Create, {@link attach} to the episode, then start the episode.
 */
export class CameraPolicy implements EpisodePolicy {
  readonly name: string;
  readonly rateHz: number;
  private camera: RobotCamera | null = null;
  private goalTexture: GPUTexture | null = null;
  private episode: LiveEpisode | null = null;
  private readonly adapter: ReturnType<typeof singleEnvironmentPolicy>;
  private rendered = false;
  private disposed = false;
  /** The map observation, for models with a map input. */
  private maps: MapObservationBatch | null = null;

  constructor(private readonly device: GPUDevice, readonly onnx: OnnxPolicy, private readonly viewDistance = CAMERA_VIEW_DISTANCE) {
    this.name = onnx.name;
    this.rateHz = onnx.rateHz;
    this.adapter = singleEnvironmentPolicy(onnx, {
      current: () => this.camera!.target.color,
      goalImage: onnx.goal === 'image' ? () => this.goalTexture! : undefined,
      map: onnx.manifest.map ? (obs) => this.maps!.fill([obs.state]) : undefined,
    });
  }

  /** Creates the camera for `episode`'s world (and the goal image for image-goal models). */
  async attach(episode: LiveEpisode): Promise<void> {
    const { width, height } = this.onnx.manifest.image;
    this.episode = episode;
    // Procedural and OSM worlds: the benchmark camera's background (blockers' fences, closure fences once in force).
    const background = episode.scenario.world.kind !== 'scene' ? scenarioBackground(episode.scenario, episode.world) : undefined;
    if (background instanceof BlockedBackground) background.showClosures((k) => episode.closureActive(k));
    const spec = this.onnx.manifest.map;
    if (spec) {
      this.maps ??= new MapObservationBatch(spec, 1);
      this.maps.load(0, episode.world.world, episode.scenario.robot.route);
    }
    this.camera = await RobotCamera.create(this.device, {
      // The episode's embodiment: its camera height and pitch (legged robots) and its gait's camera motion.
      world: episode.world.world, background, mount: embodiedMount(episode.spec, this.onnx.camera), robot: episode.spec, width: width * CAMERA_OVERSAMPLE, height: height * CAMERA_OVERSAMPLE,
      viewDistance: this.viewDistance, maxPedestrians: DEMO_CAMERA_PEDESTRIANS, seed: episode.seed,
      // The scenario's time of day and weather, as the benchmark's camera sees them.
      conditions: episode.scenario.conditions,
    });
    if (this.onnx.goal === 'image') {
      const route = episode.scenario.robot.route;
      const [gx, gy] = episode.scenario.robot.goal;
      const [ax, ay] = route[Math.max(0, route.length - 2)];
      const yaw = route.length > 1 ? Math.atan2(gy - ay, gx - ax) : episode.scenario.robot.start[2];
      await this.camera.render({ x: gx, y: gy, yaw }, [], 0);
      const t = this.camera.target.color;
      this.goalTexture = this.device.createTexture({ label: 'CameraPolicy.goal', size: [t.width, t.height], format: t.format, usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING });
      const enc = this.device.createCommandEncoder({ label: 'CameraPolicy.goalCopy' });
      enc.copyTextureToTexture({ texture: t }, { texture: this.goalTexture }, [t.width, t.height]);
      this.device.queue.submit([enc.finish()]);
    }
  }

  /** The latest robot-eye frame (rgba16float, display-encoded), null before the first step. */
  get frame(): GPUTexture | null {
    return this.rendered ? this.camera?.target.color ?? null : null;
  }

  /** Waypoints (robot frame, m) of the last prediction, when the model predicts waypoints. */
  get lastWaypoints(): Float32Array | undefined {
    return this.adapter.lastWaypoints;
  }

  async reset(seed: number): Promise<void> {
    this.rendered = false;
    await this.adapter.reset(seed);
  }

  async act(obs: Observation): Promise<VelocityCommand> {
    if (this.disposed) throw new Error(`${this.name}: act after dispose`);
    if (!this.camera || !this.episode) throw new Error(`${this.name}: CameraPolicy.act before attach`);
    await this.camera.render(obs.state, this.pedestrianViews(obs), this.rendered ? 1 / this.rateHz : 0);
    this.rendered = true;
    return this.adapter.act(obs);
  }

  /** The nearest pedestrians, as the camera draws them. */
  private pedestrianViews(obs: Observation): PedestrianView[] {
    const peds = this.episode!.pedestrians;
    const anim = peds.animation();
    const { x, y } = obs.state;
    const views = peds.discs().map((d, i) => ({ x: d.x, y: d.y, heading: anim[i].heading, walkSpeed: anim[i].walkSpeed, gesture: anim[i].gesture, d: Math.hypot(d.x - x, d.y - y) }));
    if (views.length > DEMO_CAMERA_PEDESTRIANS) views.sort((a, b) => a.d - b.d);
    return views.slice(0, DEMO_CAMERA_PEDESTRIANS);
  }

  /** Frees the camera (not the shared OnnxPolicy). Call when no step is in flight. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.camera?.destroy();
    this.goalTexture?.destroy();
    this.camera = null;
  }
}
