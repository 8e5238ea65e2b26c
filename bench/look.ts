/**
 * `npm run bench:look -- [--out bench/out/look] [--repeats 3] [--gpu] [--write] [--images]`: what the
 * camera sees, before and after, side by side in one run. The look before is the city as first
 * shipped (every ground zone on the 0.25 m lattice, shop signs in the 5 × 7 bitmap: bake options
 * `surfaceDetail: 'coarse'`, `signStyle: 'bitmap'`); the look after is the city as shipped now.
 *
 * Viewpoints (the issue's fixed set): the default robot camera of worlds 1–3 (400 m, 640 × 480,
 * 60° vertical field of view, 0.8 m above the sidewalk: world/bake/default-camera.ts) and six arena
 * viewpoints facing storefronts from the sidewalk of the arena's world (CITYARENA_WORLD) at 4, 6, 8,
 * 10, 4 and 6 m (bench/storefront-views.ts; eye at the arena's 1.6 m).
 *
 * Measures, per viewpoint and look:
 * - near-camera sharpness: mean |Laplacian| of luma (sensors/image-sharpness.ts) over the rows below
 *   the line where the ground is 10 m ahead for the robot cameras, and over the whole frame for the
 *   storefront views (the facade is 4–10 m away there);
 * - frame time: the median of `--repeats` renders of the view (renderViewFrame's GPU time incl.
 *   upload and readback; the first render uploads the chunks and is not counted);
 * - splats drawn.
 * Per world and look: splats of every chunk, bake time in Node, host memory of the baked splats.
 *
 * Writes before/after images (one per viewpoint: before left, after right) as PNG to `--out`, and with
 * `--images` as JPEG to docs/images/look-*.jpg for the README; `--write` replaces the `look` section of
 * bench/RESULTS.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { CITYARENA_WORLD } from '../src/arena/generate/suite';
import { positiveInt } from '../src/cli/parse';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { cameraModel, worldToCamera, type PinholeCamera } from '../src/gpu/camera';
import { meanAbsLaplacian } from '../src/sensors/image-sharpness';
import { withHarness } from '../src/tools/browser-harness';
import { type BakeOptions, ChunkedWorld, DEFAULT_CHUNK_SIZE } from '../src/world/bake/chunks';
import { ROBOT_CAMERA_HEIGHT } from '../src/world/bake/default-camera';
import { DEFAULT_WORLD_SIZE, generateWorld } from '../src/world/world';
import { CAMERA, type Viewpoint, viewpointsAtDistances } from './storefront-views';

export const program = new Command('bench:look')
  .description('Near-camera sharpness, frame time and splat costs of the city before and after, side by side in one run, with before/after images.')
  .option('--out <DIR>', 'folder for the before/after images', 'bench/out/look')
  .option('--repeats <N>', 'timed renders per view and look (median)', positiveInt(20), 3)
  .addOption(new Option('--views <set>', 'which viewpoints: robot (worlds 1–3), storefront (the six arena views) or all').choices(['robot', 'storefront', 'all']).default('all'))
  .option('--gpu', "render with the machine's GPU instead of SwiftShader")
  .option('--images', 'also write the before/after images to docs/images/look-*.jpg (for the README)')
  .option('--write', 'also write the section `look` of bench/RESULTS.md');

/** The two looks compared. */
const LOOKS: { name: 'before' | 'after'; bake: BakeOptions }[] = [
  { name: 'before', bake: { surfaceDetail: 'coarse', signStyle: 'bitmap' } },
  { name: 'after', bake: {} },
];
/** The default worlds whose robot camera is measured. */
const WORLDS = [1, 2, 3];
/** Ground distance ahead bounding the near-camera rows of the robot views, metres. */
const NEAR_GROUND = 10;
/** Storefront views of the arena's world: distances in order. */
const STOREFRONT_DISTANCES = [4, 6, 8, 10, 4, 6];

interface View {
  name: string;
  seed: number;
  worldSize: number;
  /** Camera override (storefront views); undefined: the world's default camera. */
  pose?: { eye: Viewpoint['eye']; target: Viewpoint['target'] };
  fovYDeg: number;
}

