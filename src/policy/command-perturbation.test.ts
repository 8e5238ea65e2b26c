import { describe, expect, it } from 'vitest';
import { CommandPerturbation, DEFAULT_PERTURBATION } from './command-perturbation';

/** The bursts met when sampling [0, until) s at the 10 Hz control rate. */
function bursts(p: CommandPerturbation, until: number) {
  const seen = new Map<number, { start: number; end: number; omega: number }>();
  for (let k = 0; k < until * 10; k++) {
    const b = p.burstAt(k / 10);
    if (b) seen.set(b.start, b);
  }
  return [...seen.values()];
}

describe('CommandPerturbation', () => {
  it('draws bursts within the schedule: after startS, gaps and lengths in range, offsets of either sign', () => {
    const p = new CommandPerturbation(7);
    const list = bursts(p, 120);
    expect(list.length).toBeGreaterThan(120 / (DEFAULT_PERTURBATION.gapS[1] + DEFAULT_PERTURBATION.durationS[1]) - 2);
    let prevEnd = DEFAULT_PERTURBATION.startS;
    for (const b of list) {
      expect(b.start - prevEnd).toBeGreaterThanOrEqual(DEFAULT_PERTURBATION.gapS[0]);
      expect(b.start - prevEnd).toBeLessThanOrEqual(DEFAULT_PERTURBATION.gapS[1]);
      expect(b.end - b.start).toBeGreaterThanOrEqual(DEFAULT_PERTURBATION.durationS[0]);
      expect(b.end - b.start).toBeLessThanOrEqual(DEFAULT_PERTURBATION.durationS[1]);
      expect(Math.abs(b.omega)).toBeGreaterThanOrEqual(DEFAULT_PERTURBATION.omega[0]);
      expect(Math.abs(b.omega)).toBeLessThanOrEqual(DEFAULT_PERTURBATION.omega[1]);
      prevEnd = b.end;
    }
    expect(list.some((b) => b.omega > 0) && list.some((b) => b.omega < 0)).toBe(true);
  });

  it('is a function of the seed and the time alone (sampling order and rate do not matter)', () => {
    const coarse = bursts(new CommandPerturbation(11), 60);
    const fine = new CommandPerturbation(11);
    // Ask for a late time first, then early ones: the same bursts.
    expect(fine.burstAt(59.95)).toEqual(coarse.find((b) => b.start <= 59.95 && 59.95 < b.end) ?? null);
    for (const b of coarse) {
      expect(fine.burstAt(b.start)).toEqual(b);
      expect(fine.burstAt((b.start + b.end) / 2)).toEqual(b);
      expect(fine.burstAt(b.end)).not.toEqual(b);
    }
    expect(bursts(new CommandPerturbation(12), 60)).not.toEqual(coarse);
  });

  it('adds the turn-rate offset inside a burst and passes the command through outside', () => {
    const p = new CommandPerturbation(3);
    const [b] = bursts(p, 20);
    expect(p.apply((b.start + b.end) / 2, { v: 1.1, w: 0.2 })).toEqual({ v: 1.1, w: 0.2 + b.omega });
    const cmd = { v: 1.1, w: 0.2 };
    expect(p.apply(0.5, cmd)).toBe(cmd);
    expect(p.apply(b.end + 1e-9, cmd)).toBe(cmd);
  });

  it('rejects empty, reversed or non-positive intervals', () => {
    expect(() => new CommandPerturbation(1, { ...DEFAULT_PERTURBATION, gapS: [0, 1] })).toThrow('gapS [0, 1] is not an interval of positive numbers');
    expect(() => new CommandPerturbation(1, { ...DEFAULT_PERTURBATION, durationS: [0.8, 0.4] })).toThrow('durationS');
    expect(() => new CommandPerturbation(1, { ...DEFAULT_PERTURBATION, omega: [-1, 1] })).toThrow('omega [-1, 1] is not an interval of non-negative numbers');
    expect(() => new CommandPerturbation(1, { ...DEFAULT_PERTURBATION, startS: Number.NaN })).toThrow('startS NaN');
  });
});
