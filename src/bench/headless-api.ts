/**
 * Browser side of `npm run bench`: runs benchmark episodes in the page and hands each finished
 * episode to the Node side at once (`window.curbsideEpisodeDone`, exposed by src/cli/bench.ts),
 * which appends it to the results file.
 */
import { acquireDevice, describeAdapter } from '../gpu/device';
import { gpuStats, type GpuStats } from '../gpu/gpu-stats';
import { CpuPedestrianBatch, type PedestrianBatch, type PedestrianSlotView } from '../crowd/pedestrian-batch';
import { GpuPedestrianBatch } from '../crowd/gpu-pedestrian-batch';
import { loadSplatFile } from '../splats/formats';
import type { SplatBackground } from '../splats/splat-background';
import type { SplatCloud } from '../splats/splat-cloud';
import { sceneTransform, transformSplatCloud } from '../world/bake/scene-file';
import { fetchPolicyFiles } from '../policy/load-policy';
import { OnnxPolicy } from '../policy/onnx-policy';
import { RemotePolicy } from '../policy/remote-policy';
import type { PolicyManifest } from '../policy/manifest';
import type { Policy } from '../policy/policy';
import { batchedEnvironmentPolicy } from '../policy/episode-adapter';
import { ExpertPolicy } from '../policy/expert-policy';
import { CommandPerturbation } from '../policy/command-perturbation';
import { deriveSeed } from '../core/random';
import { CameraBatch, type CameraSlotView } from '../sensors/camera-batch';
import { MapObservationBatch } from '../sensors/map-observation';
import { DEFAULT_CAMERA_MOUNT } from '../policy/manifest';
import { readTextureBytes } from '../gpu/readback';
import { toBase64 } from '../core/bytes';
import type { PedestrianView } from '../sensors/robot-camera';
import type { RobotName, RobotSpec } from '../robot/robot-spec';
import { embodiedMount, robotSpec } from '../robot/embodiments';
import { CROWD_DT, type EpisodeRun } from './episode';
import { perSlotPolicy, runEpisodeBatch, type BatchEpisodePolicy } from './episode-batch';
import { encodeJpeg, FrameRing } from './frame-strip';
import { policyName, type EpisodeRecord } from './episode-record';
import type { BenchJob } from './plan';
import { BlockedBackground, StaticBackground, scenarioBackground } from './scenario-background';
import { pedestrianObstacles, registerScene, scenarioWorld, type ScenarioWorld } from './scenario-world';
import { pageOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';

export interface BenchRequest {
  jobs: BenchJob[];
  /** B: environments per policy stepped in lockstep (one camera submission and one policy step for all B per control step). */
  envs: number;
  /** URLs of served ONNX models and manifests, by `--policy` value. */
  modelFiles: Record<string, { model: string; manifest: string }>;
  /**
   * Relays of remote policies, by `--policy` value (`remote` or ws://…): base URL and session token
   * (the Node side started the relay and waited for the model's spec).
   */
  remotes?: Record<string, { url: string; token: string }>;
  /** Pedestrian backend: the WGSL batch (`gpu`) or the TypeScript reference (`cpu`). */
  crowd: 'gpu' | 'cpu';
  /**
   * Scene files the jobs' scanned-scene worlds use, by their `world.path`: the file's text and the
   * URL of its served capture (read only by camera-fed policies).
   */
  scenes?: Record<string, { text: string; capture: string }>;
  /**
   * The OSM worlds the jobs use, by world key (src/bench/scenario-world.ts: worldKey): the scenario's
   * world and the Curbside OSM extract (JSON text) of its selection, which the page builds it from.
   */
  osm?: Record<string, { ref: OsmWorldRef; extract: string }>;
  /** Also return the run's GPU work counters ({@link BenchResult.stats}; `npm run bench -- --stats`). */
  stats?: boolean;
  /**
   * The embodiment (`--robot`, robot/embodiments.ts; default wheeled): its limits drive the kinematics
   * and the expert, its footprint the failure checks, its camera height, pitch and gait the robot
   * camera; records of a robot other than the wheeled one carry its name in `robot`.
   */
  robot?: RobotName;
  /**
   * Dataset recording (`npm run dataset`): the expert's episodes also render the robot camera
   * (default mount) every control step and hand each frame, as a JPEG with the robot's pose, to
   * `window.curbsideFrame` ({@link RecordedFrame}) before acting.
   */
  record?: {
    width: number;
    height: number;
    quality: number;
    /** Inject turn-rate bursts into the expert's commands (command-perturbation.ts), flagged per frame. */
    perturb?: boolean;
  };
}

/** One recorded robot-camera frame (`BenchRequest.record`). */
export interface RecordedFrame {
  scenarioId: string;
  run: number;
  /** Control step of the episode, from 0. */
  step: number;
  /** Episode time, s; the robot's pose then (world frame, metres, radians). */
  time: number;
  x: number;
  y: number;
  yaw: number;
  /** The JPEG, base64. */
  jpeg: string;
  /** The command after this frame carries a perturbation burst (`record.perturb`). */
  perturbed: boolean;
}

/** What the GPU did over a whole `runBenchEpisodes` run (one device), with `BenchRequest.stats`. */
export interface BenchStats extends GpuStats {
  /** Control steps run: lockstep steps of B environments (policy acts), summed over the policies. */
  controlSteps: number;
}

/** The result of {@link runBenchEpisodes}. */
export interface BenchResult {
  /** The WebGPU adapter, in words. */
  adapter: string;
  /** The run's GPU work counters (gpu-stats.ts), when the request asked for them. */
  stats?: BenchStats;
}


/** Robot-camera render size relative to the policy's input (the observation pass resizes). */
export const CAMERA_OVERSAMPLE = 2;
/** Splat chunks within this distance are drawn by the robot camera, metres. */
export const CAMERA_VIEW_DISTANCE = 15;

/** Per-run state: the device, the request, the embodiment, the scanned-scene captures (world frame) by scene path, and the control steps run. */
interface Session {
  device: GPUDevice;
  req: BenchRequest;
  robot: RobotSpec;
  captures: Map<string, Promise<SplatCloud>>;
  controlSteps: number;
}

/** A camera-fed policy with a manifest (ONNX or remote). */
type ModelPolicy = Policy & { readonly manifest: PolicyManifest };

/** Whether a `--policy` value names a remote policy (its relay is in `BenchRequest.remotes`). */
const isRemote = (policy: string) => policy === 'remote' || /^wss?:\/\//.test(policy);

/**
 * The camera-fed policy of a `--policy` value (ONNX session or remote link) serving `batch`
 * environments per step (the remote protocol carries B environments per observation).
 */
async function modelPolicy(session: Session, policy: string, batch: number): Promise<ModelPolicy> {
  if (isRemote(policy)) {
    const relay = session.req.remotes?.[policy];
    if (!relay) throw new Error(`policy ${policy}: no relay was started for it`);
    return RemotePolicy.create(session.device, { url: relay.url, token: relay.token, batch, robot: session.robot });
  }
  if (!policy.startsWith('onnx:')) throw new Error(`policy ${policy}: the benchmark runner supports expert, onnx:MODEL and remote (ws://) policies`);
  const urls = session.req.modelFiles[policy];
  if (!urls) throw new Error(`policy ${policy}: model files were not served`);
  const files = await fetchPolicyFiles(urls.model, urls.manifest);
  return OnnxPolicy.create(session.device, { model: files.model, manifest: files.manifest, modelFile: policy.slice(5), batch, robot: session.robot });
}

/** The pedestrians of `slots` environments on the requested backend. */
async function pedestrianBatch(session: Session, slots: number, maxPedestriansPerSlot: number): Promise<PedestrianBatch> {
  if (session.req.crowd === 'cpu') return new CpuPedestrianBatch(slots);
  return GpuPedestrianBatch.create(session.device, { slots, maxPedestriansPerSlot, label: 'bench.pedestrians' });
}

/** A scanned scene's capture splats in the world frame (fetched and transformed once per scene). */
function sceneCapture(session: Session, world: ScenarioWorld, scenePath: string): Promise<SplatCloud> {
  let cloud = session.captures.get(scenePath);
  if (!cloud) {
    const url = session.req.scenes?.[scenePath]?.capture;
    if (!url || !world.scene) throw new Error(`scene ${scenePath}: its capture was not served to the page`);
    const scene = world.scene;
    cloud = (async () => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`scene ${scenePath}: capture ${scene.capture}: HTTP ${res.status}`);
      const capture = loadSplatFile(scene.capture, new Uint8Array(await res.arrayBuffer()));
      return transformSplatCloud(capture, sceneTransform(scene, scenePath));
    })();
    session.captures.set(scenePath, cloud);
  }
  return cloud;
}

