/**
 * Model vs manifest checks on the shipped examples, with the model's declared inputs and outputs
 * read by onnxruntime itself (onnxruntime-web's Node build, wasm backend).
 */
import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { parsePolicyManifest, type PolicyManifest } from './manifest';
import { checkModelAgainstManifest, ModelMismatchError } from './model-check';
import { buildExamples } from './examples/make-example-models';

ort.env.wasm.numThreads = 1;

async function example(name: string) {
  const dir = `assets/policies/${name}`;
  const manifest = parsePolicyManifest(await readFile(`${dir}/model.json`, 'utf8'), `${dir}/model.json`);
  const session = await ort.InferenceSession.create(await readFile(`${dir}/model.onnx`), { executionProviders: ['wasm'] });
  return { manifest, session, file: `${dir}/model.onnx` };
}

function edit(m: PolicyManifest, patch: (m: PolicyManifest) => void): PolicyManifest {
  const copy = structuredClone(m);
  patch(copy);
  return copy;
}

describe('checkModelAgainstManifest', () => {
  it('accepts every shipped example', async () => {
    for (const name of ['single-frame', 'context3', 'point-goal', 'cmd', 'diffusion', 'image-goal', 'urban']) {
      const { manifest, session, file } = await example(name);
      expect(() => checkModelAgainstManifest(file, manifest, session.inputMetadata, session.outputMetadata, 3)).not.toThrow();
      await session.release();
    }
  });

  it('the checked-in examples are what the generator produces (deterministic weights)', async () => {
    for (const ex of buildExamples()) {
      const onDisk = new Uint8Array(await readFile(`assets/policies/${ex.name}/model.onnx`));
      expect(Buffer.from(ex.model).equals(Buffer.from(onDisk)), ex.name).toBe(true);
    }
  });

  it.each<[string, string, (m: PolicyManifest) => void, RegExp]>([
    ['single-frame', 'wrong observation name', (m) => { m.inputs.observation = 'image'; }, /no input 'image' \(manifest inputs\.observation\); the model's inputs are 'obs'/],
    ['single-frame', 'wrong T', (m) => { m.context.frames = 2; }, /input 'obs' \(manifest inputs\.observation\): dim 1 is 1, manifest implies 2/],
    ['single-frame', 'wrong image size', (m) => { m.image.width = 64; }, /input 'obs' .*: dim 4 is 32, manifest implies 64/],
    ['single-frame', 'wrong layout (rank)', (m) => { m.inputs.layout = 'BCHW'; }, /input 'obs' .*: rank 5 \[B, 1, 3, 24, 32\], manifest implies rank 4/],
    ['single-frame', 'wrong K', (m) => { if (m.output.kind === 'waypoints') m.output.count = 8; }, /output 'waypoints' .*: dim 1 is 5, manifest implies 8/],
    ['single-frame', 'cmd declared for a waypoint model', (m) => { m.output = { kind: 'cmd', name: 'waypoints' }; }, /output 'waypoints' .*: rank 3 .*manifest implies rank 2/],
    ['point-goal', 'goal input not declared', (m) => { m.goal = { type: 'none' }; }, /input 'goal' is not fed by the manifest/],
    ['diffusion', 'noise shape', (m) => { m.noise = { input: 'noise', shape: [8, 2] }; }, /input 'noise' \(manifest noise\.input\): dim 1 is 5, manifest implies 8/],
    ['cmd', 'wrong output name', (m) => { m.output = { kind: 'cmd', name: 'action' }; }, /no output 'action' \(manifest output\.name\); the model's outputs are 'cmd'/],
  ])('%s: refuses %s', async (name, _what, patch, message) => {
    const { manifest, session, file } = await example(name);
    try {
      const wrong = edit(manifest, patch);
      expect(() => checkModelAgainstManifest(file, wrong, session.inputMetadata, session.outputMetadata)).toThrow(ModelMismatchError);
      expect(() => checkModelAgainstManifest(file, wrong, session.inputMetadata, session.outputMetadata)).toThrow(message);
      expect(() => checkModelAgainstManifest(file, wrong, session.inputMetadata, session.outputMetadata)).toThrow(file);
    } finally {
      await session.release();
    }
  });

  it('refuses a fixed batch dim that differs from B', () => {
    const m = parsePolicyManifest(
      { format: 'curbside-policy/1', name: 'x', rateHz: 4, image: { width: 4, height: 4 }, context: { frames: 1, spacing: 0.25 },
        normalization: { mean: [0, 0, 0], std: [1, 1, 1], appliedBy: 'graph' }, inputs: { observation: 'obs' }, output: { kind: 'cmd', name: 'cmd' } },
      'x.json',
    );
    const inputs = [{ name: 'obs', isTensor: true, type: 'float32', shape: [1, 1, 3, 4, 4] }];
    const outputs = [{ name: 'cmd', isTensor: true, type: 'float32', shape: [1, 2] }];
    expect(() => checkModelAgainstManifest('x.onnx', m, inputs, outputs, 1)).not.toThrow();
    expect(() => checkModelAgainstManifest('x.onnx', m, inputs, outputs, 4)).toThrow(/x\.onnx: input 'obs' .*: dim 0 is 1, manifest implies 4/);
  });

  it('a malformed model is refused by onnxruntime', async () => {
    await expect(ort.InferenceSession.create(new Uint8Array([8, 1, 2, 3]), { executionProviders: ['wasm'] })).rejects.toThrow();
  });
});
