import { describe, expect, it } from 'vitest';
import { PedestrianSpecSchema, type PedestrianSpec } from '../sim/scenario';
import type { RobotState } from '../robot/unicycle';
import { BEHAVIOUR_CONSTANTS, ScenarioPedestrians } from './scenario-pedestrians';

const { HOLD_TOLERANCE, QUEUE_SERVED_SPACING } = BEHAVIOUR_CONSTANTS;

const spec = (s: Record<string, unknown>): PedestrianSpec => PedestrianSpecSchema.parse(s);

/** Runs `seconds` of simulation with the robot driving along +x from x0 at speed v (y = 0). */
function drive(sim: ScenarioPedestrians, seconds: number, x0: number, v: number, dt = 0.1): RobotState {
  const robot: RobotState = { x: x0, y: 0, yaw: 0, v, w: 0 };
  for (let t = 0; t < seconds - 1e-9; t += dt) {
    robot.x += v * dt;
    sim.step(dt, robot);
  }
  return robot;
}

describe('ScenarioPedestrians behaviours', () => {
  it('obstructing: waits beside the path, steps into it when the robot comes within range, stands', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'obstructing', spawn: [10, 0.9], speed: 1.3, triggerDistance: 5, params: { target: [10, 0] } })], [], 1);
    drive(sim, 2, 0, 0); // robot 10 m away: nothing happens
    expect(sim.triggered(0)).toBe(false);
    expect(sim.discs()[0].y).toBeCloseTo(0.9, 2);
    drive(sim, 4, 6, 0); // robot 4 m away: steps in
    expect(sim.triggered(0)).toBe(true);
    expect(Math.abs(sim.discs()[0].y)).toBeLessThan(0.1);
    expect(sim.animation()[0].idle).toBe(true);
  });

  it('conversing: members stand facing the centre and talk', () => {
    const sim = new ScenarioPedestrians([
      spec({ behaviour: 'conversing', spawn: [10, 0.6], heading: -Math.PI / 2, speed: 0, group: 0, params: { centre: [10, 0] } }),
      spec({ behaviour: 'conversing', spawn: [10, -0.6], heading: Math.PI / 2, speed: 0, group: 0, params: { centre: [10, 0] } }),
    ], [], 1);
    drive(sim, 5, 5, 1);
    const d = sim.discs();
    expect(Math.hypot(d[0].x - d[1].x, d[0].y - d[1].y)).toBeCloseTo(1.2, 1);
    expect(sim.animation().map((a) => a.gesture)).toEqual(['talk', 'talk']);
  });

  it('queuing: the head is served after its wait and walks off; the follower closes up', () => {
    const sim = new ScenarioPedestrians([
      spec({ behaviour: 'queuing', spawn: [10, 0], heading: 0, speed: 0, group: 0, params: { order: 0, wait: 3 } }),
      spec({ behaviour: 'queuing', spawn: [9.2, 0], heading: 0, speed: 0, group: 0, params: { order: 1, wait: 10 } }),
    ], [], 1);
    drive(sim, 2.5, -20, 0);
    expect(sim.discs()[0].x).toBeCloseTo(10, 1);
    drive(sim, 4, -20, 0);
    expect(sim.discs()[0].x).toBeGreaterThan(12); // served, walking on
    // Stepped up to the head's place (waypoints count as reached within 0.1 m).
    expect(Math.abs(sim.discs()[1].x - 10)).toBeLessThan(0.15);
  });

  it('queuing: 5 members are served in order, head first, each after its own wait from arrival, never overlapping', () => {
    // The line faces +x: the head (order 0) is in front at x = 10; gaps 0.25–0.75 m between 0.6 m bodies.
    const xs = [10, 9.15, 7.95, 7.1, 6.2];
    const waits = [2, 3.5, 1.5, 4, 2.5];
    const sim = new ScenarioPedestrians(xs.map((x, order) => spec({ behaviour: 'queuing', spawn: [x, 0], heading: 0, speed: 0, group: 0, params: { order, wait: waits[order], exitSide: -1 } })), [], 7);
    const robot: RobotState = { x: -30, y: 0, yaw: 0, v: 0, w: 0 };
    const dt = 0.1;
    const served: number[] = xs.map(() => -1);
    const atFront: number[] = xs.map((_, i) => (i === 0 ? 0 : -1));
    let minGap = Infinity;
    for (let k = 1; k <= 400; k++) {
      sim.step(dt, robot);
      const d = sim.discs();
      for (let i = 0; i < d.length; i++) {
        for (let j = i + 1; j < d.length; j++) minGap = Math.min(minGap, Math.hypot(d[i].x - d[j].x, d[i].y - d[j].y));
        if (served[i] < 0 && sim.triggered(i)) served[i] = k;
        // Standing at the head's place (it arrived there: its path emptied).
        if (atFront[i] < 0 && !sim.walking(i) && Math.hypot(d[i].x - 10, d[i].y) < 0.1) atFront[i] = k;
      }
    }
    expect(minGap).toBeGreaterThan(0.6 - 0.01);
    // Served in order, each `wait` s (±1 step) after it started standing at the front.
    expect(served.every((k, i) => i === 0 || k > served[i - 1])).toBe(true);
    served.forEach((k, i) => expect(Math.abs((k - atFront[i]) * dt - waits[i]), `member ${i}`).toBeLessThanOrEqual(dt + 1e-9));
    // Nobody is served before reaching the front, so no two leave together.
    for (let i = 1; i < xs.length; i++) expect(served[i] - served[i - 1]).toBeGreaterThan(waits[i] / dt - 1);
    // The served step aside to their right (exitSide −1) and walk on along +x.
    const d = sim.discs();
    expect(d[0].x).toBeGreaterThan(18);
    expect(d[0].y).toBeCloseTo(-0.7, 1);
    // Each stops QUEUE_SERVED_SPACING short of the one served before it: nobody stands on anyone.
    for (let i = 1; i < xs.length; i++) expect(Math.abs(d[i - 1].x - d[i].x - QUEUE_SERVED_SPACING)).toBeLessThan(0.15);
  });

  it('hold rule: an arrived walker stands still, steps aside for a walker pressing through and returns to its spot', () => {
    const sim = new ScenarioPedestrians([
      spec({ behaviour: 'walk', spawn: [0, 0], speed: 1.3, route: [[0, 0], [5, 0]] }),
      spec({ behaviour: 'idle', spawn: [-20, 5], speed: 1.3 }),
    ], [], 3);
    const robot: RobotState = { x: -40, y: -40, yaw: 0, v: 0, w: 0 };
    for (let k = 0; k < 60; k++) sim.step(0.1, robot);
    expect(sim.walking(0)).toBe(false);
    const spot = sim.discs()[0];
    expect(Math.hypot(spot.x - 5, spot.y)).toBeLessThan(0.1);
    for (let k = 0; k < 100; k++) sim.step(0.1, robot);
    expect(sim.discs()[0]).toEqual(spot); // undisturbed: not a micrometre
    // A second walker heads straight through the spot: the standing one gives way, then returns.
    sim.setRoute(1, [[-20, 5], [2, 0.05], [9, 0.05]], 1.4);
    let displaced = 0;
    let minGap = Infinity;
    for (let k = 0; k < 400; k++) {
      sim.step(0.1, robot);
      const d = sim.discs();
      displaced = Math.max(displaced, Math.hypot(d[0].x - spot.x, d[0].y - spot.y));
      minGap = Math.min(minGap, Math.hypot(d[0].x - d[1].x, d[0].y - d[1].y));
    }
    expect(displaced).toBeGreaterThan(0.005); // it did give way (half the avoidance: ORCA's reciprocity)
    expect(minGap).toBeGreaterThan(0.6 - 0.01);
    const end = sim.discs()[0];
    expect(Math.hypot(end.x - spot.x, end.y - spot.y)).toBeLessThan(HOLD_TOLERANCE + 1e-9);
  });

  it('scripted but solid: a frontal pedestrian walks around a bollard and a standing person on its line, and still reaches the robot', () => {
    // A 0.4 m bollard across its line at x = 9 (centred 0.25 m to its left: ORCA slides past an
    // obstacle its line clips; one dead ahead is a local minimum, which the suite generator's line
    // planning avoids), and a person standing on the line at x = 5.
    const bollard: [number, number][] = [[8.8, 0.05], [9.2, 0.05], [9.2, 0.45], [8.8, 0.45]];
    const sim = new ScenarioPedestrians([
      spec({ behaviour: 'frontal', spawn: [15, 0], heading: Math.PI, speed: 1.3, triggerDistance: 12, route: [[15, 0], [0, 0]] }),
      spec({ behaviour: 'idle', spawn: [5, 0.05], speed: 1.3 }),
    ], [bollard], 1);
    let penetration = 0;
    let minGap = Infinity;
    let closestToRobot = Infinity;
    const robot: RobotState = { x: 3.5, y: 0, yaw: 0, v: 0, w: 0 };
    for (let k = 0; k < 150; k++) {
      sim.step(0.1, robot);
      const [a, b] = sim.discs();
      const dx = Math.max(0, Math.abs(a.x - 9) - 0.2);
      const dy = Math.max(0, Math.abs(a.y - 0.25) - 0.2);
      penetration = Math.max(penetration, 0.3 - Math.hypot(dx, dy));
      minGap = Math.min(minGap, Math.hypot(a.x - b.x, a.y - b.y));
      closestToRobot = Math.min(closestToRobot, Math.hypot(a.x - robot.x, a.y - robot.y));
    }
    expect(sim.triggered(0)).toBe(true);
    expect(penetration).toBeLessThan(0.01); // never inside the bollard's 0.3 m clearance (1 cm ORCA discretisation)
    expect(minGap).toBeGreaterThan(0.6 - 0.01);
    expect(closestToRobot).toBeLessThan(0.3 + 0.45); // it does not yield to the robot: it walks into it
  });

  it('frontal: walks toward the robot along the path once triggered, without giving way', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'frontal', spawn: [15, 0], heading: Math.PI, speed: 1.3, triggerDistance: 12, route: [[15, 0], [0, 0]] })], [], 1);
    drive(sim, 1, 0, 0);
    expect(sim.discs()[0].x).toBeCloseTo(15, 2); // 15 m away: not yet
    drive(sim, 2, 4, 0);
    expect(sim.triggered(0)).toBe(true);
    expect(sim.velocities()[0][0]).toBeCloseTo(-1.3, 1);
  });

  it('lateral: crosses at the speed that meets a constant-velocity robot at the crossing point', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'lateral', spawn: [10, 1.4], heading: -Math.PI / 2, speed: 1.3, triggerDistance: 6, params: { crossPoint: [10, 0], exit: [10, -1.4] } })], [], 1);
    // Robot at 1 m/s from x = 3: triggered at x ≈ 4.2 (6 m away), reaches x = 10 about 5.8 s later;
    // the pedestrian (1.4 m at 1.3 m/s) waits ≈ 4.7 s, then walks.
    let met = Infinity;
    const robot: RobotState = { x: 3, y: 0, yaw: 0, v: 1, w: 0 };
    for (let t = 0; t < 12; t += 0.1) {
      robot.x += 0.1;
      sim.step(0.1, robot);
      const d = sim.discs()[0];
      met = Math.min(met, Math.hypot(d.x - robot.x, d.y - robot.y));
    }
    expect(sim.triggered(0)).toBe(true);
    expect(met).toBeLessThan(0.3 + 0.45); // would collide if the robot kept its velocity
    expect(sim.discs()[0].y).toBeLessThan(-1); // and carried on across
  });

  it('overtaking: comes from behind and passes the robot', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'overtaking', spawn: [-3, 0.5], heading: 0, speed: 1.6, triggerDistance: 10, route: [[-3, 0.5], [30, 0.5]] })], [], 1);
    const robot = drive(sim, 12, 0, 0.8);
    expect(sim.discs()[0].x).toBeGreaterThan(robot.x + 1);
  });

  it('ped-crossing: walks across the crosswalk once the robot is near', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'ped-crossing', spawn: [8, -5], heading: Math.PI / 2, speed: 1.3, triggerDistance: 10, route: [[8, -5], [8, 5]] })], [], 1);
    drive(sim, 10, 0, 0);
    expect(sim.discs()[0].y).toBeGreaterThan(4.5);
  });

  it('gesturing: raises a stop gesture when the robot is within range, facing it', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'gesturing', spawn: [10, 0], heading: Math.PI, speed: 0, triggerDistance: 7 })], [], 1);
    drive(sim, 1, 0, 0);
    expect(sim.animation()[0].gesture).toBe('none');
    drive(sim, 1, 4, 0);
    expect(sim.animation()[0].gesture).toBe('stop');
    expect(Math.abs(Math.abs(sim.animation()[0].heading) - Math.PI)).toBeLessThan(0.05);
  });

  it('interact: walks to the object, stands facing it for its duration, then walks on along the exit', () => {
    const dt = 0.1;
    const duration = 3;
    const object = [6, 2];
    const facing = [6, 2.6];
    const sim = new ScenarioPedestrians([
      spec({ behaviour: 'interact', spawn: [0, 2], heading: 0, speed: 1.2, route: [[0, 2], [3, 2]], params: { object, facing, duration, exit: [9, 2, 12, 2] } }),
    ], [], 1);
    const robot: RobotState = { x: -30, y: 0, yaw: 0, v: 0, w: 0 };
    const trace: { x: number; y: number; speed: number; heading: number; idle: boolean; gesture: string }[] = [];
    for (let k = 0; k < 160; k++) {
      sim.step(dt, robot);
      const d = sim.discs()[0];
      const a = sim.animation()[0];
      trace.push({ x: d.x, y: d.y, speed: a.walkSpeed, heading: a.heading, idle: a.idle, gesture: a.gesture });
    }
    const atObject = (t: (typeof trace)[number]) => Math.hypot(t.x - object[0], t.y - object[1]) < 0.1;
    const arrive = trace.findIndex((t) => atObject(t) && t.speed === 0); // first step standing there
    expect(arrive).toBeGreaterThan(0);
    // Walked there at its speed (6 m at 1.2 m/s, easing into the object at the end).
    expect(arrive * dt).toBeGreaterThan(4.5);
    expect(arrive * dt).toBeLessThan(7);
    const stay = trace.slice(arrive).findIndex((t) => t.speed > 0) + arrive; // first step walking again
    const stood = trace.slice(arrive, stay);
    expect(stood.length).toBeGreaterThan(0);
    // Stands `duration` s (±dt), at the object, idle, gesture none, facing the facing point (+y).
    expect(Math.abs(stood.filter((t) => t.speed === 0).length * dt - duration)).toBeLessThanOrEqual(dt + 1e-9);
    expect(Math.abs((stay - arrive) * dt - duration)).toBeLessThanOrEqual(dt + 1e-9);
    for (const t of stood) {
      expect(atObject(t)).toBe(true);
      expect(t.idle).toBe(true);
      expect(t.gesture).toBe('none');
    }
    const last = stood[stood.length - 1];
    expect(Math.abs(last.heading - Math.atan2(facing[1] - last.y, facing[0] - last.x))).toBeLessThan(1e-9);
    expect(Math.abs(last.heading - Math.PI / 2)).toBeLessThan(0.2);
    // Then leaves along the exit at its speed, and never triggered (ambient).
    expect(trace[stay + 5].speed).toBeCloseTo(1.2, 1);
    expect(trace[stay + 5].heading).toBeCloseTo(0, 1);
    const end = trace[trace.length - 1];
    expect(Math.hypot(end.x - 12, end.y - 2)).toBeLessThan(0.15);
    expect(sim.triggered(0)).toBe(false);
  });

  it('interact: stands its ground at the object (responsibility 0), cooperative while walking', () => {
    const sim = new ScenarioPedestrians([spec({ behaviour: 'interact', spawn: [0, 0], speed: 1.2, params: { object: [1, 0], facing: [1, 1] } })], [], 1);
    // A robot parked 1 m ahead of the path: the walker gives way on its way to the object.
    drive(sim, 0.5, 0.5, 0);
    expect(sim.discs()[0].y).not.toBeCloseTo(0, 3);
    // Default stay 8 s: still there, unmoved, with the robot driving close by.
    const s2 = new ScenarioPedestrians([spec({ behaviour: 'interact', spawn: [0.95, 0], speed: 1.2, params: { object: [1, 0], facing: [1, 1] } })], [], 1);
    drive(s2, 1, 5, 0);
    const at = s2.discs()[0];
    drive(s2, 6, 1.2, 0.1); // robot 0.2–0.8 m ahead, approaching
    expect(s2.discs()[0]).toEqual(at);
    drive(s2, 1.5, -20, 0);
    expect(s2.discs()[0].x).toBeCloseTo(at.x, 9); // no exit: stays after the stay too
    expect(() => new ScenarioPedestrians([spec({ behaviour: 'interact', spawn: [0, 0], params: { facing: [1, 1] } })], [], 1)).toThrow(/params.object/);
    expect(() => new ScenarioPedestrians([spec({ behaviour: 'interact', spawn: [0, 0], params: { object: [1, 0], facing: [1, 1], exit: [1, 2, 3] } })], [], 1)).toThrow(/params.exit/);
  });

  it('is deterministic for a seed and jitters spawns by at most 5 mm', () => {
    const make = (seed: number) => new ScenarioPedestrians([spec({ behaviour: 'walk', spawn: [0, 0], route: [[0, 0], [10, 0]] }), spec({ behaviour: 'walk', spawn: [10, 0], route: [[10, 0], [0, 0]] })], [], seed);
    const a = make(3);
    const b = make(3);
    drive(a, 8, -50, 0);
    drive(b, 8, -50, 0);
    expect(a.discs()).toEqual(b.discs());
    // The head-on pair passes each other (jitter breaks ORCA's symmetric deadlock).
    expect(a.discs()[0].x).toBeGreaterThan(8);
    expect(Math.abs(make(4).discs()[0].x)).toBeLessThanOrEqual(0.005);
  });
});
