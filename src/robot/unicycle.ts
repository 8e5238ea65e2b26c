/**
 * Unicycle kinematics with acceleration limits, integrated exactly along arcs.
 *
 *   ẋ = v cos θ,  ẏ = v sin θ,  θ̇ = ω   (world frame, Z up, θ the yaw from +x, counter-clockwise)
 *
 * Over a sub-step with constant (v, ω) the pose moves along a circular arc (exact integration),
 * so the result does not depend on how the control step is divided when commands are constant.
 */
import type { RobotSpec } from './robot-spec';

/** Robot state in the world frame. */
export interface RobotState {
  /** Base position, metres. */
  x: number;
  y: number;
  /** Yaw, radians, wrapped to (−π, π]. */
  yaw: number;
  /** Current forward speed, m/s, and yaw rate, rad/s. */
  v: number;
  w: number;
}

/** A velocity command (v forward m/s, ω yaw rate rad/s). */
export interface VelocityCommand {
  v: number;
  w: number;
}

/** Wraps an angle to (−π, π]. */
export function wrapAngle(a: number): number {
  const t = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
  return t === -Math.PI ? Math.PI : t;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * Advances `state` by one physics sub-step `dt` toward `cmd` (clamped to the speed limits, reached
 * under the acceleration limits), then moves the pose along the arc of the new (v, ω). Mutates and
 * returns `state`.
 *
 * @throws Error when the command is not finite (a NaN action must never move the robot silently).
 */
export function stepUnicycle(state: RobotState, cmd: VelocityCommand, dt: number, spec: RobotSpec): RobotState {
  if (!Number.isFinite(cmd.v) || !Number.isFinite(cmd.w)) throw new Error(`stepUnicycle: non-finite command (v=${cmd.v}, w=${cmd.w})`);
  const vTarget = clamp(cmd.v, 0, spec.maxLinearSpeed);
  const wTarget = clamp(cmd.w, -spec.maxAngularSpeed, spec.maxAngularSpeed);
  state.v += clamp(vTarget - state.v, -spec.maxLinearAccel * dt, spec.maxLinearAccel * dt);
  state.w += clamp(wTarget - state.w, -spec.maxAngularAccel * dt, spec.maxAngularAccel * dt);
  const { v, w } = state;
  const dTheta = w * dt;
  if (Math.abs(dTheta) < 1e-9) {
    state.x += v * dt * Math.cos(state.yaw + dTheta / 2);
    state.y += v * dt * Math.sin(state.yaw + dTheta / 2);
  } else {
    const r = v / w;
    state.x += r * (Math.sin(state.yaw + dTheta) - Math.sin(state.yaw));
    state.y -= r * (Math.cos(state.yaw + dTheta) - Math.cos(state.yaw));
  }
  state.yaw = wrapAngle(state.yaw + dTheta);
  return state;
}

/** A point in the robot frame (x forward, y left) → world frame. */
export function robotToWorld(state: RobotState, px: number, py: number): [number, number] {
  const c = Math.cos(state.yaw);
  const s = Math.sin(state.yaw);
  return [state.x + c * px - s * py, state.y + s * px + c * py];
}

/** A world point → robot frame (x forward, y left). */
export function worldToRobot(state: RobotState, wx: number, wy: number): [number, number] {
  const dx = wx - state.x;
  const dy = wy - state.y;
  const c = Math.cos(state.yaw);
  const s = Math.sin(state.yaw);
  return [c * dx + s * dy, -s * dx + c * dy];
}

/** The footprint rectangle's corners in the world frame, counter-clockwise from front-left. */
export function footprintCorners(state: RobotState, spec: RobotSpec): [number, number][] {
  const hx = spec.length / 2;
  const hy = spec.width / 2;
  const o = spec.footprintOffsetX;
  return [
    robotToWorld(state, o + hx, hy),
    robotToWorld(state, o - hx, hy),
    robotToWorld(state, o - hx, -hy),
    robotToWorld(state, o + hx, -hy),
  ];
}
