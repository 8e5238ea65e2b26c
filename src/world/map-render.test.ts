import { describe, expect, it } from 'vitest';
import { renderWorldMapImage } from './headless-api';
import { MAP_COLORS, OBSTACLE_COLORS, pixelToWorld, renderWorldMap, worldToPixel, type MapImage } from './map-render';
import { worldIndex } from './queries';
import { findRoute } from './routes';
import { generateWorld } from './world';

const world = generateWorld({ seed: 5, size: 300 });
const rgba = (img: MapImage, i: number, j: number): number[] => Array.from(img.data.subarray((j * img.width + i) * 4, (j * img.width + i) * 4 + 4));

/** Pixels whose 3×3 neighbourhood is all in one zone and far from every obstacle and canopy. */
function cleanPixels(img: MapImage, zone: 'road' | 'sidewalk' | 'verge' | 'curb' | 'frontage'): [number, number][] {
  const idx = worldIndex(world);
  const out: [number, number][] = [];
  for (let j = 2; j < img.height - 2; j += 3) {
    for (let i = 2; i < img.width - 2; i += 3) {
      const [x, y] = pixelToWorld(img, i, j);
      if (idx.zones[zone].distanceToBoundary(x, y, 1.5 * img.metresPerPixel) < 1.5 * img.metresPerPixel || !idx.zones[zone].contains(x, y)) continue;
      if (world.obstacles.some((o) => Math.hypot(o.centre[0] - x, o.centre[1] - y) < Math.max(o.radius, o.canopyRadius) + 3 * img.metresPerPixel)) continue;
      if (world.crosswalks.some((c) => Math.hypot(c.centre[0] - x, c.centre[1] - y) < c.reachLeft + c.reachRight + c.width)) continue;
      out.push([i, j]);
      if (out.length >= 20) return out;
    }
  }
  return out;
}

describe('renderWorldMap', () => {
  const img = renderWorldMap(world, { widthPx: 256, heightPx: 256 });

  it('fits the world bounds, north up', () => {
    expect(img.metresPerPixel).toBeCloseTo(300 / 256, 12);
    expect(worldToPixel(img, [-150, 150])).toEqual([0, 0]);
    expect(worldToPixel(img, [150, -150])).toEqual([256, 256]);
    expect(pixelToWorld(img, 0, 0)[1]).toBeGreaterThan(pixelToWorld(img, 0, 255)[1]);
  });

  it('paints each zone in its colour at points well inside it', () => {
    const zoom = renderWorldMap(world, { widthPx: 300, heightPx: 300, bounds: [-60, -60, 60, 60] });
    for (const zone of ['road', 'sidewalk', 'verge', 'frontage'] as const) {
      const px = cleanPixels(zoom, zone);
      expect(px.length, zone).toBeGreaterThan(0);
      for (const [i, j] of px) expect(rgba(zoom, i, j), `${zone} at ${i},${j}`).toEqual([...MAP_COLORS[zone]]);
    }
    const b = world.obstacles.find((o) => o.kind === 'building' && o.radius > 8)!;
    const [bi, bj] = worldToPixel(img, b.centre).map(Math.floor);
    expect(rgba(img, bi, bj)).toEqual([...OBSTACLE_COLORS.building]);
  });

  it('draws zebra stripes, small furniture, the route and agents on a zoomed map', () => {
    const c = world.crosswalks[0];
    const z = renderWorldMap(world, { widthPx: 200, heightPx: 200, bounds: [c.centre[0] - 10, c.centre[1] - 10, c.centre[0] + 10, c.centre[1] + 10] });
    expect(z.metresPerPixel).toBeCloseTo(0.1, 12);
    // Sample along the crosswalk axis over the road: both stripe white and road grey appear.
    const seen = new Set<string>();
    for (let u = -c.roadHalfWidth + 0.3; u < c.roadHalfWidth - 0.3; u += 0.1) {
      const [i, j] = worldToPixel(z, [c.centre[0] + c.across[0] * u, c.centre[1] + c.across[1] * u]).map(Math.floor);
      seen.add(rgba(z, i, j).join(','));
    }
    expect(seen.has(MAP_COLORS.crosswalkStripe.join(','))).toBe(true);
    expect(seen.has(MAP_COLORS.road.join(','))).toBe(true);
    const lamp = world.obstacles.find((o) => o.kind === 'lampPost' && world.obstacles.every((q) => q === o || Math.hypot(q.centre[0] - o.centre[0], q.centre[1] - o.centre[1]) > q.radius + 4))!;
    const zl = renderWorldMap(world, { widthPx: 64, heightPx: 64, bounds: [lamp.centre[0] - 32, lamp.centre[1] - 32, lamp.centre[0] + 32, lamp.centre[1] + 32] });
    const [li, lj] = worldToPixel(zl, lamp.centre).map(Math.floor);
    expect(rgba(zl, li, lj)).toEqual([...OBSTACLE_COLORS.lampPost]); // 0.13 m pole still visible at 1 m/px
    const n = world.nav.nodes;
    const route = findRoute(world, n[10], n[60])!;
    const agentAt = n[200];
    const zr = renderWorldMap(world, { widthPx: 256, heightPx: 256, route: route.points, agents: [{ position: agentAt, yaw: 0, color: [1, 2, 3, 255] }] });
    const mid = route.points[Math.floor(route.points.length / 2)];
    const [ri, rj] = worldToPixel(zr, mid).map(Math.floor);
    expect(rgba(zr, ri, rj)).toEqual([...MAP_COLORS.route]);
    const [ai, aj] = worldToPixel(zr, agentAt).map(Math.floor);
    expect(rgba(zr, ai, aj)).toEqual([1, 2, 3, 255]);
  });

  it('rejects bad sizes and bounds', () => {
    expect(() => renderWorldMap(world, { widthPx: 0, heightPx: 10 })).toThrow(RangeError);
    expect(() => renderWorldMap(world, { widthPx: 10, heightPx: 10, bounds: [0, 0, 0, 10] })).toThrow(/empty bounds/);
  });

  it('headless API returns the same pixels as base64 RGBA8', async () => {
    const r = await renderWorldMapImage({ seed: 5, worldSize: 300, widthPx: 64, heightPx: 48 });
    expect([r.width, r.height, r.seed, r.worldSize]).toEqual([64, 48, 5, 300]);
    const bytes = Buffer.from(r.rgbaBase64, 'base64');
    expect(bytes.length).toBe(64 * 48 * 4);
    expect(new Uint8Array(bytes)).toEqual(new Uint8Array(renderWorldMap(world, { widthPx: 64, heightPx: 48 }).data.buffer));
  });
});
