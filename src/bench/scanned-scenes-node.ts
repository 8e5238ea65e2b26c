/**
 * Node-side reading of the annotated scanned scenes and scenario worlds (fs; the page fetches the
 * same repository-relative paths instead): for `npm run suites` and the tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadSplatFile } from '../splats/formats';
import type { SplatCloud } from '../splats/splat-cloud';
import { parseSceneFile } from '../world/bake/scene-file';
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

/** Reads a repository-relative text file (the Node {@link ReadText}). */
export const readRepoText = (path: string): Promise<string> => readFile(resolve(REPO_ROOT, path), 'utf8');

/** The scenario's world, reading a scene file from disk when needed. */
export function loadScenarioWorldNode(s: Scenario): Promise<ScenarioWorld> {
  return loadScenarioWorld(s, readRepoText);
}

/** The capture splats (capture frame, as loadSplatFile gives them) of a scene world's scene. */
export async function readCapture(world: ScenarioWorld, scenePath: string): Promise<SplatCloud> {
  if (!world.scene) throw new Error(`${scenePath}: not a scene world`);
  const path = sceneCapturePath(scenePath, world.scene);
  return loadSplatFile(path, new Uint8Array(await readFile(resolve(REPO_ROOT, path))));
}
