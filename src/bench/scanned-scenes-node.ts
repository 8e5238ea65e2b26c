/**
 * Node-side reading of the annotated scanned scenes and scenario worlds (fs; the page fetches the
 * same repository-relative paths instead): for `npm run suites` and the tests.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { UserError } from '../core/user-error';
import { loadSplatFile } from '../splats/formats';
import type { SplatCloud } from '../splats/splat-cloud';
import { writePly } from '../splats/formats/ply-writer';
import { bakeWorldCloud } from '../world/bake/bake-world';
import { parseSceneFile, type SceneFile } from '../world/bake/scene-file';
import type { ScannedScene } from './scanned-suites';
import type { Scenario } from '../sim/scenario';
import { loadScenarioWorld, sceneCapturePath, type ScenarioWorld } from './scenario-world';

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Every scene file directly in `scenes/` (`*.json` with format `curbside-scene`), sorted by name. */
export function readScannedScenes(root = REPO_ROOT): ScannedScene[] {
  return readdirSync(resolve(root, 'scenes'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const path = `scenes/${f}`;
      const text = readFileSync(resolve(root, path), 'utf8');
      return (JSON.parse(text) as { format?: unknown }).format === 'curbside-scene' ? [{ path, scene: parseSceneFile(text, path) }] : [];
    });
}

/**
 * The scene file a command-line argument names, with the path scenarios record for it: relative to
 * the repository root when inside it, else absolute.
 *
 * @throws UserError `unreadable` when the file cannot be read; SceneFileError when it is not a valid scene.
 */
export function readSceneFileArg(arg: string, unreadable: string): ScannedScene {
  const file = resolve(arg);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a scene file' : (e as Error).message;
    throw new UserError(`${unreadable} (${why})`);
  }
  const rel = relative(REPO_ROOT, file);
  return { path: rel.startsWith('..') ? file : rel, scene: parseSceneFile(text, arg) };
}

/** Reads a repository-relative text file (the Node {@link ReadText}). */
export const readRepoText = (path: string): Promise<string> => readFile(resolve(REPO_ROOT, path), 'utf8');

/** The scenario's world, reading a scene file or an OSM file (md5 checked) from disk when needed. */
export async function loadScenarioWorldNode(s: Scenario): Promise<ScenarioWorld> {
  const { readOsmWorldData } = await import('./osm-worlds-node');
  return loadScenarioWorld(s, readRepoText, readOsmWorldData);
}

/**
 * The repository-relative path of a scene's capture, baking it first when it is missing and the
 * scene says how (`source.bake`: the same splats `npm run bake` writes with those options; a
 * line on stderr says so).
 *
 * @throws UserError naming the scene and the capture when the capture is missing and cannot be baked.
 */
export function ensureSceneCapture(scenePath: string, scene: SceneFile): string {
  const path = sceneCapturePath(scenePath, scene);
  const file = resolve(REPO_ROOT, path);
  if (existsSync(file)) return path;
  const bake = scene.source?.bake;
  if (!bake) throw new UserError(`${scenePath}: capture ${scene.capture} (${path}) does not exist`);
  const t0 = performance.now();
  const cloud = bakeWorldCloud(bake);
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  try {
    writePly(cloud, (b) => void writeSync(fd, b));
  } finally {
    closeSync(fd);
  }
  process.stderr.write(`${scenePath}: baked its capture ${path} (world ${bake.world}, ${bake.size} m${bake.crop ? `, crop ${bake.crop.join(',')}` : ''}: ${cloud.count.toLocaleString('en')} splats, ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  return path;
}

/** The capture splats (capture frame, as loadSplatFile gives them) of a scene world's scene (baked first when missing, see {@link ensureSceneCapture}). */
export async function readCapture(world: ScenarioWorld, scenePath: string): Promise<SplatCloud> {
  if (!world.scene) throw new Error(`${scenePath}: not a scene world`);
  const path = ensureSceneCapture(scenePath, world.scene);
  return loadSplatFile(path, new Uint8Array(await readFile(resolve(REPO_ROOT, path))));
}
