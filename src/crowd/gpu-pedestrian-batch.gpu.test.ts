/**
 * GpuPedestrianBatch (WGSL behaviours + ORCA, float32) against the TypeScript reference
 * CpuPedestrianBatch (float64) on one scenario per behaviour of the reactive suite plus
 * hand-made walker, queue and interact scenes, with a scripted robot driving the scenario's route; then slot isolation
 * (a batch of many slots equals each slot run alone, bit for bit) and unload/reload.
 */
import { describe, expect, it } from 'vitest';
import reactiveSuite from '../../scenes/suites/reactive.json?raw';
import { withDevice } from '../../test/gpu-fixture';
import type { Ring, Vec2 } from '../core/geometry2d';
import { parseScenarios, type PedestrianSpec } from '../sim/scenario';
import type { RobotState } from '../robot/unicycle';
import { GpuPedestrianBatch } from './gpu-pedestrian-batch';
import { CpuPedestrianBatch, type PedestrianBatch } from './pedestrian-batch';

interface Case {
  name: string;
  specs: PedestrianSpec[];
  obstacles: Ring[];
  route: Vec2[];
  /** Robot speed along the route, m/s. */
  speed: number;
  seed: number;
}

const STEPS = 150;
const DT = 0.1;
/**
 * Largest GPU−CPU position difference allowed at any step of the 15 s, m. The GPU works in float32
 * relative to the slot origin (~1e-6 m resolution within 20 m of it) and the CPU in float64; with
 * identical branches the difference is rounding only. Measured (SwiftShader): ≤ 3.2e-5 m over all
 * cases (overtaking, 21 m walked past the robot; queue members after closing up), ≤ 1.1e-5 m in the
 * 8-walker crowd. 1 mm leaves 30× margin and still fails any semantic difference (a skipped
 * waypoint, a different neighbour set or trigger step moves a pedestrian by centimetres at least).
 */
const POSITION_TOLERANCE = 1e-3;

/** A CCW rectangle: `length` m along the unit direction d from p, `width` m to its left. */
function strip(p: Vec2, d: Vec2, length: number, width: number): Ring {
  const n: Vec2 = [-d[1], d[0]];
  return [p, [p[0] + d[0] * length, p[1] + d[1] * length], [p[0] + d[0] * length + n[0] * width, p[1] + d[1] * length + n[1] * width], [p[0] + n[0] * width, p[1] + n[1] * width]];
}

