/**
 * Browser side of `npm run bench:crowd`'s second table: the scenario-pedestrian batch that the
 * benchmark runner steps (one slot per environment), GPU (`GpuPedestrianBatch`: WGSL behaviours +
 * ORCA, one submission and one readback per step for all slots) or CPU (`CpuPedestrianBatch`: the
 * TypeScript reference, one `ScenarioPedestrians` per slot, float64, single thread).
 *
 * Browser-safe imports only: the scenarios come from the Node side (read from the suite file there).
 */
import type { Scenario } from '../src/sim/scenario';
import { pedestrianObstacles } from '../src/bench/scenario-world';
import { acquireDevice, describeAdapter } from '../src/gpu/device';
import { GpuPedestrianBatch } from '../src/crowd/gpu-pedestrian-batch';
import { CpuPedestrianBatch, type PedestrianBatch } from '../src/crowd/pedestrian-batch';
import type { RobotState } from '../src/robot/unicycle';

export interface PedestrianBatchBenchRequest {
  backend: 'gpu' | 'cpu';
  /** One scenario per slot (B = its length). */
  scenarios: Scenario[];
  /** Timed steps per episode. */
  steps: number;
  /**
   * Minimum timed seconds: the episode (reload every slot, then `steps` steps) repeats until its
   * timed steps add up to this (the page clock has 0.1 ms resolution; a fast CPU step needs it).
   */
  minSeconds: number;
  /** Untimed steps on a first load of every slot, before the slots are reloaded and timed. */
  warmupSteps: number;
  /** Step length, s. */
  dt: number;
  /** The scripted robot's speed along its route, m/s. */
  robotSpeed: number;
}

export interface PedestrianBatchBenchResult {
  backend: 'gpu' | 'cpu';
  /** WebGPU adapter (GPU backend only). */
  adapter: string | null;
  software: boolean;
  slots: number;
  /** Pedestrians over all slots. */
  pedestrians: number;
  /** Timed steps in all (`episodes` × the request's `steps`). */
  steps: number;
  episodes: number;
  /** Seconds to load every slot (the first load after warm-up). */
  loadSeconds: number;
  /** Seconds of the timed steps, summed over episodes (loads excluded). */
  stepSeconds: number;
  stepsPerSecond: number;
  pedestrianStepsPerSecond: number;
  /** Each slot's pedestrian positions after the last step (for a GPU–CPU comparison), m. */
  final: [number, number][][];
}

/** The robot of `route` after `t` seconds at `speed` along the polyline (stops at its end). */
function robotAlong(route: readonly (readonly number[])[], speed: number, t: number): RobotState {
  let left = speed * t;
  for (let i = 0; i + 1 < route.length; i++) {
    const [ax, ay] = route[i];
    const [bx, by] = route[i + 1];
    const len = Math.hypot(bx - ax, by - ay);
    const yaw = Math.atan2(by - ay, bx - ax);
    if (left <= len || i + 2 === route.length) {
      const f = len > 0 ? Math.min(1, left / len) : 1;
      const moving = left < len;
      return { x: ax + (bx - ax) * f, y: ay + (by - ay) * f, yaw, v: moving ? speed : 0, w: 0 };
    }
    left -= len;
  }
  const [x, y] = route[0];
  return { x, y, yaw: 0, v: 0, w: 0 };
}

/**
 * Loads B slots with `req.scenarios` (obstacles filtered as the runner does, the scenario's seed),
 * steps them `warmupSteps`, reloads them, then times `steps` steps of `dt` (repeating that episode until `minSeconds`) with each slot's robot
 * scripted along its route at `robotSpeed`.
 */
export async function runPedestrianBatchBenchmark(req: PedestrianBatchBenchRequest): Promise<PedestrianBatchBenchResult> {
  const B = req.scenarios.length;
  if (B < 1) throw new Error('runPedestrianBatchBenchmark: no scenarios');
  const obstacles = req.scenarios.map((s) => pedestrianObstacles(s)); // builds (and caches) the worlds, untimed
  const maxPeds = Math.max(1, ...req.scenarios.map((s) => s.pedestrians.length));
  const pedestrians = req.scenarios.reduce((n, s) => n + s.pedestrians.length, 0);
  // Robot states of every step, precomputed so the timed loop steps the batch alone.
  const robots = (from: number, count: number) =>
    Array.from({ length: count }, (_, k) => req.scenarios.map((s) => robotAlong(s.robot.route, req.robotSpeed, (from + k) * req.dt)));
  const warmRobots = robots(0, req.warmupSteps);
  const timedRobots = robots(0, req.steps);

  let adapter: string | null = null;
  let software = false;
  let device: GPUDevice | null = null;
  let batch: PedestrianBatch;
  if (req.backend === 'gpu') {
    const acquired = await acquireDevice({});
    device = acquired.device;
    adapter = describeAdapter(acquired);
    software = acquired.isSoftware;
    batch = await GpuPedestrianBatch.create(device, { slots: B, maxPedestriansPerSlot: maxPeds, label: 'bench:crowd' });
  } else batch = new CpuPedestrianBatch(B);
  try {
    const loadAll = () => Promise.all(req.scenarios.map((s, i) => batch.load(i, s.pedestrians, obstacles[i], s.seed)));
    await loadAll();
    for (const r of warmRobots) await batch.step(req.dt, r);
    let loadSeconds = 0;
    let stepSeconds = 0;
    let episodes = 0;
    while (episodes === 0 || stepSeconds < req.minSeconds || stepSeconds === 0) {
      const l0 = performance.now();
      await loadAll();
      if (episodes === 0) loadSeconds = (performance.now() - l0) / 1000;
      const t0 = performance.now();
      for (const r of timedRobots) await batch.step(req.dt, r);
      stepSeconds += (performance.now() - t0) / 1000;
      episodes++;
    }
    const final = req.scenarios.map((_, i) => batch.view(i).discs().map((d) => [d.x, d.y] as [number, number]));
    const steps = episodes * req.steps;
    const stepsPerSecond = steps / stepSeconds;
    return {
      backend: req.backend, adapter, software, slots: B, pedestrians, steps, episodes, loadSeconds, stepSeconds,
      stepsPerSecond, pedestrianStepsPerSecond: stepsPerSecond * pedestrians, final,
    };
  } finally {
    batch.destroy();
    device?.destroy();
  }
}