/**
 * What a slot's robot camera draws for a job: the world's baked chunks (shared between slots) or the
 * scanned scene's capture, plus the scenario's blockers (fences).
 */
async function jobBackground(session: Session, cameras: CameraBatch, job: BenchJob, world: ScenarioWorld): Promise<SplatBackground> {
  const w = job.scenario.world;
  const base = w.kind === 'scene' ? new StaticBackground(await sceneCapture(session, world, w.path)) : cameras.bakedView(world.world);
  return scenarioBackground(job.scenario, world, { base });
}

/** What the robot camera draws of a slot's pedestrians now. */
function pedestrianViews(pedestrians: PedestrianSlotView): PedestrianView[] {
  const anim = pedestrians.animation();
  return pedestrians.discs().map((d, i) => ({ x: d.x, y: d.y, heading: anim[i].heading, walkSpeed: anim[i].walkSpeed, gesture: anim[i].gesture }));
}

/**
 * The robot cameras of B slots across their episodes: a slot's camera is loaded with its episode's
 * world, background (capture or baked chunks, plus fences), seed and pedestrians; each control step
 * the active slots render in one submission, with gait time 0 on an episode's first frame.
 */
class SlotCameras {
  private readonly pedestrians: (PedestrianSlotView | null)[];
  private readonly first: boolean[];

