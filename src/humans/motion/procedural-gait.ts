/**
 * The procedural gait: one frame of an SMPL pose (24 axis-angle joints, body frame x forward,
 * y left, z up) from the gait phase, speed, turn rate, gesture and idle state.
 *
 * Foot placement first, joint angles second (so stance feet never slide):
 * 1. Stride from speed ({@link gaitParameters}: walk ratio, √v laws). The stride phase φ ∈ [0, 1)
 *    has the left heel strike at φ = 0; the right foot runs half a cycle later. A foot is in stance
 *    for local phase u < β (duty factor).
 * 2. During stance the foot is fixed in the world. The body moves forward at v and turns at ω, so in
 *    the body frame a world-fixed point turns about the turning centre c = (0, v/ω) by −ωτ (τ: time
 *    from mid-stance; straight line x₀ − vτ when ω ≈ 0). The foot rolls over three rockers
 *    (Perry & Burnfield 2010, ch. 3): heel (toes up → flat, about the heel), flat, forefoot (heel
 *    rises, about the ball joint); the pivot of each rocker is the world-fixed contact point.
 * 3. During swing the ankle moves from its lift-off pose to the next touchdown pose (smoothstep),
 *    lifted by up to 9 cm, toes down then up.
 * 4. Pelvis: height is the crouched rest height, lowered where needed so each stance ankle is within
 *    99.5 % of the leg's reach (the inverted-pendulum bob emerges); yaw rotation follows the legs;
 *    forward lean grows with speed; roll leans into turns (tan⁻¹(vω/g)); idle weight shift sways it.
 * 5. Legs by analytic IK (`leg-ik.ts`) to the ankle targets; spine counter-rotates; head keeps
 *    level and looks around when idle; arms swing opposite the legs or make the gesture.
 *
 * Starting and stopping need no special case: at v → 0 the stride, lift, rockers and swing all
 * shrink to zero and the feet come to their rest placement. While speed changes (start/stop ramps)
 * the stance foot moves by ∂(stride)/∂v · dv/dt in the body frame (≤ ≈ 0.15 m/s at 1 m/s²); steady
 * walking and steady turning have exactly stationary contact points (tested).
 */
import { createRng } from '../../core/random';
import { SMPL_JOINT_COUNT } from '../body-model';
import { gaitParameters } from './gait-parameters';
import { gestureArm, hangingArm, restCorrectedArm, type ArmPose, type Gesture } from './arms';
import { legReach, solveLeg } from './leg-ik';
import { QUAT_IDENTITY, quatAxis, quatConj, quatMul, quatRotate, quatSlerp, quatToAxisAngle, type Quat } from './rotation';
import { JOINT, jointAt, type MotionSkeleton } from './skeleton';

/** Floats per pose written by the motion code: 24×3 axis-angle then the root translation (3). */
export const POSE_FLOATS = 3 * SMPL_JOINT_COUNT + 3;
/** Standard gravity, m/s² (turn lean). */
const G = 9.81;

/** What one pedestrian is doing; the motion code turns it into a pose. */
export interface MotionState {
  /** Wanted forward walking speed, m/s: 0 to stand, 0.5–2.0 to walk (values between are transitions). */
  walkSpeed: number;
  /** Turn rate of the heading, rad/s, positive = left (counter-clockwise seen from above). */
  turnRate: number;
  /** Arm gesture (`stop`: raised hand; `talk`: conversing; `wave`). */
  gesture: Gesture;
  /** What standing looks like: `stand` (weight shifts) or `shuffle` (queue shuffling: small foot re-placements too). */
  idle: 'stand' | 'shuffle';
}

/** Per-pedestrian variation drawn once from a seed (deterministic). */
export interface MotionStyle {
  /** Initial stride phase, [0, 1). */
  phase0: number;
  /** Arm swing amplitude factor, ≈ 0.8–1.2. */
  armSwing: number;
  /** Weight-shift period, seconds (5–9). */
  weightShiftPeriod: number;
  /** Queue-shuffle period, seconds (2.5–4.5). */
  shufflePeriod: number;
  /** Phase for head, gesture and idle oscillations, radians. */
  phase: number;
  /** Seed for shuffle foot offsets. */
  seed: number;
}

