/**
 * The trained baselines `assets/policies/bc-gnm` and `bc-gnm-v3` (train/bc.py) in the page: each manifest validates,
 * and onnxruntime-web — the wasm backend and the WebGPU EP on Curbside's own device — gives
 * PyTorch's output on the formula input of `fixture.json` (written by the training run).
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { parsePolicyManifest } from './manifest';
import { getOrt } from './ort-runtime';
import { ORT_RUN_QUEUE } from './serial-queue';
import modelUrlV1 from '../../assets/policies/bc-gnm/model.onnx?url';
import manifestJsonV1 from '../../assets/policies/bc-gnm/model.json';
import fixtureV1 from '../../assets/policies/bc-gnm/fixture.json';
import modelUrlV3 from '../../assets/policies/bc-gnm-v3/model.onnx?url';
import manifestJsonV3 from '../../assets/policies/bc-gnm-v3/model.json';
import fixtureV3 from '../../assets/policies/bc-gnm-v3/fixture.json';

const BASELINES = [
  { name: 'bc-gnm', modelUrl: modelUrlV1, manifestJson: manifestJsonV1, fixture: fixtureV1 },
  { name: 'bc-gnm-v3', modelUrl: modelUrlV3, manifestJson: manifestJsonV3, fixture: fixtureV3 },
];

/**
 * Absolute tolerance against PyTorch: the backends sum the convolutions (≤ 576 terms), pooling
 * (≤ 768) and linear layers (≤ 133) in other orders in float32; with activations of order 1 that is
 * ≈ 1500 · 2⁻²⁴ · |partial sums| ≈ 1e-4 on outputs of order 1 m.
 */
const TOLERANCE = 2e-4;

for (const { name, modelUrl, manifestJson, fixture } of BASELINES) describe(`trained baseline ${name}`, () => {
  const manifest = parsePolicyManifest(manifestJson, `${name}/model.json`);
  const [T, H, W] = [manifest.context.frames, manifest.image.height, manifest.image.width];
  const obs = Float32Array.from({ length: T * 3 * H * W }, (_, i) => 1.5 * Math.sin(0.37 * i));
  const goal = Float32Array.from((fixture.goal as number[][]).flat());
  const expected = (fixture.waypoints as number[][][]).flat(2);

  it('has a point-goal manifest with two frames and five waypoints', () => {
    expect(manifest.name).toBe(name);
    expect(manifest.goal).toEqual({ type: 'point', input: 'goal' });
    expect(manifest.output).toMatchObject({ kind: 'waypoints', count: 5, dims: 2, waypointIndex: 1, scale: 0.5 });
    expect([T, H, W]).toEqual([2, 48, 64]);
  });

  for (const backend of ['wasm', 'webgpu'] as const) {
    it(`${backend}: the ONNX export gives PyTorch's waypoints within ${TOLERANCE} m`, async () => {
      const ort = getOrt();
      const model = new Uint8Array(await (await fetch(modelUrl)).arrayBuffer());
      const out = await withDevice(async (device) => {
        const session = await ORT_RUN_QUEUE.run(() => ort.InferenceSession.create(model, { executionProviders: [backend === 'wasm' ? 'wasm' : { name: 'webgpu', device }] }));
        try {
          const feeds = { obs: new ort.Tensor('float32', obs, [1, T, 3, H, W]), goal: new ort.Tensor('float32', goal, [1, 2]) };
          const r = await ORT_RUN_QUEUE.run(() => session.run(feeds));
          return Array.from((await r.waypoints.getData()) as Float32Array);
        } finally {
          await session.release();
        }
      });
      expect(out).toHaveLength(expected.length);
      const worst = Math.max(...out.map((v, i) => Math.abs(v - expected[i])));
      expect(worst, `max |ort − torch| ${worst.toExponential(2)}`).toBeLessThanOrEqual(TOLERANCE);
    });
  }
});
