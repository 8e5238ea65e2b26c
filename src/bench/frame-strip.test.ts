import { describe, expect, it } from 'vitest';
import { pickStripFrames } from './frame-strip';

describe('pickStripFrames', () => {
  it('spreads at most N frames evenly over the last span, ending with the last frame', () => {
    const at5Hz = Array.from({ length: 16 }, (_, i) => 10 + i * 0.2); // 10.0 … 13.0 s
    const picked = pickStripFrames(at5Hz, 3, 6);
    expect(picked).toHaveLength(6);
    expect(picked[picked.length - 1]).toBe(15);
    expect(at5Hz[picked[0]]).toBeCloseTo(10, 9); // 13 − 3 s
    // Even spacing: 0.6 s apart at 5 Hz.
    for (let k = 1; k < picked.length; k++) expect(at5Hz[picked[k]] - at5Hz[picked[k - 1]]).toBeCloseTo(0.6, 9);
  });

  it('keeps every frame when there are fewer than N in the span, and drops older ones', () => {
    expect(pickStripFrames([0, 0.5, 1, 1.5], 3, 6)).toEqual([0, 1, 2, 3]);
    expect(pickStripFrames([0, 1, 2, 3, 4, 5], 3, 6)).toEqual([2, 3, 4, 5]);
    expect(pickStripFrames([7.5], 3, 6)).toEqual([0]);
  });

  it('picks distinct frames in order, and none from an empty ring', () => {
    const uneven = [0, 0.1, 0.2, 2.9, 3.0];
    const picked = pickStripFrames(uneven, 3, 4);
    expect(new Set(picked).size).toBe(picked.length);
    expect([...picked].sort((a, b) => a - b)).toEqual(picked);
    expect(picked[picked.length - 1]).toBe(4);
    expect(pickStripFrames([], 3, 6)).toEqual([]);
  });
});
