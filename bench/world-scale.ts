/**
 * `npm run bench:world -- [--sizes 400,1000,2000] [--seed K] [--walk M]`: what a procedural world
 * costs as it grows to SidewalkBench's 2 km × 2 km, in Node, written to bench/RESULTS.md (section
 * `world-scale`):
 *
 * - generation: `generateWorld` time and resident memory added (the world, its navigation graph and
 *   query indices), streets, navigation nodes, obstacles;
 * - baking: chunks (32 m), mean splats and bake time per chunk over a sample of 40 chunks spread over
 *   the world, and the splats the whole world would hold (never baked at once);
 * - streaming: a robot-eye camera walks `--walk` metres of a route across the world (between the
 *   navigation nodes nearest two opposite corners), one step per metre; each step selects the chunks in view (60 m, frustum) and bakes those not yet baked,
 *   keeping at most 64 (least recently used dropped, as a renderer's chunk cache would): baked chunks
 *   per 100 m and bake time per metre walked.
 *
 * With `--osm FILE --centre LAT,LON` (or `--bbox`, then one size: the box's), each size also
 * builds that real place (src/world/osm/osm-world.ts) and measures it the same way, in the same
 * run, in the row after the procedural world's: chunks are 32 m × 32 m in both, so `bake ms /
 * chunk` compares baking per square metre. Written to the section `world-scale-osm`.
 */
import { Command } from 'commander';
import type { PinholeCamera } from '../src/gpu/camera';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { bakeChunk, chunkGrid, selectChunks } from '../src/world/bake/chunks';
import { generateWorld } from '../src/world/world';
import { worldIndex } from '../src/world/queries';
import { findRoute } from '../src/world/routes';
import { nonNegativeInt, numberBetween, worldSize } from '../src/cli/parse';
import { addOsmOptions, hasOsm, osmRefOfWorld, osmWorldFromOptions, type OsmOptionValues } from '../src/cli/osm-option';
import { osmWorldLabel } from '../src/world/osm/world-ref';
import type { World } from '../src/world/world';