/** Obstacles along a route: a wall 2.5 m to its left, a bollard 1.2 m to its right halfway, and a far block (> 60 m, filtered out). */
function obstaclesAlong(route: Vec2[]): Ring[] {
  const [a, b] = [route[0], route[route.length - 1]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const d: Vec2 = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
  const n: Vec2 = [-d[1], d[0]];
  const mid: Vec2 = [(a[0] + b[0]) / 2 - n[0] * 1.2, (a[1] + b[1]) / 2 - n[1] * 1.2];
  return [
    strip([a[0] + n[0] * 2.5, a[1] + n[1] * 2.5], d, len, 0.3),
    strip(mid, d, 0.4, -0.4).reverse() as Ring,
    strip([a[0] + 200, a[1] + 200], d, 2, 2),
  ];
}

/** One scenario per behaviour from scenes/suites/reactive.json (the first of each category). */
function reactiveCases(): Case[] {
  const all = parseScenarios('reactive.json', reactiveSuite);
  const out: Case[] = [];
  for (const s of all) {
    if (s.pedestrians.length === 0 || out.some((c) => c.name === s.category)) continue;
    out.push({ name: s.category, specs: s.pedestrians, obstacles: obstaclesAlong(s.robot.route as Vec2[]), route: s.robot.route as Vec2[], speed: 1, seed: s.seed });
  }
  return out;
}

/** Walkers (responsibility 0.5): a head-on pair and a crossing one near the robot, by a wall. */
function walkerCase(): Case {
  const ped = (spawn: Vec2, to: Vec2, speed: number): PedestrianSpec => ({ behaviour: 'walk', spawn, heading: 0, speed, route: [spawn, to] });
  return {
    name: 'walk',
    specs: [ped([4, 0.2], [-6, 0.2], 1.3), ped([-2, 0.1], [9, 0.1], 1.2), ped([3, -3], [3, 4], 1.4), { behaviour: 'idle', spawn: [6, 1], heading: 0, speed: 1.3 }],
    obstacles: [strip([-10, 1.6], [1, 0], 25, 0.4), strip([2, -0.9], [1, 0], 0.5, -0.5).reverse() as Ring],
    route: [[-5, 0], [10, 0]],
    speed: 0.6,
    seed: 11,
  };
}

/** Eight walkers crossing through one point in a corridor while the robot drives through: dense ORCA (3D LP, obstacles). */
function crowdCase(): Case {
  const specs: PedestrianSpec[] = Array.from({ length: 8 }, (_, k) => {
    const a = (k * 2 * Math.PI) / 8 + 0.1;
    const spawn: Vec2 = [5 + 3.5 * Math.cos(a), 3.5 * Math.sin(a)];
    return { behaviour: 'walk', spawn, heading: a + Math.PI, speed: 1.1 + 0.07 * k, route: [spawn, [5 - 4 * Math.cos(a), -4 * Math.sin(a)]] };
  });
  return { name: 'crowd', specs, obstacles: [strip([-5, 3.2], [1, 0], 20, 0.5), strip([-5, -3.2], [1, 0], 20, -0.5).reverse() as Ring], route: [[-2, 0.3], [12, 0.3]], speed: 0.8, seed: 21 };
}

/** A queue whose followers wait longer than the ones ahead (they close up, then wait and leave). */
function queueCase(): Case {
  const member = (x: number, order: number, wait: number): PedestrianSpec => ({ behaviour: 'queuing', spawn: [x, 1.5], heading: 0, speed: 0, group: 3, params: { order, wait } });
  return { name: 'queue-close-up', specs: [member(10, 0, 2.05), member(9.2, 1, 4.05), member(8.3, 2, 6.55)], obstacles: [], route: [[0, 0], [20, 0]], speed: 0.5, seed: 5 };
}

/** Five in a queue facing +x, head in front, served to their right: no overlap while they close up and leave. */
function queueFiveCase(): Case {
  const xs = [10, 9.15, 7.95, 7.1, 6.2];
  const waits = [2.05, 3.55, 1.55, 4.05, 2.55];
  return {
    name: 'queue-five',
    specs: xs.map((x, order): PedestrianSpec => ({ behaviour: 'queuing', spawn: [x, 1.5], heading: 0, speed: 0, group: 1, params: { order, wait: waits[order], exitSide: -1 } })),
    obstacles: [],
    route: [[0, 0], [4, 0]],
    speed: 0.3,
    seed: 9,
  };
}

/** A frontal pedestrian whose line clips a bollard and passes a standing person (geometry and pedestrian avoidance without yielding to the robot). */
function frontalObstacleCase(): Case {
  return {
    name: 'frontal-obstacle',
    specs: [
      { behaviour: 'frontal', spawn: [15, 0], heading: Math.PI, speed: 1.3, triggerDistance: 12, route: [[15, 0], [0, 0]] },
      { behaviour: 'idle', spawn: [6, 0.05], heading: 0, speed: 1.3 },
    ],
    obstacles: [[[8.8, 0.05], [9.2, 0.05], [9.2, 0.45], [8.8, 0.45]]],
    route: [[0, 0], [4.5, 0]],
    speed: 0.5,
    seed: 4,
  };
}

/** A walker on a 300-point zigzag route (past the initial 256-point pool: the pool grows) and one on a short route. */
function longRouteCase(): Case {
  const route: Vec2[] = Array.from({ length: 300 }, (_, k) => [k * 0.1, k % 2 === 0 ? 0.5 : 0.7]);
  return {
    name: 'long-route',
    specs: [
      { behaviour: 'walk', spawn: route[0], heading: 0, speed: 1.3, route },
      { behaviour: 'walk', spawn: [20, 0.6], heading: Math.PI, speed: 1.2, route: [[20, 0.6], [0, 0.6]] },
    ],
    obstacles: [],
    route: [[-5, -3], [25, -3]],
    speed: 0.5,
    seed: 13,
  };
}

/**
 * Interact (ambient): a pedestrian walks its route to a kiosk beside the sidewalk, stands at it
 * facing the kiosk for 3 s (a whole number of steps: the stay ends at clock ≥ duration − dt/2,
 * half a step from any rounding), then walks on along two exit points, while a
 * walker passes it (responsibility 0.5 walking, 0 standing) and the robot drives by.
 */
function interactCase(): Case {
  const kiosk = strip([5.5, 3.1], [1, 0], 1, 0.6);
  return {
    name: 'interact',
    specs: [
      { behaviour: 'interact', spawn: [0.5, 2.2], heading: 0, speed: 1.2, route: [[0.5, 2.2], [3, 2.6]], params: { object: [6, 2.7], facing: [6, 3.4], duration: 3, exit: [8.5, 2.2, 12, 2.2] } },
      { behaviour: 'walk', spawn: [13, 2.3], heading: Math.PI, speed: 1.3, route: [[13, 2.3], [-1, 2.3]] },
    ],
    obstacles: [kiosk],
    route: [[-3, 0], [15, 0]],
    speed: 0.7,
    seed: 17,
  };
}

/** The robot `t` s into the episode, driving `route` at `speed` (stops at its end). */
function robotAt(c: Case, t: number): RobotState {
  let s = c.speed * t;
  for (let k = 0; k + 1 < c.route.length; k++) {
    const [a, b] = [c.route[k], c.route[k + 1]];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const yaw = Math.atan2(b[1] - a[1], b[0] - a[0]);
    if (s <= len || k + 2 === c.route.length) {
      const f = Math.min(s, len) / len;
      return { x: a[0] + (b[0] - a[0]) * f, y: a[1] + (b[1] - a[1]) * f, yaw, v: s <= len ? c.speed : 0, w: 0 };
    }
    s -= len;
  }
  throw new Error('route has no segment');
}

interface Trace {
  /** [step][ped] positions, m. */
  pos: Vec2[][];
  gestures: string[][];
  /** Step at which each pedestrian's trigger fired (−1: never). */
  fired: number[];
  headings: number[][];
}

/** Loads `cases` into slots 0.. of `batch` and runs STEPS steps; returns one trace per case. */
async function run(batch: PedestrianBatch, cases: Case[], steps = STEPS): Promise<Trace[]> {
  await Promise.all(cases.map((c, slot) => batch.load(slot, c.specs, c.obstacles, c.seed)));
  const traces: Trace[] = cases.map((c) => ({ pos: [], gestures: [], headings: [], fired: c.specs.map(() => -1) }));
  for (let k = 1; k <= steps; k++) {
    await batch.step(DT, cases.map((c) => robotAt(c, k * DT)));
    cases.forEach((c, slot) => {
      const v = batch.view(slot);
      traces[slot].pos.push(v.discs().map((d) => [d.x, d.y]));
      traces[slot].gestures.push(v.gestures());
      traces[slot].headings.push(v.animation().map((a) => a.heading));
      c.specs.forEach((_, i) => {
        if (traces[slot].fired[i] < 0 && v.triggered(i)) traces[slot].fired[i] = k;
      });
    });
  }
  return traces;
}

const CASES = [...reactiveCases(), walkerCase(), crowdCase(), queueCase(), queueFiveCase(), frontalObstacleCase(), longRouteCase(), interactCase()];

describe('GpuPedestrianBatch', () => {
  it('has one reactive case per behaviour', () => {
    expect(CASES.map((c) => c.name).sort()).toEqual(['conversing', 'crowd', 'frontal', 'frontal-obstacle', 'gesturing', 'interact', 'lateral', 'long-route', 'obstructing', 'overtaking', 'ped-crossing', 'queue-close-up', 'queue-five', 'queuing', 'walk']);
  });

  it('matches the CPU reference on every behaviour (positions, trigger steps, gestures)', async () => {
    await withDevice(async (device) => {
      const gpu = await GpuPedestrianBatch.create(device, { slots: CASES.length, maxPedestriansPerSlot: 8 });
      const cpu = new CpuPedestrianBatch(CASES.length);
      const [got, want] = [await run(gpu, CASES), await run(cpu, CASES)];
      gpu.destroy();
      const report: string[] = [];
      CASES.forEach((c, slot) => {
        const [g, w] = [got[slot], want[slot]];
        let worst = 0;
        let worstStep = 0;
        let over1mm = 0;
        for (let k = 0; k < STEPS; k++) {
          for (let i = 0; i < c.specs.length; i++) {
            const d = Math.hypot(g.pos[k][i][0] - w.pos[k][i][0], g.pos[k][i][1] - w.pos[k][i][1]);
            if (d > worst) [worst, worstStep] = [d, k + 1];
            if (d > 1e-3) over1mm++;
          }
        }
        const moved = Math.max(...c.specs.map((_, i) => Math.hypot(w.pos[STEPS - 1][i][0] - c.specs[i].spawn[0], w.pos[STEPS - 1][i][1] - c.specs[i].spawn[1])));
        report.push(`${c.name}: max |Δp| ${worst.toExponential(2)} m at step ${worstStep}, ${over1mm} ped-steps > 1 mm, fired ${JSON.stringify(w.fired)}, moved ${moved.toFixed(2)} m`);
        expect(g.fired, `${c.name}: trigger steps`).toEqual(w.fired);
        expect(g.gestures, `${c.name}: gestures`).toEqual(w.gestures);
        expect(worst, `${c.name}: max position difference`).toBeLessThan(POSITION_TOLERANCE);
        for (let k = 0; k < STEPS; k++) {
          for (let i = 0; i < c.specs.length; i++) {
            const dh = Math.abs(Math.atan2(Math.sin(g.headings[k][i] - w.headings[k][i]), Math.cos(g.headings[k][i] - w.headings[k][i])));
            expect(dh, `${c.name}: heading of ${i} at step ${k + 1}`).toBeLessThan(1e-2);
          }
        }
      });
      console.log(report.join('\n'));
      // Every behaviour must actually do something in these 15 s (else the comparison is vacuous),
      // and the walkers must actually avoid each other (ORCA, not straight lines).
      CASES.forEach((c, slot) => {
        if (!['conversing', 'walk', 'crowd', 'interact', 'long-route'].includes(c.name)) expect(want[slot].fired.some((f) => f > 0), `${c.name} fires`).toBe(true);
      });
      // Interact (ambient, never fires): it stands at the object for a while, then walks on past it.
      const ic = CASES.findIndex((c) => c.name === 'interact');
      // (It may step aside for the passing walker and return: every pedestrian avoids the others.)
      const standing = want[ic].pos.filter((p) => Math.hypot(p[0][0] - 6, p[0][1] - 2.7) < 0.3).length;
      expect(standing * DT, 'interact stands at the object').toBeGreaterThanOrEqual(2.5 - 1e-9);
      expect(want[ic].pos[STEPS - 1][0][0], 'interact walks on along its exit').toBeGreaterThan(8);
      const crowd = CASES.findIndex((c) => c.name === 'crowd');
      const detour = Math.max(...CASES[crowd].specs.map((sp, i) => {
        const [a, b] = sp.route!;
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        return Math.max(...want[crowd].pos.map((p) => Math.abs((p[i][0] - a[0]) * (b[1] - a[1]) - (p[i][1] - a[1]) * (b[0] - a[0])) / len));
      }));
      expect(detour, 'crowd walkers leave their straight lines to avoid each other').toBeGreaterThan(0.3);
      // Nobody overlaps anybody in the queue, the frontal-obstacle or the long-route case (1 cm ORCA discretisation).
      for (const name of ['queue-five', 'frontal-obstacle', 'long-route', 'queuing', 'conversing']) {
        const k = CASES.findIndex((c) => c.name === name);
        let gap = Infinity;
        for (const p of got[k].pos) for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) gap = Math.min(gap, Math.hypot(p[i][0] - p[j][0], p[i][1] - p[j][1]));
        expect(gap, `${name}: closest pair`).toBeGreaterThan(0.6 - 0.01);
      }
      // The 300-point walker followed its zigzag for 15 s: past point 50 (x = 5 m; the batch once held 8 points per pedestrian).
      const lr = CASES.findIndex((c) => c.name === 'long-route');
      expect(got[lr].pos[STEPS - 1][0][0]).toBeGreaterThan(5);
    });
  });

  it('setRoute: a new path mid-run, longer than the walker region, matches the CPU reference', async () => {
    await withDevice(async (device) => {
      const c = CASES.find((x) => x.name === 'walk')!;
      const gpu = await GpuPedestrianBatch.create(device, { slots: 2, maxPedestriansPerSlot: 8, routePointsPerSlot: 16 });
      const cpu = new CpuPedestrianBatch(2);
      const detour: Vec2[] = Array.from({ length: 40 }, (_, k) => [8 - k * 0.3, 1 + 0.4 * Math.sin(k / 3)]);
      const traces: Vec2[][][] = [];
      for (const batch of [gpu, cpu] as PedestrianBatch[]) {
        await batch.load(1, c.specs, c.obstacles, c.seed);
        const pos: Vec2[][] = [];
        for (let k = 1; k <= 80; k++) {
          if (k === 20) batch.setRoute(1, 0, detour, 1.5);
          await batch.step(DT, [null, robotAt(c, k * DT)]);
          pos.push(batch.view(1).discs().map((d) => [d.x, d.y]));
        }
        expect(batch.view(1).walking(0)).toBe(true);
        traces.push(pos);
      }
      expect(gpu.routePoolPoints).toBeGreaterThanOrEqual(64); // grew from 16
      gpu.destroy();
      let worst = 0;
      traces[0].forEach((p, k) => p.forEach((q, i) => (worst = Math.max(worst, Math.hypot(q[0] - traces[1][k][i][0], q[1] - traces[1][k][i][1])))));
      expect(worst).toBeLessThan(POSITION_TOLERANCE);
      expect(Math.hypot(traces[1][79][0][0] - detour[0][0], traces[1][79][0][1] - detour[0][1])).toBeLessThan(8); // it walked the new path
      expect(() => gpu.setRoute(0, 0, detour, 1)).toThrow(RangeError);
    });
  });

  it('keeps slots apart: a batch of all cases equals each case alone, bit for bit', async () => {
    await withDevice(async (device) => {
      const picked = CASES.filter((c) => ['walk', 'queuing', 'overtaking', 'lateral', 'interact'].includes(c.name));
      // The same case twice (two slots on the same coordinates: any leak between them would show).
      const cases = [...picked, picked[0]];
      const together = await GpuPedestrianBatch.create(device, { slots: cases.length + 1, maxPedestriansPerSlot: 8 });
      const all = await run(together, cases, 60);
      together.destroy();
      for (const [slot, c] of cases.entries()) {
        const alone = await GpuPedestrianBatch.create(device, { slots: 1, maxPedestriansPerSlot: 8 });
        const [one] = await run(alone, [c], 60);
        alone.destroy();
        expect(all[slot], `${c.name} in slot ${slot}`).toEqual(one);
      }
    });
  });

  it('unload/reload resets a slot; slots without a robot do not step', async () => {
    await withDevice(async (device) => {
      const c = CASES.find((x) => x.name === 'walk')!;
      const other = CASES.find((x) => x.name === 'overtaking')!;
      const batch = await GpuPedestrianBatch.create(device, { slots: 2, maxPedestriansPerSlot: 8 });
      await run(batch, [c, other], 20);
      batch.unload(0);
      expect(() => batch.view(0)).toThrow(RangeError);
      const frozen = batch.view(1).discs();
      await batch.step(DT, [robotAt(c, 0), null]); // slot 0 empty, slot 1 paused
      expect(batch.view(1).discs()).toEqual(frozen);
      await batch.load(0, c.specs, c.obstacles, c.seed);
      const fresh = await GpuPedestrianBatch.create(device, { slots: 1, maxPedestriansPerSlot: 8 });
      await fresh.load(0, c.specs, c.obstacles, c.seed);
      const initialDiscs = fresh.view(0).discs();
      expect(batch.view(0).discs()).toEqual(initialDiscs);
      const [reloaded] = await run(batch, [c], 30);
      const [want] = await run(fresh, [c], 30);
      expect(reloaded).toEqual(want);
      await batch.step(DT, [robotAt(c, 3.1), robotAt(other, 2.1)]);
      expect(batch.view(1).discs()).not.toEqual(frozen); // slot 1 steps again once given a robot
      // A load while a step is in flight: the step's readback (older state) must not show through.
      const inFlight = batch.step(DT, [robotAt(c, 3.2), robotAt(other, 2.2)]);
      await batch.load(0, c.specs, c.obstacles, c.seed);
      await inFlight;
      expect(batch.view(0).discs()).toEqual(initialDiscs);
      await expect(batch.load(0, Array(9).fill(c.specs[0]), [], 1)).rejects.toThrow(/maxPedestriansPerSlot 8/);
      expect(() => batch.view(2)).toThrow(RangeError);
      batch.destroy();
      fresh.destroy();
    });
  });
});
