/**
 * Helpers shared by the humans GPU tests: random inputs and the GPU-vs-reference comparison.
 * (Test support only; no production code imports it.)
 */
import { createRng } from '../core/random';
import type { BodyModel } from './body-model';
import { skinBody, vertexNormals } from './lbs-reference';
import { PedestrianSkinner } from './pedestrian-skinner';
import { SKINNED_VERTEX_FLOATS, poseFloats } from './skinning-layout';

/** Reads `count` f32 from a COPY_SRC buffer. */
export async function readFloats(device: GPUDevice, buffer: GPUBuffer, count: number): Promise<Float32Array> {
  const staging = device.createBuffer({ label: 'test.staging', size: count * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return out;
}

/** Result of {@link compareGpuWithReference}: largest errors and where the worst position error is. */
export interface SkinningComparison {
  maxPositionError: number;
  maxNormalError: number;
  worst: string;
}

/**
 * Skins `pedestrians` bodies with random poses (each angle uniform in ±`maxAngle` rad), random root
 * translations (±5 m) and the given per-pedestrian β, on the GPU in one dispatch, and compares every
 * vertex with `skinBody` (float64).
 */
export async function compareGpuWithReference(
  device: GPUDevice,
  model: BodyModel,
  betasFor: (n: number) => ArrayLike<number>,
  pedestrians: number,
  seed: number,
  maxAngle = 0.6,
): Promise<SkinningComparison> {
  const rng = createRng(seed);
  const J = model.jointCount, B = model.shapeCount, V = model.vertexCount;
  const stride = poseFloats(J);
  const poses = new Float32Array(pedestrians * stride);
  for (let n = 0; n < pedestrians; n++) {
    for (let i = 0; i < 3 * J; i++) poses[n * stride + i] = rng.range(-maxAngle, maxAngle);
    for (let i = 0; i < 3; i++) poses[n * stride + 3 * J + i] = rng.range(-5, 5);
  }
  const betas = new Float32Array(pedestrians * B);
  for (let n = 0; n < pedestrians; n++) betas.set(Array.from(betasFor(n)), n * B);
  const skinner = await PedestrianSkinner.create(device, model, pedestrians + 1, 'test.PedestrianSkinner');
  try {
    skinner.setShapes(betas);
    skinner.setPoses(poses);
    const encoder = device.createCommandEncoder();
    skinner.encode(encoder, pedestrians);
    device.queue.submit([encoder.finish()]);
    const got = await readFloats(device, skinner.skinnedVertices, pedestrians * V * SKINNED_VERTEX_FLOATS);
    const restNormals = vertexNormals(model.template, model.faces);
    let maxPositionError = 0, maxNormalError = 0, worst = '';
    for (let n = 0; n < pedestrians; n++) {
      // The reference reads the same f32-rounded inputs as the GPU.
      const pose = poses.subarray(n * stride, n * stride + 3 * J);
      const trans = poses.subarray(n * stride + 3 * J, (n + 1) * stride);
      const want = skinBody(model, betas.subarray(n * B, (n + 1) * B), pose, trans, restNormals);
      for (let v = 0; v < V; v++) {
        const o = (n * V + v) * SKINNED_VERTEX_FLOATS;
        for (let c = 0; c < 3; c++) {
          const e = Math.abs(got[o + c] - want.positions[3 * v + c]);
          if (!(e <= maxPositionError)) {
            maxPositionError = Number.isNaN(e) ? Infinity : e;
            worst = `pedestrian ${n} vertex ${v} axis ${c}: GPU ${got[o + c]}, reference ${want.positions[3 * v + c]}`;
          }
          const en = Math.abs(got[o + 3 + c] - want.normals[3 * v + c]);
          maxNormalError = Math.max(maxNormalError, Number.isNaN(en) ? Infinity : en);
        }
      }
    }
    return { maxPositionError, maxNormalError, worst };
  } finally {
    skinner.destroy();
  }
}
