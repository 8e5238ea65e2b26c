/**
 * One benchmark episode with synchronized stepping (SidewalkBench §4: the simulator waits for the
 * policy): at each control step the policy sees the observation and returns (v, ω); the simulator
 * then advances the crowd at its own step and the robot at the physics sub-step, checking failures
 * at every sub-step. Pure TypeScript; the world, crowd, policy and optional renderer are injected,
 * so the same loop runs the expert on the CPU and an ONNX policy on GPU frames.
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import { FailureMonitor, type FailureEvent, type FailureWorld, type PedestrianDisc } from '../robot/failure-monitor';
import type { RobotSpec } from '../robot/robot-spec';
import { RouteTracker } from '../robot/route-tracker';
import { stepUnicycle, worldToRobot, type RobotState, type VelocityCommand } from '../robot/unicycle';
import { averageVelocity, networkAdherence, pathIrregularity, pathLength, socialMetrics, type PedestrianTrack, type Trajectory } from './metrics';
import type { EpisodeRecord } from './episode-record';
import { ClosureTracker, type ClosurePlan } from './closures';
import type { Scenario } from '../sim/scenario';
import type { EpisodePolicy, Observation, PedestrianSim } from '../sim/episode-contracts';

export interface EpisodeEnvironment {
  /** The episode's world; `closures` when the scenario has closures (src/bench/closures.ts). */
  world: FailureWorld & { walkableEdges?: [Vec2, Vec2][]; closures?: ClosurePlan };
  pedestrians: PedestrianSim;
  policy: EpisodePolicy;
  robot: RobotSpec;
  /** Crowd step, s (≥ the physics sub-step; a multiple of it). */
  crowdDt: number;
  /** Called after every control step (e.g. to render the next camera frame). */
  afterControlStep?: (state: RobotState, time: number) => Promise<void>;
}

/** The crowd step of the benchmark runner and the demo, s. */
export const CROWD_DT = 0.1;
/** Metrics sampling period, s. */
export const SAMPLE_DT = 0.1;
/** Below this speed, m/s, the robot counts as stopped (Gesturing). */
export const STOP_SPEED = 0.05;

/** What an {@link EpisodeRun} needs besides the scenario: the world, its pedestrians' current state, the robot and the rates. */
export interface EpisodeRunEnvironment {
  world: EpisodeEnvironment['world'];
  /** The episode's pedestrians as they are now (stepped by the caller, see {@link EpisodeRun.crowdDue}). */
  pedestrians: Pick<PedestrianSim, 'discs' | 'velocities' | 'gestures'>;
  robot: RobotSpec;
  /** Crowd step, s (≥ the physics sub-step; a multiple of it). */
  crowdDt: number;
  /** The policy's control rate, Hz. */
  rateHz: number;
  /** Recorded as the record's `policy`. */
  policyName: string;
}

/**
 * One episode as a resumable stepper, so several episodes can advance in lockstep (the batched
 * runner in episode-batch.ts) or one at a time ({@link runEpisode}): between control steps, read
 * {@link observation}, get the policy's command, then {@link advance} (or, sub-step by sub-step,
 * {@link crowdDue} → the crowd step → {@link subStep}) until {@link done}; then {@link record}.
 */
export class EpisodeRun {
  readonly state: RobotState;
  /** Physics sub-steps per control step. */
  readonly subSteps: number;
  /** The crowd step, s (a whole number of physics sub-steps). */
  readonly crowdStepDt: number;
  /** Episode time, s. */
  time = 0;
  /** Set when the episode ended before its time limit (goal, Gesturing stop, terminating failure). */
  ended = false;
  private readonly monitor: FailureMonitor;
  private readonly physicsDt: number;
  private readonly crowdEvery: number;
  private readonly sampleEvery: number;
  private readonly traj: Trajectory = { t: [], x: [], y: [], yaw: [] };
  private readonly peds: PedestrianTrack = [];
  /** Per trajectory sample: whether the base centre was on the pedestrian network. */
  private readonly onNetwork: boolean[] = [];
  private readonly failures: FailureEvent[] = [];
  private reference: RouteTracker;
  /** The scenario's closures as they trigger (null without closures). */
  private readonly closures: ClosureTracker | null;
  /** Static obstacles now: the world's, then the fences of the closures in force. */
  private obstacles: Ring[];
  private step = 0;
  private end: EpisodeRecord['end'] = 'timeout';
  private timeToGoal: number | null = null;