  constructor(private readonly session: Session, readonly cameras: CameraBatch, private readonly rateHz: number) {
    this.pedestrians = new Array(cameras.slots).fill(null);
    this.first = new Array(cameras.slots).fill(true);
  }

  async load(slot: number, start: { job: BenchJob; world: ScenarioWorld; pedestrians: PedestrianSlotView; episode: EpisodeRun }): Promise<void> {
    const background = await jobBackground(this.session, this.cameras, start.job, start.world);
    await this.cameras.load(slot, start.world.world, start.job.seed, background, start.job.scenario.conditions);
    this.pedestrians[slot] = start.pedestrians;
    this.first[slot] = true;
    // A closure's fences are drawn from the moment it is in force.
    if (background instanceof BlockedBackground) background.showClosures((k) => start.episode.closureActive(k));
  }

  /** Renders the slots whose observation is given; their frames are then `cameras.frame(slot)`. */
  async render(observations: readonly ({ state: CameraSlotView['state'] } | null)[]): Promise<void> {
    await this.cameras.render(observations.map((o, i) => (o ? { state: o.state, pedestrians: pedestrianViews(this.pedestrians[i]!), dt: this.first[i] ? 0 : 1 / this.rateHz } : null)));
    observations.forEach((o, i) => o && (this.first[i] = false));
  }
}

/**
 * A camera-fed policy over B slots: each control step the robot cameras of the active slots (city
 * splats and that slot's pedestrians) are rendered in one submission, then the policy acts once on
 * the B frames (read by its observation pass on the same device). Each slot's last frames are kept
 * in `ring` for the report's strip of a failed episode.
 */
