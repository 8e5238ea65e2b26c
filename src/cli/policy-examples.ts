/**
 * `npm run policies:examples -- [outDir]`: writes the example ONNX policies of
 * src/policy/examples/make-example-models.ts (`<outDir>/<name>/model.onnx` + `model.json`, default
 * `assets/policies`), each manifest validated before it is written.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { parsePolicyManifest } from '../policy/manifest';
import { buildExamples } from '../policy/examples/make-example-models';
import { isEntryPoint, runCli } from './run-cli';

export const program = new Command('policies:examples')
  .description('Writes the example ONNX policies and their manifests (deterministic; a few kB each).')
  .argument('[outDir]', 'folder that receives one <name>/model.onnx + model.json per example', 'assets/policies');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const outDir = resolve(program.processedArgs[0] as string);
  for (const ex of buildExamples()) {
    const dir = join(outDir, ex.name);
    parsePolicyManifest(ex.manifest, join(dir, 'model.json'));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'model.onnx'), ex.model);
    await writeFile(join(dir, 'model.json'), `${JSON.stringify(ex.manifest, null, 2)}\n`);
    console.log(`${join(dir, 'model.onnx')}: ${ex.model.length} bytes`);
  }
});