  constructor(readonly scenario: Scenario, readonly run: number, readonly seed: number, private readonly env: EpisodeRunEnvironment) {
    const [sx, sy, syaw] = scenario.robot.start;
    this.state = { x: sx, y: sy, yaw: syaw, v: 0, w: 0 };
    this.reference = new RouteTracker(scenario.robot.route);
    this.monitor = new FailureMonitor(env.world, env.robot);
    this.obstacles = env.world.obstacles;
    this.closures = env.world.closures?.closures.length ? new ClosureTracker(env.world.closures) : null;
    const controlDt = 1 / env.rateHz;
    this.subSteps = Math.max(1, Math.round(controlDt / env.robot.physicsDt));
    this.physicsDt = controlDt / this.subSteps;
    this.crowdEvery = Math.max(1, Math.round(env.crowdDt / this.physicsDt));
    this.crowdStepDt = this.crowdEvery * this.physicsDt;
    this.sampleEvery = Math.max(1, Math.round(SAMPLE_DT / this.physicsDt));
    this.sample(0);
    this.route.update(this.state.x, this.state.y);
    this.updateClosures(0);
  }

  /** The reference route and the progress along it (re-planned when a closure cuts it). */
  get route(): RouteTracker {
    return this.reference;
  }

  /** Whether scenario closure i is in force (false for an index the scenario lacks). */
  closureActive(i: number): boolean {
    return this.closures?.active(i) ?? false;
  }

  /** How the episode ended: 'timeout' until {@link ended} (meaningful once {@link done}). */
  get endReason(): EpisodeRecord['end'] {
    return this.end;
  }

  /** The failures so far, in order. */
  get failureEvents(): readonly FailureEvent[] {
    return this.failures;
  }

  /** Whether the episode is over (ended, or its time limit reached); checked between control steps. */
  get done(): boolean {
    return this.ended || this.time >= this.scenario.timeLimit - 1e-9;
  }

  /**
   * What the policy sees now. The observations of the first control step after a closure triggered
   * carry its one-time notice (the next sub-step marks it delivered).
   */
  observation(): Observation {
    const { state, env } = this;
    const [gx, gy] = worldToRobot(state, this.scenario.robot.goal[0], this.scenario.robot.goal[1]);
    const notice = this.closures?.notice(state);
    return {
      ...(notice ? { notice } : {}),
      time: this.time,
      state,
      goalRobot: [gx, gy],
      route: this.route,
      pedestrians: env.pedestrians.discs(),
      pedestrianVelocities: env.pedestrians.velocities(),
      pedestrianGestures: env.pedestrians.gestures(),
      obstacles: this.obstacles,
      walkableEdges: env.world.walkableEdges ?? [],
    };
  }

  /** Whether the crowd steps (by {@link crowdStepDt}, with this robot state) before the next physics sub-step. */
  crowdDue(): boolean {
    return !this.ended && (this.step + 1) % this.crowdEvery === 0;
  }

  /**
   * One physics sub-step under `cmd` (after the crowd step when {@link crowdDue} said so): robot
   * kinematics, failure checks, metric sampling and the end conditions. No-op once {@link ended}.
   */
  subStep(cmd: VelocityCommand): void {
    if (this.ended) return;
    const { state, scenario, env } = this;
    const spec = env.robot;
    this.step++;
    const time = (this.time = this.step * this.physicsDt);
    this.closures?.delivered();
    stepUnicycle(state, cmd, this.physicsDt, spec);
    this.updateClosures(time);
    const route = this.route;
    const { progress } = route.update(state.x, state.y);
    const found = this.monitor.check(time, state, env.pedestrians.discs(), route.before + progress);
    if (this.step % this.sampleEvery === 0) this.sample(time);
    if (found.length > 0) {
      this.failures.push(...found);
      if (scenario.onFailure === 'terminate') {
        this.finish('failure');
        return;
      }
      // Long-horizon: back to the closest route waypoint, facing along the route, at rest.
      const i = route.closestWaypoint(state.x, state.y);
      const [ax, ay] = route.route[i];
      const [bx, by] = route.route[Math.min(i + 1, route.route.length - 1)];
      Object.assign(state, { x: ax, y: ay, yaw: i + 1 < route.route.length ? Math.atan2(by - ay, bx - ax) : state.yaw, v: 0, w: 0 });
      route.resetTo(i);
      this.monitor.resetContacts(time, route.before + route.update(state.x, state.y).progress, state, env.pedestrians.discs());
    }
    if (scenario.success.kind === 'reach-goal') {
      if (Math.hypot(state.x - scenario.robot.goal[0], state.y - scenario.robot.goal[1]) <= scenario.success.goalRadius) {
        this.timeToGoal = time;
        this.finish('goal');
      }
    } else if (Math.abs(state.v) < STOP_SPEED && time > 1 && stoppedInFront(state, env.pedestrians.discs()[scenario.success.pedestrian], scenario.success.maxDistance, spec)) {
      this.finish('stopped');
    }
  }

  /** One control step under `cmd`: the physics sub-steps, calling `stepCrowd` where the crowd steps. */
  async advance(cmd: VelocityCommand, stepCrowd: (dt: number, robot: RobotState) => void | Promise<void>): Promise<void> {
    for (let k = 0; k < this.subSteps && !this.ended; k++) {
      if (this.crowdDue()) await stepCrowd(this.crowdStepDt, this.state);
      this.subStep(cmd);
    }
  }

