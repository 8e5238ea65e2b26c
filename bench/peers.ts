/**
 * `npm run bench:peers`: Curbside's splat renderer beside PlayCanvas's WebGPU gsplat renderer
 * (the pinned devDependency `playcanvas`) on the same captures, resolution and orbiting camera,
 * alternating in one headless Chromium run. Prints and writes a table (median ms, ratio, PSNR of
 * each against the f64 reference) to bench/RESULTS.md (section `peers`) and bench/out/peers.json,
 * and side-by-side images (Curbside | Curbside exact with --lod | PlayCanvas | reference) to bench/out/peers-<scene>.png.
 * Default captures: the three in ../shared/data/splats, a baked 300 m street block (~1.4 M splats,
 * baked into bench/out/ on first use) and the 5 M-splat Semarang SOG capture.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { PNG } from 'pngjs';
import { withHarness } from '../src/tools/browser-harness';
import { CliError } from '../src/core/user-error';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { finiteNumber, nonNegative, numberBetween, positiveInt } from '../src/cli/parse';
import { serveCapture } from '../src/cli/sog-parts';
import { DEFAULT_LOD_PIXEL_FRACTION } from '../src/splats/splat-lod';
import type { PeerBenchResult, PeerView } from './peers.headless-api';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';

const SHARED = resolve(import.meta.dirname, '..', process.env.CURBSIDE_SHARED_DATA ?? '../shared/data');

const ROOT = resolve(import.meta.dirname, '..');
/** The baked street capture of the default run (made by `npm run bake` when missing). */
const STREET = { path: resolve(ROOT, 'bench/out/street-300.ply'), world: 1, size: 300 };

/** The default captures, the resolution each is timed at, and a start view where the default framing does not suit. */
const DEFAULT_SCENES: { path: string; size: string; view?: PeerView }[] = [
  { path: `${SHARED}/splats/fruit_drops_minimal.ply`, size: '128x96' },
  { path: `${SHARED}/splats/guitar.compressed.ply`, size: '320x240' },
  { path: `${SHARED}/splats/angel.compressed.ply`, size: '320x240' },
  // A 300 m procedural block (~1.4 M splats, SH 3), Z up, seen from 40° above.
  { path: STREET.path, size: '320x240', view: { up: [0, 0, 1], pitchDeg: 40, distance: 0.6 } },
  // The real 5 M-splat city capture (ten SOG tiles, one scene), y down, seen from 60° above.
  { path: `${SHARED}/splats/semarang-sog`, size: '320x240', view: { up: [0, -1, 0], pitchDeg: 60, distance: 0.8 } },
];

/** A WxH resolution, both positive integers. */
const parseSize = (v: string): [number, number] => {
  const [w, h] = v.split('x').map(Number);
  if (!(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0)) throw new InvalidArgumentError(`expected WxH with positive integers such as 320x240, got '${v}'`);
  return [w, h];
};

