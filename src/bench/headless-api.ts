/**
 * Browser side of `npm run bench`: runs benchmark episodes in the page and hands each finished
 * episode to the Node side at once (`window.curbsideEpisodeDone`, exposed by src/cli/bench.ts),
 * which appends it to the results file.
 */
import { acquireDevice, describeAdapter } from '../gpu/device';
import { fetchPolicyFiles } from '../policy/load-policy';
import { OnnxPolicy } from '../policy/onnx-policy';
import { RemotePolicy } from '../policy/remote-policy';
import type { PolicyManifest } from '../policy/manifest';
import type { Policy } from '../policy/policy';
import { singleEnvironmentPolicy } from '../policy/episode-adapter';
import { RobotCamera, type PedestrianView } from '../robot/robot-camera';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { runEpisode, type EpisodePolicy } from './episode';
import { policyName, type EpisodeRecord } from './episode-record';
import type { BenchJob } from './plan';
import { scenarioWorld } from './scenario-world';


export interface BenchRequest {
  jobs: BenchJob[];
  /** Episodes simulated concurrently. */
  envs: number;
  /** URLs of served ONNX models and manifests, by `--policy` value. */
  modelFiles: Record<string, { model: string; manifest: string }>;
  /**
   * Relays of remote policies, by `--policy` value (`remote` or ws://…): base URL and session token
   * (the Node side started the relay and waited for the model's spec).
   */
  remotes?: Record<string, { url: string; token: string }>;
}

/** Crowd step, s. */
export const CROWD_DT = 0.1;

/** Robot-camera render size relative to the policy's input (the observation pass resizes). */
export const CAMERA_OVERSAMPLE = 2;
/** Splat chunks within this distance are drawn by the robot camera, metres. */
export const CAMERA_VIEW_DISTANCE = 15;

/** Per-run caches: one ONNX session or remote link per model, one camera per (model, world). */
interface Session {
  device: GPUDevice;
  req: BenchRequest;
  onnx: Map<string, OnnxPolicy>;
  remote: Map<string, RemotePolicy>;
  /**
   * Tail of each camera-fed policy's episode chain: an ONNX session or a relay serves batch 1 and
   * keeps frame history, and the camera per (model, world) is shared, so a policy's episodes run one
   * at a time (the expert's interleave freely with `--envs`).
   */
  turns: Map<string, Promise<unknown>>;
  cameras: Map<string, RobotCamera>;
}

/** An episode's world and crowd, as runJob builds them. */
interface BenchEnvironment {
  world: ReturnType<typeof scenarioWorld>;
  pedestrians: ScenarioPedestrians;
  robot: typeof DELIVERY_ROBOT;
  crowdDt: number;
}

/** A camera-fed policy with a manifest (ONNX or remote). */
type ModelPolicy = Policy & { readonly manifest: PolicyManifest };

async function onnxPolicy(session: Session, policy: string): Promise<OnnxPolicy> {
  let p = session.onnx.get(policy);
  if (!p) {
    const urls = session.req.modelFiles[policy];
    if (!urls) throw new Error(`policy ${policy}: model files were not served`);
    const files = await fetchPolicyFiles(urls.model, urls.manifest);
    p = await OnnxPolicy.create(session.device, { model: files.model, manifest: files.manifest, modelFile: policy.slice(5), robot: DELIVERY_ROBOT });
    session.onnx.set(policy, p);
  }
  return p;
}

async function remotePolicy(session: Session, policy: string): Promise<RemotePolicy> {
  let p = session.remote.get(policy);
  if (!p) {
    const relay = session.req.remotes?.[policy];
    if (!relay) throw new Error(`policy ${policy}: no relay was started for it`);
    p = await RemotePolicy.create(session.device, { url: relay.url, token: relay.token, batch: 1, robot: DELIVERY_ROBOT });
    session.remote.set(policy, p);
  }
  return p;
}

/** Whether a `--policy` value names a remote policy (its relay is in `BenchRequest.remotes`). */
const isRemote = (policy: string) => policy === 'remote' || /^wss?:\/\//.test(policy);

