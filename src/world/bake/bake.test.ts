/**
 * The city baker: determinism, splats on the right surfaces, well-formed flattened splats, bounded
 * density; and the default camera.
 */
import { describe, expect, it } from 'vitest';
import { groundHeight, isWalkable, zoneAt } from '../queries';
import { generateWorld } from '../world';
import { bakeChunk, chunkGrid, chunkOf } from './chunks';
import { defaultWorldCamera, ROBOT_CAMERA_HEIGHT } from './default-camera';
import { bakeGroundZones } from './ground';
import { bakeFurniture } from './furniture';
import { bakeBuilding, FLOOR_HEIGHT, GROUND_FLOOR_EXTRA } from './buildings';
import { SH_C0 } from '../../splats/splat-cloud';
import { SplatBuilder } from './splat-builder';
import { fitGroundPlane, levellingRotation } from '../../splats/ground-plane';
import { quatToMat3 } from '../../core/quaternion';
import { sceneTransform, transformSplatCloud } from './scene-file';

const world = generateWorld({ seed: 1 });
const grid = chunkGrid(world, 32);
const camera = defaultWorldCamera(world, { widthPx: 64, heightPx: 48 });
const here = chunkOf(grid, camera.eye[0], camera.eye[1]);

// World generation and baking take seconds on a slow CI core: generous timeouts, no timing asserts.
describe('bakeChunk', { timeout: 60_000 }, () => {
  it('is deterministic: the same seed gives the same splats byte for byte (from a fresh world too)', () => {
    const a = bakeChunk(world, grid, here);
    const b = bakeChunk(generateWorld({ seed: 1 }), chunkGrid(generateWorld({ seed: 1 }), 32), here);
    expect(a.cloud.count).toBeGreaterThan(1000);
    for (const k of ['positions', 'scales', 'rotations', 'opacities', 'shDc'] as const) {
      expect(Buffer.from(a.cloud[k].buffer).equals(Buffer.from(b.cloud[k].buffer)), k).toBe(true);
    }
    expect(a.origin).toEqual(b.origin);
  });

  it('differs between seeds', () => {
    const other = generateWorld({ seed: 2 });
    const og = chunkGrid(other, 32);
    const a = bakeChunk(world, grid, here), b = bakeChunk(other, og, here);
    expect(a.cloud.count === b.cloud.count && Buffer.from(a.cloud.positions.buffer).equals(Buffer.from(b.cloud.positions.buffer))).toBe(false);
  });

  it('writes unit quaternions, positive scales, opacities in [0, 1] and chunk-local positions', () => {
    const c = bakeChunk(world, grid, here);
    const S = grid.chunkSize;
    const bad: string[] = [];
    for (let i = 0; i < c.cloud.count && bad.length < 3; i++) {
      const q = c.cloud.rotations.subarray(4 * i, 4 * i + 4);
      if (!(Math.abs(Math.hypot(...q) - 1) < 1e-5)) bad.push(`${i}: rotation ${[...q]}`);
      for (let k = 0; k < 3; k++) if (!(c.cloud.scales[3 * i + k] > 0)) bad.push(`${i}: scale ${k}`);
      if (!(c.cloud.opacities[i] >= 0 && c.cloud.opacities[i] <= 1)) bad.push(`${i}: opacity`);
      const x = c.cloud.positions[3 * i], y = c.cloud.positions[3 * i + 1];
      // Objects owned by the chunk (by centre) may overhang its square by their size.
      if (!(x >= -20 && x <= S + 20 && y >= -20 && y <= S + 20)) bad.push(`${i}: position ${x}, ${y}`);
    }
    expect(bad).toEqual([]);
  });

  it('bakes the landmark furniture: kiosks, statues, fountains and bike racks stand inside their footprints and up to their heights, in their colours', () => {
    for (const kind of ['kiosk', 'statue', 'fountain', 'bikeRack'] as const) {
      const o = world.obstacles.find((x) => x.kind === kind)!;
      expect(o, `world 1 has a ${kind}`).toBeDefined();
      const out = new SplatBuilder();
      const z = groundHeight(world, o.centre[0], o.centre[1]);
      bakeFurniture(world, o, z, 7, out);
      const c = out.toCloud([0, 0, 0]);
      expect(c.count, kind).toBeGreaterThan(40);
      let top = -Infinity, far = 0;
      for (let i = 0; i < c.count; i++) {
        top = Math.max(top, c.positions[3 * i + 2]);
        far = Math.max(far, Math.hypot(c.positions[3 * i] - o.centre[0], c.positions[3 * i + 1] - o.centre[1]));
      }
      expect(top, `${kind} height`).toBeCloseTo(z + o.height, 0);
      // Within the footprint's radius (a kiosk's awning overhangs by up to 0.45 m).
      expect(far, `${kind} reach`).toBeLessThan(o.radius + 0.5);
    }
  });

  it('marks the light sources emissive: lit windows on the upper floors and lamp heads, nothing else', () => {
    const tall = world.obstacles.filter((o) => o.kind === 'building' && o.height > 12).slice(0, 6);
    const out = new SplatBuilder();
    for (const b of tall) bakeBuilding(b, world.curbHeight, world.seed, out);
    const c = out.toCloud([0, 0, 0]);
    let lit = 0;
    for (let i = 0; i < c.count; i++) {
      if (!c.emissive![i]) continue;
      lit++;
      // Above the ground floor, in the warm window colour (times the pane's gradient).
      expect(c.positions[3 * i + 2]).toBeGreaterThan(world.curbHeight + FLOOR_HEIGHT + GROUND_FLOOR_EXTRA);
      const rgb = [0, 1, 2].map((k) => c.shDc[3 * i + k] * SH_C0 + 0.5);
      expect(rgb[0]).toBeGreaterThan(rgb[2]);
    }
    expect(lit).toBeGreaterThan(20);
    expect(lit).toBeLessThan(c.count / 10);
    const lamp = world.obstacles.find((o) => o.kind === 'lampPost')!;
    const lo = new SplatBuilder();
    bakeFurniture(world, lamp, 0, 7, lo);
    const lc = lo.toCloud([0, 0, 0]);
    const heads = Array.from({ length: lc.count }, (_, i) => i).filter((i) => lc.emissive![i] === 1);
    expect(heads.length).toBeGreaterThan(3);
    for (const i of heads) expect(lc.positions[3 * i + 2]).toBeGreaterThan(lamp.height - 0.5);
  });

  it('keeps a chunk bounded (≤ 80k splats for 32 m)', () => {
    for (const id of [here, 0, grid.nx * grid.ny - 1]) expect(bakeChunk(world, grid, id).cloud.count).toBeLessThan(80_000);
  });
});

