/**
 * The procedural gait: speed laws, stationary stance contacts (no foot sliding), determinism,
 * starting/stopping, gestures and idle. Contacts are measured with the float64 forward kinematics
 * of lbs-reference.ts on the built-in body's skeleton, placed in the world by the root pose.
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics } from '../lbs-reference';
import { gaitParameters } from './gait-parameters';
import { gaitPose, motionStyle, POSE_FLOATS, type MotionState } from './procedural-gait';
import { motionPose, PedestrianMotion } from './pedestrian-motion';
import { proceduralSkeleton, JOINT } from './skeleton';

const WALK: MotionState = { walkSpeed: 1.4, turnRate: 0, gesture: 'none', idle: 'stand' };

/** World positions of the left ankle, ball and heel (heel: rest offset carried by the ankle's rotation). */
function leftContacts(pose: Float32Array, root: { x: number; y: number; yaw: number }) {
  const s = proceduralSkeleton();
  const { world } = forwardKinematics(s.parents, s.joints, pose.subarray(0, 72), pose.subarray(72, 75));
  const at = (k: number) => [world[12 * k + 3], world[12 * k + 7], world[12 * k + 11]];
  const ankle = at(JOINT.leftAnkle);
  const ball = at(JOINT.leftFoot);
  const a = JOINT.leftAnkle;
  const ja = [s.joints[3 * a], s.joints[3 * a + 1], s.joints[3 * a + 2]];
  const jb = [s.joints[3 * JOINT.leftFoot], s.joints[3 * JOINT.leftFoot + 1], s.joints[3 * JOINT.leftFoot + 2]];
  const heelRest = [ja[0] - 0.5 * (jb[0] - ja[0]) - ja[0], 0, Math.min(jb[2], 0.02) - ja[2]];
  const heel = [0, 1, 2].map((i) => ankle[i] + world[12 * a + 4 * i] * heelRest[0] + world[12 * a + 4 * i + 1] * heelRest[1] + world[12 * a + 4 * i + 2] * heelRest[2]);
  const c = Math.cos(root.yaw), sn = Math.sin(root.yaw);
  const toWorld = (p: number[]) => [root.x + c * p[0] - sn * p[1], root.y + sn * p[0] + c * p[1], p[2]];
  return { ankle: toWorld(ankle), ball: toWorld(ball), heel: toWorld(heel) };
}

describe('gait parameters (walk ratio, Sekiya et al. 1997)', () => {
  it('step length and cadence grow as √v and multiply to v', () => {
    for (const v of [0.6, 1.0, 1.4, 2.0]) {
      const g = gaitParameters(v);
      expect(g.strideLength * g.strideFrequency).toBeCloseTo(v, 10);
      expect(g.dutyFactor).toBeGreaterThan(0.5);
    }
    const a = gaitParameters(1.0), b = gaitParameters(2.0);
    expect(b.strideLength / a.strideLength).toBeCloseTo(Math.SQRT2, 6);
    // Free walking 1.4 m/s: ≈ 115 steps/min, step ≈ 0.73 m (Sekiya et al. 1997 ranges 100–130, 0.6–0.8).
    const free = gaitParameters(1.4);
    expect(free.cadence).toBeGreaterThan(105);
    expect(free.cadence).toBeLessThan(125);
    expect(free.strideLength / 2).toBeGreaterThan(0.65);
    expect(free.strideLength / 2).toBeLessThan(0.8);
  });
});

describe('procedural gait: stance contacts do not slide', () => {
  // Tolerance 0.02 m/s: the construction makes the contact point exactly world-fixed; what remains
  // is finite differencing at 1/240 s across the rocker switch points (pivot changes) and the
  // float32 pose. A sliding foot moves at the walking speed (≥ 0.5 m/s), 25× more.
  const cases = [
    { v: 0.6, w: 0 },
    { v: 1.4, w: 0 },
    { v: 2.0, w: 0 },
    { v: 1.2, w: 0.5 },
  ];
  for (const { v, w } of cases) {
    it(`v = ${v} m/s, ω = ${w} rad/s`, () => {
      const motion = new PedestrianMotion(proceduralSkeleton(), 7);
      const state: MotionState = { ...WALK, walkSpeed: v, turnRate: w };
      motion.speed = v; // steady state
      const dt = 1 / 240;
      const beta = gaitParameters(v, 0.88).dutyFactor;
      let prev: ReturnType<typeof leftContacts> | null = null;
      let worst = 0, checked = 0;
      for (let i = 0; i < 480; i++) {
        const u = motion.phase - Math.floor(motion.phase);
        const cur = leftContacts(motion.pose(), motion.root);
        if (prev) {
          // Which point is the contact: heel early, ball late, ankle (whole foot) in between.
          const key = u < 0.12 * beta ? 'heel' : u > 0.6 * beta ? 'ball' : 'ankle';
          const away = (edge: number) => Math.abs(u - edge) > 0.01;
          if (u > 0.01 && u < beta - 0.01 && away(0.12 * beta) && away(0.6 * beta)) {
            const d = cur[key].map((x, k) => x - prev![key][k]);
            worst = Math.max(worst, Math.hypot(d[0], d[1], d[2]) / dt);
            checked++;
          }
        }
        prev = cur;
        motion.update(dt, state);
      }
      expect(checked).toBeGreaterThan(100);
      expect(worst, `worst stance contact speed ${worst.toFixed(4)} m/s`).toBeLessThan(0.02);
    });
  }

  it('the swing foot clears the ground and moves forward at about 2–3× body speed', () => {
    const s = proceduralSkeleton();
    const style = motionStyle(1);
    let maxLift = 0;
    for (let k = 0; k < 50; k++) {
      const pose = gaitPose(s, { phase: 0.6 + (0.4 * k) / 50, speed: 1.4, turnRate: 0, gesture: 'none', gestureWeight: 0, idle: 'stand', time: 0, style });
      maxLift = Math.max(maxLift, leftContacts(pose, { x: 0, y: 0, yaw: 0 }).ankle[2] - s.joints[3 * JOINT.leftAnkle + 2]);
    }
    expect(maxLift).toBeGreaterThan(0.05);
    expect(maxLift).toBeLessThan(0.2);
  });
});

