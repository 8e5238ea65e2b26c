/**
 * PedestrianLodGroup on the GPU: walkers go to the LOD of their distance from the eye, and every
 * LOD's skinned vertices match the float64 reference (skinBody) for that walker's own β (from its
 * appearance) and pose, through a LOD switch, a new appearance in a slot, and an emptied LOD. The
 * LOD bodies share their shape space, so a walker keeps its shape at every distance.
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { createRng } from '../core/random';
import { cameraModel } from '../gpu/camera';
import { skinBody } from './lbs-reference';
import { makeHumanBodies, makeHumanMaterial, MAKEHUMAN_LOD_DISTANCES } from './makehuman-set';
import { randomAppearance, type PedestrianAppearance, type PedestrianPlacement } from './pedestrian-appearance';
import { PedestrianLodGroup } from './pedestrian-lod';
import { pedestrianBetas } from './pedestrian-wardrobe';
import { readFloats } from './skinning-test-utils';
import { poseFloats, SKINNED_VERTEX_FLOATS } from './skinning-layout';

const EYE = [0, 0, 1.6];
const TOLERANCE = 1e-4;

describe('PedestrianLodGroup', () => {
  it('skins each walker with the LOD of its distance and its own β, through switches and new appearances', () =>
    withDevice(async (device) => {
      const models = makeHumanBodies();
      const J = models[0].jointCount, stride = poseFloats(J);
      const group = await PedestrianLodGroup.create(device, {
        colorFormat: 'rgba8unorm', depthFormat: 'depth32float', models, materials: models.map((_, k) => makeHumanMaterial(k)),
        switchDistances: MAKEHUMAN_LOD_DISTANCES, capacity: 4, label: 'test.lod',
      });
      const color = device.createTexture({ size: [32, 24], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
      const depth = device.createTexture({ size: [32, 24], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT });
      const rng = createRng(5);
      const poses = new Float32Array(4 * stride);
      for (let i = 0; i < 4 * 3 * J; i++) if (i % stride < 3 * J) poses[i] = rng.range(-0.3, 0.3);
      const camera = cameraModel({ eye: [EYE[0], EYE[1], EYE[2]], target: [10, 0, 1], up: [0, 0, 1], fovYDeg: 60, width: 32, height: 24, near: 0.1, far: 100 });

      /** One frame; then each walker's skinned vertices against skinBody with its LOD's model. */
      const frame = async (distances: number[], appearances: PedestrianAppearance[]) => {
        const placements: PedestrianPlacement[] = distances.map((d) => ({ position: [d, 0, 0], yaw: 0 }));
        // Root translation in the pose: the skinner's output is in the body frame plus this offset.
        distances.forEach((_, i) => poses.set([0.1 * i, 0, 0], i * stride + 3 * J));
        group.setFrame(EYE, placements, appearances, poses);
        const encoder = device.createCommandEncoder();
        group.encode(encoder, camera, { color: color.createView(), depth: depth.createView(), clearColor: { r: 0, g: 0, b: 0, a: 1 } });
        device.queue.submit([encoder.finish()]);
        const lods = distances.map((d) => Math.hypot(d - EYE[0], EYE[1], EYE[2]) < 7 ? 0 : Math.hypot(d, 0, 1.6) < 15 ? 1 : 2);
        for (let k = 0; k < 3; k++) expect(group.lodCounts[k], `LOD ${k}`).toBe(lods.filter((l) => l === k).length);
        let worst = 0;
        for (let k = 0; k < 3; k++) {
          const ids = lods.flatMap((l, i) => (l === k ? [i] : []));
          if (ids.length === 0) continue;
          const V = models[k].vertexCount;
          const got = await readFloats(device, group.skinnedVertices(k), ids.length * V * SKINNED_VERTEX_FLOATS);
          ids.forEach((i, s) => {
            const want = skinBody(models[k], pedestrianBetas(models[k], appearances[i].shape), poses.subarray(i * stride, i * stride + 3 * J), poses.subarray(i * stride + 3 * J, (i + 1) * stride));
            for (let v = 0; v < V; v++) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[(s * V + v) * SKINNED_VERTEX_FLOATS + c] - want.positions[3 * v + c]));
          });
        }
        return worst;
      };
      try {
        const looks = [1, 2, 3].map((s) => randomAppearance(s));
        expect(await frame([3, 10, 20], looks)).toBeLessThan(TOLERANCE);
        // Walkers 0 and 2 trade places: each is re-shaped in its new LOD with its own β.
        expect(await frame([20, 10, 3], looks)).toBeLessThan(TOLERANCE);
        // A new appearance in the same slot (the caller reset its walkers) gets its own β.
        const renewed = [randomAppearance(40), looks[1], looks[2]];
        expect(renewed[0].shape).not.toEqual(looks[0].shape);
        expect(await frame([20, 10, 3], renewed)).toBeLessThan(TOLERANCE);
        // Every walker near: LODs 1 and 2 empty, then one walker back far: re-shaped, not stale.
        expect(await frame([2, 3, 4], renewed)).toBeLessThan(TOLERANCE);
        expect(await frame([2, 3, 30], [renewed[0], renewed[1], randomAppearance(41)])).toBeLessThan(TOLERANCE);
        expect(group.lodFor(6.9)).toBe(0);
        expect(group.lodFor(7)).toBe(1);
        expect(group.lodFor(100)).toBe(2);
      } finally {
        group.destroy();
        color.destroy();
        depth.destroy();
      }
    }));
});