/** First image row at which the ground is nearer than {@link NEAR_GROUND} straight ahead of a level-ish camera. */
function nearGroundRow(cam: PinholeCamera, groundZ: number): number {
  const m = cameraModel(cam);
  const d = [cam.target[0] - cam.eye[0], cam.target[1] - cam.eye[1]];
  const l = Math.hypot(d[0], d[1]);
  const q = worldToCamera(m, [cam.eye[0] + (d[0] / l) * NEAR_GROUND, cam.eye[1] + (d[1] / l) * NEAR_GROUND, groundZ]);
  return Math.max(1, Math.min(cam.height - 2, Math.ceil(m.fy * (q[1] / q[2]) + m.cy)));
}

/** Six storefront views of the arena's world, at {@link STOREFRONT_DISTANCES}. */
function storefrontViews(): View[] {
  const world = generateWorld({ seed: CITYARENA_WORLD.seed, size: CITYARENA_WORLD.size });
  return viewpointsAtDistances(world, STOREFRONT_DISTANCES).map((v, k) => {
    const d = STOREFRONT_DISTANCES[k];
    return { name: `storefront ${k + 1} (${v.shop}, ${d} m)`, seed: world.seed, worldSize: world.size, pose: { eye: v.eye, target: v.target }, fovYDeg: CAMERA.fovYDeg };
  });
}

