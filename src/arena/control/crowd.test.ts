/**
 * A session's pedestrians (crowd.ts) on a real generated world: the walkers are the city crowd on
 * the CPU backend (the same positions as a CityCrowd driven over a CpuPedestrianBatch), advance in
 * whole 0.1 s steps with the remainder kept, spawn clear of the avatar within the crowd's disc, step
 * aside for an avatar walking at them, and refuse a bad count or duration.
 */
import { describe, expect, it } from 'vitest';
import { CITY_CROWD_DT, CityCrowd } from '../../crowd/city-crowd';
import { CpuPedestrianBatch } from '../../crowd/pedestrian-batch';
import type { RobotState } from '../../robot/unicycle';
import type { Vec2 } from '../../world/geometry';
import { isWalkable } from '../../world/queries';
import { generateWorld } from '../../world/world';
import { CROWD_RADIUS, SessionCrowd, SPAWN_CLEARANCE } from './crowd';

const world = generateWorld({ seed: 1, size: 400 });
const centre = [...world.nav.nodes[0]] as Vec2;

describe('SessionCrowd', () => {
  it('is the city crowd on the CPU backend: the same walkers as CityCrowd over a CpuPedestrianBatch', async () => {
    const crowd = new SessionCrowd(world, { count: 20, seed: 4, centre });
    expect([crowd.count, crowd.radius]).toEqual([20, CROWD_RADIUS]);
    // The reference: the same plan stepped as runCityCrowd steps it, with its robot parked.
    const plan = new CityCrowd(world, { walkers: 20, seed: 4, centre, radius: CROWD_RADIUS, keepClear: { centre, radius: SPAWN_CLEARANCE } });
    const batch = new CpuPedestrianBatch(1);
    await batch.load(0, plan.specs, plan.obstacles, 4);
    const parked: RobotState = { x: 5000, y: 5000, yaw: 0, v: 0, w: 0 };
    expect(crowd.discs()).toEqual(batch.view(0).discs());
    for (let k = 0; k < 200; k++) {
      await batch.step(CITY_CROWD_DT, [parked]);
      plan.control(batch, 0, CITY_CROWD_DT);
    }
    expect(crowd.advance(20, null)).toBe(200);
    expect(crowd.time).toBeCloseTo(20, 9);
    expect(crowd.discs()).toEqual(batch.view(0).discs());
    expect(crowd.discs().every((d) => d.radius === 0.3)).toBe(true);
    const poses = crowd.poses();
    expect(poses.map((p) => p.position)).toEqual(batch.view(0).discs().map((d) => [d.x, d.y]));
    expect(poses.map((p) => [p.heading, p.walkSpeed])).toEqual(batch.view(0).animation().map((a) => [a.heading, a.walkSpeed]));
  });

  it('steps whole 0.1 s steps and keeps the remainder for the next call', () => {
    const crowd = new SessionCrowd(world, { count: 5, seed: 2, centre });
    expect(crowd.advance(0.25, null)).toBe(2);
    expect(crowd.advance(0.25, null)).toBe(3);
    expect(crowd.time).toBeCloseTo(0.5, 12);
    expect(crowd.advance(0.05, null)).toBe(0);
    expect(crowd.advance(0.05, null)).toBe(1);
    expect(crowd.advance(0, null)).toBe(0);
    expect(crowd.time).toBeCloseTo(0.6, 12);
    expect(() => crowd.advance(-1, null)).toThrow(/cannot advance by -1 s/);
    expect(() => crowd.advance(Number.NaN, null)).toThrow(RangeError);
  });

  it('spawns on walkable ground within its disc, clear of the avatar, and refuses a bad count', () => {
    const crowd = new SessionCrowd(world, { count: 40, seed: 9, centre });
    for (const p of crowd.poses()) {
      const d = Math.hypot(p.position[0] - centre[0], p.position[1] - centre[1]);
      expect(d).toBeGreaterThanOrEqual(SPAWN_CLEARANCE - 0.01); // spawn jitter is 5 mm
      expect(d).toBeLessThan(CROWD_RADIUS + 2);
      expect(isWalkable(world, p.position[0], p.position[1])).toBe(true);
    }
    expect(() => new SessionCrowd(world, { count: 0, seed: 1, centre })).toThrow(/count 0 is not a positive integer/);
    expect(() => new SessionCrowd(world, { count: 2.5, seed: 1, centre })).toThrow(RangeError);
  });

  it('walkers step aside for an avatar walking at them', () => {
    // The walker nearest the centre, and an avatar coming head-on at it at 1.4 m/s from 4 m ahead of it.
    const run = (avatar: boolean) => {
      const crowd = new SessionCrowd(world, { count: 20, seed: 4, centre });
      const w = crowd.discs().map((d, i) => ({ i, d: Math.hypot(d.x - centre[0], d.y - centre[1]) })).sort((a, b) => a.d - b.d)[0].i;
      const { position: at, heading } = crowd.poses()[w];
      const [c, s] = [Math.cos(heading), Math.sin(heading)];
      let gap = Infinity;
      for (let k = 1; k <= 30; k++) {
        const p: Vec2 = [at[0] + (4 - 0.14 * k) * c, at[1] + (4 - 0.14 * k) * s];
        crowd.advance(0.1, avatar ? { position: p, heading: heading + Math.PI, speed: 1.4 } : null);
        const d = crowd.discs()[w];
        gap = Math.min(gap, Math.hypot(d.x - p[0], d.y - p[1]));
      }
      return { gap, discs: crowd.discs() };
    };
    const [seen, unseen] = [run(true), run(false)];
    expect(seen.discs).not.toEqual(unseen.discs);
    // Unseen, it would walk through the avatar's path; seen, it keeps ORCA's distance from the avatar's 0.45 m disc (0.45 + 0.3).
    expect(unseen.gap).toBeLessThan(0.25 + 0.3);
    expect(seen.gap).toBeGreaterThan(0.7);
  });
});