describe('ground surfaces', { timeout: 60_000 }, () => {
  it('puts road splats at z = 0 and sidewalk splats at the curb height inside the sidewalk polygons, as flat discs', () => {
    const box: [number, number, number, number] = [camera.eye[0] - 12, camera.eye[1] - 12, camera.eye[0] + 12, camera.eye[1] + 12];
    const out = new SplatBuilder();
    bakeGroundZones(world, box, 7, out);
    const c = out.toCloud([0, 0, 0]);
    const seen: Record<string, number> = {};
    const bad: string[] = [];
    for (let i = 0; i < c.count; i++) {
      const x = c.positions[3 * i], y = c.positions[3 * i + 1], z = c.positions[3 * i + 2];
      const zone = zoneAt(world, x, y);
      seen[zone] = (seen[zone] ?? 0) + 1;
      const fail = (why: string) => bad.length < 3 && bad.push(`${i} at (${x.toFixed(2)}, ${y.toFixed(2)}, ${z}) in ${zone}: ${why}`);
      if (zone === 'road' && z !== 0) fail('road not at z = 0');
      if (zone === 'sidewalk' && (Math.abs(z - world.curbHeight) > 1e-6 || !isWalkable(world, x, y))) fail('sidewalk not at curb height');
      if (zone === 'crosswalk' && Math.abs(z - groundHeight(world, x, y)) > 1e-6) fail('crosswalk off the ground');
      // Flattened: the thin axis (the third scale) is the normal, +z for ground (identity rotation).
      if (!(c.scales[3 * i + 2] < 0.01) || Math.abs(c.rotations[4 * i] - 1) > 1e-6) fail('not a flat disc');
    }
    expect(bad).toEqual([]);
    expect(seen.road).toBeGreaterThan(100);
    expect(seen.sidewalk).toBeGreaterThan(100);
  });
});

describe('defaultWorldCamera', () => {
  it('stands on a sidewalk at robot height and looks along walkable ground', () => {
    expect(zoneAt(world, camera.eye[0], camera.eye[1])).toBe('sidewalk');
    expect(camera.eye[2]).toBeCloseTo(world.curbHeight + ROBOT_CAMERA_HEIGHT, 6);
    const d = [camera.target[0] - camera.eye[0], camera.target[1] - camera.eye[1]];
    const l = Math.hypot(d[0], d[1]);
    for (let s = 1; s <= 10; s++) expect(isWalkable(world, camera.eye[0] + (d[0] / l) * s, camera.eye[1] + (d[1] / l) * s)).toBe(true);
  });
});

describe('levelling a baked street (the scene editor\'s ground fit)', { timeout: 60_000 }, () => {
  it('recovers the ground of a baked chunk turned by a known tilt, within 1°, from the y-down hint', () => {
    const chunk = bakeChunk(world, grid, here).cloud;
    // Turn the Z-up chunk into a y-down capture tilted by 7°: world up (0, 0, 1) → about (0, −1, 0).
    const tilt = 7 * (Math.PI / 180);
    const q = [Math.cos(Math.PI / 4 + tilt / 2), Math.sin(Math.PI / 4 + tilt / 2), 0, 0] as [number, number, number, number];
    const t = sceneTransform({ transform: { scale: 1, rotation: q, translation: [3, -2, 40] } } as never);
    const capture = transformSplatCloud(chunk, t);
    const up = [0, 1, 2].map((r) => t.rotation[3 * r + 2]);
    const g = fitGroundPlane(capture, { upHint: [0, -1, 0], inlierDistance: 0.05 });
    const angle = (Math.acos(Math.min(1, up[0] * g.normal[0] + up[1] * g.normal[1] + up[2] * g.normal[2])) * 180) / Math.PI;
    expect(angle).toBeLessThan(1);
    expect(g.inlierFraction).toBeGreaterThan(0.3);
    // The levelling rotation maps the fitted normal back to +z.
    const R = quatToMat3(levellingRotation(g.normal));
    expect(R[6] * g.normal[0] + R[7] * g.normal[1] + R[8] * g.normal[2]).toBeCloseTo(1, 9);
  });
});