  /** The episode's record (call once, when {@link done}, before its pedestrians change). */
  record(): EpisodeRecord {
    const { traj, time, end, scenario, route, failures } = this;
    if (traj.t[traj.t.length - 1] !== time) this.sample(time);
    const social = socialMetrics(traj, this.peds);
    const distance = pathLength(traj);
    const success = (end === 'goal' || end === 'stopped') && (scenario.onFailure === 'terminate' ? failures.length === 0 : true);
    // The report's samples: every fifth, and the last.
    const rows = traj.t.flatMap((_, k) => (k % 5 === 0 || k === traj.t.length - 1 ? [k] : []));
    const pedestrians = this.peds[0]?.length ?? 0;
    return {
      scenarioId: scenario.id,
      suite: scenario.suite,
      category: scenario.category,
      policy: this.env.policyName,
      // The embodiment, named unless it is the default wheeled robot (whose records stay as they were).
      ...(this.env.robot.name === 'wheeled' ? {} : { robot: this.env.robot.name }),
      run: this.run,
      seed: this.seed,
      success,
      end,
      routeLength: route.totalLength,
      routeCompletion: end === 'goal' ? 1 : route.completion,
      duration: time,
      distance,
      averageVelocity: averageVelocity(traj),
      timeToGoal: this.timeToGoal,
      failures,
      minPedestrianDistance: Number.isFinite(social.minPedestrianDistance) ? social.minPedestrianDistance : null,
      timeWithinIntimate: social.timeWithinIntimate,
      timeWithinPersonal: social.timeWithinPersonal,
      pathIrregularity: pathIrregularity(traj, scenario.robot.route),
      networkAdherence: round(networkAdherence(traj, this.onNetwork)),
      ...(this.closures ? { closureCompliance: this.closures.entries === 0, closures: { triggeredAt: this.closures.triggeredAt.map((t) => (t === null ? null : round(t))), entries: this.closures.entries, replans: this.closures.replans } } : {}),
      ...(scenario.conditions ? { conditions: { ...scenario.conditions } } : {}),
      trajectory: rows.map((k) => [round(traj.t[k]), round(traj.x[k]), round(traj.y[k])] as [number, number, number]),
      ...(pedestrians > 0 ? { pedestrianPaths: Array.from({ length: pedestrians }, (_, p) => rows.map((k) => [round(this.peds[k][p][0]), round(this.peds[k][p][1])] as [number, number])) } : {}),
    };
  }

  /** Triggers the closures due now: their fences become obstacles and the route is re-planned around them. */
  private updateClosures(time: number): void {
    if (!this.closures || this.closures.update(time, this.state).length === 0) return;
    this.obstacles = [...this.env.world.obstacles, ...this.closures.fences];
    this.monitor.setObstacles(this.obstacles);
    const next = this.closures.replan(this.reference, this.scenario.robot.goal as Vec2);
    if (next) this.reference = next;
  }

  private finish(end: EpisodeRecord['end']): void {
    this.end = end;
    this.ended = true;
  }

  private sample(t: number): void {
    const { traj, state } = this;
    traj.t.push(t);
    traj.x.push(state.x);
    traj.y.push(state.y);
    traj.yaw.push(state.yaw);
    this.peds.push(this.env.pedestrians.discs().map((d) => [d.x, d.y] as Vec2));
    this.onNetwork.push(this.env.world.isWalkable(state.x, state.y));
  }
}

/**
 * Runs one episode of `scenario` (run index `run`, seed `seed`) to its end: goal reached, the
 * Gesturing stop achieved, a failure (when `onFailure` is terminate), or the time limit.
 */
export async function runEpisode(scenario: Scenario, run: number, seed: number, env: EpisodeEnvironment): Promise<EpisodeRecord> {
  const { policy, pedestrians } = env;
  const episode = new EpisodeRun(scenario, run, seed, { ...env, rateHz: policy.rateHz, policyName: policy.name });
  await policy.reset(seed);
  const stepCrowd = (dt: number, robot: RobotState) => pedestrians.step(dt, robot);
  while (!episode.done) {
    await episode.advance(await policy.act(episode.observation()), stepCrowd);
    if (!episode.ended && env.afterControlStep) await env.afterControlStep(episode.state, episode.time);
  }
  return episode.record();
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Gesturing success (SidewalkBench appendix): the robot has stopped with the pedestrian ahead of it
 * (positive x in the robot frame, within the footprint's half-width plus 1 m laterally) and its front
 * within `maxDistance` metres of the pedestrian's cylinder.
 */
export function stoppedInFront(state: RobotState, ped: PedestrianDisc | undefined, maxDistance: number, spec: RobotSpec): boolean {
  if (!ped) return false;
  const [px, py] = worldToRobot(state, ped.x, ped.y);
  const front = spec.footprintOffsetX + spec.length / 2;
  return px > front && Math.abs(py) <= spec.width / 2 + 1 && px - front - ped.radius <= maxDistance;
}