export const program = addOsmOptions(new Command('bench:world')
  .description('World generation, chunk baking and chunk streaming cost against world size (up to 2 km).')
  .option('--sizes <m,...>', 'world sizes, metres (each 150–2000)', (v: string) => v.split(',').map(worldSize), [400, 1000, 2000])
  .option('--seed <k>', 'world seed', nonNegativeInt(2 ** 31), 1)
  .option('--walk <m>', 'metres walked along a route across the world for the streaming figures', numberBetween(0, 1e6), 400)
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged'));

const CACHE = 64;
const VIEW_DISTANCE = 60;

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ sizes: number[]; seed: number; walk: number; write: boolean } & OsmOptionValues>();
  const { sizes, seed, walk } = o;
  const osm = hasOsm(o);
  const rows: (string | number)[][] = [];
  const runs: { size: number; build: () => World }[] = sizes.flatMap((size) => [
    { size, build: () => generateWorld({ seed, size }) },
    ...(osm ? [{ size, build: () => osmWorldFromOptions(o, size, seed)! }] : []),
  ]);
  for (const { size: given, build } of runs) {
    globalThis.gc?.();
    const rss0 = rssMiB();
    const t0 = performance.now();
    const world = build();
    worldIndex(world);
    const size = world.size;
    const ref = osmRefOfWorld(world);
    const name = ref ? osmWorldLabel(ref) : `world ${seed}`;
    const generateS = (performance.now() - t0) / 1000;
    const grid = chunkGrid(world);
    const rss1 = rssMiB();
    const n = grid.nx * grid.ny;
    // Bake a spread sample of chunks.
    const sample = Array.from({ length: 40 }, (_, k) => Math.floor(((k * 7919) % n)));
    let splats = 0;
    const t1 = performance.now();
    for (const id of sample) splats += bakeChunk(world, grid, id).cloud.count;
    const bakeMs = (performance.now() - t1) / sample.length;
    const perChunk = splats / sample.length;
    // Streaming along a route across the world: nav nodes nearest two opposite corners, 10 % in.
    const nodes = world.nav.nodes;
    const nearest = (x: number, y: number) => nodes.reduce((a, b) => (Math.hypot(b[0] - x, b[1] - y) < Math.hypot(a[0] - x, a[1] - y) ? b : a));
    const q = 0.4 * size;
    const route = findRoute(world, nearest(-q, -q), nearest(q, q));
    if (!route) throw new Error(`${name} (${size} m): no route between opposite corners`);
    const line = route.points;
    const cache = new Map<number, number>(); // chunk id → last step used
    let baked = 0, bakeTime = 0, walked = 0;
    for (let i = 1, step = 0; i < line.length && walked < walk; i++) {
      const [ax, ay] = line[i - 1], [bx, by] = line[i];
      const seg = Math.hypot(bx - ax, by - ay);
      if (seg === 0) continue;
      const ux = (bx - ax) / seg, uy = (by - ay) / seg;
      for (let s = 0; s < seg && walked < walk; s += 1, walked += 1, step++) {
        // On the route (sidewalks and crosswalks), 0.95 m high, looking along it.
        const ex = ax + ux * s, ey = ay + uy * s;
        const camera: PinholeCamera = { eye: [ex, ey, 0.95], target: [ex + ux * 10, ey + uy * 10, 0.8], up: [0, 0, 1], fovYDeg: 60, width: 320, height: 240, near: 0.05, far: 500 };
        for (const id of selectChunks(grid, camera, { viewDistance: VIEW_DISTANCE })) {
          if (!cache.has(id)) {
            const tb = performance.now();
            bakeChunk(world, grid, id);
            bakeTime += performance.now() - tb;
            baked++;
            if (cache.size >= CACHE) {
              let oldest = -1, at = Infinity;
              for (const [k, v] of cache) if (v < at) { at = v; oldest = k; }
              cache.delete(oldest);
            }
          }
          cache.set(id, step);
        }
      }
    }
    rows.push([
      ref ? `${ref.path.replace(/^.*\//, '')} ${size.toFixed(0)} m` : osm ? `world ${seed} ${given} m` : `${given} m`, generateS.toFixed(1), (rss1 - rss0).toFixed(0), world.network.streets.length, world.nav.nodes.length.toLocaleString('en'), world.obstacles.length.toLocaleString('en'),
      `${grid.nx} × ${grid.ny}`, Math.round(perChunk).toLocaleString('en'), `${((perChunk * n) / 1e6).toFixed(1)} M`, bakeMs.toFixed(0),
      `${walked} m`, ((baked / walked) * 100).toFixed(0), (bakeTime / walked).toFixed(1),
    ]);
    console.log(`${name}, ${size.toFixed(0)} m: generated in ${generateS.toFixed(1)} s; ${n} chunks, ${Math.round(perChunk)} splats and ${bakeMs.toFixed(0)} ms per chunk; streaming ${walked} m of a ${route.length.toFixed(0)} m route: ${baked} chunks baked, ${(bakeTime / walked).toFixed(1)} ms per metre`);
  }
  const table = markdownTable(
    ['world', 'generate s', 'memory MiB (RSS added)', 'streets', 'nav nodes', 'obstacles', 'chunks', 'splats / chunk', 'splats in all', 'bake ms / chunk', 'walked', 'chunks baked / 100 m', 'bake ms / m walked'],
    rows,
  );
  console.log(table);
  if (o.write && osm) {
    writeResultsSection('world-scale-osm', `## A real place beside a procedural world: building, baking and streaming (\`npm run bench:world -- --osm ${o.osm}${o.centre ? ` --centre ${o.centre}` : ''}${o.bbox ? ` --bbox ${o.bbox}` : ''} --sizes ${sizes.join(',')}\`, ${new Date().toISOString().slice(0, 10)})\n\n${machineLine('none (Node only)', false)}\n\nEach real place (built from OpenStreetMap) follows the procedural world of seed ${seed} of its size, measured the same way in the same run. Chunks are 32 m × 32 m in both, so bake ms / chunk compares baking per square metre; the spread sample of 40 chunks includes whatever the place holds there (the sea, in Monaco). Streaming as in the section above.\n\n${table}`);
    console.log('wrote bench/RESULTS.md');
  } else if (o.write) {
    writeResultsSection('world-scale', `## World scale: generation, baking and chunk streaming up to 2 km (\`npm run bench:world\`, ${new Date().toISOString().slice(0, 10)})\n\n${machineLine('none (Node only)', false)}\n\nWorld seed ${seed}. Streaming: a robot-eye camera (0.95 m, 60° FOV) walks a route across the world (navigation graph, between the nodes nearest two opposite corners) one metre per step; chunks within ${VIEW_DISTANCE} m and the frustum are baked when first seen, at most ${CACHE} kept. Memory is the resident-set growth over generating the world and its query indices (noisy: the heap is collected lazily).\n\n${table}`);
    console.log('wrote bench/RESULTS.md');
  }
});
