/**
 * Storefront signs are legible to the robot camera (issue #16: "render a sign at the stated
 * distance and check its pixels against the rasterised texture"): a 256 × 192 robot view (60°
 * vertical field of view, camera 0.8 m up) from the sidewalk in front of a baked storefront; every
 * glyph pixel of the sign's text is projected into the image and the image there must tell ink from
 * board as the rasterised text does.
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { cameraModel, worldToCamera } from '../gpu/camera';
import { readTexture } from '../gpu/readback';
import type { SplatBackground } from '../splats/splat-background';
import { bakeBuilding, storefrontSign } from '../world/bake/buildings';
import { SplatBuilder } from '../world/bake/splat-builder';
import { signPixelPoint } from '../world/bake/sign';
import { shopSigns } from '../world/names';
import { generateWorld } from '../world/world';
import { RobotCamera } from './robot-camera';

const [W, H] = [256, 192];

/** Reads the sign from `distance` metres in front of it: ink/board agreement and their luma contrast. */
async function readSign(device: GPUDevice, distance: number) {
  const world = generateWorld({ seed: 1 });
  const [id, text] = [...shopSigns(world)][0];
  const b = world.obstacles.find((o) => o.id === id)!;
  const sign = storefrontSign(b, world.curbHeight, text)!;
  // The building alone, so nothing in front of the sign (a tree, a lamp post) hides it.
  const out = new SplatBuilder();
  bakeBuilding(b, world.curbHeight, world.seed, out, text);
  const cloud = out.toCloud([0, 0, 0]);
  let first = true;
  const background: SplatBackground = { view: () => ({ cloud, changed: first ? !(first = false) : false }) };
  const camera = await RobotCamera.create(device, { world, background, mount: { height: 0.8, pitchDeg: 0, fovYDeg: 60 }, width: W, height: H });
  try {
    const pose = { x: sign.centre[0] + sign.normal[0] * distance, y: sign.centre[1] + sign.normal[1] * distance, yaw: Math.atan2(-sign.normal[1], -sign.normal[0]) };
    await camera.render(pose, [], 0);
    const px = await readTexture(device, camera.target.color);
    const m = cameraModel(camera.cameraFor(pose));
    const { text: bitmap } = sign.layout;
    const samples: { ink: boolean; luma: number }[] = [];
    for (let j = 0; j < bitmap.height; j++) {
      for (let i = 0; i < bitmap.width; i++) {
        const c = worldToCamera(m, signPixelPoint(sign.layout, sign.centre, sign.along, i, j));
        const u = Math.floor(m.fx * (c[0] / c[2]) + m.cx), v = Math.floor(m.fy * (c[1] / c[2]) + m.cy);
        expect(u >= 0 && v >= 0 && u < W && v < H, `glyph pixel (${i}, ${j}) in view`).toBe(true);
        const p = (v * W + u) * 4;
        samples.push({ ink: bitmap.ink[j * bitmap.width + i] === 1, luma: 0.2126 * px[p] + 0.7152 * px[p + 1] + 0.0722 * px[p + 2] });
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    const ink = mean(samples.filter((s) => s.ink).map((s) => s.luma)), board = mean(samples.filter((s) => !s.ink).map((s) => s.luma));
    const threshold = (ink + board) / 2, light = ink > board;
    const agree = samples.filter((s) => (s.luma > threshold) === (light ? s.ink : !s.ink)).length / samples.length;
    return { text, agree, contrast: Math.abs(ink - board), glyphPx: (sign.layout.pixel * m.fy) / distance };
  } finally {
    camera.destroy();
  }
}

describe('storefront signs', () => {
  it('are legible from the sidewalk: at 6 m the image tells ink from board as the rasterised text has it at over 90 % of the glyph pixels of the name', () =>
    withDevice(async (device) => {
      const near = await readSign(device, 6);
      console.log(`sign "${near.text}" at 6 m: ${(near.agree * 100).toFixed(1)} % of glyph pixels agree, contrast ${near.contrast.toFixed(2)}, ${near.glyphPx.toFixed(2)} image px per glyph pixel`);
      expect(near.glyphPx).toBeGreaterThan(1.5);
      expect(near.contrast).toBeGreaterThan(0.25);
      expect(near.agree).toBeGreaterThan(0.9);
      // From 40 m a glyph pixel is a third of an image pixel: the letters blur into the board.
      const far = await readSign(device, 40);
      expect(far.glyphPx).toBeLessThan(0.5);
      expect(far.agree).toBeLessThan(near.agree - 0.1);
    }), 120_000);
});
