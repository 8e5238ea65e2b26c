/** The map observation's labels, drawn in the page with an OffscreenCanvas (Node has none). */
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../world/world';
import { MapObservation } from './map-observation';

describe('map observation in the page', () => {
  it('labels the base map with street names: dark text pixels that the unlabelled map lacks', () => {
    const world = generateWorld({ seed: 1 });
    const route: [number, number][] = [[-20, -10], [30, 15]];
    const spec = { width: 64, height: 64, metresPerPixel: 0.5, orientation: 'north-up' as const, marker: false };
    const labelled = new MapObservation(world, { ...spec, labels: true }, route);
    const plain = new MapObservation(world, { ...spec, labels: false }, route);
    expect(labelled.labelled).toBe(true);
    expect(plain.labelled).toBe(false);
    const dark = (d: Uint8ClampedArray) => {
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 60 && d[i + 1] < 60 && d[i + 2] < 70 && !(d[i] === 70 && d[i + 1] === 70)) n++;
      return n;
    };
    // Text is rgb(30, 30, 40) on a white halo; the road (70, 70, 76) is not counted.
    expect(dark(labelled.base.data)).toBeGreaterThan(dark(plain.base.data) + 200);
  }, 60_000);
});
