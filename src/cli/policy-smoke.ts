/**
 * `npm run policy:smoke -- MODEL.onnx [--steps N] [--batch B] [--gpu]`: runs an ONNX policy on
 * synthetic frames in the headless page, through the same harness as the other commands (Vite
 * without dependency pre-bundling, Chromium on SwiftShader): a check that the model, its manifest
 * (`MODEL.json` beside it) and onnxruntime-web's wasm assets load there, printing each step's
 * commands.
 */
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { positiveInt } from './parse';
import { withHarness } from '../tools/browser-harness';
import { isEntryPoint, runCli } from './run-cli';

export const program = new Command('policy:smoke')
  .description('Run an ONNX policy on synthetic frames in the headless page and print its commands.')
  .argument('<model>', 'the policy MODEL.onnx (its manifest MODEL.json beside it)')
  .option('--steps <n>', 'control steps', positiveInt(1000))
  .option('--batch <b>', 'environments per step', positiveInt(64))
  .option('--gpu', "use the machine's GPU instead of SwiftShader");

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const model = program.args[0];
  const o = program.opts<{ steps?: number; batch?: number; gpu?: boolean }>();
  const manifest = join(dirname(model), model.replace(/^.*\//, '').replace(/\.onnx$/, '.json'));
  await withHarness({ hardwareGpu: o.gpu }, async (h) => {
    const modelFile = await h.serveFile(model);
    const manifestFile = await h.serveFile(manifest);
    const result = await h.call('policySmoke', { modelUrl: modelFile.url, manifestUrl: manifestFile.url, steps: o.steps, batch: o.batch });
    console.log(`${result.name} on ${result.adapter}`);
    result.commands.forEach((step, i) => console.log(`step ${i}: ${step.map((c) => `v=${c.v.toFixed(3)} m/s ω=${c.w.toFixed(3)} rad/s`).join(' | ')}`));
  });
});
