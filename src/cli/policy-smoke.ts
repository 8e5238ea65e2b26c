/**
 * Runs an ONNX policy on synthetic frames in the headless page, through the same harness as the CLI
 * commands (Vite without dependency pre-bundling, Chromium on SwiftShader): a check that the model,
 * its manifest and onnxruntime-web's wasm assets load there.
 *
 * `npx tsx src/cli/policy-smoke.ts assets/policies/single-frame/model.onnx [--steps N] [--batch B] [--gpu]`
 */
import { dirname, join } from 'node:path';
import { runCli, withHarness, CliError } from '../tools/browser-harness';

runCli(async () => {
  const args = process.argv.slice(2);
  const model = args.find((a) => !a.startsWith('--'));
  if (!model) throw new CliError('usage: policy-smoke.ts MODEL.onnx [--steps N] [--batch B] [--gpu]');
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const manifest = join(dirname(model), model.replace(/^.*\//, '').replace(/\.onnx$/, '.json'));
  await withHarness({ hardwareGpu: args.includes('--gpu') }, async (h) => {
    const modelFile = await h.serveFile(model);
    const manifestFile = await h.serveFile(manifest);
    const result = await h.call('policySmoke', {
      modelUrl: modelFile.url,
      manifestUrl: manifestFile.url,
      steps: opt('--steps'),
      batch: opt('--batch'),
    });
    console.log(`${result.name} on ${result.adapter}`);
    result.commands.forEach((step, i) => console.log(`step ${i}: ${step.map((c) => `v=${c.v.toFixed(3)} m/s ω=${c.w.toFixed(3)} rad/s`).join(' | ')}`));
  });
});
