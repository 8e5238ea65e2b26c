/**
 * `tsx src/cli/world-map.ts --seed N --out MAP.png [--size 512] [--world-size 400] [--bounds x0,y0,x1,y1] [--route straight|curve|crosswalk|…] [--labels]`:
 * generates a procedural world (Node only, no browser) and writes its top-down map as a PNG.
 * Bad input exits 1 with a one-line error.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { PNG } from 'pngjs';
import { CliError, UserError } from '../core/user-error';
import { createRng } from '../core/random';
import { BLOCK_TYPES, type BlockType } from '../world/blocks';
import { worldInventory } from '../world/inventory';
import { renderWorldMap, type MapAgent } from '../world/map-render';
import { drawMapLabels } from './map-labels';
import { addOsmOptions, osmWorldFromOptions, type OsmOptionValues } from './osm-option';
import { isEntryPoint } from './run-cli';
import { sampleRoute } from '../world/routes';
import { generateWorld } from '../world/world';

const int = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
};
const box = (v: string): [number, number, number, number] => {
  const p = v.split(',').map(Number);
  if (p.length !== 4 || p.some((x) => !Number.isFinite(x)) || p[2] <= p[0] || p[3] <= p[1]) throw new InvalidArgumentError('expected x0,y0,x1,y1 with x1 > x0, y1 > y0');
  return p as [number, number, number, number];
};

export const program = addOsmOptions(new Command('world-map')
  .description('Generate a procedural sidewalk world (or build one from an OpenStreetMap extract) and write its top-down map as a PNG.')
  .option('--seed <n>', 'world seed (integer); required without --osm', int)
  .requiredOption('--out <png>', 'output PNG path')
  .option('--size <px>', 'image side length in pixels', int, 512)
  .option('--world-size <m>', 'world side length in metres (150–2000)', int, 400)
  .option('--bounds <x0,y0,x1,y1>', 'world region to show, metres (default: the whole world)', box)
  .option('--route <kind>', `draw a sampled 10–20 m route on a block type (${BLOCK_TYPES.join(', ')}, crosswalk)`)
  .option('--labels', 'draw street names and bus stops (and storefront names when zoomed in to ≤ 0.15 m/px)'));

async function main(): Promise<void> {
  program.parse();
  const o = program.opts<OsmOptionValues & { seed?: number; out: string; size: number; worldSize: number; bounds?: [number, number, number, number]; route?: string; labels?: boolean }>();
  if (!o.out.toLowerCase().endsWith('.png')) throw new CliError(`--out ${o.out}: the output must be a .png file`);
  if (o.size < 1 || o.size > 8192) throw new CliError(`--size ${o.size}: must be in 1..8192`);
  if (o.route && o.route !== 'crosswalk' && !BLOCK_TYPES.includes(o.route as BlockType)) throw new UserError(`--route ${o.route}: unknown block type (expected crosswalk, ${BLOCK_TYPES.join(', ')})`);
  const t0 = performance.now();
  if (o.seed === undefined && o.osm === undefined) throw new CliError('--seed N or --osm FILE: give one (the world to draw)');
  const world = osmWorldFromOptions(o, o.worldSize, o.seed ?? 0) ?? generateWorld({ seed: o.seed!, size: o.worldSize });
  const t1 = performance.now();
  let route: Parameters<typeof renderWorldMap>[1]['route'];
  const agents: MapAgent[] = [];
  let bounds = o.bounds;
  if (o.route) {
    const r = sampleRoute(world, createRng(o.seed ?? 0).fork('cli-route'), { kind: o.route as BlockType | 'crosswalk', minLength: 10, maxLength: 20 });
    if (!r) throw new UserError(`--route ${o.route}: no 10–20 m route found`);
    route = r.points;
    agents.push({ position: r.start, yaw: Math.atan2(r.points[1][1] - r.start[1], r.points[1][0] - r.start[0]), color: [0, 170, 0, 255] }, { position: r.goal, color: [230, 30, 30, 255] });
    const cx = (r.start[0] + r.goal[0]) / 2, cy = (r.start[1] + r.goal[1]) / 2;
    bounds ??= [cx - 30, cy - 30, cx + 30, cy + 30];
    console.log(`route on ${r.kind} #${r.sourceId}: ${r.length.toFixed(1)} m from (${r.start.map((v) => v.toFixed(1))}) to (${r.goal.map((v) => v.toFixed(1))})`);
  }
  const img = renderWorldMap(world, { widthPx: o.size, heightPx: o.size, bounds, route, agents });
  if (o.labels) {
    const n = drawMapLabels(img, worldInventory(world));
    console.log(`labels: ${n.streets} streets, ${n.busStops} bus stops, ${n.storefronts} storefronts`);
  }
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, PNG.sync.write(png));
  const kinds = [...new Set(world.blocks.map((b) => b.type))].join(', ');
  console.log(
    `${o.out}: seed ${world.seed}, ${world.size} m, ${world.network.streets.length} streets, ${world.crosswalks.length} crosswalks, ` +
      `${world.obstacles.length} obstacles, nav ${world.nav.nodes.length} waypoints; blocks: ${kinds}; ` +
      `generated in ${((t1 - t0) / 1000).toFixed(2)} s, map ${img.metresPerPixel.toFixed(3)} m/px`,
  );
}

if (isEntryPoint(import.meta.url)) main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
