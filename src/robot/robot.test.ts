import { describe, expect, it } from 'vitest';
import type { Ring } from '../core/geometry2d';
import { FailureMonitor } from './failure-monitor';
import { pdControl, pdControlSequence } from './pd-controller';
import { DELIVERY_ROBOT, type RobotSpec } from './robot-spec';
import { RouteTracker } from './route-tracker';
import { footprintCorners, stepUnicycle, worldToRobot, wrapAngle, type RobotState } from './unicycle';

/** No acceleration limits, so analytic arcs apply from the first sub-step. */
const INSTANT: RobotSpec = { ...DELIVERY_ROBOT, maxLinearAccel: 1e9, maxAngularAccel: 1e9 };
const at = (x = 0, y = 0, yaw = 0): RobotState => ({ x, y, yaw, v: 0, w: 0 });

describe('unicycle kinematics', () => {
  it('drives straight at v for t seconds', () => {
    const s = at(1, 2, Math.PI / 2);
    for (let i = 0; i < 200; i++) stepUnicycle(s, { v: 1, w: 0 }, 0.005, INSTANT);
    expect(s.x).toBeCloseTo(1, 9);
    expect(s.y).toBeCloseTo(3, 9);
  });

  it('follows a circle of radius v/ω exactly (half a turn ends 2r to the left)', () => {
    const s = at();
    const w = 0.5;
    const v = 1;
    const steps = Math.round(Math.PI / w / 0.01);
    for (let i = 0; i < steps; i++) stepUnicycle(s, { v, w }, Math.PI / w / steps, INSTANT);
    expect(s.x).toBeCloseTo(0, 9);
    expect(s.y).toBeCloseTo((2 * v) / w, 9);
    expect(Math.abs(s.yaw)).toBeCloseTo(Math.PI, 9);
  });

  it('clamps to 1.5 m/s and 0.65 rad/s and never reverses', () => {
    const s = at();
    for (let i = 0; i < 1000; i++) stepUnicycle(s, { v: 5, w: -3 }, 0.005, DELIVERY_ROBOT);
    expect(s.v).toBeCloseTo(1.5, 12);
    expect(s.w).toBeCloseTo(-0.65, 12);
    stepUnicycle(s, { v: -1, w: 0 }, 0.005, DELIVERY_ROBOT);
    expect(s.v).toBeCloseTo(1.5 - DELIVERY_ROBOT.maxLinearAccel * 0.005, 12);
  });

  it('reaches a speed no faster than the acceleration limit allows', () => {
    const s = at();
    stepUnicycle(s, { v: 1.5, w: 0 }, 0.1, DELIVERY_ROBOT);
    expect(s.v).toBeCloseTo(DELIVERY_ROBOT.maxLinearAccel * 0.1, 12);
  });

  it('refuses a NaN command', () => {
    expect(() => stepUnicycle(at(), { v: NaN, w: 0 }, 0.005, DELIVERY_ROBOT)).toThrow(/non-finite/);
  });

  it('wraps angles to (−π, π] and converts frames both ways', () => {
    expect(wrapAngle(3 * Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(-Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(-0.5)).toBeCloseTo(-0.5, 12);
    const [fx, fy] = worldToRobot(at(1, 1, Math.PI / 2), 1, 3);
    expect(fx).toBeCloseTo(2, 12); // 2 m ahead
    expect(fy).toBeCloseTo(0, 12);
  });
});

describe('PD controller (visualnav-transformer pd_controller.py)', () => {
  const p = { rateHz: 4, maxV: 1.5, maxW: 0.65, waypointIndex: 2, normalized: false };
  it('goes straight at dx/Δt, clipped', () => {
    expect(pdControl(0.25, 0, p)).toEqual({ v: 1, w: 0 });
    expect(pdControl(2, 0, p).v).toBe(1.5);
  });
  it('turns by atan(dy/dx)/Δt, clipped to maxW', () => {
    const c = pdControl(0.25, 0.01, p);
    expect(c.w).toBeCloseTo(Math.atan(0.04) * 4, 12);
    expect(pdControl(0.1, 0.1, p).w).toBe(0.65);
  });
  it('turns in place for a sideways or backward waypoint, never reversing', () => {
    expect(pdControl(0, -0.3, p)).toEqual({ v: 0, w: -0.65 });
    expect(pdControl(-0.5, 0.1, p).v).toBe(0);
    expect(pdControl(0, 0, p, [0, 1]).w).toBe(0.65);
  });
  it('picks the waypoint index and undoes normalisation by maxV/rate', () => {
    const seq = [0, 0, 0, 0, 0.5, 0, 9, 9]; // K=4, D=2; index 2 = (0.5, 0)
    expect(pdControlSequence(seq, 2, { ...p, normalized: true }).v).toBeCloseTo(0.5 * (1.5 / 4) * 4, 12);
    expect(() => pdControlSequence(seq, 3, p)).toThrow(/dimension/);
    expect(() => pdControlSequence([1, 2], 2, p)).toThrow(/only 1 waypoints/);
  });
});

describe('RouteTracker', () => {
  it('measures progress and completion along an L-shaped route', () => {
    const r = new RouteTracker([[0, 0], [10, 0], [10, 10]]);
    expect(r.length).toBe(20);
    expect(r.update(4, 0.5).progress).toBeCloseTo(4, 12);
    expect(r.update(8, 0).lateral).toBe(0);
    r.update(10.2, 5);
    r.update(11, 9);
    expect(r.completion).toBeCloseTo(19 / 20, 12);
    expect(r.pointAt(15)).toEqual([10, 5]);
    expect(r.closestWaypoint(9, 1)).toBe(1);
  });
  it('does not jump to a later part of a route that passes nearby', () => {
    // A U-turn: out along y=0, back along y=1.
    const r = new RouteTracker([[0, 0], [20, 0], [20, 1], [0, 1]], 3);
    expect(r.update(2, 0.6).progress).toBeCloseTo(2, 12);
  });
});

describe('FailureMonitor', () => {
  const sidewalk: Ring = [[-5, -1.5], [50, -1.5], [50, 1.5], [-5, 1.5]];
  const post: Ring = [[5, -0.1], [5.2, -0.1], [5.2, 0.1], [5, 0.1]];
  const world = { isWalkable: (x: number, y: number) => x >= -5 && x <= 50 && Math.abs(y) <= 1.5, obstacles: [post] };

  it('records one obstacle collision when the footprint touches a lamp post, not on a near miss', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    // Near miss: footprint edge 1 cm from the post.
    const nearX = 5 - DELIVERY_ROBOT.length / 2 - 0.01;
    expect(m.check(0, at(nearX, 0), [], 0)).toEqual([]);
    const hit = m.check(0.005, at(nearX + 0.02, 0), [], 0.02);
    expect(hit).toHaveLength(1);
    expect(hit[0]).toMatchObject({ kind: 'collision-obstacle', with: 0, time: 0.005 });
    expect(m.check(0.01, at(nearX + 0.03, 0), [], 0.03)).toEqual([]); // same contact: no new event
    expect(sidewalk.length).toBe(4);
  });

  it('records a pedestrian collision at radius 0.3 m and not at 0.31 m clearance', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    const front = DELIVERY_ROBOT.length / 2;
    expect(m.check(0, at(20, 0), [{ x: 20 + front + 0.31, y: 0, radius: 0.3 }], 0)).toEqual([]);
    const hit = m.check(0.1, at(20, 0), [{ x: 20 + front + 0.29, y: 0, radius: 0.3 }], 0);
    expect(hit.map((e) => e.kind)).toEqual(['collision-pedestrian']);
  });

  it('marks a pedestrian collision as walked into when the robot was not driving toward the walker', () => {
    const front = DELIVERY_ROBOT.length / 2;
    const ped = [{ x: 20 + front + 0.29, y: 0, radius: 0.3 }];
    const stopped = new FailureMonitor(world, DELIVERY_ROBOT);
    expect(stopped.check(0, at(20, 0), ped, 0)).toMatchObject([{ kind: 'collision-pedestrian', walkedInto: true }]);
    const driving = new FailureMonitor(world, DELIVERY_ROBOT);
    expect(driving.check(0, { ...at(20, 0), v: 0.8 }, ped, 0)).toMatchObject([{ kind: 'collision-pedestrian', walkedInto: false }]);
    // Driving away from a walker who catches up from behind: the walker's doing.
    const behind = [{ x: 20 - front - 0.29, y: 0, radius: 0.3 }];
    const away = new FailureMonitor(world, DELIVERY_ROBOT);
    expect(away.check(0, { ...at(20, 0), v: 0.8 }, behind, 0)).toMatchObject([{ kind: 'collision-pedestrian', walkedInto: true }]);
  });

  it('counts a contact that lasts through a long-horizon reset once', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    const front = DELIVERY_ROBOT.length / 2;
    const ped = [{ x: 20 + front + 0.29, y: 0, radius: 0.3 }];
    expect(m.check(0, at(20, 0), ped, 0)).toHaveLength(1);
    m.resetContacts(0.1, 0, at(20, 0), ped);
    expect(m.check(0.2, at(20, 0), ped, 0)).toEqual([]);
    // Once the walker has left, a new contact is a new event.
    expect(m.check(0.3, at(20, 0), [], 0)).toEqual([]);
    expect(m.check(0.4, at(20, 0), ped, 0)).toHaveLength(1);
  });

  it('does not count what holds at a reset pose as a new event (a waypoint whose footprint overhangs the kerb)', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    expect(m.check(0, at(20, 1.45), [], 0).map((e) => e.kind)).toEqual(['out-of-lane']);
    m.resetContacts(0.005, 0, at(30, 1.45), []);
    expect(m.check(0.01, at(30, 1.45), [], 0)).toEqual([]);
    // Back on the sidewalk, then off again: a new excursion.
    expect(m.check(0.02, at(30, 0), [], 0)).toEqual([]);
    expect(m.check(0.03, at(30, 1.45), [], 0).map((e) => e.kind)).toEqual(['out-of-lane']);
  });

  it('records out-of-lane when a corner leaves the sidewalk, not when the footprint is just inside', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    const inside = 1.5 - DELIVERY_ROBOT.width / 2 - 0.01;
    expect(m.check(0, at(20, inside), [], 0)).toEqual([]);
    const corners = footprintCorners(at(20, inside + 0.02), DELIVERY_ROBOT);
    expect(Math.max(...corners.map((c) => c[1]))).toBeGreaterThan(1.5);
    expect(m.check(0.1, at(20, inside + 0.02), [], 0).map((e) => e.kind)).toEqual(['out-of-lane']);
  });

  it('records freezing after 10 s without 0.5 m of progress, once', () => {
    const m = new FailureMonitor(world, DELIVERY_ROBOT);
    m.check(0, at(20, 0), [], 1);
    expect(m.check(9.9, at(20, 0), [], 1.4)).toEqual([]);
    expect(m.check(10, at(20, 0), [], 1.4).map((e) => e.kind)).toEqual(['freezing']);
    expect(m.check(15, at(20, 0), [], 1.4)).toEqual([]);
    expect(m.events).toHaveLength(1);
  });
});