/** Splats, bake seconds and host bytes of every chunk of a world in a look. */
function worldCost(seed: number, size: number, bake: BakeOptions): { splats: number; seconds: number; bytes: number } {
  const t0 = performance.now();
  const cw = new ChunkedWorld(generateWorld({ seed, size }), DEFAULT_CHUNK_SIZE, bake);
  let splats = 0, bytes = 0;
  for (let id = 0; id < cw.grid.nx * cw.grid.ny; id++) {
    const c = cw.chunk(id).cloud;
    splats += c.count;
    bytes += c.positions.byteLength + c.scales.byteLength + c.rotations.byteLength + c.opacities.byteLength + c.shDc.byteLength + (c.emissive?.byteLength ?? 0);
  }
  return { splats, seconds: (performance.now() - t0) / 1000, bytes };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = (a: number, b: number): string => `${(b / a).toFixed(2)}×`;

/** `left` and `right` (RGBA8, same size) side by side, opaque: RGBA8 of 2w × h. */
function sideBySide(left: Uint8Array, right: Uint8Array, w: number, h: number): Buffer {
  const out = Buffer.alloc(2 * w * h * 4);
  for (let y = 0; y < h; y++) {
    out.set(left.subarray(y * w * 4, (y + 1) * w * 4), y * 2 * w * 4);
    out.set(right.subarray(y * w * 4, (y + 1) * w * 4), (y * 2 * w + w) * 4);
  }
  for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return out;
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ out: string; repeats: number; views: 'robot' | 'storefront' | 'all'; gpu?: boolean; images?: boolean; write?: boolean }>();
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const views: View[] = [
    ...(o.views === 'storefront' ? [] : WORLDS.map((seed) => ({ name: `world ${seed} robot camera`, seed, worldSize: DEFAULT_WORLD_SIZE, fovYDeg: 60 }))),
    ...(o.views === 'robot' ? [] : storefrontViews()),
  ];
  const measured = new Map<string, { sharp: number; ms: number; splats: number; rgba: Uint8Array; rows: string }>();
  let adapter = '';
  await withHarness({ hardwareGpu: o.gpu }, async (h) => {
    for (const view of views) {
      for (const look of LOOKS) {
        const opened = await h.call('openWorldView', { seed: view.seed, worldSize: view.worldSize, width: CAMERA.width, height: CAMERA.height, fovYDeg: view.fovYDeg, bake: look.bake, ...view.pose });
        adapter = opened.adapter;
        try {
          const times: number[] = [];
          let frame = await h.call('renderViewFrame', { session: opened.session, orbitDeg: 0 });
          for (let r = 0; r < o.repeats; r++) {
            frame = await h.call('renderViewFrame', { session: opened.session, orbitDeg: 0 });
            times.push(frame.renderMs);
          }
          const rgba = new Uint8Array(Buffer.from(frame.rgbaBase64, 'base64'));
          const from = view.pose ? 1 : nearGroundRow(frame.camera, frame.camera.eye[2] - ROBOT_CAMERA_HEIGHT);
          const sharp = meanAbsLaplacian(rgba, frame.width, frame.height, from);
          measured.set(`${view.name}/${look.name}`, { sharp, ms: median(times), splats: frame.splatCount, rgba, rows: view.pose ? 'all' : `${from}–${frame.height - 2}` });
          process.stderr.write(`${view.name} ${look.name}: sharpness ${sharp.toFixed(2)}, ${median(times).toFixed(0)} ms, ${frame.splatCount.toLocaleString('en')} splats\n`);
        } finally {
          await h.call('closeView', { session: opened.session });
        }
      }
    }
  });
  const rows: (string | number)[][] = [];
  const imageNames: string[] = [];
  for (const [k, view] of views.entries()) {
    const b = measured.get(`${view.name}/before`)!, a = measured.get(`${view.name}/after`)!;
    rows.push([view.name, b.rows, b.sharp.toFixed(2), a.sharp.toFixed(2), ratio(b.sharp, a.sharp), b.ms.toFixed(0), a.ms.toFixed(0), ratio(b.ms, a.ms), b.splats.toLocaleString('en'), a.splats.toLocaleString('en')]);
    const file = `look-${view.pose ? `storefront-${k - views.filter((v) => !v.pose).length + 1}` : `world-${view.seed}`}.jpg`;
    const both = sideBySide(b.rgba, a.rgba, CAMERA.width, CAMERA.height);
    const png = new PNG({ width: 2 * CAMERA.width, height: CAMERA.height });
    png.data = both;
    writeFileSync(join(out, file.replace(/jpg$/, 'png')), PNG.sync.write(png));
    const jpg = jpeg.encode({ data: both, width: 2 * CAMERA.width, height: CAMERA.height }, 88).data;
    if (o.images) {
      mkdirSync(resolve('docs/images'), { recursive: true });
      writeFileSync(resolve('docs/images', file), jpg);
    }
    imageNames.push(file);
  }
  const costRows: (string | number)[][] = [];
  for (const [seed, size] of [...WORLDS.map((s) => [s, DEFAULT_WORLD_SIZE]), [CITYARENA_WORLD.seed, CITYARENA_WORLD.size]]) {
    const c = LOOKS.map((l) => worldCost(seed, size, l.bake));
    costRows.push([`${seed} (${size} m)`, c[0].splats.toLocaleString('en'), c[1].splats.toLocaleString('en'), ratio(c[0].splats, c[1].splats), c[0].seconds.toFixed(1), c[1].seconds.toFixed(1), (c[0].bytes / 2 ** 20).toFixed(0), (c[1].bytes / 2 ** 20).toFixed(0)]);
  }
  const software = !o.gpu || /swiftshader/i.test(adapter);
  const body = [
    `## What the camera sees: before and after (\`npm run bench:look\`, ${new Date().toISOString().slice(0, 10)})`,
    '',
    machineLine(adapter, software),
    '',
    "Before: every ground zone on the 0.25 m lattice, 5 × 7 bitmap signs (bake options `surfaceDetail: 'coarse'`, `signStyle: 'bitmap'`); after: the city as shipped. Sharpness = mean |Laplacian| of luma (Rec. 601, 0–255) over the rows where the ground is nearer than 10 m (robot cameras, 0.8 m eye) or the whole frame (storefront views, 1.6 m eye); frame time = median of the renders after the first (GPU time incl. readback), 640 × 480.",
    '',
    markdownTable(['view', 'rows', 'sharpness before', 'after', 'after / before', 'frame ms before', 'after', 'after / before', 'splats drawn before', 'after'], rows),
    '',
    'Costs per world (every chunk baked in Node; memory = the baked splats on the host, 56 B each as SH degree 0):',
    '',
    markdownTable(['world', 'splats before', 'after', 'after / before', 'bake s before', 'after', 'MiB before', 'after'], costRows),
    '',
    `Images (before left, after right): ${imageNames.join(', ')}.`,
  ].join('\n');
  console.log(body);
  console.log(`\nimages in ${out}`);
  if (o.write) writeResultsSection('look', body);
});
