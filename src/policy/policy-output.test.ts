import { describe, expect, it } from 'vitest';
import { pdControlSequence } from '../robot/pd-controller';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { DiffusionNoise } from './diffusion-noise';
import { parsePolicyManifest } from './manifest';
import { decodePolicyOutput } from './policy-output';
import { SerialQueue } from './serial-queue';

const base = {
  format: 'curbside-policy/1', name: 'm', rateHz: 4, image: { width: 8, height: 8 }, context: { frames: 1, spacing: 0.25 },
  normalization: { mean: [0, 0, 0], std: [1, 1, 1], appliedBy: 'graph' }, inputs: { observation: 'obs' },
};

describe('decodePolicyOutput', () => {
  it('waypoints: PD command from waypoint 2 (v = dx·rate, ω = atan(dy/dx)·rate), per environment', () => {
    const m = parsePolicyManifest({ ...base, output: { kind: 'waypoints', name: 'w', count: 3, dims: 2 } }, 'm.json');
    // env 0: straight ahead 0.3 m; env 1: waypoint 2 at (0.2, 0.02) (ω = 0.40 rad/s, below the 0.65 limit).
    const data = [0.1, 0, 0.2, 0, 0.3, 0, /* env 1 */ 0.1, 0, 0.15, 0.01, 0.2, 0.02];
    const a = decodePolicyOutput(m, data, 2, DELIVERY_ROBOT);
    expect(a.commands[0].v).toBeCloseTo(1.2, 6);
    expect(a.commands[0].w).toBeCloseTo(0, 12);
    expect(a.commands[1].v).toBeCloseTo(0.8, 6);
    expect(a.commands[1].w).toBeCloseTo(Math.atan(0.02 / 0.2) * 4, 6);
    expect(Array.from(a.waypoints![1])).toEqual(Array.from(Float32Array.from(data.slice(6))));
  });

  it('waypoints: scale and ViNT-style normalized units give metres', () => {
    const m = parsePolicyManifest({ ...base, output: { kind: 'waypoints', name: 'w', count: 3, dims: 4, normalized: true, scale: 0.5 } }, 'm.json');
    const data = [1, 0, 1, 0, 1, 0.2, 1, 0, 1, 0.4, 1, 0];
    const a = decodePolicyOutput(m, data, 1, DELIVERY_ROBOT);
    const unit = DELIVERY_ROBOT.maxLinearSpeed / 4;
    expect(a.waypoints![0][8]).toBeCloseTo(0.5 * unit, 6);
    expect(a.waypoints![0][9]).toBeCloseTo(0.2 * unit, 6);
    expect(a.waypoints![0][10]).toBe(1); // heading untouched
    const want = pdControlSequence(Float32Array.from([0.5, 0, 1, 0, 0.5, 0.1, 1, 0, 0.5, 0.2, 1, 0]), 4, {
      rateHz: 4, maxV: 1.5, maxW: 0.65, waypointIndex: 2, normalized: true,
    });
    expect(a.commands[0]).toEqual(want);
  });

  it('cmd: clipped to the robot limits', () => {
    const m = parsePolicyManifest({ ...base, output: { kind: 'cmd', name: 'c' } }, 'm.json');
    const a = decodePolicyOutput(m, [3, -2, -1, 0.1], 2, DELIVERY_ROBOT);
    expect(a.commands).toEqual([{ v: 1.5, w: -0.65 }, { v: 0, w: 0.1 }]);
    expect(a.waypoints).toBeUndefined();
  });

  it('refuses non-finite values and wrong lengths, naming the output', () => {
    const m = parsePolicyManifest({ ...base, output: { kind: 'cmd', name: 'c' } }, 'm.json');
    expect(() => decodePolicyOutput(m, [0.5, Number.NaN], 1, DELIVERY_ROBOT)).toThrow(/m: output 'c' value 1 \(environment 0\) is NaN/);
    expect(() => decodePolicyOutput(m, [0.5, 0, 1], 1, DELIVERY_ROBOT)).toThrow(/has 3 values, expected 1 × 2/);
  });
});

describe('DiffusionNoise', () => {
  it('is deterministic per seed, independent across environments, N(0, 1)', () => {
    const a = new DiffusionNoise([5, 2], 2);
    a.reset(42);
    const a1 = a.next();
    const a2 = a.next();
    const b = new DiffusionNoise([5, 2], 2);
    b.reset(42);
    expect(Array.from(b.next())).toEqual(Array.from(a1));
    expect(Array.from(b.next())).toEqual(Array.from(a2));
    expect(Array.from(a1)).not.toEqual(Array.from(a2));
    // Resetting env 1 alone with its own seed leaves env 0's stream untouched.
    const c = new DiffusionNoise([5, 2], 2);
    c.reset(42);
    c.reset(7, [1]);
    const c1 = c.next();
    expect(Array.from(c1.subarray(0, 10))).toEqual(Array.from(a1.subarray(0, 10)));
    expect(Array.from(c1.subarray(10))).not.toEqual(Array.from(a1.subarray(10)));
    const big = new DiffusionNoise([10000], 1);
    big.reset(1);
    const s = big.next();
    const mean = s.reduce((x, y) => x + y, 0) / s.length;
    const variance = s.reduce((x, y) => x + (y - mean) ** 2, 0) / s.length;
    expect(Math.abs(mean)).toBeLessThan(0.05); // 5 standard errors (1/√10000 = 0.01)
    expect(Math.abs(variance - 1)).toBeLessThan(0.07); // 5 standard errors (√(2/10000) ≈ 0.014)
  });
});

describe('SerialQueue', () => {
  it('runs jobs one at a time in call order, and a failure does not stop later jobs', async () => {
    const q = new SerialQueue();
    const order: string[] = [];
    const job = (name: string, ms: number, fail = false) => () =>
      new Promise<string>((resolve, reject) => setTimeout(() => {
        order.push(name);
        if (fail) reject(new Error(name));
        else resolve(name);
      }, ms));
    const results = await Promise.allSettled([q.run(job('a', 20)), q.run(job('b', 1, true)), q.run(job('c', 5))]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(q.maxConcurrent).toBe(1);
  });
});
