/**
 * `npm run suites [-- --out DIR]`: regenerates the checked-in scenario suites
 * `scenes/suites/{smoke,unit,reactive,long}.json` (or writes them to DIR) from src/bench/suites.ts
 * (deterministic: rerunning gives the same bytes). The scanned-scene unit scenarios use every scene
 * file in `scenes/` ({@link readScannedScenes}).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { runCli } from './run-cli';
import { readScannedScenes } from '../bench/scanned-scenes-node';
import { longSuite, reactiveSuite, smokeSuite, unitSuite } from '../bench/suites';
import type { Scenario } from '../sim/scenario';

const program = new Command('suites')
  .description('Regenerate the scenario suites (smoke, unit, reactive, long) deterministically.')
  .option('--out <dir>', 'output directory', resolve(import.meta.dirname, '../../scenes/suites'));

runCli(async () => {
  program.parse();
  const dir = program.opts<{ out: string }>().out;
  mkdirSync(dir, { recursive: true });
  const scanned = readScannedScenes();
  const suites: [string, () => Scenario[]][] = [['smoke', () => smokeSuite(scanned)], ['unit', () => unitSuite(100, 'unit', scanned)], ['reactive', () => reactiveSuite()], ['long', () => longSuite()]];
  for (const [name, make] of suites) {
    const t = performance.now();
    const scenarios = make();
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ suite: name, generator: 'src/bench/suites.ts', scenarios })}\n`);
    console.log(`${name}: ${scenarios.length} scenarios (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
});