/** Draws a {@link MotionStyle} from `seed` (uses the `motion-style` fork of the project RNG). */
export function motionStyle(seed: number): MotionStyle {
  const rng = createRng(seed).fork('motion-style');
  return {
    phase0: rng.next(),
    armSwing: rng.range(0.8, 1.2),
    weightShiftPeriod: rng.range(5, 9),
    shufflePeriod: rng.range(2.5, 4.5),
    phase: rng.range(0, 2 * Math.PI),
    seed: seed >>> 0,
  };
}

/** Everything a pose depends on at one instant. */
export interface GaitFrame {
  /** Stride phase of the left foot, any real (taken mod 1). */
  phase: number;
  /** Current forward speed, m/s (≥ 0). */
  speed: number;
  /** Current turn rate, rad/s. */
  turnRate: number;
  gesture: Gesture;
  /** Gesture blend weight in [0, 1] (0 = walking arms). */
  gestureWeight: number;
  idle: 'stand' | 'shuffle';
  /** Time, seconds (drives idle and gesture oscillations). */
  time: number;
  style: MotionStyle;
}

/** Where a foot is and how it is oriented, body frame. */
interface FootPose {
  ankle: number[];
  yaw: number;
  pitch: number;
  stance: boolean;
}

const smooth = (s: number) => s * s * (3 - 2 * s);
const frac = (x: number) => x - Math.floor(x);

/** Deterministic value in [−1, 1) from (seed, index, salt). */
function hash11(seed: number, k: number, salt: number): number {
  let h = Math.imul(seed ^ Math.imul(k + 0x9e37, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35), 0x27d4eb2f) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 31 - 1;
}

/** Per-foot rest geometry. */
interface FootGeometry {
  ankle: number[];
  ball: number[];
  heel: number[];
}

function footGeometry(s: MotionSkeleton, side: 'left' | 'right'): FootGeometry {
  const ankle = jointAt(s, side === 'left' ? JOINT.leftAnkle : JOINT.rightAnkle);
  const ball = jointAt(s, side === 'left' ? JOINT.leftFoot : JOINT.rightFoot);
  const heel = [ankle[0] - 0.5 * (ball[0] - ankle[0]), ankle[1], Math.min(ball[2], 0.02)];
  return { ankle, ball, heel };
}

/** Body-frame position at time τ (from mid-stance) of a world-fixed point at (x₀, y₀) at τ = 0. */
function worldFixed(x0: number, y0: number, v: number, w: number, tau: number): [number, number] {
  if (Math.abs(w) < 1e-4) return [x0 - v * tau, y0];
  const r = v / w;
  const a = -w * tau;
  const c = Math.cos(a), s = Math.sin(a);
  const dx = x0, dy = y0 - r;
  return [c * dx - s * dy, r + s * dx + c * dy];
}

/** Ankle pose when the foot (flat placement at `flat`, yaw) is pitched about a pivot (rest offsets). */
function pitchedAbout(geo: FootGeometry, pivot: number[], flatX: number, flatY: number, yaw: number, pitch: number): number[] {
  // Pivot location for the flat placement, then ankle = pivot + R_z(yaw) R_y(pitch) (ankle − pivot)_rest.
  const rz = quatAxis([0, 0, 1], yaw);
  const off = quatRotate(rz, [pivot[0] - geo.ankle[0], pivot[1] - geo.ankle[1], pivot[2] - geo.ankle[2]]);
  const p = [flatX + off[0], flatY + off[1], geo.ankle[2] + off[2]];
  const r = quatMul(rz, quatAxis([0, 1, 0], pitch));
  const back = quatRotate(r, [geo.ankle[0] - pivot[0], geo.ankle[1] - pivot[1], geo.ankle[2] - pivot[2]]);
  return [p[0] + back[0], p[1] + back[1], p[2] + back[2]];
}