describe('procedural gait: states', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const s = proceduralSkeleton();
    const a = motionPose(s, WALK, 1.3, 5);
    const b = motionPose(s, WALK, 1.3, 5);
    const c = motionPose(s, WALK, 1.3, 6);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
    expect(a.length).toBe(POSE_FLOATS);
    expect(a.every(Number.isFinite)).toBe(true);
  });

  it('starts and stops: speed ramps, the root travels, and a stopped body stands still', () => {
    const m = new PedestrianMotion(proceduralSkeleton(), 3);
    const dt = 1 / 60;
    for (let i = 0; i < 180; i++) m.update(dt, WALK);
    expect(m.speed).toBeCloseTo(1.4, 6);
    const x = m.root.x;
    for (let i = 0; i < 120; i++) m.update(dt, { ...WALK, walkSpeed: 0 });
    expect(m.speed).toBe(0);
    expect(m.root.x).toBeGreaterThan(x);
    const p1 = Array.from(m.pose());
    const still = m.root.x;
    m.update(dt, { ...WALK, walkSpeed: 0 });
    expect(m.root.x).toBe(still);
    // Standing: legs nearly straight and symmetric (knees bent < 25°), only slow idle motion.
    const knee = (k: number) => Math.hypot(p1[3 * k], p1[3 * k + 1], p1[3 * k + 2]);
    expect(knee(JOINT.leftKnee)).toBeLessThan(0.45);
    expect(knee(JOINT.rightKnee)).toBeLessThan(0.45);
  });

  it('idle standing shifts weight over seconds while feet stay put', () => {
    const s = proceduralSkeleton();
    const idle: MotionState = { walkSpeed: 0, turnRate: 0, gesture: 'none', idle: 'stand' };
    const ys = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((t) => motionPose(s, idle, t, 9)[73]);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(0.02);
    const feet = [0, 2.5, 5].map((t) => leftContacts(motionPose(s, idle, t, 9), { x: 0, y: 0, yaw: 0 }).ankle);
    for (const f of feet) expect(Math.hypot(f[0] - feet[0][0], f[1] - feet[0][1], f[2] - feet[0][2])).toBeLessThan(1e-3);
  });

  it('queue shuffling re-places feet by a few centimetres', () => {
    const s = proceduralSkeleton();
    const q: MotionState = { walkSpeed: 0, turnRate: 0, gesture: 'none', idle: 'shuffle' };
    const xs = Array.from({ length: 40 }, (_, i) => leftContacts(motionPose(s, q, i * 0.5, 4), { x: 0, y: 0, yaw: 0 }).ankle[0]);
    const spread = Math.max(...xs) - Math.min(...xs);
    expect(spread).toBeGreaterThan(0.01);
    expect(spread).toBeLessThan(0.15);
  });

  it('stop gesture raises the right hand above the shoulder; talk keeps hands in front', () => {
    const s = proceduralSkeleton();
    const wrist = (state: MotionState, k: number) => {
      const pose = motionPose(s, state, 0.7, 2);
      const { world } = forwardKinematics(s.parents, s.joints, pose.subarray(0, 72), pose.subarray(72, 75));
      return [world[12 * k + 3], world[12 * k + 7], world[12 * k + 11]];
    };
    const stop = wrist({ ...WALK, walkSpeed: 0, gesture: 'stop' }, JOINT.rightWrist);
    expect(stop[2]).toBeGreaterThan(s.joints[3 * JOINT.rightShoulder + 2]);
    expect(stop[0]).toBeGreaterThan(0.2);
    const talk = wrist({ ...WALK, walkSpeed: 0, gesture: 'talk' }, JOINT.leftWrist);
    expect(talk[0]).toBeGreaterThan(0.15);
    const none = wrist({ ...WALK, walkSpeed: 0 }, JOINT.rightWrist);
    expect(none[2]).toBeLessThan(1.0);
  });
});
