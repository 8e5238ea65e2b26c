import { describe, expect, it } from 'vitest';
import { averageVelocity, failuresPer100m, meanStd, networkAdherence, pathIrregularity, pathLength, routeTurning, socialMetrics, type Trajectory } from './metrics';

/** A straight drive along +x at 1 m/s sampled every 0.5 s for 10 s. */
function straight(): Trajectory {
  const t = Array.from({ length: 21 }, (_, k) => k * 0.5);
  return { t, x: t.map((s) => s), y: t.map(() => 0), yaw: t.map(() => 0) };
}

describe('metrics on hand-made trajectories', () => {
  it('path length and average velocity of a straight drive', () => {
    expect(pathLength(straight())).toBeCloseTo(10, 12);
    expect(averageVelocity(straight())).toBeCloseTo(1, 12);
  });

  it('network adherence: the share of time on the network, each interval judged at its end', () => {
    // A 1 m wide sidewalk along y ∈ [-0.5, 0.5]; the drive leaves it for x in (4, 6] (a 2 m detour on the road).
    const tr = straight();
    tr.y = tr.x.map((x) => (x > 4 && x <= 6 ? 2 : 0));
    const on = tr.x.map((_, k) => Math.abs(tr.y[k]) <= 0.5);
    expect(networkAdherence(tr, on)).toBeCloseTo(0.8, 12); // 2 of 10 s off
    expect(networkAdherence(straight(), straight().t.map(() => true))).toBe(1);
    expect(networkAdherence(straight(), straight().t.map(() => false))).toBe(0);
    // Uneven sampling weighs by time: 0–1 s on, 1–4 s off.
    expect(networkAdherence({ t: [0, 1, 4], x: [0, 1, 4], y: [0, 0, 0], yaw: [0, 0, 0] }, [true, true, false])).toBeCloseTo(0.25, 12);
    expect(networkAdherence({ t: [0], x: [0], y: [0], yaw: [0] }, [false])).toBe(1);
    expect(() => networkAdherence(straight(), [true])).toThrow(RangeError);
  });

  it('failures per 100 m', () => {
    expect(failuresPer100m(3, 150)).toBeCloseTo(2, 12);
    expect(failuresPer100m(0, 0)).toBe(0);
    expect(failuresPer100m(1, 0)).toBe(Infinity);
  });

  it('social metrics: a pedestrian standing 1 m beside the path at x = 5', () => {
    const tr = straight();
    const peds = tr.t.map(() => [[5, 1] as [number, number]]);
    const s = socialMetrics(tr, peds);
    expect(s.minPedestrianDistance).toBeCloseTo(1, 12); // at x = 5
    expect(s.timeWithinIntimate).toBe(0);
    // Within 1.2 m while |x − 5| < sqrt(1.44 − 1) = 0.663: samples x = 4.5, 5, 5.5, 0.5 s each.
    expect(s.timeWithinPersonal).toBeCloseTo(1.5, 12);
    expect(() => socialMetrics(tr, [])).toThrow(/pedestrian samples/);
  });

  it('path irregularity: zero on a straight route, positive for a weave', () => {
    expect(pathIrregularity(straight(), [[0, 0], [10, 0]])).toBe(0);
    const weave = straight();
    weave.yaw = weave.t.map((_, k) => (k % 2 === 0 ? 0.1 : -0.1));
    // 20 swings of 0.2 rad over 10 m.
    expect(pathIrregularity(weave, [[0, 0], [10, 0]])).toBeCloseTo(0.4, 12);
  });

  it('route turning of an L is π/2', () => {
    expect(routeTurning([[0, 0], [5, 0], [5, 5]])).toBeCloseTo(Math.PI / 2, 12);
  });

  it('mean and sample std over seeds', () => {
    const r = meanStd([0.6, 0.8, 1.0]);
    expect(r.mean).toBeCloseTo(0.8, 12);
    expect(r.std).toBeCloseTo(0.2, 12);
    expect(meanStd([0.5]).std).toBe(0);
  });
});

describe('median', () => {
  it('takes the middle value (upper middle for even counts)', async () => {
    const { median } = await import('./metrics');
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });
});
