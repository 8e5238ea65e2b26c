/**
 * Motion clips on SMPL's 24-joint skeleton (from BVH, AMASS `.npz` or recorded procedural motion),
 * frame sampling, and blending between clips.
 *
 * Blending: per-joint quaternion slerp (Shoemake 1985) of the local rotations with one crossfade
 * weight, and linear interpolation of the root translation, as in standard animation blending
 * (e.g. Kovar & Gleicher 2003, "Flexible automatic motion blending with registration curves", §2).
 */
import { SMPL_JOINT_COUNT } from '../body-model';
import { POSE_FLOATS } from './procedural-gait';
import { quatFromAxisAngle, quatSlerp, quatToAxisAngle } from './rotation';

/** A clip: N frames of SMPL poses at a fixed rate. */
export interface MotionClip {
  name: string;
  /** Frames per second. */
  fps: number;
  frameCount: number;
  /** N×72 axis-angle (radians, body frame x forward y left z up, SMPL convention). */
  poses: Float32Array;
  /** N×3 root translation, metres, body frame (added to the pelvis joint). */
  trans: Float32Array;
  /** Shape coefficients the clip was recorded with, when the source has them (AMASS `betas`). */
  betas?: Float32Array;
}

/** Clip duration, seconds ((N − 1) / fps). */
export function clipDuration(clip: MotionClip): number {
  return (clip.frameCount - 1) / clip.fps;
}

/**
 * Writes the pose at time `t` (seconds) into `out` (POSE_FLOATS: 72 axis-angle + 3 trans),
 * slerping between the two nearest frames. `loop` wraps t (and the root x/y keep advancing by the
 * clip's displacement per loop); otherwise t is clamped to the clip.
 *
 * @throws Error for an empty clip.
 */
export function sampleClip(clip: MotionClip, t: number, out: Float32Array = new Float32Array(POSE_FLOATS), offset = 0, loop = false): Float32Array {
  if (clip.frameCount < 1) throw new Error(`sampleClip: ${clip.name}: no frames`);
  const duration = clipDuration(clip);
  let loops = 0;
  if (loop && duration > 0) {
    loops = Math.floor(t / duration);
    t -= loops * duration;
  }
  const x = Math.min(clip.frameCount - 1, Math.max(0, t * clip.fps));
  const f0 = Math.floor(x), f1 = Math.min(clip.frameCount - 1, f0 + 1), w = x - f0;
  for (let k = 0; k < SMPL_JOINT_COUNT; k++) {
    const q = quatSlerp(quatFromAxisAngle(clip.poses, 72 * f0 + 3 * k), quatFromAxisAngle(clip.poses, 72 * f1 + 3 * k), w);
    quatToAxisAngle(q, out, offset + 3 * k);
  }
  const N = clip.frameCount - 1;
  for (let i = 0; i < 3; i++) {
    const drift = i < 2 ? loops * (clip.trans[3 * N + i] - clip.trans[i]) : 0;
    out[offset + 72 + i] = clip.trans[3 * f0 + i] + w * (clip.trans[3 * f1 + i] - clip.trans[3 * f0 + i]) + drift;
  }
  return out;
}

/**
 * Blends two poses (POSE_FLOATS each): per-joint slerp with weight `w` (0 → a, 1 → b) and linear
 * root translation. `out` may alias `a` or `b`.
 */
export function blendPoses(a: ArrayLike<number>, b: ArrayLike<number>, w: number, out: Float32Array = new Float32Array(POSE_FLOATS)): Float32Array {
  const trans = [0, 1, 2].map((i) => a[72 + i] + w * (b[72 + i] - a[72 + i]));
  for (let k = 0; k < SMPL_JOINT_COUNT; k++) quatToAxisAngle(quatSlerp(quatFromAxisAngle(a, 3 * k), quatFromAxisAngle(b, 3 * k), w), out, 3 * k);
  out.set(trans, 72);
  return out;
}

/**
 * Crossfade from clip `a` to clip `b`: at time t, the weight of b rises smoothly
 * (smoothstep) from 0 at `start` to 1 at `start + duration`; each clip plays on its own clock.
 */
export function crossfade(a: MotionClip, b: MotionClip, t: number, start: number, duration: number, out: Float32Array = new Float32Array(POSE_FLOATS)): Float32Array {
  const s = Math.min(1, Math.max(0, duration > 0 ? (t - start) / duration : t >= start ? 1 : 0));
  const w = s * s * (3 - 2 * s);
  const pa = sampleClip(a, t, new Float32Array(POSE_FLOATS), 0, true);
  const pb = sampleClip(b, t - start, new Float32Array(POSE_FLOATS), 0, true);
  return blendPoses(pa, pb, w, out);
}

/** Mean horizontal root speed over the clip, m/s (path length / duration). */
export function clipRootSpeed(clip: MotionClip): number {
  let len = 0;
  for (let f = 1; f < clip.frameCount; f++) len += Math.hypot(clip.trans[3 * f] - clip.trans[3 * f - 3], clip.trans[3 * f + 1] - clip.trans[3 * f - 2]);
  return len / Math.max(1e-9, clipDuration(clip));
}