function cameraPolicy(session: Session, model: ModelPolicy, cameras: CameraBatch, ring: FrameRing): BatchEpisodePolicy<BenchJob, ScenarioWorld> {
  const views = new SlotCameras(session, cameras, model.rateHz);
  // Models with a map input: each slot's map observation around its route (map-observation.ts).
  const spec = model.manifest.map;
  const maps = spec ? new MapObservationBatch(spec, cameras.slots) : null;
  const adapter = batchedEnvironmentPolicy(model, {
    async render(observations) {
      await views.render(observations);
      const frames = observations.map((o, i) => (o ? cameras.frame(i) : null));
      ring.push(frames, observations.map((o) => o?.time ?? null));
      return observations.map((_, i) => cameras.frame(i));
    },
    ...(maps ? { maps: (observations) => maps.fill(observations.map((o) => o?.state ?? null)) } : {}),
  });
  return {
    name: model.name,
    rateHz: model.rateHz,
    async reset(slot, start) {
      await views.load(slot, start);
      maps?.load(slot, start.world.world, start.job.scenario.robot.route);
      ring.reset(slot);
      await adapter.reset(slot, start.job.seed);
    },
    act: (observations) => adapter.act(observations),
  };
}

/**
 * The expert driving while its robot camera records (`BenchRequest.record`): each control step the
 * active slots' cameras render in one submission, each frame is read back, encoded and handed to
 * the Node side with the pose, then the expert acts on the same observations.
 */
function recordingPolicy(session: Session, inner: BatchEpisodePolicy<BenchJob, ScenarioWorld>, cameras: CameraBatch, quality: number, perturb: boolean): BatchEpisodePolicy<BenchJob, ScenarioWorld> {
  const views = new SlotCameras(session, cameras, inner.rateHz);
  const jobs: (BenchJob | null)[] = new Array(cameras.slots).fill(null);
  const perturbations: (CommandPerturbation | null)[] = new Array(cameras.slots).fill(null);
  const steps: number[] = new Array(cameras.slots).fill(0);
  const send = (window as unknown as { curbsideFrame: (f: RecordedFrame) => Promise<void> }).curbsideFrame;
  return {
    name: inner.name,
    rateHz: inner.rateHz,
    async reset(slot, start) {
      await views.load(slot, start);
      jobs[slot] = start.job;
      steps[slot] = 0;
      perturbations[slot] = perturb ? new CommandPerturbation(deriveSeed(start.job.seed, 'perturbation')) : null;
      await inner.reset(slot, start);
    },
    async act(observations) {
      await views.render(observations);
      for (let i = 0; i < observations.length; i++) {
        const o = observations[i];
        if (!o) continue;
        const frame = cameras.frame(i);
        const jpeg = await encodeJpeg(await readTextureBytes(session.device, frame), frame.width, frame.height, quality);
        const job = jobs[i]!;
        const perturbed = perturbations[i]?.burstAt(o.time) != null;
        await send({ scenarioId: job.scenario.id, run: job.run, step: steps[i]++, time: o.time, x: o.state.x, y: o.state.y, yaw: o.state.yaw, jpeg: toBase64(jpeg), perturbed });
      }
      const commands = await inner.act(observations);
      return commands.map((c, i) => (c && observations[i] && perturbations[i] ? perturbations[i]!.apply(observations[i]!.time, c) : c));
    },
  };
}

/** A failed episode's camera strip as handed to the Node side: the JPEG (base64) and each frame's episode time, s. */
export interface EpisodeStrip {
  jpeg: string;
  times: number[];
}

/** Receives each finished episode (and, for a failed one of a camera-fed policy, its strip). */
export type EpisodeReport = (record: EpisodeRecord, strip?: EpisodeStrip) => Promise<void>;

/**
 * Runs the jobs of one `--policy` value over `envs` environments in lockstep (episode-batch.ts),
 * reporting each record as it finishes.
 */
