/**
 * Headless-page functions of the crowd (called by `npm run crowd` through the browser harness):
 * plain JSON in, plain JSON out. Both backends run in the page. Progress goes to the page console
 * as `crowd-progress <steps> <reached>/<agents>`.
 */
import { describeAdapter, withAcquiredDevice } from '../gpu/device';
import { fetchBytes } from '../core/bytes';
import type { CrowdSpec } from './crowd-spec';
import { type CrowdRunResult, runCrowd } from './crowd-run';
import { parseScenarioFile } from './scenario-file';
import { blocksScenario, circleScenario } from './scenarios';
import { generateWorld } from '../world/world';
import { osmWorldLabel, pageOsmWorld, type PageOsmWorld } from '../world/osm/world-ref';
import { CITY_CROWD_DT, type CityCrowdReport, runCityCrowd } from './city-crowd';
import { GpuPedestrianBatch } from './gpu-pedestrian-batch';
import { CpuPedestrianBatch } from './pedestrian-batch';

/** A run request from `npm run crowd`. */
export interface CrowdRequest {
  scenario: 'circle' | 'blocks' | 'file';
  fileUrl?: string;
  fileName?: string;
  /** Agent count (circle: on the ring; blocks: rounded to 4·k²). */
  agents?: number;
  maxSteps: number;
  backend: 'gpu' | 'cpu';
  seed: number;
  /** Spawn jitter, m (built-in scenarios; files set their own). */
  jitter: number;
}

/** The run's summary plus the scenario name and the adapter. */
export interface CrowdResponse extends CrowdRunResult {
  scenario: string;
  seed: number;
  adapter: string | null;
}

export async function runCrowdScenario(req: CrowdRequest): Promise<CrowdResponse> {
  let spec: CrowdSpec;
  let name: string = req.scenario;
  if (req.scenario === 'circle') spec = circleScenario(req.agents ?? 250, req.seed, req.jitter);
  else if (req.scenario === 'blocks') spec = blocksScenario(req.seed, req.jitter, Math.max(1, Math.round(Math.sqrt((req.agents ?? 100) / 4))));
  else {
    name = req.fileName!;
    spec = parseScenarioFile(req.fileName!, new TextDecoder().decode(await fetchBytes(req.fileUrl!, req.fileName!)), req.seed);
  }
  const n = spec.agents.length;
  const progress = (steps: number, reached: number) => console.log(`crowd-progress ${steps} ${reached}/${n}`);
  if (req.backend === 'cpu') return { ...(await runCrowd(spec, 'cpu', req.maxSteps, undefined, progress)), scenario: name, seed: req.seed, adapter: null };
  return withAcquiredDevice({}, async (acquired) => {
    const result = await runCrowd(spec, 'gpu', req.maxSteps, acquired.device, progress);
    return { ...result, scenario: name, seed: req.seed, adapter: describeAdapter(acquired) };
  });
}

/** A city-crowd run request from `npm run crowd -- --world SEED` (or `--osm FILE`). */
export interface CityCrowdRequest {
  worldSeed: number;
  /** Side of the procedural world, metres (default 400). */
  worldSize?: number;
  /** A real place instead of the procedural world of `worldSeed` (its ref and extract; src/world/osm/world-ref.ts). */
  osm?: PageOsmWorld;
  walkers: number;
  /** Simulated time, s. */
  seconds: number;
  backend: 'gpu' | 'cpu';
  seed: number;
}

/** The run's report plus the world (its seed, or a real place's label), seed and adapter. */
export interface CityCrowdResponse extends CityCrowdReport {
  world: number | string;
  seed: number;
  backend: 'gpu' | 'cpu';
  adapter: string | null;
}

/**
 * Runs a living city crowd on world `worldSeed` or the real place `osm` (src/crowd/city-crowd.ts)
 * on either backend; progress goes to the page console as `city-crowd-progress <simulated s> <total s>`.
 *
 * @throws OsmError naming the OSM file for a bad extract.
 */
export async function runCityCrowdScenario(req: CityCrowdRequest): Promise<CityCrowdResponse> {
  const world = req.osm ? pageOsmWorld(req.osm) : generateWorld({ seed: req.worldSeed, size: req.worldSize });
  const options = { walkers: req.walkers, seed: req.seed };
  const progress = (t: number) => console.log(`city-crowd-progress ${t.toFixed(0)} ${req.seconds}`);
  const base = { world: req.osm ? osmWorldLabel(req.osm.ref) : req.worldSeed, seed: req.seed, backend: req.backend };
  if (req.backend === 'cpu') return { ...(await runCityCrowd(world, new CpuPedestrianBatch(1), options, req.seconds, CITY_CROWD_DT, progress)), ...base, adapter: null };
  return withAcquiredDevice({}, async (acquired) => {
    const vertices = world.obstacles.reduce((n, o) => n + o.footprint.length, 0);
    const batch = await GpuPedestrianBatch.create(acquired.device, { slots: 1, maxPedestriansPerSlot: req.walkers, maxObstacleVerticesPerSlot: vertices, label: 'CityCrowd' });
    try {
      return { ...(await runCityCrowd(world, batch, options, req.seconds, CITY_CROWD_DT, progress)), ...base, adapter: describeAdapter(acquired) };
    } finally {
      batch.destroy();
    }
  });
}
