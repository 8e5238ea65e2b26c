/**
 * `npm run render -- --scene FILE --out OUT.png [options]`: renders one frame of a splat file in
 * headless Chromium (WebGPU) and writes a PNG. `--world SEED|SCENE.json` renders a view of a
 * procedural world (baked chunks in view, default camera on a sidewalk at robot height) or of a
 * scanned-scene file; with `--map`, the world's top-down map instead; `--time HH:MM` and `--weather`
 * draw a procedural world's view under those conditions (src/world/conditions.ts); `--pedestrian-at`
 * stands a pedestrian at a chosen spot. `--osm FILE` (with `--centre LAT,LON --world-size M` or `--bbox
 * W,S,E,N`) renders a real place from OpenStreetMap the same way. `--frames N` writes an orbit of N frames (`OUT-000.png` …),
 * turning the camera `--orbit DEG` per frame about its target, with one renderer for all of them.
 * Bad input exits 1 with a one-line error.
 */
import { Command } from 'commander';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { serveCapture } from './sog-parts';
import { DEFAULT_LOD_PIXEL_FRACTION } from '../splats/splat-lod';
import { SPATIAL_CELLS_MIN_SPLATS } from '../splats/splat-scene-buffers';
import { finiteNumber, nonNegative, nonNegativeInt, numberBetween, parseVec3, positiveInt } from './parse';
import { DEFAULT_ORBIT_DEG, frameLabel, frameOutputs, parsePedestrianAt, renderFrames } from './render-frames';
import type { PlacedPedestrian } from '../sensors/street-view';
import { renderWorldCli, type WorldCliOptions } from './render-world';
import { addOsmOptions, hasOsm, type OsmOptionValues } from './osm-option';
import { CLOCK_TIME, DEFAULT_CONDITIONS, WEATHERS, type Weather } from '../world/conditions';

