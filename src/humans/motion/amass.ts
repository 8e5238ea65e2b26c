/**
 * AMASS-style motion `.npz` (Mahmood et al. 2019, "AMASS: Archive of Motion Capture as Surface
 * Shapes"; file keys as released): `poses` N×156 (SMPL+H: 52 joints × 3 axis-angle, the first 22
 * are SMPL's body joints, the rest hands) or N×72 (SMPL's 24 joints), `trans` N×3 (metres),
 * `betas` (shape), `mocap_framerate` (Hz; some releases name it `mocap_frame_rate`).
 *
 * Frames: AMASS poses rotate SMPL's own Y-up body (axis-angle in that frame) and the root
 * orientation maps it into a Z-up world. Curbside's body frame is SMPL's mapped by M = `Y_UP_TO_BODY`,
 * so a joint rotation R becomes M R Mᵀ (axis ω → Mω) and the root becomes R_root Mᵀ (the world is
 * already Z up). SMPL+H has no SMPL hand joints 22–23: they get identity. The root translation is
 * kept relative to frame 0 horizontally and vertically (AMASS `trans` offsets the SMPL origin,
 * not the pelvis, so its absolute height depends on the body).
 */
import { zipSync } from 'fflate';
import { dump } from 'npyjs';
import { Y_UP_TO_BODY } from '../body-model';
import { readNpz } from '../npz';
import type { MotionClip } from './clip';
import { quatConj, quatFromAxisAngle, quatFromMat3, quatMul, quatToAxisAngle } from './rotation';

const M = quatFromMat3(Y_UP_TO_BODY as number[]);
const Minv = quatConj(M);

/**
 * Loads an AMASS-style `.npz` as a clip (see the module doc for the frame conversion).
 *
 * @throws Error `file: key: problem` when `poses` or `trans` is missing, `poses` is not N×72 or
 *   N×156, `trans` is not N×3, or the frame rate is missing or not positive.
 */
export function loadAmassNpz(bytes: Uint8Array, file: string): MotionClip {
  const a = readNpz(bytes, ['poses', 'trans', 'betas', 'mocap_framerate', 'mocap_frame_rate'], file);
  const poses = a.get('poses'), trans = a.get('trans');
  if (!poses) throw new Error(`${file}: poses: missing`);
  if (!trans) throw new Error(`${file}: trans: missing`);
  const [N, D] = poses.shape;
  if (poses.shape.length !== 2 || (D !== 72 && D !== 156)) throw new Error(`${file}: poses: shape [${poses.shape}], expected N×72 or N×156`);
  if (trans.shape.length !== 2 || trans.shape[0] !== N || trans.shape[1] !== 3) throw new Error(`${file}: trans: shape [${trans.shape}], expected ${N}×3`);
  const rate = (a.get('mocap_framerate') ?? a.get('mocap_frame_rate'))?.data[0];
  if (!(rate !== undefined && rate > 0)) throw new Error(`${file}: mocap_framerate: missing or not positive`);
  const bodyJoints = D === 72 ? 24 : 22;
  const out = new Float32Array(N * 72);
  const t = new Float32Array(N * 3);
  for (let f = 0; f < N; f++) {
    for (let k = 0; k < bodyJoints; k++) {
      const q = quatFromAxisAngle(poses.data, f * D + 3 * k);
      const r = k === 0 ? quatMul(q, Minv) : quatMul(quatMul(M, q), Minv);
      quatToAxisAngle(r, out, 72 * f + 3 * k);
    }
    for (let i = 0; i < 3; i++) t[3 * f + i] = trans.data[3 * f + i] - trans.data[i];
  }
  const betas = a.get('betas');
  return { name: file, fps: rate, frameCount: N, poses: out, trans: t, betas: betas ? Float32Array.from(betas.data) : undefined };
}

/**
 * Writes a clip as an AMASS-style `.npz` (inverse of {@link loadAmassNpz}'s frame conversion;
 * float64 arrays as AMASS ships them), for tests and exporting recorded motion.
 *
 * @param layout 72 (SMPL) or 156 (SMPL+H: joints 22–23 dropped, 30 zero hand joints appended).
 */
export function writeAmassNpz(clip: MotionClip, layout: 72 | 156 = 156, betas: ArrayLike<number> = new Float64Array(16)): Uint8Array {
  const N = clip.frameCount;
  const D = layout;
  const poses = new Float64Array(N * D);
  const joints = layout === 72 ? 24 : 22;
  const tmp = [0, 0, 0];
  for (let f = 0; f < N; f++) {
    for (let k = 0; k < joints; k++) {
      const q = quatFromAxisAngle(clip.poses, 72 * f + 3 * k);
      const r = k === 0 ? quatMul(q, M) : quatMul(quatMul(Minv, q), M);
      quatToAxisAngle(r, tmp);
      poses.set(tmp, f * D + 3 * k);
    }
  }
  const files: Record<string, Uint8Array> = {
    'poses.npy': new Uint8Array(dump(poses, [N, D])),
    'trans.npy': new Uint8Array(dump(Float64Array.from(clip.trans), [N, 3])),
    'betas.npy': new Uint8Array(dump(Float64Array.from(betas), [betas.length])),
    'mocap_framerate.npy': new Uint8Array(dump(Float64Array.of(clip.fps), [])),
  };
  return zipSync(files);
}