async function runPolicyJobs(session: Session, policy: string, jobs: readonly BenchJob[], report: EpisodeReport): Promise<void> {
  const slots = Math.max(1, Math.min(session.req.envs, jobs.length));
  const maxPedestrians = Math.max(1, ...jobs.map((j) => j.scenario.pedestrians.length));
  const pedestrians = await pedestrianBatch(session, slots, maxPedestrians);
  const resources: { destroy(): void }[] = [pedestrians];
  try {
    let batchPolicy: BatchEpisodePolicy<BenchJob, ScenarioWorld>;
    let ring: FrameRing | null = null;
    if (policy === 'expert') {
      batchPolicy = perSlotPolicy(() => new ExpertPolicy(session.robot), slots);
      const rec = session.req.record;
      if (rec) {
        const cameras = new CameraBatch(session.device, slots, { mount: embodiedMount(session.robot, { ...DEFAULT_CAMERA_MOUNT }), robot: session.robot, width: rec.width, height: rec.height, viewDistance: CAMERA_VIEW_DISTANCE });
        resources.push(cameras);
        batchPolicy = recordingPolicy(session, batchPolicy, cameras, rec.quality, rec.perturb ?? false);
      }
    } else {
      const model = await modelPolicy(session, policy, slots);
      resources.push(model);
      const { width, height } = model.manifest.image;
      const cameras = new CameraBatch(session.device, slots, { mount: embodiedMount(session.robot, model.camera), robot: session.robot, width: width * CAMERA_OVERSAMPLE, height: height * CAMERA_OVERSAMPLE, viewDistance: CAMERA_VIEW_DISTANCE });
      resources.push(cameras);
      ring = new FrameRing(session.device, slots, width * CAMERA_OVERSAMPLE, height * CAMERA_OVERSAMPLE);
      resources.push(ring);
      batchPolicy = cameraPolicy(session, model, cameras, ring);
    }
    const acting = batchPolicy;
    await runEpisodeBatch(jobs, {
      pedestrians,
      // Counts the control steps (BenchStats.controlSteps).
      policy: { ...acting, act: (observations) => { session.controlSteps++; return acting.act(observations); } },
      world: (job) => scenarioWorld(job.scenario),
      pedestrianObstacles: (job, world) => pedestrianObstacles(job.scenario, world),
      robot: session.robot,
      crowdDt: CROWD_DT,
      onRecord: async (record, job, slot) => {
        const strip = ring && !record.success ? await ring.strip(slot) : null;
        await report({ ...record, policy: policyName(job.policy), crowd: pedestrians.backend }, strip ? { jpeg: toBase64(strip.jpeg), times: strip.times } : undefined);
      },
    });
  } finally {
    for (const r of resources.reverse()) r.destroy();
  }
}

/**
 * Runs the jobs, each policy's over `envs` environments in lockstep (policies one after the other,
 * in the order they first appear), reporting each record as it finishes.
 */
export async function runBenchEpisodes(req: BenchRequest): Promise<BenchResult> {
  const robot = robotSpec(req.robot ?? 'wheeled');
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const session: Session = { device: acquired.device, req, robot, captures: new Map(), controlSteps: 0 };
  for (const [path, { text }] of Object.entries(req.scenes ?? {})) registerScene(path, text);
  for (const osm of Object.values(req.osm ?? {})) pageOsmWorld(osm);
  const report = (window as unknown as { curbsideEpisodeDone: EpisodeReport }).curbsideEpisodeDone;
  const byPolicy = new Map<string, BenchJob[]>();
  for (const job of req.jobs) byPolicy.set(job.policy, [...(byPolicy.get(job.policy) ?? []), job]);
  try {
    for (const [policy, jobs] of byPolicy) await runPolicyJobs(session, policy, jobs, report);
    const stats = req.stats ? { ...gpuStats(acquired.device), controlSteps: session.controlSteps } : undefined;
    return { adapter: describeAdapter(acquired), ...(stats ? { stats } : {}) };
  } finally {
    acquired.device.destroy();
  }
}
