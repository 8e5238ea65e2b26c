/**
 * One episode stepped a control step at a time, for the live demo: the benchmark runner's
 * {@link EpisodeRun} (src/bench/episode.ts: physics sub-steps, crowd steps, failure checks, goal /
 * stop-before success, long-horizon resets, the episode record), driven by the frame loop instead
 * of a loop to the end, plus what only the demo needs: live metrics for the HUD, an action log
 * (the (v, ω) of every control step) for record and replay, and a guard against overlapping steps.
 * Pure TypeScript, no DOM and no GPU: the same scenario, seed and actions give the same episode as
 * `runEpisode` (tested).
 */
import type { Vec2 } from '../core/geometry2d';
import { CROWD_DT, EpisodeRun } from '../bench/episode';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import type { EpisodeRecord } from '../bench/episode-record';
import type { Scenario } from '../sim/scenario';
import { pedestrianObstacles, scenarioWorld, type ScenarioWorld } from '../bench/scenario-world';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import type { FailureEvent } from '../robot/failure-monitor';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import type { RouteTracker } from '../robot/route-tracker';
import type { RobotState, VelocityCommand } from '../robot/unicycle';

/** Crowd step, s: the benchmark runner's. */
export const LIVE_CROWD_DT = CROWD_DT;

/** How a live episode ended, or `running`. */
export type LiveEnd = 'running' | EpisodeRecord['end'];

/** The live metrics shown by the HUD. */
export interface LiveMetrics {
  /** Episode time, s. */
  time: number;
  /** Route completion, [0, 1]. */
  routeCompletion: number;
  /** Smallest robot–pedestrian centre distance so far minus the pedestrian radius, metres (null without pedestrians). */
  minPedestrianDistance: number | null;
  failures: readonly FailureEvent[];
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
  readonly pedestrians: ScenarioPedestrians;
  readonly world: ScenarioWorld;
  /** (v, ω) of every control step so far, in order. */
  readonly actions: VelocityCommand[] = [];
  /** The closure notices the policy received so far: episode time (s) and text. */
  readonly notices: { time: number; text: string }[] = [];
  private run: EpisodeRun;
  private minGap: number | null = null;
  private busy = false;

  /**
   * @param seed episode seed (pedestrian jitter and timing; the policy's reset seed).
   * @throws Error for scene-file worlds (not supported by the benchmark world yet).
   */
  constructor(readonly scenario: Scenario, readonly seed: number, readonly policy: EpisodePolicy, readonly spec: RobotSpec = DELIVERY_ROBOT) {
    this.world = scenarioWorld(scenario);
    this.pedestrians = new ScenarioPedestrians(scenario.pedestrians, pedestrianObstacles(scenario, this.world), seed);
    this.run = this.newRun();
  }

  private newRun(): EpisodeRun {
    return new EpisodeRun(this.scenario, 0, this.seed, {
      world: this.world, pedestrians: this.pedestrians, robot: this.spec, crowdDt: LIVE_CROWD_DT, rateHz: this.policy.rateHz, policyName: this.policy.name,
    });
  }

  /** The robot's state now (world frame). */
  get state(): RobotState {
    return this.run.state;
  }

  get route(): RouteTracker {
    return this.run.route;
  }

  /** Whether scenario closure i is in force (its fences stand). */
  closureActive(i: number): boolean {
    return this.run.closureActive(i);
  }

  /** The closure state for the HUD: how many of the scenario's closures are in force; null without closures. */
  get closureStatus(): { active: number; total: number } | null {
    const n = this.scenario.closures?.length ?? 0;
    if (n === 0) return null;
    let active = 0;
    for (let i = 0; i < n; i++) if (this.run.closureActive(i)) active++;
    return { active, total: n };
  }

  /** Control period, s. */
  get controlDt(): number {
    return 1 / this.policy.rateHz;
  }

  /** The live metrics, read from the runner's episode. */
  get metrics(): LiveMetrics {
    const run = this.run;
    const end: LiveEnd = run.done ? run.endReason : 'running';
    return { time: run.time, routeCompletion: end === 'goal' ? 1 : run.route.completion, minPedestrianDistance: this.minGap, failures: run.failureEvents, end };
  }

  /** Resets the policy; call once before the first `advance` (the control rate is read after the reset). */
  async start(): Promise<void> {
    await this.policy.reset(this.seed);
    this.run = this.newRun();
    this.minGap = null;
    this.notices.length = 0;
  }

  /** The observation the policy sees now (privileged fields included, as in the benchmark). */
  observation(): Observation {
    return this.run.observation();
  }

  /**
   * Runs one control step: asks the policy, then advances physics, crowd and checks. Returns false
   * (and does nothing) once the episode has ended or while a step is in flight.
   */
  async advance(): Promise<boolean> {
    if (this.run.done || this.busy) return false;
    this.busy = true;
    try {
      const obs = this.run.observation();
      if (obs.notice) this.notices.push({ time: obs.time, text: obs.notice.text });
      const cmd = await this.policy.act(obs);
      this.actions.push({ v: cmd.v, w: cmd.w });
      this.applyCommand(cmd);
      return true;
    } finally {
      this.busy = false;
    }
  }

  /** The runner's sub-steps under `cmd`, tracking the closest pedestrian after each. */
  private applyCommand(cmd: VelocityCommand): void {
    const run = this.run;
    for (let k = 0; k < run.subSteps && !run.ended; k++) {
      if (run.crowdDue()) this.pedestrians.step(run.crowdStepDt, run.state);
      run.subStep(cmd);
      for (const d of this.pedestrians.discs()) {
        const gap = Math.hypot(d.x - run.state.x, d.y - run.state.y) - d.radius;
        if (this.minGap === null || gap < this.minGap) this.minGap = gap;
      }
    }
  }

  /** The benchmark's record of this episode (as `runEpisode` writes it), once it is over. */
  record(): EpisodeRecord {
    return this.run.record();
  }

  /** The state compared between a recording and its replay. */
  finalState(): FinalState {
    const m = this.metrics;
    return {
      time: m.time, robot: { ...this.state }, end: m.end, failures: m.failures.length,
      pedestrians: this.pedestrians.discs().map((d) => [d.x, d.y] as Vec2),
    };
  }
}
