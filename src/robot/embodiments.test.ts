import { describe, expect, it } from 'vitest';
import { DELIVERY_ROBOT, type RobotSpec } from './robot-spec';
import { embodiedMount, HUMANOID, ROBOT_DOG, ROBOT_NAMES, ROBOTS, robotSpec } from './embodiments';
import { GaitOdometer, gaitCameraPose, gaitOffset, NO_GAIT_OFFSET, stepFrequency } from './gait';
import { FailureMonitor } from './failure-monitor';
import { stepUnicycle, type RobotState } from './unicycle';

const at = (x = 0, y = 0, yaw = 0): RobotState => ({ x, y, yaw, v: 0, w: 0 });

/** Drives `spec` under a constant command for `seconds` at its physics step; returns the state and the largest per-step changes of v and ω. */
function drive(spec: RobotSpec, cmd: { v: number; w: number }, seconds: number) {
  const s = at();
  let dv = 0;
  let dw = 0;
  for (let k = 0; k < Math.round(seconds / spec.physicsDt); k++) {
    const { v, w } = s;
    stepUnicycle(s, cmd, spec.physicsDt, spec);
    dv = Math.max(dv, Math.abs(s.v - v));
    dw = Math.max(dw, Math.abs(s.w - w));
  }
  return { s, dv, dw };
}

describe('embodiment registry', () => {
  it('names the three embodiments and returns each spec by name', () => {
    expect(ROBOT_NAMES).toEqual(['wheeled', 'dog', 'humanoid']);
    for (const name of ROBOT_NAMES) expect(robotSpec(name).name).toBe(name);
    expect(robotSpec('wheeled')).toBe(DELIVERY_ROBOT);
    expect(ROBOTS.dog).toBe(ROBOT_DOG);
    expect(ROBOTS.humanoid).toBe(HUMANOID);
  });

  it('refuses an unknown name with one error naming the accepted values', () => {
    expect(() => robotSpec('tank')).toThrow("unknown robot 'tank': expected one of wheeled, dog, humanoid");
    expect(() => robotSpec('toString')).toThrow(/expected one of wheeled, dog, humanoid/);
  });

  it('keeps the wheeled robot as it was: limits, footprint and camera mount (0.8 m, level; src/bench/embodiment.test.ts checks it against the default policy mount)', () => {
    expect(DELIVERY_ROBOT).toMatchObject({ maxLinearSpeed: 1.5, maxAngularSpeed: 0.65, maxLinearAccel: 1.5, maxAngularAccel: 2, length: 0.7, width: 0.55, footprintOffsetX: 0, physicsDt: 0.005, cameraHeight: 0.8, cameraPitchDeg: 0, gait: null });
  });

  it('gives the legged robots their documented footprint and camera height', () => {
    expect([ROBOT_DOG.length, ROBOT_DOG.width, ROBOT_DOG.cameraHeight]).toEqual([0.7, 0.31, 0.32]);
    expect([HUMANOID.length, HUMANOID.width, HUMANOID.cameraHeight, HUMANOID.cameraPitchDeg]).toEqual([0.2, 0.45, 1.2, 10]);
  });

  it("keeps a manifest's mount on the wheeled robot and puts the legged robot's height and pitch in it", () => {
    const mount = { height: 0.9, pitchDeg: 5, fovYDeg: 70 };
    expect(embodiedMount(DELIVERY_ROBOT, mount)).toBe(mount);
    expect(embodiedMount(ROBOT_DOG, mount)).toEqual({ height: 0.32, pitchDeg: 0, fovYDeg: 70 });
    expect(embodiedMount(HUMANOID, mount)).toEqual({ height: 1.2, pitchDeg: 10, fovYDeg: 70 });
  });
});

describe('embodiment limits in the kinematics', () => {
  for (const spec of [DELIVERY_ROBOT, ROBOT_DOG, HUMANOID]) {
    it(`${spec.name}: speed and turn rate clamp to the spec, reached under its acceleration limits`, () => {
      const { s, dv, dw } = drive(spec, { v: 10, w: 10 }, 5);
      expect(s.v).toBeCloseTo(spec.maxLinearSpeed, 12);
      expect(s.w).toBeCloseTo(spec.maxAngularSpeed, 12);
      expect(dv).toBeLessThanOrEqual(spec.maxLinearAccel * spec.physicsDt + 1e-12);
      expect(dw).toBeLessThanOrEqual(spec.maxAngularAccel * spec.physicsDt + 1e-12);
      // After 0.5 s from rest the speed is the accelerated one (the limit not yet reached).
      const early = drive(spec, { v: 10, w: -10 }, 0.5).s;
      expect(early.v).toBeCloseTo(Math.min(spec.maxLinearSpeed, spec.maxLinearAccel * 0.5), 9);
      expect(early.w).toBeCloseTo(-Math.min(spec.maxAngularSpeed, spec.maxAngularAccel * 0.5), 9);
      // No reverse.
      expect(drive(spec, { v: -1, w: 0 }, 1).s.v).toBe(0);
    });
  }

  it('uses each footprint for collisions: a post 0.2 m beside the centre line hits the humanoid and the wheeled robot, not the dog', () => {
    const post: [number, number][] = [[-0.05, 0.2], [0.05, 0.2], [0.05, 0.3], [-0.05, 0.3]];
    const world = { isWalkable: () => true, obstacles: [post] };
    const hits = (spec: RobotSpec) => new FailureMonitor(world, spec).check(0.1, at(), [], 0).map((e) => e.kind);
    expect(hits(DELIVERY_ROBOT)).toEqual(['collision-obstacle']);
    expect(hits(HUMANOID)).toEqual(['collision-obstacle']);
    expect(hits(ROBOT_DOG)).toEqual([]);
  });
});

