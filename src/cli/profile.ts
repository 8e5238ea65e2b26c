/**
 * `npm run profile`: FPS and per-pass GPU times of the demo's frame (src/app/demo-renderer.ts)
 * against pedestrian count, splat count and resolution, in headless Chromium (SwiftShader) or on
 * the machine's GPU (`--gpu`, `--headed`). Prints the adapter and a table; writes
 * bench/out/profile.json and bench/out/profile.html (plots). On a machine without a GPU the first
 * line says the figures are software figures.
 *
 * `npm run profile -- --scene FILE [FILE…]` profiles the splat renderer on any capture instead (PLY,
 * compressed PLY, .spz, .splat, glTF .glb / .gltf, SOG .sog / meta.json / folder of SOG tiles): one row per file with
 * `scene, splats, width, height, frameMs, fps, passes` (preprocess, sort, raster GPU ms), the load
 * time and the camera, in DIR/profile.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { finiteNumber, nonNegative, numberBetween, parseVec3, positiveInt } from './parse';
import { serveCapture } from './sog-parts';
import { DEFAULT_LOD_PIXEL_FRACTION } from '../splats/splat-lod';
import type { SceneProfileRow } from '../../bench/profile-scene.headless-api';
import type { ProfileConfig, } from '../../bench/profile.headless-api';
import { profileHtml } from './profile-html';
import { machineLine, markdownTable } from './results-file';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
const ints = (flag: string, v: string) => {
  const xs = list(v).map(Number);
  if (xs.length === 0 || xs.some((n) => !(Number.isInteger(n) && n >= 0))) throw new CliError(`${flag}: expected non-negative integers, got '${v}'`);
  return xs;
};
const sizes = (flag: string, v: string) =>
  list(v).map((r) => {
    const [w, h] = r.split('x').map(Number);
    if (!(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0)) throw new CliError(`${flag}: expected WxH, got '${r}'`);
    return [w, h] as [number, number];
  });

export const program = new Command('profile')
  .description('Demo renderer FPS and per-pass GPU times vs pedestrians, splats and resolution.')
  .option('--pedestrians <n,...>', 'pedestrian counts (sweep 1)', '0,10,50,100,250,500')
  .option('--splats <n,...>', 'splat budgets of the city view (sweep 2)', '10000,25000,50000')
  .option('--resolutions <WxH,...>', 'resolutions (sweep 3)', '160x120,320x240,480x360')
  .option('--base <peds,splats,WxH>', 'base configuration the sweeps vary around', '10,25000,320x240')
  .option('--frames <n>', 'timed frames per configuration (median; one warm-up first)', '2')
  .option('--full', 'workstation sweep: 100k–1M splats, 640x480–1920x1080, 10 frames')
  .option('--stand-ins', 'draw pedestrians as boxes instead of skinned bodies')
  .option('--scene <file...>', 'profile the splat renderer on these captures instead of the demo frame')
  .option('--width <px>', 'with --scene: image width', positiveInt(8192), 320)
  .option('--height <px>', 'with --scene: image height', positiveInt(8192), 240)
  .option('--eye <x,y,z>', 'with --scene: camera position (capture frame); default frames the bounds', parseVec3)
  .option('--target <x,y,z>', 'with --scene: point looked at; default the centre of the bounds', parseVec3)
  .option('--up <x,y,z>', 'with --scene: up direction; default 0,-1,0 (COLMAP captures are y-down)', parseVec3)
  .option('--fov-y <deg>', 'with --scene: vertical field of view, degrees', numberBetween(0, 180), 50)
  .option('--orbit <deg>', 'with --scene: turn the camera about the target by DEG per frame', finiteNumber, 0)
  .option('--min-alpha-mass <px2>', 'with --scene: cull splats whose total α is below this, px² (default 0: none)', nonNegative)
  .option('--lod <fraction>', `with --scene: level of detail, merged splats where a voxel is at most this fraction of a pixel (default ${DEFAULT_LOD_PIXEL_FRACTION}; 0 draws every splat)`, nonNegative)
  .option('--out <dir>', 'output directory', 'bench/out')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window');

/** `--scene` mode: one row per capture, printed and written to DIR/profile.json. */
async function profileScenes(o: { scene: string[]; width: number; height: number; eye?: [number, number, number]; target?: [number, number, number]; up?: [number, number, number]; fovY: number; orbit: number; minAlphaMass?: number; lod?: number; frames: string; out: string; gpu?: boolean; headed?: boolean }): Promise<void> {
  const frames = Number(o.frames);
  if (!(Number.isInteger(frames) && frames > 0)) throw new CliError(`--frames: expected a positive integer, got '${o.frames}'`);
  const rows: SceneProfileRow[] = [];
  let header = '';
  let software = false;
  for (const path of o.scene) {
    const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
      const file = await serveCapture(h, path);
      const r = await h.call('profileSplatScene', {
        file, width: o.width, height: o.height, fovYDeg: o.fovY, eye: o.eye, target: o.target, up: o.up, orbitDeg: o.orbit, frames, warmup: 2, minAlphaMass: o.minAlphaMass, lodPixelFraction: o.lod,
      });
      return { ...r, browserPeakBytes: h.peakMemoryBytes() };
    });
    header = machineLine(result.adapter, result.software);
    for (const row of result.rows) row.browserPeakBytes = result.browserPeakBytes;
    software = result.software;
    rows.push(...result.rows);
    console.log(`  ${path}: ${result.rows[0].frameMs.toFixed(1)} ms`);
  }
  const fmt = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(2));
  const head = ['scene', 'splats', 'resolution', 'frame ms', 'FPS', 'preprocess ms', 'sort ms', 'raster ms', 'cells drawn coarse', 'load s', 'cells + LOD + upload s', 'LOD splats', 'browser peak MB'];
  const mb = (b: number | null | undefined) => (b == null ? '–' : (b / 2 ** 20).toFixed(0));
  const body = rows.map((r) => [r.scene, r.splats.toLocaleString('en'), `${r.width}×${r.height}`, fmt(r.frameMs), r.fps.toFixed(1), fmt(r.passes.preprocess), fmt(r.passes.sort), fmt(r.passes.raster), `${r.coarseCells} / ${r.cells}`, (r.loadMs / 1000).toFixed(2), (r.prepareMs / 1000).toFixed(2), r.lodSplats.toLocaleString('en'), mb(r.browserPeakBytes)]);
  const warning = software ? 'NO GPU: WebGPU ran on a software rasteriser; these are not GPU figures (compare ratios only).\n' : '';
  console.log(`${warning}${header}\n\n${markdownTable(head, body)}`);
  mkdirSync(o.out, { recursive: true });
  writeFileSync(`${o.out}/profile.json`, JSON.stringify({ date: new Date().toISOString(), header, orbitDeg: o.orbit, frames, rows }, null, 2));
  console.log(`\nwrote ${o.out}/profile.json`);
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  if (program.opts<{ scene?: string[] }>().scene) return profileScenes(program.opts());
  const o = program.opts<{ pedestrians: string; splats: string; resolutions: string; base: string; frames: string; full?: boolean; standIns?: boolean; out: string; gpu?: boolean; headed?: boolean }>();
  if (o.full) Object.assign(o, { splats: '100000,300000,1000000', resolutions: '640x480,1280x720,1920x1080', base: '50,300000,1280x720', frames: '10' });
  const [bp, bs, br] = o.base.split(',');
  const base = { pedestrians: ints('--base', bp)[0], splats: ints('--base', bs)[0], size: sizes('--base', br)[0] };
  const configs: ProfileConfig[] = [
    ...ints('--pedestrians', o.pedestrians).map((p) => ({ sweep: 'pedestrians', pedestrians: p, splats: base.splats, width: base.size[0], height: base.size[1] })),
    ...ints('--splats', o.splats).map((s) => ({ sweep: 'splats', pedestrians: base.pedestrians, splats: s, width: base.size[0], height: base.size[1] })),
    ...sizes('--resolutions', o.resolutions).map(([w, h]) => ({ sweep: 'resolution', pedestrians: base.pedestrians, splats: base.splats, width: w, height: h })),
  ];
  const frames = Number(o.frames);
  if (!(Number.isInteger(frames) && frames > 0)) throw new CliError(`--frames: expected a positive integer, got '${o.frames}'`);
  console.log(`profile: ${configs.length} configurations × ${frames} frames, ${o.gpu ? 'hardware GPU' : 'SwiftShader'} flags`);
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, (h) => h.call('runProfileSweep', { configs, frames, bodies: !o.standIns }));
  const header = machineLine(result.adapter, result.software);
  const fmt = (v: number | undefined | null) => (v === undefined || v === null || Number.isNaN(v) ? '–' : v.toFixed(2));
  const head = ['sweep', 'pedestrians', 'splats', 'resolution', 'frame ms', 'FPS', 'peds ms', 'markers ms', 'preprocess ms', 'sort ms', 'raster ms', 'present ms'];
  const body = result.rows.map((r) => [
    r.sweep, r.pedestrians, r.splatsDrawn.toLocaleString('en'), `${r.width}×${r.height}`, fmt(r.frameMs), r.fps.toFixed(1),
    ...['pedestrians', 'markers', 'preprocess', 'sort', 'raster', 'present'].map((k) => fmt(r.passes?.[k])),
  ]);
  const warning = result.software ? 'NO GPU: WebGPU ran on a software rasteriser; these are not GPU figures (compare ratios only).\n' : '';
  console.log(`${warning}${header}\n\n${markdownTable(head, body)}`);
  if (!result.timestamps) console.log('\n(no timestamp-query on this adapter: pass times are missing)');
  mkdirSync(o.out, { recursive: true });
  writeFileSync(`${o.out}/profile.json`, JSON.stringify({ date: new Date().toISOString(), header, ...result }, null, 2));
  const tableHtml = `<table><tr>${head.map((x) => `<th>${x}</th>`).join('')}</tr>${body.map((r) => `<tr>${r.map((x) => `<td>${x}</td>`).join('')}</tr>`).join('')}</table>`;
  writeFileSync(`${o.out}/profile.html`, profileHtml(result, header, tableHtml));
  console.log(`\nwrote ${o.out}/profile.json and ${o.out}/profile.html`);
});