/** Stance-foot pose at local phase u ∈ [0, β). */
function stanceFoot(geo: FootGeometry, x0: number, y0: number, u: number, beta: number, period: number, v: number, w: number, liftScale: number): FootPose {
  const tau = (u - beta / 2) * period;
  const [fx, fy] = worldFixed(x0, y0, v, w, tau);
  const yaw = -w * tau;
  const h1 = 0.12 * beta, h2 = 0.6 * beta;
  const p0 = 0.2 * liftScale, p1 = 0.55 * liftScale;
  let pitch = 0, pivot = geo.ankle;
  if (u < h1) {
    pitch = -p0 * (1 - u / h1) ** 2;
    pivot = geo.heel;
  } else if (u > h2) {
    pitch = p1 * ((u - h2) / (beta - h2)) ** 2;
    pivot = geo.ball;
  }
  return { ankle: pitchedAbout(geo, pivot, fx, fy, yaw, pitch), yaw, pitch, stance: true };
}

/** Foot pose of one side for the frame (stance, swing, or standing with idle offsets). */
function footPose(s: MotionSkeleton, side: 'left' | 'right', f: GaitFrame, beta: number, period: number, liftScale: number): FootPose {
  const geo = footGeometry(s, side);
  const u = frac(f.phase + (side === 'right' ? 0.5 : 0));
  const v = f.speed, w = f.turnRate;
  const standWeight = 1 - Math.min(1, v / 0.3);
  // Idle foot offsets (queue shuffle): foot re-placed every other shuffle period, alternating sides.
  let ox = 0, oy = side === 'left' ? 0.015 : -0.015, lift = 0;
  if (f.idle === 'shuffle' && standWeight > 0) {
    const T = f.style.shufflePeriod;
    const k = Math.floor(f.time / T);
    const mine = side === 'left' ? 0 : 1;
    const last = (k - mine) % 2 === 0 ? k : k - 1; // last index at which this foot moved
    const offset = (j: number) => [0.05 * hash11(f.style.seed, j, 1), 0.03 * hash11(f.style.seed, j, 2)];
    const a = offset(last - 2), b = offset(last);
    const s01 = Math.min(1, (f.time - last * T) / 0.6);
    const e = smooth(Math.max(0, s01));
    ox = (a[0] + e * (b[0] - a[0])) * standWeight;
    oy += (a[1] + e * (b[1] - a[1])) * standWeight;
    lift = 0.04 * Math.sin(Math.PI * s01) * standWeight;
  }
  const x0 = geo.ankle[0] + ox, y0 = geo.ankle[1] + oy;
  if (u < beta) {
    const pose = stanceFoot(geo, x0, y0, u, beta, period, v, w, liftScale);
    pose.ankle[2] += lift;
    return pose;
  }
  const sw = (u - beta) / (1 - beta);
  const off = stanceFoot(geo, x0, y0, beta - 1e-9, beta, period, v, w, liftScale);
  const on = stanceFoot(geo, x0, y0, 0, beta, period, v, w, liftScale);
  const e = smooth(sw);
  const ankle = [0, 1, 2].map((i) => off.ankle[i] + e * (on.ankle[i] - off.ankle[i]));
  ankle[2] += 0.09 * liftScale * Math.sin(Math.PI * sw) + lift;
  const pitch = off.pitch + sw * (on.pitch - off.pitch) + 0.25 * liftScale * Math.sin(Math.PI * sw) * (1 - 2 * sw);
  return { ankle, yaw: off.yaw + e * (on.yaw - off.yaw), pitch, stance: false };
}

/**
 * Writes the pose for one frame into `out[offset … offset + POSE_FLOATS)`: 24×3 axis-angle
 * (radians, body frame, SMPL convention) then the root translation (metres, body frame, added to
 * the pelvis joint; x and y stay near 0, the pedestrian's world position moves instead).
 *
 * @param s rest skeleton the pose is for (IK uses its bone lengths).
 * @throws RangeError when speed is negative or not finite.
 */
