/**
 * Storefront signs are legible to the robot camera (issue #16: "render a sign at the stated
 * distance and check its pixels against the rasterised texture"; issue #34: the name set in DejaVu
 * Sans Bold from the font atlas): a 256 × 192 robot view (60° vertical field of view, camera 0.8 m
 * up) from the sidewalk in front of a baked storefront. The sign's texels whose rasterised coverage
 * is solid ink or bare board over a neighbourhood of about one image pixel are projected into the
 * image, which must tell ink from board there as the coverage does; and across the text the image's
 * luma must follow the coverage (correlation over every texel of the text's box).
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { cameraModel, worldToCamera } from '../gpu/camera';
import { readTexture } from '../gpu/readback';
import type { SplatBackground } from '../splats/splat-background';
import { bakeBuilding, storefrontSign } from '../world/bake/buildings';
import { SplatBuilder } from '../world/bake/splat-builder';
import { signTexelPoint } from '../world/bake/sign';
import { shopSigns } from '../world/names';
import { generateWorld } from '../world/world';
import { RobotCamera } from './robot-camera';

const [W, H] = [256, 192];

/** Pearson correlation of two equally long series. */
function correlation(a: readonly number[], b: readonly number[]): number {
  const n = a.length, ma = a.reduce((s, x) => s + x, 0) / n, mb = b.reduce((s, x) => s + x, 0) / n;
  let sab = 0, saa = 0, sbb = 0;
  for (let k = 0; k < n; k++) { sab += (a[k] - ma) * (b[k] - mb); saa += (a[k] - ma) ** 2; sbb += (b[k] - mb) ** 2; }
  return sab / Math.sqrt(saa * sbb);
}

/** Reads the sign from `distance` metres in front of it: ink/board agreement on solid texels, their luma contrast, and luma–coverage correlation over the text. */
async function readSign(device: GPUDevice, distance: number) {
  const world = generateWorld({ seed: 1 });
  const [id, text] = [...shopSigns(world)][0];
  const b = world.obstacles.find((o) => o.id === id)!;
  const sign = storefrontSign(b, world.curbHeight, text, 'font')!;
  // The building alone, so nothing in front of the sign (a tree, a lamp post) hides it.
  const out = new SplatBuilder();
  bakeBuilding(b, world.curbHeight, world.seed, out, text, 'font');
  const cloud = out.toCloud([0, 0, 0]);
  let first = true;
  const background: SplatBackground = { view: () => ({ cloud, changed: first ? !(first = false) : false }) };
  const camera = await RobotCamera.create(device, { world, background, mount: { height: 0.8, pitchDeg: 0, fovYDeg: 60 }, width: W, height: H });
  try {
    const pose = { x: sign.centre[0] + sign.normal[0] * distance, y: sign.centre[1] + sign.normal[1] * distance, yaw: Math.atan2(-sign.normal[1], -sign.normal[0]) };
    await camera.render(pose, [], 0);
    const px = await readTexture(device, camera.target.color);
    const m = cameraModel(camera.cameraFor(pose));
    const l = sign.layout;
    // Image pixels per texel, and the neighbourhood (texels) that makes about one image pixel.
    const texelPx = (l.texel * m.fy) / distance;
    const r = Math.max(1, Math.ceil(0.5 / texelPx));
    const lumaAt = (i: number, j: number) => {
      const c = worldToCamera(m, signTexelPoint(l, sign.centre, sign.along, i, j));
      const u = Math.floor(m.fx * (c[0] / c[2]) + m.cx), v = Math.floor(m.fy * (c[1] / c[2]) + m.cy);
      expect(u >= 0 && v >= 0 && u < W && v < H, `texel (${i}, ${j}) in view`).toBe(true);
      const p = (v * W + u) * 4;
      return 0.2126 * px[p] + 0.7152 * px[p + 1] + 0.0722 * px[p + 2];
    };
    const cov = (i: number, j: number) => l.coverage[j * l.cols + i];
    const solid: { ink: boolean; luma: number }[] = [];
    const series: [number[], number[]] = [[], []];
    const [x0, x1, y0, y1] = l.textBox;
    for (let j = y0; j < y1; j++) {
      for (let i = x0; i < x1; i++) {
        const luma = lumaAt(i, j);
        series[0].push(cov(i, j));
        series[1].push(luma);
        let lo = 255, hi = 0;
        for (let dj = -r; dj <= r; dj++) for (let di = -r; di <= r; di++) { const c = cov(i + di, j + dj); lo = Math.min(lo, c); hi = Math.max(hi, c); }
        if (lo >= 230) solid.push({ ink: true, luma });
        else if (hi === 0) solid.push({ ink: false, luma });
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    const ink = mean(solid.filter((s) => s.ink).map((s) => s.luma)), board = mean(solid.filter((s) => !s.ink).map((s) => s.luma));
    const threshold = (ink + board) / 2, light = ink > board;
    const agree = solid.filter((s) => (s.luma > threshold) === (light ? s.ink : !s.ink)).length / solid.length;
    return { text, agree, solid: solid.length, contrast: Math.abs(ink - board), texelPx, correlation: Math.abs(correlation(series[0], series[1])) };
  } finally {
    camera.destroy();
  }
}

describe('storefront signs', () => {
  it('are legible from the sidewalk: at 6 m the image tells ink from board as the rasterised coverage has it at over 90 % of the solid texels, and follows the coverage across the text', () =>
    withDevice(async (device) => {
      const near = await readSign(device, 6);
      console.log(`sign "${near.text}" at 6 m: ${(near.agree * 100).toFixed(1)} % of ${near.solid} solid texels agree, contrast ${near.contrast.toFixed(2)}, correlation ${near.correlation.toFixed(2)}, ${near.texelPx.toFixed(2)} image px per texel`);
      expect(near.solid).toBeGreaterThan(100);
      expect(near.contrast).toBeGreaterThan(0.4);
      expect(near.agree).toBeGreaterThan(0.9);
      expect(near.correlation).toBeGreaterThan(0.7);
      // From 40 m a texel is a seventh of an image pixel: the letters blur into the board.
      const far = await readSign(device, 40);
      console.log(`at 40 m: ${(far.agree * 100).toFixed(1)} % agree, correlation ${far.correlation.toFixed(2)}`);
      expect(far.texelPx).toBeLessThan(0.2);
      expect(far.correlation).toBeLessThan(near.correlation - 0.2);
    }), 120_000);
});
