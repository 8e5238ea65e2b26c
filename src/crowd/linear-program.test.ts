import { describe, expect, it } from 'vitest';
import { type Line, linearProgram2, linearProgram3, type VelocityResult } from './linear-program';
import { vec2 } from './vec2';

const line = (px: number, py: number, dx: number, dy: number): Line => ({ point: vec2(px, py), direction: vec2(dx, dy) });
const solve = (lines: Line[], radius: number, opt: ReturnType<typeof vec2>) => {
  const result: VelocityResult = { value: vec2(0, 0) };
  const fail = linearProgram2(lines, radius, opt, false, result);
  return { fail, result };
};

describe('linearProgram2', () => {
  it('returns the preferred velocity when unconstrained and inside the speed circle', () => {
    const { fail, result } = solve([], 2, vec2(1, 0.5));
    expect(fail).toBe(0);
    expect(result.value).toEqual(vec2(1, 0.5));
  });
  it('clamps to the speed circle when the preferred velocity is too fast', () => {
    const v = solve([], 2, vec2(3, 4)).result.value;
    expect(v.x).toBeCloseTo(1.2, 15);
    expect(v.y).toBeCloseTo(1.6, 15);
  });
  it('projects on a violated line (linearProgram1, closest point)', () => {
    // x ≤ 0 permitted (left of an upward line through the origin).
    expect(solve([line(0, 0, 0, 1)], 2, vec2(1, 0.5)).result.value).toEqual(vec2(0, 0.5));
  });
  it('handles parallel lines in the same direction (the tighter one wins)', () => {
    const { fail, result } = solve([line(0, 0, 0, 1), line(-0.5, 0, 0, 1)], 2, vec2(1, 0));
    expect(fail).toBe(2);
    expect(result.value).toEqual(vec2(-0.5, 0));
  });
  it('reports the first infeasible line for opposite parallel lines (x ≤ 0 and x ≥ 0.5)', () => {
    const { fail } = solve([line(0, 0, 0, 1), line(0.5, 0, 0, -1)], 2, vec2(1, 0));
    expect(fail).toBe(1);
  });
  it('fails when the speed circle misses a line entirely', () => {
    expect(solve([line(-3, 0, 0, 1)], 2, vec2(0, 0)).fail).toBe(0);
  });
  it('respects the interval cut by a crossing line (linearProgram1 bounds)', () => {
    // x ≤ 0 and y ≤ 0.25 (left of a leftward line through (0, 0.25)).
    expect(solve([line(0, 0, 0, 1), line(0, 0.25, -1, 0)], 2, vec2(1, 1)).result.value).toEqual(vec2(0, 0.25));
  });
});

describe('linearProgram3', () => {
  it('equalises penetration of infeasible opposite parallel lines (bisector, direction optimisation)', () => {
    const lines = [line(0, 0, 0, 1), line(0.5, 0, 0, -1)];
    const result: VelocityResult = { value: vec2(0, 0) };
    const fail = linearProgram2(lines, 2, vec2(1, 0), false, result);
    linearProgram3(lines, 0, fail, 2, result);
    // Bisector x = 0.25 directed +y; maximise along (1, 0)·(0, 1) = 0 → left extreme of the chord.
    expect(result.value.x).toBeCloseTo(0.25, 15);
    expect(result.value.y).toBeCloseTo(-Math.sqrt(4 - 0.0625), 15);
  });
  it('keeps obstacle lines hard and relaxes only agent lines', () => {
    // Obstacle line x ≤ 0 (hard); agent line x ≥ 0.5 must give way entirely.
    const lines = [line(0, 0, 0, 1), line(0.5, 0, 0, -1)];
    const result: VelocityResult = { value: vec2(0, 0) };
    const fail = linearProgram2(lines, 2, vec2(1, 0), false, result);
    linearProgram3(lines, 1, fail, 2, result);
    expect(result.value.x).toBeLessThanOrEqual(1e-12);
  });
});
