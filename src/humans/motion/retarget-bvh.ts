/**
 * Retargets CMU BVH clips (`../shared/data/motion/cmu/`) onto SMPL's 24 joints.
 *
 * Method (global-rotation transfer with rest-pose correction):
 * 1. Axes: BVH files here are Y up, +Z forward (the subject faces +Z in the rest pose), +X left,
 *    so the body-frame map is `Y_UP_TO_BODY` (x, y, z) → (z, x, y), the same as SMPL's.
 * 2. For each SMPL joint k mapped to BVH joint b (tables below), the body-frame global rotation
 *    is G_k = M G_b Mᵀ · C_k, where C_k is the shortest rotation taking the target skeleton's rest
 *    bone direction (k → its chain child) onto the BVH rest bone direction (b → the child's mapped
 *    joint). This removes rest-pose differences (CMU's rest legs splay outward and its arms hang
 *    in the ASF rest pose; SMPL's rest is a T-pose) while keeping the BVH bone twist.
 *    Unmapped SMPL joints take their parent's global rotation (local identity); unmapped BVH
 *    joints (e.g. `LHipJoint`, `Neck`) still act through their children's global rotations.
 * 3. Local SMPL rotations θ_k = G_parent(k)ᵀ G_k, written as axis-angle.
 * 4. Root: the BVH root position in metres (unit scale per skeleton), scaled by
 *    target pelvis height / source pelvis height so strides fit the target legs; x, y relative to
 *    frame 0; z such that the pelvis height matches.
 *
 * Units: `cgspeed_mb` uses CMU ASF units, 1 unit = (1/0.45) inch = 0.056444 m (CMU ASF `:units
 * length 0.45`, inches); `snu_mrl` is centimetres (its readme). Pristine cgspeed files carry a
 * T-pose as frame 0 (integer values, zero root rotation): skipped when detected.
 */
import { SMPL_JOINT_COUNT, SMPL_JOINT_NAMES, SMPL_PARENTS, Y_UP_TO_BODY } from '../body-model';
import { bvhGlobalPose, bvhRestPositions, type BvhClip } from './bvh';
import type { MotionClip } from './clip';
import { QUAT_IDENTITY, quatBetween, quatConj, quatFromMat3, quatMul, quatRotate, quatToAxisAngle, type Quat } from './rotation';
import { defaultSkeleton, JOINT, jointAt, type MotionSkeleton } from './skeleton';

/** A BVH skeleton Curbside knows: SMPL joint name → BVH joint name (null = no counterpart). */
export type BvhJointMap = Record<string, string | null>;

/**
 * cgspeed "MotionBuilder-friendly" CMU skeleton (31 joints, MakeHuman `cmu_mb` names) → SMPL.
 * Unmapped: LHipJoint/RHipJoint (zero-length, folded into the hips), Neck (at the chest, folded
 * into Neck1), finger and thumb joints.
 */
export const CGSPEED_MB_TO_SMPL: BvhJointMap = {
  pelvis: 'Hips', leftHip: 'LeftUpLeg', rightHip: 'RightUpLeg', spine1: 'LowerBack', leftKnee: 'LeftLeg',
  rightKnee: 'RightLeg', spine2: 'Spine', leftAnkle: 'LeftFoot', rightAnkle: 'RightFoot', spine3: 'Spine1',
  leftFoot: 'LeftToeBase', rightFoot: 'RightToeBase', neck: 'Neck1', leftCollar: 'LeftShoulder',
  rightCollar: 'RightShoulder', head: 'Head', leftShoulder: 'LeftArm', rightShoulder: 'RightArm',
  leftElbow: 'LeftForeArm', rightElbow: 'RightForeArm', leftWrist: 'LeftHand', rightWrist: 'RightHand',
  leftHand: 'LeftFingerBase', rightHand: 'RightFingerBase',
};

