/**
 * `npm run world -- --seed K [--size M] --json OUT.json`: generates a procedural world (Node only, no
 * browser) and writes its inventory (`src/world/inventory.ts`): named streets, intersections,
 * crosswalks, landmarks, every object and the pedestrian network. Prints a one-line summary.
 * Bad input exits 1 with a one-line error.
 */
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { worldInventory } from '../world/inventory';
import { generateWorld } from '../world/world';
import { nonNegativeInt, worldSize, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';


export const program = new Command('world')
  .description('Generate a procedural world and write its inventory (streets, names, landmarks, objects, pedestrian network) as JSON.')
  .requiredOption('--seed <K>', 'world seed (integer ≥ 0)', nonNegativeInt(0x7fffffff))
  .option('--size <M>', 'world side length in metres (150–2000)', worldSize, 400)
  .requiredOption('--json <OUT.json>', 'the inventory file to write');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ seed: number; size: number; json: string }>();
  if (!o.json.toLowerCase().endsWith('.json')) throw new CliError(`--json ${o.json}: the output must be a .json file`);
  const t = performance.now();
  const inv = worldInventory(generateWorld({ seed: o.seed, size: o.size }));
  writeOutput(o.json, `${JSON.stringify(inv)}\n`);
  const kinds = Object.entries(inv.counts).map(([k, n]) => `${n} ${k}`).join(', ');
  console.log(`${o.json}: world ${o.seed} (${o.size} m): ${inv.streets.length} named streets, ${inv.intersections.length} intersections, ${inv.crosswalks.length} crosswalks, ${inv.landmarks.length} landmarks (${inv.landmarks.filter((l) => l.kind === 'storefront').length} storefronts), objects: ${kinds}; network ${inv.network.nodes.length} nodes, ${inv.network.edges.length} edges (${((performance.now() - t) / 1000).toFixed(1)} s)`);
});
