/**
 * Node side of `npm run render -- --world SEED|SCENE.json [--map]` and `--osm FILE` (called by
 * `src/cli/render.ts`): resolves the world argument (a real place is built here, then sent to the
 * page as its extract), drives the headless page (`openWorldView` or `openSceneView`, then
 * `renderViewFrame` per frame; `renderWorldMapImage`, `renderSceneMapImage`) and writes the PNGs.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import type { Vec3 } from '../gpu/camera';
import type { ViewOpened } from '../sensors/headless-api';
import type { PlacedPedestrian } from '../sensors/street-view';
import { parseSceneFile } from '../world/bake/scene-file';
import type { Conditions } from '../world/conditions';
import { renderWorldMap } from '../world/map-render';
import { toBase64 } from '../core/bytes';
import { frameLabel, frameOutputs, renderFrames, writePng } from './render-frames';
import { hasOsm, osmRefOfWorld, osmWorldRefFromOptions, pageWorldOf, type OsmOptionValues } from './osm-option';
import { osmWorldLabel } from '../world/osm/world-ref';

/** Options of {@link renderWorldCli} (the parsed command line). */
export interface WorldCliOptions extends OsmOptionValues {
  /** An integer seed, or a path to a scene file ending in `.json`; with `osm`, the seed of what OSM leaves open (optional). */
  world?: string;
  map?: boolean;
  /** Side of a procedural world, or of a real place's `--centre` selection (default 400), metres. */
  worldSize?: number;
  viewDistance?: number;
  /** With a procedural world or a real place: walking pedestrians drawn on the sidewalks in view. */
  pedestrians?: number;
  /** Standing pedestrians at chosen spots (world frame), drawn by the robot camera. */
  pedestrianAt?: PlacedPedestrian[];
  /** Frames of an orbit (`OUT-000.png` …); undefined: one frame written to `out`. */
  frames?: number;
  /** Degrees the camera turns about its target per frame. */
  orbit?: number;
  /** With a procedural world's view: time of day and weather (the robot camera's look). */
  conditions?: Conditions;
  out: string;
  width: number;
  height: number;
  eye?: Vec3;
  target?: Vec3;
  up?: Vec3;
  fovY?: number;
  headed?: boolean;
  gpu?: boolean;
}

/**
 * Renders a view (or the map) of a procedural world, a real place or a scene file to `o.out`.
 *
 * @throws CliError when `--world` is neither an integer nor a readable `.json` file (with `--osm`:
 *   not an integer), when the scene file is invalid (`file: field: problem`), or when the page
 *   reports an error; OsmError naming the OSM file for a bad file or selection.
 */
export async function renderWorldCli(o: WorldCliOptions): Promise<void> {
  const started = performance.now();
  const osm = hasOsm(o);
  const isScene = !osm && /\.json$/i.test(o.world ?? '');
  const seed = Number(o.world ?? 0);
  if (!isScene && !(Number.isInteger(seed) && (!osm || seed >= 0))) throw new CliError(`--world ${o.world}: expected an integer seed${osm ? ' (with --osm, the seed of what OSM leaves open)' : ' or a scene file ending in .json'}`);
  if (o.conditions && (isScene || o.map)) throw new CliError(`--time and --weather apply to views of a procedural world (--world SEED), not to ${o.map ? '--map' : 'scene files'}`);
  if (o.map && o.frames !== undefined) throw new CliError('--frames and --orbit apply to views, not to --map');
  if (o.map && o.pedestrianAt) throw new CliError('--pedestrian-at applies to views, not to --map');
  const real = osm ? osmWorldRefFromOptions(o, o.worldSize ?? 400, seed).world : null;
  const label = real ? osmWorldLabel(osmRefOfWorld(real)!) : (o.world as string);
  let sceneText = '';
  let capturePath = '';
  if (isScene) {
    try {
      sceneText = await readFile(label, 'utf8');
    } catch {
      throw new CliError(`${label}: no such file`);
    }
    try {
      const scene = parseSceneFile(sceneText, label);
      capturePath = resolve(dirname(label), scene.capture);
    } catch (e) {
      throw new CliError((e as Error).message);
    }
  }
  const cam = { width: o.width, height: o.height, fovYDeg: o.fovY, eye: o.eye, target: o.target, up: o.up, pedestrianAt: o.pedestrianAt };
  const outs = frameOutputs(o.out, o.frames);
  if (real && o.map) {
    // A real place's map needs no browser: the world is already built here.
    const img = renderWorldMap(real, { widthPx: o.width, heightPx: o.height });
    await writePng(o.out, img.width, img.height, toBase64(img.data));
    console.log(`${o.out}: map of ${label}, ${img.width}×${img.height}, ${img.metresPerPixel.toFixed(3)} m/px, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    if (o.map) {
      const size = { widthPx: o.width, heightPx: o.height };
      const r = isScene
        ? await h.call('renderSceneMapImage', { sceneText, sceneName: label, ...size })
        : await h.call('renderWorldMapImage', { seed, worldSize: o.worldSize, ...size });
      await writePng(o.out, r.width, r.height, r.rgbaBase64);
      console.log(`${o.out}: map of ${label}, ${r.width}×${r.height}, ${r.metresPerPixel.toFixed(3)} m/px, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
    let opened: ViewOpened;
    if (isScene) {
      const file = await h.serveFile(capturePath);
      opened = await h.call('openSceneView', { sceneText, sceneName: label, captureUrl: file.url, captureName: file.name, ...cam });
    } else if (real) {
      opened = await h.call('openWorldView', { ...(await pageWorldOf(real)), viewDistance: o.viewDistance, pedestrians: o.pedestrians, conditions: o.conditions, ...cam });
    } else {
      opened = await h.call('openWorldView', { seed, worldSize: o.worldSize, viewDistance: o.viewDistance, pedestrians: o.pedestrians, conditions: o.conditions, ...cam });
    }
    const when = o.conditions ? `${o.conditions.time} ${o.conditions.weather}, ` : '';
    const peds = opened.pedestrians > 0 ? `${opened.pedestrians} pedestrian${opened.pedestrians === 1 ? '' : 's'}, ` : '';
    await renderFrames(h, opened.session, outs, o.orbit ?? 0, (r, out, i) => {
      const c = r.camera;
      console.log(
        `${frameLabel(out, i, outs.length)}: ${when}${r.width}×${r.height}, ${r.splatCount.toLocaleString('en')} splats in ${r.chunkCount}/${opened.totalChunks} chunks, ${peds}` +
          `eye ${c.eye.map((v) => v.toFixed(2)).join(',')} target ${c.target.map((v) => v.toFixed(2)).join(',')}, ` +
          (i === 0 ? `bake ${(opened.bakeMs / 1000).toFixed(1)} s, ` : '') +
          `render ${(r.renderMs / 1000).toFixed(1)} s, ${opened.adapter}, ${((performance.now() - started) / 1000).toFixed(1)} s total`,
      );
    });
  });
}
