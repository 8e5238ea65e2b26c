/** MultiPolygonIndex's point query (band × column cells and column-line crossings) against the plain even-odd test. */
import { describe, expect, it } from 'vitest';
import { createRng } from '../core/random';
import { pointInRing, type MultiPolygon } from './geometry';
import { MultiPolygonIndex } from './spatial-index';
import { generateWorld } from './world';

/** Even-odd over every ring of the multipolygon (the index's definition; overlapping polygons cancel). */
function evenOdd(x: number, y: number, mp: MultiPolygon): boolean {
  let inside = false;
  for (const p of mp) for (const r of [p.outer, ...p.holes]) if (pointInRing(x, y, r)) inside = !inside;
  return inside;
}

describe('MultiPolygonIndex.contains', () => {
  it('agrees with the even-odd test over all rings on the zones of a 400 m world at 20,000 random points', () => {
    const world = generateWorld({ seed: 3, size: 400 });
    const rng = createRng(9);
    for (const kind of ['sidewalk', 'crosswalk', 'road', 'verge'] as const) {
      const idx = new MultiPolygonIndex(world.zones[kind]);
      let inside = 0;
      for (let i = 0; i < 5000; i++) {
        const x = rng.range(-205, 205), y = rng.range(-205, 205);
        const want = evenOdd(x, y, world.zones[kind]);
        if (want) inside++;
        expect(idx.contains(x, y), `${kind} at ${x}, ${y}`).toBe(want);
      }
      expect(inside, kind).toBeGreaterThan(50);
    }
  });

  it('handles holes, rings wider than many columns, points on column lines and outside the box', () => {
    const outer: [number, number][] = [[0, 0], [100, 0], [100, 10], [0, 10]];
    const hole: [number, number][] = [[20, 2], [20, 8], [60, 8], [60, 2]];
    const idx = new MultiPolygonIndex([{ outer, holes: [hole] }], 4, 16);
    expect(idx.contains(10, 5)).toBe(true);
    expect(idx.contains(40, 5)).toBe(false); // in the hole
    expect(idx.contains(16, 5)).toBe(true); // on a column line
    expect(idx.contains(80, 9.9)).toBe(true);
    expect(idx.contains(101, 5)).toBe(false);
    expect(idx.contains(50, -1)).toBe(false);
    expect(new MultiPolygonIndex([]).contains(0, 0)).toBe(false);
  });
});
