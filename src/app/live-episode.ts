/**
 * One episode stepped a control step at a time, for the live demo: the same loop as
 * `runEpisode` (src/bench/episode.ts: synchronized stepping, physics sub-steps, crowd steps,
 * failure checks, goal / stop-before success, long-horizon resets), but driven by the frame loop,
 * with live metrics and an action log (the (v, ω) of every control step) for record and replay.
 * Pure TypeScript, no DOM and no GPU: the same scenario, seed and actions give the same episode.
 */
import type { Vec2 } from '../core/geometry2d';
import { stoppedInFront, STOP_SPEED, type EpisodePolicy, type Observation } from '../bench/episode';
import type { Scenario } from '../bench/scenario';
import { pedestrianObstacles, scenarioWorld, type ScenarioWorld } from '../bench/scenario-world';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { FailureMonitor, type FailureEvent } from '../robot/failure-monitor';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { RouteTracker } from '../robot/route-tracker';
import { stepUnicycle, worldToRobot, type RobotState, type VelocityCommand } from '../robot/unicycle';

/** Crowd step, s (as the benchmark runner's CROWD_DT). */
export const LIVE_CROWD_DT = 0.1;

/** How a live episode ended, or `running`. */
export type LiveEnd = 'running' | 'goal' | 'stopped' | 'failure' | 'timeout';

/** The live metrics shown by the HUD. */
export interface LiveMetrics {
  /** Episode time, s. */
  time: number;
  /** Route completion, [0, 1]. */
  routeCompletion: number;
  /** Smallest robot–pedestrian centre distance so far minus the pedestrian radius, metres (null without pedestrians). */
  minPedestrianDistance: number | null;
  failures: FailureEvent[];
  end: LiveEnd;
}

/** Final state used to compare a recording with its replay. */
export interface FinalState {
  time: number;
  robot: RobotState;
  pedestrians: Vec2[];
  end: LiveEnd;
  failures: number;
}

/** Steps one scenario with one policy; see the module doc. */
export class LiveEpisode {
  readonly state: RobotState;
  readonly route: RouteTracker;
  readonly pedestrians: ScenarioPedestrians;
  readonly world: ScenarioWorld;
  /** (v, ω) of every control step so far, in order. */
  readonly actions: VelocityCommand[] = [];
  readonly metrics: LiveMetrics;
  private readonly monitor: FailureMonitor;
  private step = 0;
  private busy = false;
  private subSteps = 1;
  private physicsDt: number;
  private crowdEvery = 1;

  /**
   * @param seed episode seed (pedestrian jitter and timing; the policy's reset seed).
   * @throws Error for scene-file worlds (not supported by the benchmark world yet).
   */
  constructor(readonly scenario: Scenario, readonly seed: number, readonly policy: EpisodePolicy, readonly spec: RobotSpec = DELIVERY_ROBOT) {
    const [sx, sy, syaw] = scenario.robot.start;
    this.state = { x: sx, y: sy, yaw: syaw, v: 0, w: 0 };
    this.route = new RouteTracker(scenario.robot.route);
    this.world = scenarioWorld(scenario);
    this.pedestrians = new ScenarioPedestrians(scenario.pedestrians, pedestrianObstacles(scenario, this.world), seed);
    this.monitor = new FailureMonitor(this.world, spec);
    this.physicsDt = spec.physicsDt;
    this.metrics = { time: 0, routeCompletion: 0, minPedestrianDistance: null, failures: [], end: 'running' };
    this.route.update(sx, sy);
  }

  /** Control period, s. */
  get controlDt(): number {
    return 1 / this.policy.rateHz;
  }

  /** Resets the policy; call once before the first `advance`. */
  async start(): Promise<void> {
    await this.policy.reset(this.seed);
    this.subSteps = Math.max(1, Math.round(this.controlDt / this.spec.physicsDt));
    this.physicsDt = this.controlDt / this.subSteps;
    this.crowdEvery = Math.max(1, Math.round(LIVE_CROWD_DT / this.physicsDt));
  }

  /** The observation the policy sees now (privileged fields included, as in the benchmark). */
  observation(): Observation {
    const [gx, gy] = worldToRobot(this.state, this.scenario.robot.goal[0], this.scenario.robot.goal[1]);
    return {
      time: this.metrics.time, state: this.state, goalRobot: [gx, gy], route: this.route,
      pedestrians: this.pedestrians.discs(), pedestrianVelocities: this.pedestrians.velocities(),
      pedestrianGestures: this.pedestrians.gestures(), obstacles: this.world.obstacles, walkableEdges: this.world.walkableEdges,
    };
  }

  /**
   * Runs one control step: asks the policy, then advances physics, crowd and checks. Returns false
   * (and does nothing) once the episode has ended or while a step is in flight.
   */
  async advance(): Promise<boolean> {
    if (this.metrics.end !== 'running' || this.busy) return false;
    this.busy = true;
    try {
      const cmd = await this.policy.act(this.observation());
      this.actions.push({ v: cmd.v, w: cmd.w });
      this.applyCommand(cmd);
      return true;
    } finally {
      this.busy = false;
    }
  }

  private applyCommand(cmd: VelocityCommand): void {
    const s = this.scenario, m = this.metrics, state = this.state;
    for (let k = 0; k < this.subSteps; k++) {
      this.step++;
      m.time = this.step * this.physicsDt;
      if (this.step % this.crowdEvery === 0) this.pedestrians.step(this.crowdEvery * this.physicsDt, state);
      stepUnicycle(state, cmd, this.physicsDt, this.spec);
      const { progress } = this.route.update(state.x, state.y);
      const discs = this.pedestrians.discs();
      for (const d of discs) {
        const gap = Math.hypot(d.x - state.x, d.y - state.y) - d.radius;
        if (m.minPedestrianDistance === null || gap < m.minPedestrianDistance) m.minPedestrianDistance = gap;
      }
      const found = this.monitor.check(m.time, state, discs, progress);
      if (found.length > 0) {
        m.failures.push(...found);
        if (s.onFailure === 'terminate') {
          m.end = 'failure';
          break;
        }
        const i = this.route.closestWaypoint(state.x, state.y);
        const [ax, ay] = this.route.route[i];
        const [bx, by] = this.route.route[Math.min(i + 1, this.route.route.length - 1)];
        Object.assign(state, { x: ax, y: ay, yaw: i + 1 < this.route.route.length ? Math.atan2(by - ay, bx - ax) : state.yaw, v: 0, w: 0 });
        this.route.resetTo(i);
        this.monitor.resetContacts(m.time, this.route.update(state.x, state.y).progress);
      }
      if (s.success.kind === 'reach-goal') {
        if (Math.hypot(state.x - s.robot.goal[0], state.y - s.robot.goal[1]) <= s.success.goalRadius) {
          m.end = 'goal';
          break;
        }
      } else if (Math.abs(state.v) < STOP_SPEED && m.time > 1 && stoppedInFront(state, discs[s.success.pedestrian], s.success.maxDistance, this.spec)) {
        m.end = 'stopped';
        break;
      }
    }
    m.routeCompletion = m.end === 'goal' ? 1 : this.route.completion;
    if (m.end === 'running' && m.time >= s.timeLimit - 1e-9) m.end = 'timeout';
  }

  /** The state compared between a recording and its replay. */
  finalState(): FinalState {
    return {
      time: this.metrics.time, robot: { ...this.state }, end: this.metrics.end, failures: this.metrics.failures.length,
      pedestrians: this.pedestrians.discs().map((d) => [d.x, d.y] as Vec2),
    };
  }
}