export const program = new Command('bench:peers')
  .description('Curbside vs PlayCanvas (WebGPU, GPU sort) on the same splat files, camera path and resolution.')
  .option('--scene <file...>', 'splat files (default: the three captures in ../shared/data/splats)')
  .option('--size <WxH>', 'resolution for every --scene file (defaults: 128x96 fruit drops, 320x240 others)', (v: string) => {
    parseSize(v);
    return v;
  })
  .option('--frames <n>', 'timed frames per block', positiveInt(1000), 10)
  .option('--warmup <n>', 'untimed frames before each block', positiveInt(1000), 5)
  .option('--rounds <n>', 'blocks per renderer, alternated', positiveInt(100), 2)
  .option('--orbit <deg>', 'camera turn about the target per frame, degrees', finiteNumber, 0.5)
  .option('--fov-y <deg>', 'vertical field of view, degrees', numberBetween(0, 180), 50)
  .option('--view <ux,uy,uz,pitch,distance>', 'start view for every --scene file: up axis, degrees above the plane ⟂ up, distance in bounds radii (default: the default capture\'s own view, else framed along +z)')
  .option('--reference-max <n>', 'largest capture rendered by the f64 reference for PSNR', positiveInt(1e9), 200_000)
  .option('--min-alpha-mass <px2>', "Curbside's total-α cull threshold, px² (0 draws every splat that reaches α = 1/255)", nonNegative, 0)
  .option('--lod <fraction>', `Curbside's level of detail: merged splats where a voxel is at most this fraction of a pixel (default ${DEFAULT_LOD_PIXEL_FRACTION}: none; above 0 Curbside is also timed without it and the run writes its own section)`, nonNegative, DEFAULT_LOD_PIXEL_FRACTION)
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'leave bench/RESULTS.md unchanged (bench/out/peers.json and the images are still written)');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ view?: string; scene?: string[]; size?: string; frames: number; warmup: number; rounds: number; orbit: number; fovY: number; referenceMax: number; minAlphaMass: number; lod: number; gpu?: boolean; headed?: boolean; write: boolean }>();
  let view: PeerView | undefined;
  if (o.view) {
    const v = o.view.split(',').map(Number);
    if (v.length !== 5 || v.some((x) => !Number.isFinite(x)) || !(v[4] > 0)) throw new CliError(`--view: expected ux,uy,uz,pitchDeg,distance, got '${o.view}'`);
    view = { up: [v[0], v[1], v[2]], pitchDeg: v[3], distance: v[4] };
  }
  // A --scene file that is one of the defaults keeps its default size and start view unless given.
  const preset = (path: string) => DEFAULT_SCENES.find((d) => resolve(d.path) === resolve(path));
  const scenes = o.scene
    ? o.scene.map((path) => ({ path, size: o.size ?? preset(path)?.size ?? '320x240', view: view ?? preset(path)?.view }))
    : DEFAULT_SCENES.map((s) => ({ ...s, size: o.size ?? s.size }));
  if (scenes.some((s) => s.path === STREET.path) && !existsSync(STREET.path)) {
    console.log(`bench:peers: baking the street capture ${STREET.path} (npm run bake -- --world ${STREET.world} --size ${STREET.size})`);
    const bake = spawnSync('npm', ['run', '--silent', 'bake', '--', '--world', String(STREET.world), '--size', String(STREET.size), '--out', STREET.path], { cwd: ROOT, stdio: 'inherit' });
    if (bake.status !== 0) throw new CliError(`bench:peers: npm run bake failed (exit ${bake.status})`);
  }
  console.log(`bench:peers: ${scenes.length} captures × ${o.rounds} rounds × (${o.warmup} warm-up + ${o.frames} timed) frames per renderer, orbit ${o.orbit}°/frame`);
  const rows: PeerBenchResult['rows'] = [];
  let adapter = '';
  let software = false;
  let pcVersion = '';
  // One harness (browser) per capture: a crash or device loss on one capture names it and stops.
  for (const s of scenes) {
    const [width, height] = parseSize(s.size);
    const started = performance.now();
    const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
      const file = await serveCapture(h, s.path);
      return h.call('runPeerBenchmark', {
        files: [{ ...file, view: s.view }], width, height, fovYDeg: o.fovY, orbitDeg: o.orbit, warmup: o.warmup, frames: o.frames, rounds: o.rounds, referenceMaxSplats: o.referenceMax, minAlphaMass: o.minAlphaMass, lodPixelFraction: o.lod,
      });
    });
    ({ adapter, software, playcanvasVersion: pcVersion } = result);
    const r = result.rows[0];
    rows.push(r);
    const passes = Object.entries(r.curbsidePasses).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
    console.log(
      `  ${r.scene}: Curbside ${r.curbsideMedianMs.toFixed(1)} ms (${passes || 'no pass times'}; ${r.coarseCells} of ${r.cells} cells coarse, ${r.curbsideVsExactPsnr.toFixed(1)} dB from exact), Curbside exact ${r.curbsideExactMedianMs.toFixed(1)} ms, PlayCanvas ${r.playcanvasMedianMs.toFixed(1)} ms, ` +
        `PlayCanvas culling off ${r.playcanvasExactMedianMs.toFixed(1)} ms (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  const fmt = (v: number) => v.toFixed(1);
  const db = (v: number | null) => (v === null ? '–' : Number.isFinite(v) ? v.toFixed(1) : '∞');
  const table = markdownTable(
    ['capture', 'splats', 'resolution', `PlayCanvas ${pcVersion} ms`, 'PlayCanvas, culling off ms', 'Curbside ms', 'Curbside / PlayCanvas', 'Curbside / PlayCanvas culling off', 'PSNR Curbside dB', 'cells drawn coarse', 'PSNR Curbside vs exact dB', 'Curbside exact ms', 'Curbside exact / PlayCanvas', 'PSNR Curbside exact dB', 'PSNR PlayCanvas dB', 'PSNR PlayCanvas culling off dB'],
    rows.map((r) => [
      `\`${r.scene}\``, r.splats.toLocaleString('en'), `${r.width}×${r.height}`,
      `${fmt(r.playcanvasMedianMs)} (${r.playcanvasMs.map(fmt).join(' / ')})`,
      `${fmt(r.playcanvasExactMedianMs)} (${r.playcanvasExactMs.map(fmt).join(' / ')})`,
      `${fmt(r.curbsideMedianMs)} (${r.curbsideMs.map(fmt).join(' / ')})`,
      `**${(r.curbsideMedianMs / r.playcanvasMedianMs).toFixed(2)}×**`, `${(r.curbsideMedianMs / r.playcanvasExactMedianMs).toFixed(2)}×`,
      db(r.curbsidePsnr), `${r.coarseCells} / ${r.cells}`, db(r.curbsideVsExactPsnr),
      `${fmt(r.curbsideExactMedianMs)} (${r.curbsideExactMs.map(fmt).join(' / ')})`, `${(r.curbsideExactMedianMs / r.playcanvasMedianMs).toFixed(2)}×`, db(r.curbsideExactPsnr),
      db(r.playcanvasPsnr), db(r.playcanvasExactPsnr),
    ]),
  );
  const header = machineLine(adapter, software);
  console.log(`\n${header}\n\n${table}`);
  const outDir = new URL('./out/', import.meta.url);
  mkdirSync(outDir, { recursive: true });
  const suffix = (o.minAlphaMass > 0 ? `-cull${o.minAlphaMass}` : '') + (o.lod > 0 ? `-lod${o.lod}` : '');
  for (const r of rows) {
    const panels = [r.images.curbside, r.images.curbsideExact, r.images.playcanvas, r.images.reference].filter(Boolean).map((b) => Buffer.from(b, 'base64'));
    const png = new PNG({ width: r.width * panels.length, height: r.height });
    panels.forEach((p, k) => {
      for (let y = 0; y < r.height; y++) p.copy(png.data, (y * png.width + k * r.width) * 4, y * r.width * 4, (y + 1) * r.width * 4);
    });
    writeFileSync(new URL(`peers${suffix}-${basename(r.scene).replace(/[^\w.-]/g, '_')}.png`, outDir), PNG.sync.write(png));
  }
  writeFileSync(new URL(`peers${suffix}.json`, outDir), JSON.stringify({ date: new Date().toISOString(), header, playcanvasVersion: pcVersion, minAlphaMass: o.minAlphaMass, lodPixelFraction: o.lod, rows: rows.map(({ images: _, ...rest }) => rest) }, null, 2));
  if (o.write) {
    // The exact renderer (the default) and a run with Curbside's total-α cull keep separate sections.
    const cull = o.minAlphaMass > 0;
    const options = [cull ? `--min-alpha-mass ${o.minAlphaMass}` : '', o.lod > 0 ? `--lod ${o.lod}` : ''].filter(Boolean).join(' ');
    writeResultsSection(
      cull ? 'peers-cull' : o.lod > 0 ? 'peers-lod' : 'peers',
      `## Splat renderer vs PlayCanvas (\`npm run bench:peers${options ? ` -- ${options}` : ''}\`), ${new Date().toISOString().slice(0, 10)}\n\n${header}\n\n` +
        (o.lod > 0 ? `Curbside draws each spatial cell of a capture of ≥ 65,536 splats at the coarsest level of detail whose merged voxels are at most ${o.lod} of a pixel at the cell's distance (\`--lod\`, \`src/splats/splat-lod.ts\`), and is also timed with it off ("exact": every splat of the capture). ` : '') +
        (cull ? `Curbside culls splats whose total α over the image is below ${o.minAlphaMass} px² (\`minAlphaMass\`; the default, 0, draws every splat that reaches α = 1/255). ` : '') +
        `Same headless Chromium, same file, resolution and camera path (default framing, orbiting the target by ${o.orbit}° per frame), ` +
        `PlayCanvas ${pcVersion} WebGPU (${rows[0]?.playcanvasRenderer ?? '?'}, unified gsplat; as shipped, with its screen-space culling ` +
        `minContribution = ${rows[0]?.playcanvasCulling.minContribution} px², minPixelSize = ${rows[0]?.playcanvasCulling.minPixelSize} px, and with both set to 0 so it draws ` +
        `every splat as Curbside does) and Curbside's \`SplatRenderer\` alternated in ${o.rounds} blocks each ` +
        `of ${o.warmup} warm-up + ${o.frames} timed frames; frame ms = start of the frame's CPU work → \`onSubmittedWorkDone\`, median over all timed frames ` +
        `(per-block medians in brackets). PSNR over RGB of the first frame against the f64 reference renderer (the 3DGS equations). ` +
        `Images (Curbside | Curbside exact | PlayCanvas | reference): \`bench/out/peers-<capture>.png\`.\n\n${table}`,
    );
    console.log(`wrote bench/RESULTS.md, bench/out/peers${suffix}.json and bench/out/peers${suffix}-*.png`);
  }
});
