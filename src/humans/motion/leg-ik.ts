/**
 * Analytic two-bone leg inverse kinematics on the SMPL tree (hip 3 DOF, knee 1 DOF about its
 * local y, ankle 3 DOF), used by the procedural gait to put each ankle exactly where foot placement
 * wants it (so stance feet do not slide).
 *
 * Method: the knee angle b solves |t₀ + R_y(b) s₀| = D in closed form (t₀, s₀ rest thigh and shin
 * vectors; |·|² = a + A cos b + B sin b, law of cosines); the hip rotation maps the bent rest leg
 * onto the hip→ankle vector with the knee facing the foot's heading (two orthonormal frames,
 * R = F_target F_restᵀ); the ankle takes the remaining rotation so the foot has its wanted
 * orientation. All in the pelvis frame, so any pelvis rotation is compensated.
 */
import { quatConj, quatFromMat3, quatMul, quatRotate, type Quat } from './rotation';
import { JOINT, jointAt, type MotionSkeleton } from './skeleton';

/** Result of {@link solveLeg}: local rotations (SMPL convention) and whether the target was reached. */
export interface LegSolution {
  hip: Quat;
  knee: Quat;
  ankle: Quat;
  /** Distance from the reached ankle position to the target, metres (0 when reachable). */
  error: number;
}

const sub = (a: readonly number[], b: readonly number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: readonly number[], b: readonly number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: readonly number[]) => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Frame with columns u, w (w made orthogonal to u), u × w, as a row-major matrix. */
function frame(u: readonly number[], w: readonly number[]): number[] {
  const un = norm(u);
  let wo = sub(w, un.map((x) => x * dot(w, un)));
  if (Math.hypot(wo[0], wo[1], wo[2]) < 1e-9) wo = Math.abs(un[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1];
  const wn = norm(wo);
  const c = cross(un, wn);
  return [un[0], wn[0], c[0], un[1], wn[1], c[1], un[2], wn[2], c[2]];
}

/** Largest hip→ankle distance the leg reaches without hyperextending the knee (b = 0), metres. */
export function legReach(s: MotionSkeleton, side: 'left' | 'right'): number {
  const [h, a] = side === 'left' ? [JOINT.leftHip, JOINT.leftAnkle] : [JOINT.rightHip, JOINT.rightAnkle];
  const d = sub(jointAt(s, a), jointAt(s, h));
  return Math.hypot(d[0], d[1], d[2]);
}

/**
 * Solves one leg.
 *
 * @param hipPos hip joint position, pelvis-frame axes, metres (any origin shared with `target`).
 * @param target wanted ankle position, pelvis-frame axes, metres, same origin as `hipPos`.
 * @param heading forward direction of the foot, pelvis frame (the knee faces it).
 * @param footGlobal wanted foot orientation in the pelvis frame (rotation of the ankle's children).
 * @returns local rotations of hip (relative to the pelvis), knee and ankle.
 */
export function solveLeg(
  s: MotionSkeleton,
  side: 'left' | 'right',
  hipPos: readonly number[],
  target: readonly number[],
  heading: readonly number[],
  footGlobal: Quat,
): LegSolution {
  const [h, k, a] = side === 'left' ? [JOINT.leftHip, JOINT.leftKnee, JOINT.leftAnkle] : [JOINT.rightHip, JOINT.rightKnee, JOINT.rightAnkle];
  const t0 = sub(jointAt(s, k), jointAt(s, h));
  const s0 = sub(jointAt(s, a), jointAt(s, k));
  // |t0 + R_y(b) s0|² = |t0|² + |s0|² + 2 (A cos b + B sin b + C), R_y(b): x' = x cos b + z sin b, z' = −x sin b + z cos b.
  const A = t0[0] * s0[0] + t0[2] * s0[2];
  const B = t0[0] * s0[2] - t0[2] * s0[0];
  const C = t0[1] * s0[1];
  const base = dot(t0, t0) + dot(s0, s0) + 2 * C;
  const R = Math.hypot(A, B);
  const delta = Math.atan2(B, A);
  const d = sub(target, hipPos);
  const want = Math.hypot(d[0], d[1], d[2]);
  const reach0 = Math.sqrt(base + 2 * A); // b = 0
  const bMax = 2.6;
  const reachMin = Math.sqrt(Math.max(1e-6, base + 2 * (A * Math.cos(bMax) + B * Math.sin(bMax))));
  const D = Math.min(reach0, Math.max(reachMin, want));
  const kCos = Math.min(1, Math.max(-1, (D * D - base) / (2 * R)));
  const b = Math.min(bMax, Math.max(0, delta + Math.acos(kCos)));
  const cb = Math.cos(b), sb = Math.sin(b);
  const shin = [s0[0] * cb + s0[2] * sb, s0[1], -s0[0] * sb + s0[2] * cb];
  const legRest = [t0[0] + shin[0], t0[1] + shin[1], t0[2] + shin[2]];
  const dir = want > 1e-9 ? d : [0, 0, -1];
  const fRest = frame(legRest, [1, 0, 0]);
  const fTarget = frame(dir, heading);
  // R = F_target · F_restᵀ
  const m = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = fTarget[3 * i] * fRest[3 * j] + fTarget[3 * i + 1] * fRest[3 * j + 1] + fTarget[3 * i + 2] * fRest[3 * j + 2];
  const hip = quatFromMat3(m);
  const knee: Quat = [Math.cos(b / 2), 0, Math.sin(b / 2), 0];
  const ankle = quatMul(quatConj(quatMul(hip, knee)), footGlobal);
  const reached = quatRotate(hip, legRest);
  const error = Math.hypot(reached[0] - d[0], reached[1] - d[1], reached[2] - d[2]);
  return { hip, knee, ankle, error };
}