export function gaitPose(s: MotionSkeleton, f: GaitFrame, out: Float32Array = new Float32Array(POSE_FLOATS), offset = 0): Float32Array {
  const legLength = jointAt(s, JOINT.leftHip)[2];
  const g = gaitParameters(f.speed, legLength);
  const beta = g.dutyFactor;
  const period = 1 / g.strideFrequency;
  const v = f.speed, w = f.turnRate;
  const liftScale = Math.min(1, v / 0.8);
  const standWeight = 1 - Math.min(1, v / 0.3);
  const tau = 2 * Math.PI;
  const ph = f.style.phase;
  const feet = { left: footPose(s, 'left', f, beta, period, liftScale), right: footPose(s, 'right', f, beta, period, liftScale) };

  // Pelvis rotation: yaw with the legs (left hip forward at left heel strike), lean, turn roll, idle roll.
  const pelvisRest = jointAt(s, JOINT.pelvis);
  const sway = 0.035 * standWeight * Math.sin((tau * f.time) / f.style.weightShiftPeriod + ph);
  const yaw = -0.07 * liftScale * Math.cos(tau * f.phase);
  const roll = -Math.atan((v * w) / G) + 1.5 * sway;
  const pitch = 0.03 + 0.03 * Math.min(v, 2);
  const root = quatMul(quatAxis([0, 0, 1], yaw), quatMul(quatAxis([1, 0, 0], roll), quatAxis([0, 1, 0], pitch)));

  // Pelvis height: crouched rest height, limited by each stance ankle's reach.
  let pz = pelvisRest[2] - (0.015 + 0.015 * Math.min(v, 2)) - 0.012 * Math.abs(sway) / 0.035;
  const trans = [0, sway, 0];
  for (const side of ['left', 'right'] as const) {
    const foot = feet[side];
    if (!foot.stance && standWeight === 0) continue;
    const hipRel = quatRotate(root, jointAt(s, side === 'left' ? JOINT.leftHip : JOINT.rightHip).map((x, i) => x - pelvisRest[i]));
    const dx = foot.ankle[0] - (pelvisRest[0] + hipRel[0]);
    const dy = foot.ankle[1] - (pelvisRest[1] + trans[1] + hipRel[1]);
    const reach = 0.995 * legReach(s, side);
    const maxZ = foot.ankle[2] + Math.sqrt(Math.max(0, reach * reach - dx * dx - dy * dy)) - hipRel[2];
    pz = Math.min(pz, maxZ);
  }
  trans[2] = pz - pelvisRest[2];

  const local: Quat[] = Array.from({ length: SMPL_JOINT_COUNT }, () => [...QUAT_IDENTITY] as Quat);
  local[JOINT.pelvis] = root;
  // Legs.
  const rootInv = quatConj(root);
  for (const side of ['left', 'right'] as const) {
    const foot = feet[side];
    const hipJ = side === 'left' ? JOINT.leftHip : JOINT.rightHip;
    const hipWorld = quatRotate(root, jointAt(s, hipJ).map((x, i) => x - pelvisRest[i]));
    const pelvisPos = [pelvisRest[0] + trans[0], pelvisRest[1] + trans[1], pelvisRest[2] + trans[2]];
    const target = quatRotate(rootInv, foot.ankle.map((x, i) => x - pelvisPos[i]));
    const hipLocal = quatRotate(rootInv, hipWorld);
    const heading = quatRotate(rootInv, [Math.cos(foot.yaw), Math.sin(foot.yaw), 0]);
    const footGlobal = quatMul(rootInv, quatMul(quatAxis([0, 0, 1], foot.yaw), quatAxis([0, 1, 0], foot.pitch)));
    const leg = solveLeg(s, side, hipLocal, target, heading, footGlobal);
    local[hipJ] = leg.hip;
    local[side === 'left' ? JOINT.leftKnee : JOINT.rightKnee] = leg.knee;
    local[side === 'left' ? JOINT.leftAnkle : JOINT.rightAnkle] = leg.ankle;
  }

  // Spine: undo the pelvis yaw and lean over three joints (thorax counter-rotates a little more).
  const spineYaw = -yaw * 0.45;
  const spineRoll = -roll * 0.3 - 2 * sway;
  const breathe = 0.015 * Math.sin((tau * f.time) / 4 + ph) * standWeight;
  for (const j of [JOINT.spine1, JOINT.spine2, JOINT.spine3]) {
    local[j] = quatMul(quatAxis([0, 0, 1], spineYaw), quatMul(quatAxis([1, 0, 0], spineRoll / 3), quatAxis([0, 1, 0], -pitch / 3 + breathe)));
  }
  // Head: level gaze; looks into turns; looks around when idle; nods when talking.
  const talk = f.gesture === 'talk' ? f.gestureWeight : 0;
  const look = 0.35 * Math.tanh(w) + standWeight * 0.3 * Math.sin((tau * f.time) / 11 + ph) + talk * 0.15 * Math.sin(tau * 0.3 * f.time + ph);
  const nod = talk * 0.08 * Math.sin(tau * 1.3 * f.time + ph);
  local[JOINT.neck] = quatAxis([0, 0, 1], look * 0.4);
  local[JOINT.head] = quatMul(quatAxis([0, 0, 1], look * 0.6), quatAxis([0, 1, 0], nod - pitch * 0.5));

  // Arms: swing opposite the legs (left arm forward at right heel strike), or the gesture.
  const swingAmp = (0.12 + 0.2 * Math.min(v, 2)) * f.style.armSwing * Math.min(1, v / 0.5);
  const armPhase = Math.cos(tau * f.phase);
  const arms: Record<'left' | 'right', ArmPose> = {
    left: hangingArm(1, -swingAmp * armPhase, 0.25 + 0.3 * Math.min(v, 2) * 0.5),
    right: hangingArm(-1, swingAmp * armPhase, 0.25 + 0.3 * Math.min(v, 2) * 0.5),
  };
  if (f.gestureWeight > 0) {
    for (const side of ['left', 'right'] as const) {
      const gArm = gestureArm(f.gesture, side === 'left' ? 1 : -1, f.time, ph);
      if (!gArm) continue;
      const a = arms[side];
      arms[side] = {
        shoulder: quatSlerp(a.shoulder, gArm.shoulder, f.gestureWeight),
        elbow: quatSlerp(a.elbow, gArm.elbow, f.gestureWeight),
        wrist: quatSlerp(a.wrist, gArm.wrist, f.gestureWeight),
      };
    }
  }
  // A rest skeleton with arms off ±y (MakeHuman's A-pose): rotate from its rest, not the T-pose.
  const restDir = (a: number, b: number) => jointAt(s, b).map((x, i) => x - jointAt(s, a)[i]);
  arms.left = restCorrectedArm(1, arms.left, restDir(JOINT.leftShoulder, JOINT.leftElbow), restDir(JOINT.leftElbow, JOINT.leftWrist));
  arms.right = restCorrectedArm(-1, arms.right, restDir(JOINT.rightShoulder, JOINT.rightElbow), restDir(JOINT.rightElbow, JOINT.rightWrist));
  local[JOINT.leftShoulder] = arms.left.shoulder;
  local[JOINT.leftElbow] = arms.left.elbow;
  local[JOINT.leftWrist] = arms.left.wrist;
  local[JOINT.rightShoulder] = arms.right.shoulder;
  local[JOINT.rightElbow] = arms.right.elbow;
  local[JOINT.rightWrist] = arms.right.wrist;

  for (let k = 0; k < SMPL_JOINT_COUNT; k++) quatToAxisAngle(local[k], out, offset + 3 * k);
  out.set(trans, offset + 3 * SMPL_JOINT_COUNT);
  return out;
}
