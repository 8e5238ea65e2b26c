/**
 * Episode metrics of the benchmark, each from a recorded trajectory. Formulas:
 *
 * - route completion  RC = min(1, s_max / L): greatest arc length reached along the reference route
 *   over its length (SidewalkBench unit tests; as in CARLA/CityWalker route completion).
 * - success: the scenario's criterion held (reached the goal within `goalRadius` without a failure
 *   for unit-test and reactive suites; Gesturing: stopped within 3 m in front of the pedestrian).
 * - failures per 100 m  F = 100 · n_failures / d, with d the distance travelled (long-horizon; the
 *   intervention-frequency measure of SidewalkBench §4.3), per kind.
 * - average velocity  v̄ = d / T, with T the episode duration.
 * - time to goal: the time the goal was reached (successful episodes only).
 * - minimum pedestrian distance  min_t min_j |p_robot(t) − p_j(t)|, centre to centre, metres.
 * - time within 0.45 m and 1.2 m of a pedestrian (Hall's intimate and personal zones, centre to
 *   centre), seconds, summed over sample intervals.
 * - path irregularity  PI = max(0, Σ_k |wrap(θ_{k+1} − θ_k)| − Θ_route) / d, rad/m: the turning
 *   beyond the route's own total absolute heading change Θ_route, per metre travelled
 *   (after Guzzi et al. 2013, "Human-friendly robot navigation in dynamic environments").
 */
import { wrapAngle } from '../robot/unicycle';
import type { Vec2 } from '../core/geometry2d';

/** Robot poses sampled at increasing times. */
export interface Trajectory {
  /** Times, s, strictly increasing. */
  t: number[];
  /** Base positions, metres, and yaw, radians, world frame. */
  x: number[];
  y: number[];
  yaw: number[];
}

/** Pedestrian centres at the trajectory's sample times: `[sample][pedestrian] = [x, y]`. */
export type PedestrianTrack = Vec2[][];

/** Distance travelled, metres (sum of segment lengths). */
export function pathLength(tr: Trajectory): number {
  let d = 0;
  for (let k = 1; k < tr.t.length; k++) d += Math.hypot(tr.x[k] - tr.x[k - 1], tr.y[k] - tr.y[k - 1]);
  return d;
}

/** Average velocity d / T, m/s (0 for an empty or instantaneous trajectory). */
export function averageVelocity(tr: Trajectory): number {
  const T = tr.t.length > 1 ? tr.t[tr.t.length - 1] - tr.t[0] : 0;
  return T > 0 ? pathLength(tr) / T : 0;
}

/** Failures per 100 m travelled; 0 failures over 0 m is 0, n > 0 over 0 m is Infinity. */
export function failuresPer100m(failures: number, distance: number): number {
  if (failures === 0) return 0;
  return distance > 0 ? (100 * failures) / distance : Infinity;
}

/** Social metrics of one episode. */
export interface SocialMetrics {
  /** Minimum centre-to-centre distance to any pedestrian, metres (Infinity with none). */
  minPedestrianDistance: number;
  /** Seconds with a pedestrian within 0.45 m and within 1.2 m. */
  timeWithinIntimate: number;
  timeWithinPersonal: number;
}

export const INTIMATE_DISTANCE = 0.45;
export const PERSONAL_DISTANCE = 1.2;

/**
 * Social metrics from a trajectory and the pedestrians at the same samples. A sample interval
 * [t_k, t_{k+1}) counts toward a zone when the zone is occupied at t_k.
 *
 * @throws Error when the pedestrian track has a different number of samples.
 */
export function socialMetrics(tr: Trajectory, peds: PedestrianTrack): SocialMetrics {
  if (peds.length !== tr.t.length) throw new Error(`socialMetrics: ${peds.length} pedestrian samples for ${tr.t.length} poses`);
  let minD = Infinity;
  let intimate = 0;
  let personal = 0;
  for (let k = 0; k < tr.t.length; k++) {
    let d = Infinity;
    for (const [px, py] of peds[k]) d = Math.min(d, Math.hypot(px - tr.x[k], py - tr.y[k]));
    minD = Math.min(minD, d);
    const dt = k + 1 < tr.t.length ? tr.t[k + 1] - tr.t[k] : 0;
    if (d < INTIMATE_DISTANCE) intimate += dt;
    if (d < PERSONAL_DISTANCE) personal += dt;
  }
  return { minPedestrianDistance: minD, timeWithinIntimate: intimate, timeWithinPersonal: personal };
}

/** Total absolute heading change along a polyline, radians. */
export function routeTurning(route: Vec2[]): number {
  let total = 0;
  let prev: number | null = null;
  for (let i = 1; i < route.length; i++) {
    const dx = route[i][0] - route[i - 1][0];
    const dy = route[i][1] - route[i - 1][1];
    if (dx === 0 && dy === 0) continue;
    const h = Math.atan2(dy, dx);
    if (prev !== null) total += Math.abs(wrapAngle(h - prev));
    prev = h;
  }
  return total;
}

/** Path irregularity, rad/m (see the module doc); 0 when nothing was travelled. */
export function pathIrregularity(tr: Trajectory, route: Vec2[]): number {
  let turning = 0;
  for (let k = 1; k < tr.t.length; k++) turning += Math.abs(wrapAngle(tr.yaw[k] - tr.yaw[k - 1]));
  const d = pathLength(tr);
  return d > 0 ? Math.max(0, turning - routeTurning(route)) / d : 0;
}

/**
 * Pedestrian-network adherence (UrbanGround's definition): the share of the episode's action
 * duration the robot spent on the pedestrian network (sidewalk or crosswalk), in [0, 1]. Each
 * interval [t_{k−1}, t_k] counts as on the network when the pose at its end, sample k, is;
 * 1 for an episode of no duration.
 *
 * @param onNetwork per trajectory sample: whether its position is on the network (same length as `tr.t`).
 * @throws RangeError when the lengths differ.
 */
export function networkAdherence(tr: Trajectory, onNetwork: readonly boolean[]): number {
  if (onNetwork.length !== tr.t.length) throw new RangeError(`networkAdherence: ${onNetwork.length} flags for ${tr.t.length} samples`);
  let on = 0;
  for (let k = 1; k < tr.t.length; k++) if (onNetwork[k]) on += tr.t[k] - tr.t[k - 1];
  const total = tr.t.length > 1 ? tr.t[tr.t.length - 1] - tr.t[0] : 0;
  return total > 0 ? on / total : 1;
}

/** Mean and sample standard deviation (n − 1); std is 0 for one value, both NaN for none. */
export function meanStd(values: number[]): { mean: number; std: number; n: number } {
  const n = values.length;
  if (n === 0) return { mean: NaN, std: NaN, n };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const v = n > 1 ? values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return { mean, std: Math.sqrt(v), n };
}

/** Median of a sample (the upper middle value for an even count), NaN for none. */
export function median(values: readonly number[]): number {
  return values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] : NaN;
}
