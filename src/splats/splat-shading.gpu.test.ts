/**
 * The preprocess's conditions shading (tint, wet ground, fog) on real WebGPU against its TypeScript
 * twin `shadeSplatColor`: each visible splat's shaded colour from its unshaded one, its centre's
 * height and its distance from the eye.
 */
import { describe, expect, it } from 'vitest';
import { cameraModel, type CameraModel } from '../gpu/camera';
import { fromHalfBits } from '../gpu/half-float';
import { readBuffer } from '../gpu/readback';
import { readSharedData, withDevice } from '../../test/gpu-fixture';
import { loadSplatFile, splatBounds } from './formats';
import { frameSplatBounds } from './framing';
import { PROJECTED_SPLAT_LAYOUT } from './gpu-layout';
import { OffscreenTarget, OFFSCREEN_COLOR_FORMAT, OFFSCREEN_DEPTH_FORMAT } from './offscreen';
import { SplatRenderer } from './splat-renderer';
import { SplatSceneBuffers } from './splat-scene-buffers';
import { NEUTRAL_SPLAT_SHADING, shadeSplatColor, writeSplatShading, type SplatShading } from './splat-shading';
import { SPLAT_FRAME_LAYOUT } from './gpu-layout';

/** The projected colour of every splat (null where culled) after one frame. */
async function projectedColours(device: GPUDevice, renderer: SplatRenderer, cam: CameraModel, target: OffscreenTarget): Promise<([number, number, number] | null)[]> {
  const encoder = device.createCommandEncoder();
  target.clearDepth(encoder);
  renderer.encode(encoder, cam, { color: target.color.createView(), depth: target.depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 0 } });
  device.queue.submit([encoder.finish()]);
  const bytes = await readBuffer(device, renderer.debugBuffers.projected!);
  const f = new Float32Array(bytes);
  const u = new Uint32Array(bytes);
  const stride = PROJECTED_SPLAT_LAYOUT.size / 4;
  return Array.from({ length: f.length / stride }, (_, i) => {
    const o = i * stride;
    if (f[o + PROJECTED_SPLAT_LAYOUT.alphaLog / 4] < 0) return null;
    const rg = u[o + PROJECTED_SPLAT_LAYOUT.colorRG / 4];
    return [fromHalfBits(rg & 0xffff), fromHalfBits(rg >>> 16), fromHalfBits(u[o + PROJECTED_SPLAT_LAYOUT.blueMinor / 4] & 0xffff)];
  });
}

describe('splat shading by the conditions', () => {
  it('tints, wets and fogs every visible splat as shadeSplatColor says, emissive splats keeping their share of the colour', async () => {
    const cloud = loadSplatFile('fruit_drops_minimal.ply', await readSharedData('splats/fruit_drops_minimal.ply'));
    // A third of the splats fully emissive, a third half, the rest not (SplatCloud.emissive).
    const emissive = Float32Array.from({ length: cloud.count }, (_, i) => [1, 0.5, 0][i % 3]);
    cloud.emissive = emissive;
    const camera = frameSplatBounds(splatBounds(cloud), 64, 48, 50);
    const cam = cameraModel(camera);
    const distance = (i: number) => Math.hypot(...[0, 1, 2].map((k) => cloud.positions[3 * i + k] - camera.eye[k]));
    const zs = Array.from({ length: cloud.count }, (_, i) => cloud.positions[3 * i + 2]).sort((a, b) => a - b);
    const dMean = Array.from({ length: cloud.count }, (_, i) => distance(i)).reduce((a, b) => a + b) / cloud.count;
    // Half the splats wet, fog leaving ~37 % of the colour at the mean distance.
    const shading: SplatShading = { tint: [0.5, 0.8, 1.2], fogColor: [0.6, 0.62, 0.65], fogDensity: 1 / dMean, wetBelow: zs[zs.length >> 1], wetFactor: 0.5 };
    await withDevice(async (device) => {
      const scene = new SplatSceneBuffers(device, cloud);
      const renderer = await SplatRenderer.create(device, { colorFormat: OFFSCREEN_COLOR_FORMAT, depthFormat: OFFSCREEN_DEPTH_FORMAT });
      const target = new OffscreenTarget(device, 64, 48);
      try {
        await renderer.setScene(scene);
        expect(renderer.shading).toBe(NEUTRAL_SPLAT_SHADING);
        const plain = await projectedColours(device, renderer, cam, target);
        renderer.shading = shading;
        const shaded = await projectedColours(device, renderer, cam, target);
        let visible = 0, wet = 0;
        let fogMin = 1, fogMax = 0;
        for (let i = 0; i < cloud.count; i++) {
          const c0 = plain[i], c1 = shaded[i];
          expect(c1 === null, `splat ${i} culled in one frame only`).toBe(c0 === null);
          if (!c0 || !c1) continue;
          visible++;
          const z = cloud.positions[3 * i + 2];
          if (z < shading.wetBelow) wet++;
          const f = Math.exp(-shading.fogDensity * distance(i));
          fogMin = Math.min(fogMin, f);
          fogMax = Math.max(fogMax, f);
          const want = shadeSplatColor(c0, z, distance(i), shading, emissive[i]);
          // binary16 in and out: 2⁻¹¹ relative each, plus f32 arithmetic.
          for (let k = 0; k < 3; k++) expect(Math.abs(c1[k] - want[k]), `splat ${i} channel ${k}`).toBeLessThan(2e-3 * Math.max(1, want[k]));
        }
        expect(visible).toBeGreaterThan(cloud.count / 2);
        expect(wet, 'wet splats').toBeGreaterThan(visible / 5);
        expect(wet, 'dry splats').toBeLessThan((visible * 4) / 5);
        expect(fogMax - fogMin, 'fog varies with the distance').toBeGreaterThan(0.05);
        // Back to neutral: the unshaded colours again, bit for bit.
        renderer.shading = NEUTRAL_SPLAT_SHADING;
        expect(await projectedColours(device, renderer, cam, target)).toEqual(plain);
      } finally {
        target.destroy();
        renderer.destroy();
        scene.destroy();
      }
    });
  });

  it('rejects a bad shading with the field named', () => {
    const frame = new Float32Array(SPLAT_FRAME_LAYOUT.size / 4);
    expect(() => writeSplatShading({ ...NEUTRAL_SPLAT_SHADING, fogDensity: -1 }, frame)).toThrow(/fogDensity -1/);
    expect(() => writeSplatShading({ ...NEUTRAL_SPLAT_SHADING, tint: [1, Number.NaN, 1] }, frame)).toThrow(/tint/);
    expect(() => writeSplatShading({ ...NEUTRAL_SPLAT_SHADING, wetBelow: Number.NaN }, frame)).toThrow(/wetBelow/);
    writeSplatShading({ ...NEUTRAL_SPLAT_SHADING, wetBelow: -Infinity }, frame);
    expect(frame[SPLAT_FRAME_LAYOUT.wetBelow / 4]).toBeLessThan(-3e38);
  });
});
