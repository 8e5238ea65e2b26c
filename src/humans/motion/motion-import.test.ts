/**
 * Motion import: BVH parsing (real CMU clips in ../shared/data/motion/cmu and small synthetic
 * files for channel orders), retargeting onto SMPL's 24 joints, AMASS-style `.npz` round trips,
 * clip sampling and blending.
 */
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { forwardKinematics } from '../lbs-reference';
import { loadAmassNpz, writeAmassNpz } from './amass';
import { bvhGlobalPose, bvhRestPositions, parseBvh } from './bvh';
import { blendPoses, clipRootSpeed, crossfade, sampleClip, type MotionClip } from './clip';
import { motionPose } from './pedestrian-motion';
import { POSE_FLOATS } from './procedural-gait';
import { retargetBvh, CGSPEED_MB_TO_SMPL, SNU_MRL_TO_SMPL } from './retarget-bvh';
import { quatFromAxisAngle, quatFromEuler, quatRotate } from './rotation';
import { defaultSkeleton, JOINT } from './skeleton';

const text = (rel: string) => new TextDecoder().decode(readSharedData(`motion/cmu/${rel}`));

describe('parseBvh', () => {
  it('reads the real clips: joints, frames and frame times from the data README', () => {
    const cases: [string, number, number, number][] = [
      ['cgspeed_mb/12_03.bvh', 31, 566, 1 / 120],
      ['cgspeed_mb/16_11.bvh', 31, 534, 1 / 120],
      ['cgspeed_mb/141_16.bvh', 31, 299, 1 / 120],
      ['snu_mrl_retargeted_30fps/16_15_walk.bvh', 19, 117, 1 / 30],
      ['snu_mrl_retargeted_30fps/16_33_slow_walk_stop.bvh', 19, 71, 1 / 30],
    ];
    for (const [file, joints, frames, dt] of cases) {
      const clip = parseBvh(text(file), file);
      expect(clip.joints.length, file).toBe(joints);
      expect(clip.frameCount, file).toBe(frames);
      expect(clip.frameTime, file).toBeCloseTo(dt, 5);
      expect(clip.values.every(Number.isFinite), file).toBe(true);
    }
  });

  it('composes Euler channels in the listed order, for any order', () => {
    const bvh = (order: string) => `HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition ${order.split('').map((c) => `${c}rotation`).join(' ')}\n JOINT b\n {\n  OFFSET 0 1 0\n  CHANNELS 0\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 30 -50 70\n`;
    for (const order of ['ZYX', 'XYZ', 'YXZ', 'ZXY']) {
      const clip = parseBvh(bvh(order), `${order}.bvh`);
      const { rotations, positions } = bvhGlobalPose(clip, 0);
      const q = quatFromEuler(order, [30, -50, 70]);
      // Reference: R = R_{c0} R_{c1} R_{c2} applied to the child offset (0, 1, 0).
      const rad = [30, -50, 70].map((d) => (d * Math.PI) / 180);
      const rot = (axis: string, a: number, v: number[]) => {
        const c = Math.cos(a), s = Math.sin(a);
        if (axis === 'X') return [v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]];
        if (axis === 'Y') return [c * v[0] + s * v[2], v[1], -s * v[0] + c * v[2]];
        return [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]];
      };
      let v = [0, 1, 0];
      for (let i = 2; i >= 0; i--) v = rot(order[i], rad[i], v);
      expect(positions[3] - 1, order).toBeCloseTo(v[0], 10);
      expect(positions[4] - 2, order).toBeCloseTo(v[1], 10);
      expect(positions[5] - 3, order).toBeCloseTo(v[2], 10);
      expect(rotations[0].map((x, i) => Math.abs(x - q[i])).every((d) => d < 1e-12)).toBe(true);
    }
  });

  it('names the file and line of a malformed frame', () => {
    const bad = 'HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2\n';
    expect(() => parseBvh(bad, 'bad.bvh')).toThrow(/^bad\.bvh: line 10: frame 0: 2 values, expected 3/);
    expect(() => parseBvh('HIERARCHY\nROOT a\n{\n', 'trunc.bvh')).toThrow(/^trunc\.bvh: .*no MOTION/);
  });
});

