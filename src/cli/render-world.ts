/**
 * Node side of `npm run render -- --world SEED|SCENE.json [--map]` (called by `src/cli/render.ts`):
 * resolves the world argument, drives the headless page (`renderWorldView`, `renderSceneView`,
 * `renderWorldMapImage`, `renderSceneMapImage`) and writes the PNG.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import type { Vec3 } from '../gpu/camera';
import { parseSceneFile } from '../world/bake/scene-file';
import type { Conditions } from '../world/conditions';

/** Options of {@link renderWorldCli} (the parsed command line). */
export interface WorldCliOptions {
  /** An integer seed, or a path to a scene file ending in `.json`. */
  world: string;
  map?: boolean;
  worldSize?: number;
  viewDistance?: number;
  /** With a procedural world: walking pedestrians drawn on the sidewalks in view. */
  pedestrians?: number;
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

async function writePng(out: string, width: number, height: number, rgbaBase64: string): Promise<void> {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgbaBase64, 'base64');
  for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, PNG.sync.write(png));
}

/**
 * Renders a view (or the map) of a procedural world or a scene file to `o.out`.
 *
 * @throws CliError when `--world` is neither an integer nor a readable `.json` file, when the
 *   scene file is invalid (`file: field: problem`), or when the page reports an error.
 */
export async function renderWorldCli(o: WorldCliOptions): Promise<void> {
  const started = performance.now();
  const isScene = /\.json$/i.test(o.world);
  const seed = Number(o.world);
  if (!isScene && !Number.isInteger(seed)) throw new CliError(`--world ${o.world}: expected an integer seed or a scene file ending in .json`);
  if (o.conditions && (isScene || o.map)) throw new CliError(`--time and --weather apply to views of a procedural world (--world SEED), not to ${o.map ? '--map' : 'scene files'}`);
  let sceneText = '';
  let capturePath = '';
  if (isScene) {
    try {
      sceneText = await readFile(o.world, 'utf8');
    } catch {
      throw new CliError(`${o.world}: no such file`);
    }
    try {
      const scene = parseSceneFile(sceneText, o.world);
      capturePath = resolve(dirname(o.world), scene.capture);
    } catch (e) {
      throw new CliError((e as Error).message);
    }
  }
  const cam = { width: o.width, height: o.height, fovYDeg: o.fovY, eye: o.eye, target: o.target, up: o.up };
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
    if (o.map) {
      const size = { widthPx: o.width, heightPx: o.height };
      return isScene
        ? { kind: 'map' as const, r: await h.call('renderSceneMapImage', { sceneText, sceneName: o.world, ...size }) }
        : { kind: 'map' as const, r: await h.call('renderWorldMapImage', { seed, worldSize: o.worldSize, ...size }) };
    }
    if (isScene) {
      const file = await h.serveFile(capturePath);
      return { kind: 'view' as const, r: await h.call('renderSceneView', { sceneText, sceneName: o.world, captureUrl: file.url, captureName: file.name, ...cam }) };
    }
    return { kind: 'view' as const, r: await h.call('renderWorldView', { seed, worldSize: o.worldSize, viewDistance: o.viewDistance, pedestrians: o.pedestrians, conditions: o.conditions, ...cam }) };
  });
  await writePng(o.out, result.r.width, result.r.height, result.r.rgbaBase64);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (result.kind === 'map') {
    console.log(`${o.out}: map of ${o.world}, ${result.r.width}×${result.r.height}, ${result.r.metresPerPixel.toFixed(3)} m/px, ${secs} s`);
    return;
  }
  const r = result.r;
  const c = r.camera;
  const when = o.conditions ? `${o.conditions.time} ${o.conditions.weather}, ` : '';
  console.log(
    `${o.out}: ${when}${r.width}×${r.height}, ${r.splatCount.toLocaleString('en')} splats in ${r.chunkCount}/${r.totalChunks} chunks, ` +
      `eye ${c.eye.map((v) => v.toFixed(2)).join(',')} target ${c.target.map((v) => v.toFixed(2)).join(',')}, ` +
      `bake ${(r.bakeMs / 1000).toFixed(1)} s, render ${(r.renderMs / 1000).toFixed(1)} s, ${r.adapter}, ${secs} s total`,
  );
}
