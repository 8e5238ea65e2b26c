import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { generateWorld, type World } from '../world/world';
import { MAP_COLORS, worldToPixel } from '../world/map-render';
import { MapObservation, MapObservationBatch, type MapObservationSpec } from './map-observation';

const spec = (o: Partial<MapObservationSpec> = {}): MapObservationSpec => ({ width: 32, height: 24, metresPerPixel: 0.5, orientation: 'north-up', marker: false, labels: true, ...o });
let cached: World | undefined;
const world = () => (cached ??= generateWorld({ seed: 1 }));
const route: Vec2[] = [[-20, -10], [30, 15]];

/** RGB (0–255) of output pixel (i, j) of a [3, H, W] plane set at `offset`. */
const rgbAt = (out: Float32Array, s: MapObservationSpec, i: number, j: number, offset = 0) =>
  [0, 1, 2].map((c) => Math.round(out[offset + c * s.width * s.height + j * s.width + i] * 255));
/** RGB of the base map at a world point. */
const baseAt = (m: MapObservation, p: Vec2) => {
  const [x, y] = worldToPixel(m.base, p).map(Math.floor);
  const o = (y * m.base.width + x) * 4;
  return [m.base.data[o], m.base.data[o + 1], m.base.data[o + 2]];
};

describe('map observation', () => {
  it('north-up: output pixel (i, j) shows the base map at robot + ((i + ½ − W/2)·mpp, −(j + ½ − H/2)·mpp), whatever the heading', () => {
    const s = spec();
    const m = new MapObservation(world(), s, route);
    expect(m.labelled).toBe(false); // Node: no OffscreenCanvas
    const out = new Float32Array(3 * s.width * s.height);
    const robot = { x: 3.3, y: -1.7, yaw: 2.1 };
    m.fill(robot, out);
    let differs = 0;
    for (const [i, j] of [[0, 0], [31, 0], [5, 17], [16, 12], [31, 23], [20, 3]]) {
      const p: Vec2 = [robot.x + (i + 0.5 - 16) * 0.5, robot.y - (j + 0.5 - 12) * 0.5];
      expect(rgbAt(out, s, i, j)).toEqual(baseAt(m, p));
      if (rgbAt(out, s, i, j).join() !== rgbAt(out, s, 0, 0).join()) differs++;
    }
    expect(differs, 'the view is not one colour').toBeGreaterThan(0);
    const turned = new Float32Array(out.length);
    m.fill({ ...robot, yaw: 0 }, turned);
    expect(Array.from(turned)).toEqual(Array.from(out));
  });

  it('heading-up: what lies ahead of the robot is up, its right is right', () => {
    const s = spec({ orientation: 'heading-up' });
    const m = new MapObservation(world(), s, route);
    const out = new Float32Array(3 * s.width * s.height);
    const robot = { x: 3.3, y: -1.7, yaw: 0.7 };
    m.fill(robot, out);
    const f: Vec2 = [Math.cos(robot.yaw), Math.sin(robot.yaw)], r: Vec2 = [Math.sin(robot.yaw), -Math.cos(robot.yaw)];
    for (const [i, j] of [[0, 0], [31, 0], [5, 17], [25, 6], [31, 23]]) {
      const u = (i + 0.5 - 16) * 0.5, v = -(j + 0.5 - 12) * 0.5; // right, up (= ahead), metres
      expect(rgbAt(out, s, i, j)).toEqual(baseAt(m, [robot.x + u * r[0] + v * f[0], robot.y + u * r[1] + v * f[1]]));
    }
  });

  it('draws the self-location marker at the centre with a tick towards the heading; beyond the base map is black', () => {
    const s = spec({ marker: true, orientation: 'north-up' });
    const m = new MapObservation(world(), s, route);
    const out = new Float32Array(3 * s.width * s.height);
    m.fill({ x: 3.3, y: -1.7, yaw: 0 }, out);
    const agent = [...MAP_COLORS.agent.slice(0, 3)];
    expect(rgbAt(out, s, 16, 12)).toEqual(agent);
    // Heading east: the tick reaches 7 px to the right of the centre, not to the left.
    expect(rgbAt(out, s, 16 + 6, 12)).toEqual(agent);
    expect(rgbAt(out, s, 16 - 6, 12)).not.toEqual(agent);
    const far = new Float32Array(out.length);
    m.fill({ x: m.region[2] + 100, y: 0, yaw: 0 }, far);
    expect(rgbAt(far, s, 0, 0)).toEqual([0, 0, 0]);
  });

  it('a batch fills each active slot at its offset, keeps a base map that covers the next route and refuses a bad spec', () => {
    const s = spec();
    const batch = new MapObservationBatch(s, 2);
    batch.load(0, world(), route);
    batch.load(1, world(), route);
    const t = batch.fill([{ x: 0, y: 0, yaw: 0 }, null]);
    const single = new Float32Array(3 * 32 * 24);
    new MapObservation(world(), s, route).fill({ x: 0, y: 0, yaw: 0 }, single);
    expect(Array.from(t.subarray(0, single.length))).toEqual(Array.from(single));
    expect(t.subarray(single.length).every((v) => v === 0)).toBe(true);
    expect(() => new MapObservation(world(), spec({ metresPerPixel: 0 }), route)).toThrow(RangeError);
    expect(() => new MapObservation(world(), spec({ metresPerPixel: 0.01 }), route)).toThrow(/exceeds 4096 px/);
  });
});
