/**
 * `npm run crowd -- --scenario circle|blocks|FILE.json [--agents N] [--steps S] [--backend gpu|cpu]
 * [--seed K] [--jitter M] --json OUT.json`: runs an ORCA crowd without rendering in headless
 * Chromium (both backends run in the page) and writes its summary as JSON.
 *
 * `npm run crowd -- --world SEED [--walkers N] [--minutes M] [--backend gpu|cpu] [--seed K]
 * [--json OUT.json]`: runs the living city crowd of a procedural world (src/crowd/city-crowd.ts) and
 * reports its metrics; `--osm FILE [--centre LAT,LON --world-size M | --bbox W,S,E,N]` runs it on a
 * real place from OpenStreetMap (`--world` is then the seed of what OSM leaves open). It reports its metrics (prop penetrations, overlaps, standing drift, stuck walkers, mean speed,
 * steps/s). Bad input exits 1 with a one-line error naming the file or option.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { positiveInt, worldSize } from './parse';
import type { CityCrowdRequest, CrowdRequest } from '../crowd/headless-api';
import { DEFAULT_SPAWN_JITTER } from '../crowd/scenarios';
import { addOsmOptions, hasOsm, osmWorldRefFromOptions, pageWorldOf, type OsmOptionValues } from './osm-option';

const nonNegative = (v: string) => {
  const n = Number(v);
  if (!(n >= 0 && Number.isFinite(n))) throw new InvalidArgumentError(`expected a number ≥ 0, got '${v}'`);
  return n;
};
const seedInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new InvalidArgumentError(`expected an integer in 0..4294967295, got '${v}'`);
  return n;
};

const positiveNumber = (v: string) => {
  const n = Number(v);
  if (!(n > 0 && Number.isFinite(n))) throw new InvalidArgumentError(`expected a number > 0, got '${v}'`);
  return n;
};

export const program = addOsmOptions(new Command('crowd')
  .description('Run an ORCA crowd (RVO2 Circle, Blocks, or a scenario JSON file), or the living city crowd of a world (--world, or a real place with --osm), headless and write its summary as JSON.')
  .option('--scenario <name|file>', 'circle, blocks, or a scenario .json file')
  .option('--world <seed>', 'run the city crowd of the procedural world of this seed instead (ambient walkers on its pedestrian network); with --osm, the seed of what OSM leaves open', seedInt)
  .option('--world-size <m>', 'with --world or --osm --centre: the world side (the square selection), metres (150–2000; default 400)', worldSize)
  .option('--walkers <n>', 'with --world: walkers', positiveInt(5000), 80)
  .option('--minutes <m>', 'with --world: simulated minutes', positiveNumber, 5)
  .option('--agents <n>', 'agents (circle: on the ring, default 250; blocks: rounded to 4·k², default 100)', positiveInt(1_000_000))
  .option('--steps <n>', 'maximum steps; the run stops earlier when every agent is at its goal', positiveInt(1_000_000), 10_000)
  .option('--backend <gpu|cpu>', 'gpu (WGSL compute) or cpu (TypeScript reference)', 'gpu')
  .option('--seed <k>', 'episode seed (spawn jitter)', seedInt, 0)
  .option('--jitter <m>', 'spawn jitter radius for circle/blocks, metres', nonNegative, DEFAULT_SPAWN_JITTER)
  .option('--json <out.json>', 'write the summary here')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window'));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<OsmOptionValues & { scenario?: string; world?: number; worldSize?: number; walkers: number; minutes: number; agents?: number; steps: number; backend: string; seed: number; jitter: number; json?: string; gpu?: boolean; headed?: boolean }>();
  if (o.backend !== 'gpu' && o.backend !== 'cpu') throw new CliError(`--backend ${o.backend}: expected gpu or cpu`);
  const city = o.world !== undefined || hasOsm(o);
  if ((o.scenario === undefined) === !city) throw new CliError('give exactly one of --scenario circle|blocks|FILE.json or --world SEED (or --osm FILE)');
  if (o.worldSize !== undefined && !city) throw new CliError('--world-size applies to a city crowd (--world SEED or --osm FILE)');
  if (city) return runCityCrowdCli(o);
  const scenario = o.scenario as string;
  const builtIn = scenario === 'circle' || scenario === 'blocks';
  if (!builtIn && !scenario.toLowerCase().endsWith('.json')) throw new CliError(`--scenario ${scenario}: expected circle, blocks or a .json file`);
  const started = performance.now();
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    const req: CrowdRequest = { scenario: builtIn ? (o.scenario as 'circle' | 'blocks') : 'file', agents: o.agents, maxSteps: o.steps, backend: o.backend as 'gpu' | 'cpu', seed: o.seed, jitter: o.jitter };
    if (!builtIn) {
      const file = await h.serveFile(scenario);
      req.fileUrl = file.url;
      req.fileName = file.name;
    }
    h.page.on('console', (m) => {
      const match = /^crowd-progress (\d+) (\d+)\/(\d+)$/.exec(m.text());
      if (match) process.stderr.write(`\rcrowd: step ${match[1]}, ${match[2]}/${match[3]} at goal   `);
    });
    return h.call('runCrowdScenario', req);
  });
  process.stderr.write('\n');
  const out = {
    scenario: result.scenario, backend: result.backend, agents: result.agents, steps: result.steps, dt: result.dt,
    allReachedGoalAtStep: result.allReachedGoalAtStep, minPairDistance: result.minPairDistance,
    overlapSteps: result.overlapSteps, meanSpeed: result.meanSpeed, seed: result.seed,
    wallSeconds: result.wallSeconds, stepsPerSecond: result.steps / Math.max(1e-9, result.wallSeconds), adapter: result.adapter,
  };
  if (o.json) {
    await mkdir(dirname(o.json), { recursive: true });
    await writeFile(o.json, `${JSON.stringify(out, null, 2)}\n`);
  }
  const reached = out.allReachedGoalAtStep === null ? 'not all at goal' : `all at goal at step ${out.allReachedGoalAtStep} (${(out.allReachedGoalAtStep * out.dt).toFixed(1)} s)`;
  console.log(
    `${out.scenario} (${out.backend}): ${out.agents} agents, ${out.steps} steps, ${reached}; min pair distance ` +
      `${out.minPairDistance?.toFixed(3) ?? '–'} m, overlap steps ${out.overlapSteps}, mean speed ${out.meanSpeed.toFixed(3)} m/s; ` +
      `${out.stepsPerSecond.toFixed(0)} steps/s, ${((performance.now() - started) / 1000).toFixed(1)} s total${o.json ? ` → ${o.json}` : ''}`,
  );
});

/** `--world SEED` or `--osm FILE`: the city crowd, its metrics on the terminal and in `--json`. */
async function runCityCrowdCli(o: OsmOptionValues & { world?: number; worldSize?: number; walkers: number; minutes: number; backend: string; seed: number; json?: string; gpu?: boolean; headed?: boolean }): Promise<void> {
  const started = performance.now();
  const worldSeed = o.world ?? 0;
  const osm = hasOsm(o) ? (await pageWorldOf(osmWorldRefFromOptions(o, o.worldSize ?? 400, worldSeed).world)).osm : undefined;
  const req: CityCrowdRequest = { worldSeed, worldSize: o.worldSize, osm, walkers: o.walkers, seconds: o.minutes * 60, backend: o.backend as 'gpu' | 'cpu', seed: o.seed };
  const r = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    h.page.on('console', (m) => {
      const match = /^city-crowd-progress (\d+) ([\d.]+)$/.exec(m.text());
      if (match) process.stderr.write(`\rcrowd: ${osm ? o.osm : `world ${worldSeed}`}, ${match[1]} of ${Number(match[2]).toFixed(0)} s simulated   `);
    });
    return h.call('runCityCrowdScenario', req);
  });
  process.stderr.write('\n');
  if (o.json) {
    await mkdir(dirname(o.json), { recursive: true });
    await writeFile(o.json, `${JSON.stringify(r, null, 2)}\n`);
  }
  const m = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} cm`);
  console.log(
    `${typeof r.world === 'number' ? `world ${r.world}` : r.world} (${r.backend}): ${r.walkers} walkers (${r.groupedWalkers} in groups) for ${(r.seconds / 60).toFixed(1)} min, ${r.legs} legs (${r.gaveWay} given up in a jam), ` +
      `pauses ${r.pauses.storefront} shop / ${r.pauses.busStop} bus stop / ${r.pauses.kiosk} kiosk; prop penetrations ${r.propPenetrations}, overlaps ${r.overlaps}, ` +
      `standing drift median ${m(r.standingDriftMedian)} max ${m(r.standingDriftMax)} (${r.stands} stands), stuck ${r.stuck}, mean speed ${r.meanSpeed.toFixed(2)} m/s; ` +
      `${r.stepsPerSecond.toFixed(0)} steps/s, ${((performance.now() - started) / 1000).toFixed(1)} s total${o.json ? ` → ${o.json}` : ''}`,
  );
}