describe('gait camera motion', () => {
  for (const spec of [ROBOT_DOG, HUMANOID]) {
    const gait = spec.gait!;
    it(`${spec.name}: periodic with one stride (two steps of ${gait.stepLength} m), bob and pitch once per step`, () => {
      for (const d of [0.013, 0.1, 0.37, 1.234]) {
        const a = gaitOffset(gait, d, 1);
        const stride = gaitOffset(gait, d + 2 * gait.stepLength, 1);
        const step = gaitOffset(gait, d + gait.stepLength, 1);
        for (const key of ['up', 'left', 'rollDeg', 'pitchDeg'] as const) expect(stride[key]).toBeCloseTo(a[key], 12);
        expect(step.up).toBeCloseTo(a.up, 12);
        expect(step.pitchDeg).toBeCloseTo(a.pitchDeg, 12);
        expect(step.left).toBeCloseTo(-a.left, 12);
      }
      // Lowest at the footfall, highest mid-step, full sway a quarter of a stride on.
      expect(gaitOffset(gait, 0, 1).up).toBeCloseTo(-gait.bobAmplitude, 12);
      expect(gaitOffset(gait, gait.stepLength / 2, 1)).toMatchObject({ up: expect.closeTo(gait.bobAmplitude, 12), left: expect.closeTo(gait.swayAmplitude, 12), rollDeg: expect.closeTo(gait.rollAmplitudeDeg, 12) });
      expect(gaitOffset(gait, gait.stepLength / 4, 1).pitchDeg).toBeCloseTo(gait.pitchAmplitudeDeg, 12);
      expect(stepFrequency(gait, 1)).toBeCloseTo(1 / gait.stepLength, 12);
    });

    it(`${spec.name}: zero when standing still, growing with speed up to ${gait.fullAmplitudeSpeed} m/s`, () => {
      const d = gait.stepLength / 2;
      expect(gaitOffset(gait, d, 0)).toEqual(NO_GAIT_OFFSET);
      expect(gaitOffset(gait, d, gait.fullAmplitudeSpeed / 2).up).toBeCloseTo(gait.bobAmplitude / 2, 12);
      expect(gaitOffset(gait, d, 3 * gait.fullAmplitudeSpeed).up).toBeCloseTo(gait.bobAmplitude, 12);
    });
  }

  it('is deterministic: the same poses give the same camera motion, frame by frame', () => {
    const run = () => {
      const odo = new GaitOdometer(HUMANOID.maxLinearSpeed);
      const out: number[] = [];
      for (let k = 0; k < 40; k++) {
        odo.advance(0.1 * k, 0.01 * k, k === 0 ? 0 : 0.2);
        const g = gaitOffset(HUMANOID.gait!, odo.distance, odo.speed);
        out.push(odo.distance, g.up, g.left, g.rollDeg, g.pitchDeg);
      }
      return out;
    };
    expect(run()).toEqual(run());
    expect(run()[0]).toBe(0);
  });

  it('odometer: counts straight-line distance per frame, reads 0 when still, and does not walk a reset jump', () => {
    const odo = new GaitOdometer(1.5);
    odo.advance(0, 0, 0);
    expect([odo.distance, odo.speed]).toEqual([0, 0]);
    odo.advance(0.3, 0.4, 0.5);
    expect(odo.distance).toBeCloseTo(0.5, 12);
    expect(odo.speed).toBeCloseTo(1, 12);
    odo.advance(0.3, 0.4, 0.5);
    expect(odo.speed).toBe(0);
    expect(gaitOffset(ROBOT_DOG.gait!, odo.distance, odo.speed)).toEqual(NO_GAIT_OFFSET);
    odo.advance(10, 0.4, 0.5);
    expect(odo.distance).toBeCloseTo(0.5, 12);
    expect(odo.speed).toBe(0);
    odo.reset();
    expect(odo.distance).toBe(0);
  });

  it('camera pose: at rest it is the level mount over the base; the offset moves the eye in the robot frame and rolls the up vector', () => {
    const rest = gaitCameraPose(2, 3, Math.PI / 2, 0.15, 1.2, 0, NO_GAIT_OFFSET);
    expect(rest.eye.slice(0, 2)).toEqual([2, 3]);
    expect(rest.eye[2]).toBeCloseTo(1.35, 12);
    expect(rest.target[0]).toBeCloseTo(2, 12);
    expect(rest.target[1]).toBeCloseTo(4, 12);
    expect(rest.up).toEqual([0, -0, 1]);
    // Facing +y, "left" is −x; 10° roll turns up toward the robot's right (+x).
    const g = gaitCameraPose(2, 3, Math.PI / 2, 0.15, 1.2, 10, { up: 0.01, left: 0.02, rollDeg: 10, pitchDeg: 2 });
    expect(g.eye[0]).toBeCloseTo(1.98, 12);
    expect(g.eye[1]).toBeCloseTo(3, 12);
    expect(g.eye[2]).toBeCloseTo(1.36, 12);
    expect(g.eye[2] - g.target[2]).toBeCloseTo(Math.sin((12 * Math.PI) / 180), 12);
    expect(g.up[0]).toBeCloseTo(Math.sin((10 * Math.PI) / 180), 12);
    expect(g.up[2]).toBeCloseTo(Math.cos((10 * Math.PI) / 180), 12);
  });
});
