/**
 * The waypoint PD controller that ViNT, NoMaD and CityWalker deploy (visualnav-transformer,
 * `deployment/src/pd_controller.py`), which SidewalkBench uses to turn predicted waypoints into
 * (v, ω): for the chosen waypoint (dx, dy) in the robot frame (x forward, y left), over the control
 * period Δt = 1/rate,
 *
 *   dx ≈ 0 and a heading (hx, hy) given:  v = 0, ω = atan2(hy, hx)/Δt      (turn in place)
 *   dx ≈ 0:                               v = 0, ω = sign(dy)·π/(2Δt)
 *   otherwise:                            v = dx/Δt, ω = atan(dy/dx)/Δt
 *
 * then v is clipped to [0, maxV] and ω to [−maxW, maxW].
 */
import { wrapAngle, type VelocityCommand } from './unicycle';

/** Below this |dx| (metres) a waypoint counts as straight beside or on the robot (the reference's EPS). */
export const PD_EPS = 1e-8;

/** Parameters of the PD controller. */
export interface PdControllerParams {
  /** Control rate, Hz (the policy's rate from its manifest). */
  rateHz: number;
  /** Speed limits, m/s and rad/s. */
  maxV: number;
  maxW: number;
  /** Index of the waypoint used from a predicted sequence (ViNT/NoMaD deploy index 2). */
  waypointIndex: number;
  /**
   * When set, waypoints are normalised (ViNT/NoMaD `normalize: True`) and multiplied by
   * maxV / rateHz to get metres, as in the deployment code.
   */
  normalized: boolean;
}

/**
 * Turns one waypoint (robot frame, metres; optional heading (hx, hy)) into a velocity command.
 *
 * @throws Error when the waypoint has non-finite values.
 */
export function pdControl(dx: number, dy: number, p: PdControllerParams, heading?: [number, number]): VelocityCommand {
  if (![dx, dy, ...(heading ?? [])].every(Number.isFinite)) throw new Error(`pdControl: non-finite waypoint (${dx}, ${dy})`);
  const dt = 1 / p.rateHz;
  let v: number;
  let w: number;
  if (heading && Math.abs(dx) < PD_EPS && Math.abs(dy) < PD_EPS) {
    v = 0;
    w = wrapAngle(Math.atan2(heading[1], heading[0])) / dt;
  } else if (Math.abs(dx) < PD_EPS) {
    v = 0;
    w = (Math.sign(dy) * Math.PI) / (2 * dt);
  } else {
    v = dx / dt;
    w = Math.atan(dy / dx) / dt;
  }
  return { v: Math.min(p.maxV, Math.max(0, v)), w: Math.min(p.maxW, Math.max(-p.maxW, w)) };
}

/**
 * Picks `waypointIndex` from a predicted sequence (K×D, D = 2 or 4, robot frame), applies the
 * normalisation scale, and runs {@link pdControl}.
 *
 * @throws Error when the sequence is shorter than the index or D is not 2 or 4.
 */
export function pdControlSequence(waypoints: ArrayLike<number>, dims: number, p: PdControllerParams): VelocityCommand {
  if (dims !== 2 && dims !== 4) throw new Error(`pdControlSequence: waypoint dimension must be 2 or 4, got ${dims}`);
  const k = waypoints.length / dims;
  if (p.waypointIndex >= k) throw new Error(`pdControlSequence: waypoint index ${p.waypointIndex} but only ${k} waypoints`);
  const o = p.waypointIndex * dims;
  const scale = p.normalized ? p.maxV / p.rateHz : 1;
  const heading: [number, number] | undefined = dims === 4 ? [waypoints[o + 2], waypoints[o + 3]] : undefined;
  return pdControl(waypoints[o] * scale, waypoints[o + 1] * scale, p, heading);
}