/**
 * SNU Movement Research Lab retargeted CMU skeleton (19 joints, 30 fps, cm) → SMPL. Its `thorax`
 * spans lower back to neck (SMPL spine2, spine3 follow it); its `head` joint sits at the neck base
 * (→ SMPL neck; SMPL head follows); it has no hand joint (SMPL hands follow the wrists).
 */
export const SNU_MRL_TO_SMPL: BvhJointMap = {
  pelvis: 'pelvis', leftHip: 'lfemur', rightHip: 'rfemur', spine1: 'thorax', leftKnee: 'ltibia',
  rightKnee: 'rtibia', spine2: null, leftAnkle: 'lfoot', rightAnkle: 'rfoot', spine3: null,
  leftFoot: 'ltoes', rightFoot: 'rtoes', neck: 'head', leftCollar: 'lclavicle', rightCollar: 'rclavicle',
  head: null, leftShoulder: 'lhumerus', rightShoulder: 'rhumerus', leftElbow: 'lradius',
  rightElbow: 'rradius', leftWrist: 'lhand', rightWrist: 'rhand', leftHand: null, rightHand: null,
};

/** Metres per file unit of each known skeleton (see the module doc). */
export const BVH_UNIT_SCALE = { cgspeed_mb: 0.0254 / 0.45, snu_mrl: 0.01 } as const;

/** Which chain child defines each SMPL joint's bone direction (−1: none, rest orientation kept). */
const DIRECTION_CHILD: readonly number[] = [
  -1, JOINT.leftKnee, JOINT.rightKnee, JOINT.spine2, JOINT.leftAnkle, JOINT.rightAnkle, JOINT.spine3,
  JOINT.leftFoot, JOINT.rightFoot, JOINT.neck, -1, -1, JOINT.head, JOINT.leftShoulder, JOINT.rightShoulder,
  -1, JOINT.leftElbow, JOINT.rightElbow, JOINT.leftWrist, JOINT.rightWrist, JOINT.leftHand, JOINT.rightHand, -1, -1,
];

/** Options of {@link retargetBvh}. */
export interface BvhRetargetOptions {
  /** Joint table (default: detected from the joint names). */
  map?: BvhJointMap;
  /** Metres per file unit (default: by detected skeleton). */
  unitScale?: number;
  /** Target rest skeleton (default: the built-in body's). */
  skeleton?: MotionSkeleton;
  /** Drop frame 0 when it is cgspeed's added T-pose (default: detect). */
  skipTPose?: boolean;
}

/**
 * Detects the skeleton by its joint names.
 *
 * @throws Error naming the file when it is neither cgspeed_mb nor snu_mrl.
 */
export function detectBvhSkeleton(clip: BvhClip, file: string): keyof typeof BVH_UNIT_SCALE {
  const names = new Set(clip.joints.map((j) => j.name));
  if (names.has('Hips') && names.has('LeftUpLeg') && names.has('Spine1')) return 'cgspeed_mb';
  if (names.has('pelvis') && names.has('lfemur') && names.has('thorax')) return 'snu_mrl';
  throw new Error(`${file}: unknown BVH skeleton (root ${clip.joints[0]?.name}); pass a joint map and unit scale`);
}

const M = quatFromMat3(Y_UP_TO_BODY as number[]);
const toBody = (v: readonly number[]) => quatRotate(M, v);

/** True when frame 0 looks like cgspeed's added T-pose (zero root rotation, integer values). */
function isTPoseFrame(clip: BvhClip): boolean {
  if (clip.frameCount < 2) return false;
  const root = clip.joints[0];
  const rot = root.channels.map((c, i) => (c.endsWith('rotation') ? clip.values[root.channelOffset + i] : 0));
  if (rot.some((v) => v !== 0)) return false;
  for (let c = 0; c < clip.channelCount; c++) {
    const ch = clip.joints.find((j) => c >= j.channelOffset && c < j.channelOffset + j.channels.length)!;
    if (ch.channels[c - ch.channelOffset].endsWith('rotation') && !Number.isInteger(clip.values[c])) return false;
  }
  return true;
}

