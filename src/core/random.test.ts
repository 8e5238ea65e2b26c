import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from './random';

describe('createRng', () => {
  it('repeats the same stream for the same seed and differs for another', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
  it('forks streams that do not depend on the parent having been used', () => {
    const a = createRng(7);
    const fresh = createRng(7).fork('crowd').next();
    a.next();
    a.next();
    expect(a.fork('crowd').next()).toBe(fresh);
    expect(createRng(7).fork('world').next()).not.toBe(fresh);
    expect(deriveSeed(7, 'crowd')).toBe(deriveSeed(7, 'crowd'));
  });
  it('draws integers within bounds, both ends reachable', () => {
    const r = createRng(1);
    const seen = new Set(Array.from({ length: 200 }, () => r.int(2, 4)));
    expect([...seen].sort()).toEqual([2, 3, 4]);
    expect(() => createRng(1.5)).toThrow(/integer/);
  });
});