export const program = addOsmOptions(new Command('render')
  .description('Render one frame of a Gaussian-splat capture (.ply, compressed .ply, .splat, .spz, glTF .glb / .gltf with KHR_gaussian_splatting, SOG .sog / meta.json / folder of SOG tiles) to a PNG.')
  .option('--scene <file|folder>', 'splat file, SOG meta.json, or a folder of SOG datasets (rendered as one scene)')
  .option('--world <seed|scene.json>', 'render a procedural world (integer seed) or a scanned-scene file instead of --scene; with --osm, the seed of what OSM leaves open (default 0)')
  .option('--map', 'with --world: render the top-down map instead of a view')
  .option('--pedestrians <n>', 'with --world SEED: draw N walking pedestrians on the sidewalks in view (0–1000; default 0)', nonNegativeInt(1000))
  .option('--pedestrian-at <x,y[,heading]>', 'with --world: stand a pedestrian at x,y (world frame, metres) facing heading (radians from +x; default: facing the camera); repeatable', parsePedestrianAt)
  .option('--frames <n>', 'write N frames OUT-000.png, OUT-001.png, … orbiting the camera about its target (one renderer for all)', positiveInt(100_000))
  .option('--orbit <deg>', `with --frames: degrees the camera turns about its target per frame, around the up direction (default ${DEFAULT_ORBIT_DEG}; negative turns the other way)`, finiteNumber)
  .option('--world-size <m>', 'with --world SEED: world side length in metres (150–2000); with --osm --centre, the side of the square selection (default 400)', positiveInt(2000))
  .option('--time <HH:MM>', 'with --world SEED: time of day (00:00–24:00; default 13:00 when --weather is given)')
  .option('--weather <clear|fog|rain>', `with --world SEED: weather (${WEATHERS.join(', ')}; default clear when --time is given)`)
  .option('--view-distance <m>', 'with --world SEED: chunks farther than this are not drawn (metres)', numberBetween(0, 5000))
  .requiredOption('--out <png>', 'output PNG path')
  .option('--width <px>', 'image width in pixels', positiveInt(8192), 320)
  .option('--height <px>', 'image height in pixels', positiveInt(8192), 240)
  .option('--eye <x,y,z>', 'camera position (scene frame, metres); default frames the scene bounds', parseVec3)
  .option('--target <x,y,z>', 'point looked at (scene frame); default: centre of the bounds', parseVec3)
  .option('--up <x,y,z>', 'up direction (scene frame); default 0,-1,0 (COLMAP/OpenCV captures are y-down)', parseVec3)
  .option('--fov-y <deg>', 'vertical field of view in degrees (default 50; 60 for --world SEED)', numberBetween(0, 180))
  .option('--min-alpha-mass <px2>', 'cull splats whose total α over the image is below this, px² (default 0: draw every splat reaching α = 1/255)', nonNegative)
  .option('--lod <fraction>', `level of detail for captures of ≥ 65,536 splats: merged splats where a voxel is at most this fraction of a pixel (default ${DEFAULT_LOD_PIXEL_FRACTION}; 0 draws every splat)`, nonNegative)
  .option('--headed', 'show the browser window')
  .option('--gpu', "use the machine's GPU instead of SwiftShader"));

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ scene?: string; world?: string; map?: boolean; pedestrians?: number; pedestrianAt?: PlacedPedestrian[]; frames?: number; orbit?: number; worldSize?: number; viewDistance?: number; out: string; width: number; height: number; eye?: [number, number, number]; target?: [number, number, number]; up?: [number, number, number]; fovY?: number; minAlphaMass?: number; lod?: number; headed?: boolean; gpu?: boolean; time?: string; weather?: string } & OsmOptionValues>();
  if (!o.out.toLowerCase().endsWith('.png')) throw new CliError(`--out ${o.out}: the output must be a .png file`);
  if (o.time !== undefined && !CLOCK_TIME.test(o.time)) throw new CliError(`--time ${o.time}: expected HH:MM between 00:00 and 24:00`);
  if (o.weather !== undefined && !(WEATHERS as readonly string[]).includes(o.weather)) throw new CliError(`--weather ${o.weather}: expected one of ${WEATHERS.join(', ')}`);
  if (o.orbit !== undefined && o.frames === undefined) throw new CliError('--orbit needs --frames N (the number of frames to write)');
  const orbit = o.orbit ?? DEFAULT_ORBIT_DEG;
  const conditions = o.time !== undefined || o.weather !== undefined
    ? { time: o.time ?? DEFAULT_CONDITIONS.time, weather: (o.weather ?? DEFAULT_CONDITIONS.weather) as Weather }
    : undefined;
  if (o.world !== undefined || hasOsm(o)) {
    if (o.scene) throw new CliError('--scene and --world: give one of them');
    if (o.minAlphaMass !== undefined) throw new CliError('--min-alpha-mass applies to --scene captures only');
    if (o.lod) throw new CliError('--lod applies to --scene captures only');
    return renderWorldCli({ ...o, orbit, conditions } as WorldCliOptions);
  }
  if (conditions) throw new CliError('--time and --weather apply to views of a procedural world (--world SEED)');
  if (o.pedestrianAt) throw new CliError('--pedestrian-at applies to views of a world (--world SEED|SCENE.json): a capture alone has no ground to stand on');
  if (!o.scene) throw new CliError("required option '--scene <file>' (or '--world <seed|scene.json>') not specified");
  if (o.map) throw new CliError('--map needs --world SEED|SCENE.json');
  const scene = o.scene;
  const started = performance.now();
  const outs = frameOutputs(o.out, o.frames);
  let splatCount = 0;
  await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    const file = await serveCapture(h, scene);
    if (file.sogParts) console.log(`${scene}: ${file.sogParts.length} SOG dataset(s)`);
    const opened = await h.call('openCaptureView', {
      fileUrl: file.url,
      fileName: file.name,
      sogParts: file.sogParts,
      width: o.width,
      height: o.height,
      fovYDeg: o.fovY ?? 50,
      eye: o.eye,
      target: o.target,
      up: o.up,
      minAlphaMass: o.minAlphaMass,
      lodPixelFraction: o.lod,
    });
    splatCount = opened.splatCount;
    await renderFrames(h, opened.session, outs, orbit, (r, out, i) => {
      const c = r.camera;
      if (r.coveredPixels === 0) {
        console.warn(
          `warning: ${out} is empty: no splat of ${scene} is in view of eye ${c.eye.join(',')} looking at ${c.target.join(',')} ` +
            `(up ${c.up.join(',')}); check --eye, --target and --up`,
        );
      }
      console.log(
        `${frameLabel(out, i, outs.length)}: ${r.width}×${r.height}, ${r.splatCount.toLocaleString('en')} splats, ` +
          `eye ${c.eye.map((v) => v.toFixed(3)).join(',')} target ${c.target.map((v) => v.toFixed(3)).join(',')}, ` +
          `${opened.adapter}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    });
  });
  if (o.lod && splatCount < SPATIAL_CELLS_MIN_SPLATS) console.log(`note: --lod has no effect on ${scene}: captures under ${SPATIAL_CELLS_MIN_SPLATS.toLocaleString('en')} splats have no spatial cells to draw coarse`);
});
