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
import { averageVelocity, pathIrregularity, pathLength, socialMetrics, type PedestrianTrack, type Trajectory } from './metrics';
import type { EpisodeRecord } from './episode-record';
import type { Scenario } from './scenario';

/** The pedestrians of an episode, stepped by the episode loop. */
export interface PedestrianSim {
  /** Advances every pedestrian by `dt` seconds; `robot` drives event triggers and is an obstacle to them. */
  step(dt: number, robot: RobotState): void;
  /** Current collision cylinders (centre, radius 0.3 m in SidewalkBench), world frame. */
  discs(): PedestrianDisc[];
  /** Current velocities, m/s, same order as `discs`. */
  velocities(): Vec2[];
  /** Current gesture of each pedestrian (`stop` is the Gesturing behaviour's raised hand). */
  gestures(): ('none' | 'stop' | 'talk')[];
}

/** What a policy sees each control step. Privileged fields are for the expert only. */
export interface Observation {
  /** Episode time, s. */
  time: number;
  state: Readonly<RobotState>;
  /** Goal in the robot frame (x forward, y left), metres. */
  goalRobot: Vec2;
  /** Privileged: the reference route (world frame) and the robot's progress along it, metres. */
  route: RouteTracker;
  /** Privileged: pedestrians now. */
  pedestrians: PedestrianDisc[];
  pedestrianVelocities: Vec2[];
  pedestrianGestures: ('none' | 'stop' | 'talk')[];
  /** Privileged: the world's static obstacles (CCW polygons). */
  obstacles: Ring[];
  /** Privileged: boundary segments of the walkable area (empty when unknown). */
  walkableEdges: [Vec2, Vec2][];
}

/** A policy as the episode loop drives it. */
export interface EpisodePolicy {
  readonly name: string;
  /** Control rate, Hz. */
  readonly rateHz: number;
  /** Called once per episode with the episode seed (diffusion noise, internal state). */
  reset(seed: number): Promise<void>;
  /** The command for this control step. Must not run two calls at once. */
  act(obs: Observation): Promise<VelocityCommand>;
}

export interface EpisodeEnvironment {
  world: FailureWorld & { walkableEdges?: [Vec2, Vec2][] };
  pedestrians: PedestrianSim;
  policy: EpisodePolicy;
  robot: RobotSpec;
  /** Crowd step, s (≥ the physics sub-step; a multiple of it). */
  crowdDt: number;
  /** Called after every control step (e.g. to render the next camera frame). */
  afterControlStep?: (state: RobotState, time: number) => Promise<void>;
}

/** Metrics sampling period, s. */
export const SAMPLE_DT = 0.1;
/** Below this speed, m/s, the robot counts as stopped (Gesturing). */
export const STOP_SPEED = 0.05;

/**
 * Runs one episode of `scenario` (run index `run`, seed `seed`) to its end: goal reached, the
 * Gesturing stop achieved, a failure (when `onFailure` is terminate), or the time limit.
 */
