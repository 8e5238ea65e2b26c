/**
 * Turns a model's output into velocity commands: waypoints [B, K, D] through the PD controller that
 * ViNT, NoMaD and CityWalker deploy (src/robot/pd-controller.ts, `pdControlSequence`), or (v, ω)
 * [B, 2] clipped to the robot's limits.
 */
import { pdControlSequence } from '../robot/pd-controller';
import type { RobotSpec } from '../robot/robot-spec';
import type { VelocityCommand } from '../robot/unicycle';
import type { PolicyManifest } from './manifest';
import type { PolicyAction } from './policy';

/**
 * Decodes one run's output for B environments.
 *
 * Waypoints: x and y are multiplied by `output.scale`, then `pdControlSequence` follows waypoint
 * `output.waypointIndex` over the control period 1/rateHz (with `normalized`, x and y are in units
 * of maxV/rateHz, as in ViNT/NoMaD deployment). Returned waypoints are in metres (both factors
 * applied), robot frame. Commands: v clipped to [0, maxV], ω to [−maxW, maxW].
 *
 * @param data Row-major output, [B, K, D] or [B, 2].
 * @throws Error `<model>: output '<name>' …` when its length does not match B and the manifest, or
 *   a value is not finite.
 */
export function decodePolicyOutput(m: PolicyManifest, data: ArrayLike<number>, batch: number, robot: RobotSpec): PolicyAction {
  const o = m.output;
  const per = o.kind === 'waypoints' ? o.count * o.dims : 2;
  if (data.length !== batch * per) {
    throw new Error(`${m.name}: output '${o.name}' has ${data.length} values, expected ${batch} × ${per}`);
  }
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i])) throw new Error(`${m.name}: output '${o.name}' value ${i} (environment ${Math.floor(i / per)}) is ${data[i]}`);
  }
  const maxV = robot.maxLinearSpeed;
  const maxW = robot.maxAngularSpeed;
  const commands: VelocityCommand[] = [];
  if (o.kind === 'cmd') {
    for (let b = 0; b < batch; b++) {
      commands.push({ v: Math.min(maxV, Math.max(0, data[2 * b])), w: Math.min(maxW, Math.max(-maxW, data[2 * b + 1])) });
    }
    return { commands };
  }
  const waypoints: Float32Array[] = [];
  const metres = o.normalized ? maxV / m.rateHz : 1;
  for (let b = 0; b < batch; b++) {
    const seq = Float32Array.from({ length: per }, (_, i) => data[b * per + i]);
    for (let k = 0; k < o.count; k++) {
      seq[k * o.dims] *= o.scale;
      seq[k * o.dims + 1] *= o.scale;
    }
    commands.push(pdControlSequence(seq, o.dims, { rateHz: m.rateHz, maxV, maxW, waypointIndex: o.waypointIndex, normalized: o.normalized }));
    for (let k = 0; k < o.count; k++) {
      seq[k * o.dims] *= metres;
      seq[k * o.dims + 1] *= metres;
    }
    waypoints.push(seq);
  }
  return { commands, waypoints };
}