/**
 * Retargets a parsed BVH clip to SMPL poses (see the module doc).
 *
 * @param file name for errors and the clip's name.
 * @throws Error when a mapped joint is missing from the file.
 */
export function retargetBvh(clip: BvhClip, file: string, options: BvhRetargetOptions = {}): MotionClip {
  const kind = options.map && options.unitScale ? null : detectBvhSkeleton(clip, file);
  const map = options.map ?? (kind === 'snu_mrl' ? SNU_MRL_TO_SMPL : CGSPEED_MB_TO_SMPL);
  const unit = options.unitScale ?? BVH_UNIT_SCALE[kind!];
  const target = options.skeleton ?? defaultSkeleton();
  const index = new Map(clip.joints.map((j, k) => [j.name, k]));
  const bvhOf: number[] = SMPL_JOINT_NAMES.map((name) => {
    const b = map[name];
    if (b == null) return -1;
    const k = index.get(b);
    if (k === undefined) throw new Error(`${file}: joint '${b}' (for SMPL ${name}) is not in the file`);
    return k;
  });
  if (bvhOf[0] < 0) throw new Error(`${file}: the joint map has no pelvis`);
  const rest = bvhRestPositions(clip);
  const restAt = (b: number) => toBody([rest[3 * b], rest[3 * b + 1], rest[3 * b + 2]]);
  // Rest correction C_k.
  const correction: Quat[] = SMPL_JOINT_NAMES.map((_, k) => {
    let c = DIRECTION_CHILD[k];
    while (c >= 0 && bvhOf[c] < 0) c = DIRECTION_CHILD[c];
    if (c < 0 || bvhOf[k] < 0) return [...QUAT_IDENTITY] as Quat;
    const db = restAt(bvhOf[c]).map((x, i) => x - restAt(bvhOf[k])[i]);
    const ds = jointAt(target, c).map((x, i) => x - jointAt(target, k)[i]);
    if (Math.hypot(db[0], db[1], db[2]) < 1e-9 || Math.hypot(ds[0], ds[1], ds[2]) < 1e-9) return [...QUAT_IDENTITY] as Quat;
    return quatBetween(ds, db);
  });
  // Source pelvis height: how far the lowest rest point (joints and End Sites) lies below the root.
  let minY = 0;
  clip.joints.forEach((j, k) => {
    minY = Math.min(minY, rest[3 * k + 1]);
    if (j.endSite) minY = Math.min(minY, rest[3 * k + 1] + j.endSite[1]);
  });
  const sourcePelvis = -minY * unit;
  const targetPelvis = jointAt(target, JOINT.pelvis)[2];
  const scale = sourcePelvis > 0 ? targetPelvis / sourcePelvis : 1;
  const skip = (options.skipTPose ?? isTPoseFrame(clip)) ? 1 : 0;
  const N = clip.frameCount - skip;
  const poses = new Float32Array(N * 72);
  const trans = new Float32Array(N * 3);
  const Minv = quatConj(M);
  let origin: number[] | null = null;
  for (let f = 0; f < N; f++) {
    const { rotations, positions } = bvhGlobalPose(clip, f + skip);
    const global: Quat[] = new Array(SMPL_JOINT_COUNT);
    for (let k = 0; k < SMPL_JOINT_COUNT; k++) {
      const b = bvhOf[k];
      global[k] = b < 0 ? global[SMPL_PARENTS[k]] : quatMul(quatMul(quatMul(M, rotations[b]), Minv), correction[k]);
      const local = k === 0 ? global[0] : quatMul(quatConj(global[SMPL_PARENTS[k]]), global[k]);
      quatToAxisAngle(local, poses, 72 * f + 3 * k);
    }
    const r = bvhOf[0];
    const p = toBody([positions[3 * r], positions[3 * r + 1], positions[3 * r + 2]]).map((x) => x * unit * scale);
    origin ??= p;
    trans.set([p[0] - origin[0], p[1] - origin[1], p[2] - targetPelvis], 3 * f);
  }
  return { name: file, fps: 1 / clip.frameTime, frameCount: N, poses, trans };
}