export async function runEpisode(scenario: Scenario, run: number, seed: number, env: EpisodeEnvironment): Promise<EpisodeRecord> {
  const { robot: spec, policy } = env;
  const [sx, sy, syaw] = scenario.robot.start;
  const state: RobotState = { x: sx, y: sy, yaw: syaw, v: 0, w: 0 };
  const route = new RouteTracker(scenario.robot.route);
  const monitor = new FailureMonitor(env.world, spec);
  await policy.reset(seed);
  const controlDt = 1 / policy.rateHz;
  const subSteps = Math.max(1, Math.round(controlDt / spec.physicsDt));
  const physicsDt = controlDt / subSteps;
  const crowdEvery = Math.max(1, Math.round(env.crowdDt / physicsDt));
  const sampleEvery = Math.max(1, Math.round(SAMPLE_DT / physicsDt));
  const traj: Trajectory = { t: [], x: [], y: [], yaw: [] };
  const peds: PedestrianTrack = [];
  const sample = (t: number) => {
    traj.t.push(t);
    traj.x.push(state.x);
    traj.y.push(state.y);
    traj.yaw.push(state.yaw);
    peds.push(env.pedestrians.discs().map((d) => [d.x, d.y] as Vec2));
  };
  let step = 0;
  let time = 0;
  let end: EpisodeRecord['end'] = 'timeout';
  let timeToGoal: number | null = null;
  const failures: FailureEvent[] = [];
  sample(0);
  route.update(state.x, state.y);
  outer: while (time < scenario.timeLimit - 1e-9) {
    const [gx, gy] = worldToRobot(state, scenario.robot.goal[0], scenario.robot.goal[1]);
    const cmd = await policy.act({
      time,
      state,
      goalRobot: [gx, gy],
      route,
      pedestrians: env.pedestrians.discs(),
      pedestrianVelocities: env.pedestrians.velocities(),
      pedestrianGestures: env.pedestrians.gestures(),
      obstacles: env.world.obstacles,
      walkableEdges: env.world.walkableEdges ?? [],
    });
    for (let k = 0; k < subSteps; k++) {
      step++;
      time = step * physicsDt;
      if (step % crowdEvery === 0) env.pedestrians.step(crowdEvery * physicsDt, state);
      stepUnicycle(state, cmd, physicsDt, spec);
      const { progress } = route.update(state.x, state.y);
      const found = monitor.check(time, state, env.pedestrians.discs(), progress);
      if (step % sampleEvery === 0) sample(time);
      if (found.length > 0) {
        failures.push(...found);
        if (scenario.onFailure === 'terminate') {
          end = 'failure';
          break outer;
        }
        // Long-horizon: back to the closest route waypoint, facing along the route, at rest.
        const i = route.closestWaypoint(state.x, state.y);
        const [ax, ay] = route.route[i];
        const [bx, by] = route.route[Math.min(i + 1, route.route.length - 1)];
        Object.assign(state, { x: ax, y: ay, yaw: i + 1 < route.route.length ? Math.atan2(by - ay, bx - ax) : state.yaw, v: 0, w: 0 });
        route.resetTo(i);
        monitor.resetContacts(time, route.update(state.x, state.y).progress);
      }
      if (scenario.success.kind === 'reach-goal') {
        if (Math.hypot(state.x - scenario.robot.goal[0], state.y - scenario.robot.goal[1]) <= scenario.success.goalRadius) {
          end = 'goal';
          timeToGoal = time;
          break outer;
        }
      } else if (Math.abs(state.v) < STOP_SPEED && time > 1 && stoppedInFront(state, env.pedestrians.discs()[scenario.success.pedestrian], scenario.success.maxDistance, spec)) {
        end = 'stopped';
        break outer;
      }
    }
    if (env.afterControlStep) await env.afterControlStep(state, time);
  }
  if (traj.t[traj.t.length - 1] !== time) sample(time);
  const social = socialMetrics(traj, peds);
  const distance = pathLength(traj);
  const success = (end === 'goal' || end === 'stopped') && (scenario.onFailure === 'terminate' ? failures.length === 0 : true);
  return {
    scenarioId: scenario.id,
    suite: scenario.suite,
    category: scenario.category,
    policy: policy.name,
    run,
    seed,
    success,
    end,
    routeLength: route.length,
    routeCompletion: end === 'goal' ? 1 : route.completion,
    duration: time,
    distance,
    averageVelocity: averageVelocity(traj),
    timeToGoal,
    failures,
    minPedestrianDistance: Number.isFinite(social.minPedestrianDistance) ? social.minPedestrianDistance : null,
    timeWithinIntimate: social.timeWithinIntimate,
    timeWithinPersonal: social.timeWithinPersonal,
    pathIrregularity: pathIrregularity(traj, scenario.robot.route),
    trajectory: traj.t.flatMap((t, k) => (k % 5 === 0 || k === traj.t.length - 1 ? [[round(t), round(traj.x[k]), round(traj.y[k])] as [number, number, number]] : [])),
  };
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