async function runJob(session: Session, job: BenchJob): Promise<EpisodeRecord> {
  const world = scenarioWorld(job.scenario);
  const near = world.obstacles.filter((poly) => poly.some(([x, y]) => job.scenario.robot.route.some(([rx, ry]) => Math.hypot(x - rx, y - ry) < 40)));
  const pedestrians = new ScenarioPedestrians(job.scenario.pedestrians, near, job.seed);
  const env: BenchEnvironment = { world, pedestrians, robot: DELIVERY_ROBOT, crowdDt: CROWD_DT };
  let record: EpisodeRecord;
  if (job.policy === 'expert') {
    record = await runEpisode(job.scenario, job.run, job.seed, { ...env, policy: new ExpertPolicy(DELIVERY_ROBOT) });
  } else if (job.policy.startsWith('onnx:') || isRemote(job.policy)) {
    // One episode at a time per camera-fed policy (see Session.turns).
    const make = () => (isRemote(job.policy) ? remotePolicy(session, job.policy) : onnxPolicy(session, job.policy));
    const before = session.turns.get(job.policy) ?? Promise.resolve();
    const turn = before.catch(() => undefined).then(async () => cameraEpisode(session, job, env, await make()));
    session.turns.set(job.policy, turn);
    record = await turn;
  } else {
    throw new Error(`policy ${job.policy}: the benchmark runner supports expert, onnx:MODEL and remote (ws://) policies`);
  }
  return { ...record, policy: policyName(job.policy) };
}

/**
 * Runs one episode of a camera-fed policy (ONNX or remote): the policy sees the robot camera, city
 * splats and pedestrians rendered on the GPU each control step and read by the observation pass on
 * the same device.
 */
async function cameraEpisode(session: Session, job: BenchJob, env: BenchEnvironment, model: ModelPolicy): Promise<EpisodeRecord> {
  const { pedestrians, world } = env;
  const key = `${job.policy}\u0000${job.scenario.world.kind === 'procedural' ? job.scenario.world.seed : ''}`;
  let camera = session.cameras.get(key);
  if (!camera) {
    const { width, height } = model.manifest.image;
    camera = await RobotCamera.create(session.device, { world: world.world, mount: model.camera, width: width * CAMERA_OVERSAMPLE, height: height * CAMERA_OVERSAMPLE, viewDistance: CAMERA_VIEW_DISTANCE, seed: job.seed });
    session.cameras.set(key, camera);
  }
  const cam = camera;
  const views = (): PedestrianView[] => {
    const anim = pedestrians.animation();
    return pedestrians.discs().map((d, i) => ({ x: d.x, y: d.y, heading: anim[i].heading, walkSpeed: anim[i].walkSpeed, gesture: anim[i].gesture }));
  };
  const [sx, sy, syaw] = job.scenario.robot.start;
  await cam.render({ x: sx, y: sy, yaw: syaw }, views(), 0);
  const policy = singleEnvironmentPolicy(model, { current: () => cam.target.color });
  return runEpisode(job.scenario, job.run, job.seed, { ...env, policy, afterControlStep: (state) => cam.render(state, views(), 1 / model.rateHz) });
}

/** Runs the jobs, `envs` at a time, reporting each record as it finishes. */
export async function runBenchEpisodes(req: BenchRequest): Promise<{ adapter: string }> {
  const acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  const session: Session = { device: acquired.device, req, onnx: new Map(), remote: new Map(), turns: new Map(), cameras: new Map() };
  const report = (window as unknown as { curbsideEpisodeDone: (r: EpisodeRecord) => Promise<void> }).curbsideEpisodeDone;
  const queue = [...req.jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await report(await runJob(session, job));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(req.envs, queue.length)) }, worker));
  const adapter = describeAdapter(acquired);
  for (const c of session.cameras.values()) c.destroy();
  for (const p of session.onnx.values()) p.destroy();
  for (const p of session.remote.values()) p.destroy();
  acquired.device.destroy();
  return { adapter };
}
