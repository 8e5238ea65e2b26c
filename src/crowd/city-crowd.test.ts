/**
 * The living city crowd (src/crowd/city-crowd.ts) on the CPU reference batch, short enough for CI:
 * world 1, 40 walkers, 60 s. The long run (80 walkers, 5 min, both backends) is a documented
 * command whose figures are in bench/RESULTS.md.
 */
import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { generateWorld } from '../world/world';
import { CityCrowdMetrics, OVERLAP_DISTANCE } from './city-crowd-metrics';
import { CityCrowd, laneOffsets, offsetPolyline, runCityCrowd } from './city-crowd';
import { CpuPedestrianBatch, type PedestrianSlotView } from './pedestrian-batch';

const world = generateWorld({ seed: 1 });

describe('city crowd', () => {
  it('walks 40 walkers for a minute without overlaps or prop penetrations, stands still, at walking speed, deterministically', async () => {
    const run = () => runCityCrowd(world, new CpuPedestrianBatch(1), { walkers: 40, seed: 3 }, 60);
    const a = await run();
    expect(a.walkers).toBe(40);
    expect(a.groupedWalkers).toBeGreaterThan(0);
    expect(a.legs).toBeGreaterThan(40); // walkers reached destinations and got new ones
    expect(a.stands).toBeGreaterThan(10);
    expect(a.pauses.storefront + a.pauses.busStop + a.pauses.kiosk).toBeGreaterThan(0);
    expect(a.propPenetrations).toBe(0);
    expect(a.overlaps).toBe(0);
    expect(a.minPairDistance).toBeGreaterThan(OVERLAP_DISTANCE);
    expect(a.standingDriftMedian).toBeLessThan(0.05);
    expect(a.meanSpeed).toBeGreaterThan(1.1);
    expect(a.meanSpeed).toBeLessThan(1.65);
    const b = await run();
    expect({ ...b, wallSeconds: 0, stepsPerSecond: 0 }).toEqual({ ...a, wallSeconds: 0, stepsPerSecond: 0 });
  }, 120_000);

  it('plans groups side by side, keeping right, on walkable lines', () => {
    expect(laneOffsets(1)).toEqual([-0.45]);
    const pair = laneOffsets(2);
    expect(pair[1] - pair[0]).toBeCloseTo(0.7, 9);
    const line = offsetPolyline([[0, 0], [10, 0], [10, 10]], -0.5);
    expect(line[0]).toEqual([0, -0.5]);
    expect(line[2][0]).toBeCloseTo(10.5, 9);
    const crowd = new CityCrowd(world, { walkers: 60, seed: 5 });
    expect(crowd.specs).toHaveLength(60);
    for (const g of crowd.groups.filter((x) => x.members.length > 1)) {
      const [a, b] = g.members.map((i) => crowd.specs[i].spawn);
      expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeGreaterThan(0.6);
    }
    expect(() => new CityCrowd(world, { walkers: 0, seed: 1 })).toThrow(/walkers 0/);
    expect(() => new CityCrowd(world, { walkers: 5, seed: 1, centre: [5000, 5000] })).toThrow(/no pedestrian-network node/);
  });
});

describe('CityCrowdMetrics', () => {
  /** A view of scripted positions: walker i at pos[i], walking per flag. */
  const view = (pos: Vec2[], walking: boolean[], vel: Vec2[] = pos.map(() => [0, 0])): PedestrianSlotView => ({
    discs: () => pos.map(([x, y]) => ({ x, y, radius: 0.3 })),
    velocities: () => vel,
    gestures: () => pos.map(() => 'none' as const),
    animation: () => [],
    triggered: () => false,
    walking: (i) => walking[i],
  });

  it('counts contact events (not frames), drift per stand, stuck walkers and the walking speed', () => {
    // An obstacle with no other within 3 m (one contact is one event).
    const o = world.obstacles.find((x) => x.kind !== 'building' && world.obstacles.every((y) => y === x || Math.hypot(y.centre[0] - x.centre[0], y.centre[1] - x.centre[1]) > 3 + y.radius))!;
    const far: Vec2 = [1000, 1000]; // outside the 400 m world: no obstacle
    const m = new CityCrowdMetrics(world, 3);
    // Walker 0 sits on an obstacle for 3 steps (one event), leaves, comes back (second event).
    // Walkers 1 and 2 overlap for 2 steps (one event).
    const seq: [Vec2, Vec2, Vec2][] = [
      [o.centre, far, [far[0] + 0.3, far[1]]],
      [o.centre, far, [far[0] + 0.3, far[1]]],
      [o.centre, far, [far[0] + 2, far[1]]],
      [[900, 900], far, [far[0] + 2, far[1]]],
      [o.centre, far, [far[0] + 2, far[1]]],
    ];
    for (const p of seq) m.observe(view(p, [true, false, true], [[1.2, 0], [0, 0], [1.4, 0]]), 0.1);
    const r = m.result();
    expect(r.propPenetrations).toBe(2);
    expect(r.overlaps).toBe(1);
    expect(r.minPairDistance).toBeCloseTo(0.3, 9);
    expect(r.meanSpeed).toBeCloseTo(1.3, 9); // walking walkers only
    expect(r.stands).toBe(1); // walker 1, standing still
    expect(r.standingDriftMax).toBe(0);
    // Standing drift: a stand that moves 4 cm, then a walk, then a stand that moves 1 m.
    const d = new CityCrowdMetrics(world, 1);
    const at = (x: number): Vec2 => [far[0] + x, far[1]];
    for (const [x, w] of [[0, false], [0.04, false], [0.02, false], [1, true], [2, false], [3, false]] as const) d.observe(view([at(x)], [w]), 0.1);
    expect(d.result().stands).toBe(2);
    expect(d.result().standingDriftMedian).toBeCloseTo(0.52, 9);
    expect(d.result().standingDriftMax).toBeCloseTo(1, 9);
    // Stuck: walking for 31 s without moving.
    const s = new CityCrowdMetrics(world, 1);
    for (let k = 0; k < 310; k++) s.observe(view([far], [true]), 0.1);
    expect(s.result().stuck).toBe(1);
  });
});
