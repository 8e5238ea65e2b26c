/**
 * `npm run bake -- --world SEED --size M --out FILE.ply [--sh-degree D] [--crop minX,minY,maxX,maxY]`:
 * bakes a procedural city block (the seeded world of `generateWorld`, every chunk; or the splats
 * over a box of it), or with `--osm FILE [--centre LAT,LON --size M | --bbox W,S,E,N]` a real place
 * from OpenStreetMap, into one INRIA 3DGS `.ply` in the world frame (Z up, metres): the project's stand-in for a street scan, read by every
 * entry point like a real capture. Higher SH bands (default degree 3) carry a small seeded
 * view-dependent term, so SH evaluation costs what it costs on a real scan. Runs in Node; the
 * body streams to disk in batches. ~530 k splats at 150 m, ~1.4 M at 300 m, ~2.5 M at 400 m.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { positiveInt } from './parse';
import { parseBox } from './parse';
import { bakeWorldCloud } from '../world/bake/bake-world';
import { addOsmOptions, hasOsm, osmRefOfWorld, osmWorldFromOptions, type OsmOptionValues } from './osm-option';
import { osmWorldLabel } from '../world/osm/world-ref';
import { plyFloatsPerSplat, writePly } from '../splats/formats/ply-writer';

export const program = addOsmOptions(new Command('bake')
  .description('Bake a procedural city block (or a real place from OpenStreetMap) into an INRIA 3DGS .ply (a street-scale capture for benchmarks).')
  .option('--world <seed>', 'world seed (integer); required without --osm (with it: the seed of what OSM leaves open, default 0)', positiveInt(2 ** 31 - 1))
  .option('--size <m>', 'world side length, metres (150–2000); with --osm --centre, the side of the square selection', positiveInt(2000), 150)
  .requiredOption('--out <file.ply>', 'output .ply path')
  .option('--sh-degree <d>', 'SH degree of the output (0–3)', (v) => {
    const d = Number(v);
    if (!Number.isInteger(d) || d < 0 || d > 3) throw new CliError(`--sh-degree: expected 0..3, got '${v}'`);
    return d;
  }, 3)
  .option('--crop <minX,minY,maxX,maxY>', 'keep only the splats over this box of the world (metres): a small street-corner capture', parseBox));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ world?: number; size: number; out: string; shDegree: number; crop?: [number, number, number, number] } & OsmOptionValues>();
  if (!o.out.toLowerCase().endsWith('.ply')) throw new CliError(`--out ${o.out}: the output must be a .ply file`);
  if (o.size < 150) throw new CliError(`--size ${o.size}: worlds are 150–2000 m`);
  if (o.world === undefined && !hasOsm(o)) throw new CliError("--world SEED or --osm FILE: give one (the world to bake)");
  const started = performance.now();
  const real = osmWorldFromOptions(o, o.size, o.world ?? 0);
  const ref = real && osmRefOfWorld(real);
  const what = ref ? `${osmWorldLabel(ref)}, ${real!.size.toFixed(0)} m` : `world ${o.world} (${o.size} m)`;
  if (real) console.log(`bake: ${what}: ${real.obstacles.length} obstacles, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const cloud = bakeWorldCloud({ world: real ?? o.world!, size: o.size, shDegree: o.shDegree, crop: o.crop }, (id, n) => {
    if (process.stdout.isTTY ? id % 20 === 0 || id === n : id % Math.ceil(n / 4) === 0 || id === n) {
      process.stdout.write(`${process.stdout.isTTY ? '\r' : ''}bake: chunk ${id}/${n}${process.stdout.isTTY ? '' : '\n'}`);
    }
  });
  if (cloud.count === 0) throw new CliError(`--crop ${o.crop?.join(',')}: no splats of ${what} (bounds ±${((real?.size ?? o.size) / 2).toFixed(0)}) lie in it`);
  const bytes = cloud.count * plyFloatsPerSplat(o.shDegree) * 4;
  console.log(`${process.stdout.isTTY ? '\n' : ''}bake: ${cloud.count.toLocaleString('en')} splats, SH degree ${o.shDegree}, writing ${(bytes / 2 ** 20).toFixed(0)} MB to ${o.out}`);
  await mkdir(dirname(o.out), { recursive: true });
  const fd = openSync(o.out, 'w');
  try {
    writePly(cloud, (b) => void writeSync(fd, b));
  } finally {
    closeSync(fd);
  }
  console.log(`${o.out}: ${cloud.count.toLocaleString('en')} splats, ${what}, Z up, metres, ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