describe('retargetBvh', () => {
  /** Checks that SMPL FK bone directions equal the BVH bone directions (body frame) for mapped bones. */
  function checkBones(file: string, map: Record<string, string | null>, bones: [number, number][]) {
    const bvh = parseBvh(text(file), file);
    const clip = retargetBvh(bvh, file);
    const s = defaultSkeleton();
    const skip = bvh.frameCount - clip.frameCount;
    const index = new Map(bvh.joints.map((j, k) => [j.name, k]));
    const names = ['pelvis', 'leftHip', 'rightHip', 'spine1', 'leftKnee', 'rightKnee', 'spine2', 'leftAnkle', 'rightAnkle', 'spine3', 'leftFoot', 'rightFoot', 'neck', 'leftCollar', 'rightCollar', 'head', 'leftShoulder', 'rightShoulder', 'leftElbow', 'rightElbow', 'leftWrist', 'rightWrist', 'leftHand', 'rightHand'];
    let worst = 0;
    for (const f of [0, Math.floor(clip.frameCount / 2), clip.frameCount - 1]) {
      const { world } = forwardKinematics(s.parents, s.joints, clip.poses.subarray(72 * f, 72 * f + 72));
      const { positions } = bvhGlobalPose(bvh, f + skip);
      for (const [a, b] of bones) {
        const ja = index.get(map[names[a]]!)!, jb = index.get(map[names[b]]!)!;
        const d = [0, 1, 2].map((i) => positions[3 * jb + i] - positions[3 * ja + i]);
        const db = [d[2], d[0], d[1]]; // Y-up → body
        const ds = [0, 1, 2].map((i) => world[12 * b + 4 * i + 3] - world[12 * a + 4 * i + 3]);
        const cos = (db[0] * ds[0] + db[1] * ds[1] + db[2] * ds[2]) / (Math.hypot(...db) * Math.hypot(...ds));
        worst = Math.max(worst, Math.acos(Math.min(1, cos)));
      }
    }
    return { clip, worst };
  }

  const limbs: [number, number][] = [
    [JOINT.leftHip, JOINT.leftKnee], [JOINT.leftKnee, JOINT.leftAnkle], [JOINT.rightHip, JOINT.rightKnee], [JOINT.rightKnee, JOINT.rightAnkle],
    [JOINT.leftShoulder, JOINT.leftElbow], [JOINT.leftElbow, JOINT.leftWrist], [JOINT.rightShoulder, JOINT.rightElbow], [JOINT.rightElbow, JOINT.rightWrist],
  ];

  // Bone directions agree to 1e-4 rad: the transfer is exact up to float32 storage of the pose.
  it('cgspeed_mb 12_03 (pristine, T-pose frame 0 skipped): limb directions match the BVH', () => {
    const { clip, worst } = checkBones('cgspeed_mb/12_03.bvh', CGSPEED_MB_TO_SMPL, limbs);
    expect(clip.frameCount).toBe(565);
    expect(worst).toBeLessThan(1e-4);
    // README: ≈ 0.85 m/s root speed; the retarget scales strides to the target legs (factor ≈ 1).
    expect(clipRootSpeed(clip)).toBeGreaterThan(0.7);
    expect(clipRootSpeed(clip)).toBeLessThan(1.0);
  });

  it('snu_mrl 16_15 walk (cm, 30 fps): limb directions match and the clip walks at ≈ 1.17 m/s', () => {
    const { clip, worst } = checkBones('snu_mrl_retargeted_30fps/16_15_walk.bvh', SNU_MRL_TO_SMPL, limbs);
    expect(clip.frameCount).toBe(117);
    expect(clip.fps).toBeCloseTo(30, 3);
    expect(worst).toBeLessThan(1e-4);
    const speed = clipRootSpeed(clip);
    expect(speed).toBeGreaterThan(0.95);
    expect(speed).toBeLessThan(1.4);
  });

  it('keeps the pelvis at walking height and the body upright', () => {
    for (const file of ['cgspeed_mb/16_11.bvh', 'snu_mrl_retargeted_30fps/16_58_walk.bvh']) {
      const clip = retargetBvh(parseBvh(text(file), file), file);
      const s = defaultSkeleton();
      for (let f = 0; f < clip.frameCount; f += 20) {
        const { world } = forwardKinematics(s.parents, s.joints, clip.poses.subarray(72 * f, 72 * f + 72), clip.trans.subarray(3 * f, 3 * f + 3));
        const head = world[12 * JOINT.head + 11], pelvis = world[12 * JOINT.pelvis + 11];
        const ankle = Math.min(world[12 * JOINT.leftAnkle + 11], world[12 * JOINT.rightAnkle + 11]);
        expect(head - pelvis, `${file} frame ${f}`).toBeGreaterThan(0.5);
        expect(pelvis, `${file} frame ${f}`).toBeGreaterThan(0.7);
        expect(ankle, `${file} frame ${f}`).toBeLessThan(0.25);
        expect(ankle, `${file} frame ${f}`).toBeGreaterThan(-0.1);
      }
    }
  });

  it('rest skeletons: the cgspeed file is in ASF units (leg ≈ 15 units ≈ 0.85 m)', () => {
    const clip = parseBvh(text('cgspeed_mb/12_03.bvh'), '12_03.bvh');
    const rest = bvhRestPositions(clip);
    const foot = clip.joints.findIndex((j) => j.name === 'LeftFoot');
    expect(-rest[3 * foot + 1] * 0.0564).toBeGreaterThan(0.7);
    expect(-rest[3 * foot + 1] * 0.0564).toBeLessThan(0.95);
  });
});

