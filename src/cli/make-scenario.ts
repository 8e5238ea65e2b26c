/**
 * `npm run scenario -- --world SEED|SCENE.json (or --osm FILE [--centre LAT,LON --world-size M | --bbox W,S,E,N]) --from x,y --to x,y [--behaviour B [--at s]] [--seed K]
 * [--out FILE.json]`: one custom scenario without a hand-computed route (src/bench/custom-scenario.ts):
 * the route from the walkable network, start and goal snapped to walkable ground (with a note),
 * pedestrians placed by the suite generator's rules, validated as the suites are. Writes the
 * scenario JSON to FILE (or stdout), which `npm run bench -- --suite FILE` runs.
 */
import { Command, Option } from 'commander';
import { CliError } from '../core/user-error';
import { customScenario, scenarioFileText } from '../bench/custom-scenario';
import { readSceneFileArg } from '../bench/scanned-scenes-node';
import { suiteWorld } from '../bench/suites';
import { BEHAVIOURS, type Behaviour, type Scenario } from '../sim/scenario';
import { sceneWorld } from '../world/bake/scene-file';
import type { World } from '../world/world';
import { nonNegative, nonNegativeInt, parseVec2, writeOutput } from './parse';
import { isEntryPoint, runCli } from './run-cli';
import { addOsmOptions, hasOsm, osmWorldRefFromOptions, type OsmOptionValues } from './osm-option';

/** The world named by --world: a procedural world seed (the suites' 400 m worlds) or a scene file. */
function worldOf(arg: string, size?: number): { world: World; worldRef: Scenario['world'] } {
  if (/^\d+$/.test(arg)) {
    const seed = Number(arg);
    if (seed > 0xffffffff) throw new CliError(`--world ${arg}: a world seed is at most ${0xffffffff}`);
    return { world: suiteWorld(seed, size), worldRef: size === undefined ? { kind: 'procedural', seed } : { kind: 'procedural', seed, size } };
  }
  if (size !== undefined) throw new CliError('--world-size applies to a procedural world (--world SEED)');
  const { path, scene } = readSceneFileArg(arg, `--world ${arg}: neither a world seed (a non-negative integer) nor a readable scene file`);
  return { world: sceneWorld(scene), worldRef: { kind: 'scene', path } };
}

export const program = addOsmOptions(new Command('scenario')
  .description('Make one custom scenario: the route between two points from the walkable network, pedestrians placed by the suite rules.')
  .option('--world <seed|scene.json>', 'procedural world seed (400 m, as the suites) or an annotated scene file; with --osm, the seed of what OSM leaves open (default 0)')
  .option('--world-size <m>', 'with --world SEED: world side length, metres (150–2000); with --osm --centre, the side of the square selection (default 400)', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 150 || n > 2000) throw new CliError(`--world-size: expected an integer 150–2000, got '${v}'`);
    return n;
  })
  .requiredOption('--from <x,y>', 'start point, world metres (snapped to walkable ground when off it)', parseVec2)
  .requiredOption('--to <x,y>', 'goal point, world metres (snapped likewise)', parseVec2)
  .addOption(new Option('--behaviour <name>', 'reactive behaviour of the pedestrians placed on the route').choices(BEHAVIOURS))
  .option('--at <m>', 'with --behaviour: where along the route the pedestrians stand, metres (default 8–11 m, as the suites)', nonNegative)
  .option('--seed <k>', 'placement and episode seed', nonNegativeInt(0x7fffffff), 0)
  .option('--id <id>', 'scenario id (default custom/BEHAVIOUR/START-GOAL)')
  .option('--out <file>', 'write the scenario here instead of stdout'));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<OsmOptionValues & { world?: string; worldSize?: number; from: [number, number]; to: [number, number]; behaviour?: Behaviour; at?: number; seed: number; id?: string; out?: string }>();
  if (o.at !== undefined && !o.behaviour) throw new CliError('--at needs --behaviour');
  let world: World, worldRef: Scenario['world'];
  if (hasOsm(o)) {
    if (o.world !== undefined && !/^\d+$/.test(o.world)) throw new CliError(`--world ${o.world}: with --osm, --world is the seed of what OSM leaves open (a non-negative integer)`);
    const built = osmWorldRefFromOptions(o, o.worldSize ?? 400, Number(o.world ?? 0));
    ({ world } = built);
    worldRef = built.ref;
  } else if (o.world === undefined) throw new CliError("--world SEED|SCENE.json or --osm FILE: give one (the world of the scenario)");
  else ({ world, worldRef } = worldOf(o.world, o.worldSize));
  const notes: string[] = [];
  let scenario: Scenario;
  try {
    ({ scenario } = customScenario({ world, worldRef, from: o.from, to: o.to, behaviour: o.behaviour, at: o.at, seed: o.seed, id: o.id }, notes));
  } finally {
    // Shown also when a later check refuses the request (a snapped point explains the coordinates in the error).
    for (const n of notes) console.error(`note: ${n}`);
  }
  const json = scenarioFileText(scenario);
  if (o.out) {
    writeOutput(o.out, json);
    const length = scenario.robot.route.slice(1).reduce((s, p, i) => s + Math.hypot(p[0] - scenario.robot.route[i][0], p[1] - scenario.robot.route[i][1]), 0);
    console.error(`wrote ${o.out}: ${scenario.id}, route ${length.toFixed(1)} m (${scenario.robot.route.length} points), ${scenario.pedestrians.length} pedestrian${scenario.pedestrians.length === 1 ? '' : 's'}; run it with npm run bench -- --suite ${o.out}`);
  } else process.stdout.write(json);
});