describe('AMASS .npz', () => {
  const s = defaultSkeleton();
  const recorded = (): MotionClip => {
    const N = 12;
    const poses = new Float32Array(N * 72), trans = new Float32Array(N * 3);
    for (let f = 0; f < N; f++) {
      const p = motionPose(s, { walkSpeed: 1.3, turnRate: 0.2, gesture: 'talk', idle: 'stand' }, f / 30, 8);
      poses.set(p.subarray(0, 72), 72 * f);
      trans.set([1.3 * f / 30, 0, p[74]], 3 * f);
    }
    return { name: 'rec', fps: 30, frameCount: N, poses, trans };
  };

  for (const layout of [72, 156] as const) {
    it(`round-trips poses N×${layout} through the Y-up SMPL frame (rotations within 1e-5 rad)`, () => {
      const clip = recorded();
      const loaded = loadAmassNpz(writeAmassNpz(clip, layout), `walk${layout}.npz`);
      expect(loaded.frameCount).toBe(clip.frameCount);
      expect(loaded.fps).toBe(30);
      expect(loaded.betas?.length).toBe(16);
      const joints = layout === 72 ? 24 : 22;
      for (let f = 0; f < clip.frameCount; f++) {
        for (let k = 0; k < joints; k++) {
          const a = quatFromAxisAngle(clip.poses, 72 * f + 3 * k), b = quatFromAxisAngle(loaded.poses, 72 * f + 3 * k);
          const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
          expect(2 * Math.acos(Math.min(1, dot)), `frame ${f} joint ${k}`).toBeLessThan(1e-5);
        }
        for (let i = 0; i < 3; i++) expect(loaded.trans[3 * f + i]).toBeCloseTo(clip.trans[3 * f + i] - clip.trans[i], 6);
      }
    });
  }

  it('maps an AMASS standing root (SMPL Y up → world Z up) to an upright body', () => {
    // AMASS convention: root_orient = R_x(+90°) stands the Y-up SMPL body up in the Z-up world.
    const clip = recorded();
    const bytes = writeAmassNpz(clip, 72);
    const loaded = loadAmassNpz(bytes, 'a.npz');
    const q = quatFromAxisAngle(loaded.poses, 0);
    // Body z (up) must stay up after the root rotation (walking lean < 0.2 rad).
    expect(quatRotate(q, [0, 0, 1])[2]).toBeGreaterThan(Math.cos(0.2));
  });

  it('rejects a wrong poses shape, naming the file and key', () => {
    const clip = recorded();
    const bad = { ...clip, poses: clip.poses };
    const bytes = writeAmassNpz(bad, 72);
    expect(() => loadAmassNpz(bytes.slice(0, 20), 'cut.npz')).toThrow(/^cut\.npz: /);
    expect(() => loadAmassNpz(writeAmassNpz({ ...clip, frameCount: 0, poses: new Float32Array(0), trans: new Float32Array(0) }, 72), 'e.npz')).not.toThrow();
  });
});

describe('clip sampling and blending', () => {
  const s = defaultSkeleton();
  const clipOf = (state: Parameters<typeof motionPose>[1], seed: number): MotionClip => {
    const N = 31, poses = new Float32Array(N * 72), trans = new Float32Array(N * 3);
    for (let f = 0; f < N; f++) {
      const p = motionPose(s, state, f / 30, seed);
      poses.set(p.subarray(0, 72), 72 * f);
      trans.set(p.subarray(72, 75), 3 * f);
    }
    return { name: 'c', fps: 30, frameCount: N, poses, trans };
  };

  it('sampling at a frame time returns that frame; halfway lies between', () => {
    const c = clipOf({ walkSpeed: 1.2, turnRate: 0, gesture: 'none', idle: 'stand' }, 1);
    const p = sampleClip(c, 10 / 30);
    for (let i = 0; i < 72; i++) expect(p[i]).toBeCloseTo(c.poses[720 + i], 5);
    const h = sampleClip(c, 10.5 / 30);
    const knee = 3 * JOINT.leftKnee + 1;
    const lo = Math.min(c.poses[720 + knee], c.poses[792 + knee]), hi = Math.max(c.poses[720 + knee], c.poses[792 + knee]);
    expect(h[knee]).toBeGreaterThanOrEqual(lo - 1e-6);
    expect(h[knee]).toBeLessThanOrEqual(hi + 1e-6);
  });

  it('blend weight 0 and 1 give the inputs; crossfade goes from clip a to clip b', () => {
    const a = clipOf({ walkSpeed: 1.2, turnRate: 0, gesture: 'none', idle: 'stand' }, 1);
    const b = clipOf({ walkSpeed: 0, turnRate: 0, gesture: 'wave', idle: 'stand' }, 2);
    const pa = sampleClip(a, 0.2), pb = sampleClip(b, 0.2);
    const b0 = blendPoses(pa, pb, 0), b1 = blendPoses(pa, pb, 1);
    for (let i = 0; i < POSE_FLOATS; i++) {
      expect(b0[i]).toBeCloseTo(pa[i], 5);
      expect(b1[i]).toBeCloseTo(pb[i], 5);
    }
    const before = crossfade(a, b, 0.1, 0.3, 0.4);
    const after = crossfade(a, b, 0.9, 0.3, 0.4);
    const wrist = 3 * JOINT.rightShoulder;
    expect(before[wrist]).toBeCloseTo(sampleClip(a, 0.1, undefined, 0, true)[wrist], 5);
    expect(after[wrist]).toBeCloseTo(sampleClip(b, 0.6, undefined, 0, true)[wrist], 5);
  });
});
