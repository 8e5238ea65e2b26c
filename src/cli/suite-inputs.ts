/**
 * Inputs shared by `npm run bench` and `npm run dataset`: the suite named on the command line, and
 * the scene files (and captures) of its scanned-scene worlds served to the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureSceneCapture, loadScenarioWorldNode } from '../bench/scanned-scenes-node';
import { worldKey } from '../bench/scenario-world';
import { selectionText } from '../world/osm/selection';
import type { BenchRequest } from '../bench/headless-api';
import { parseScenarios, type Scenario } from '../sim/scenario';
import { parseSceneFile, SceneFileError, sceneTransform } from '../world/bake/scene-file';
import { CliError } from '../core/user-error';

const ROOT = resolve(import.meta.dirname, '../..');
const SUITES_DIR = join(ROOT, 'scenes/suites');
export const NAMED_SUITES = ['smoke', 'unit', 'reactive', 'long', 'closure', 'train'] as const;

/** Loads a named suite (or all of them) or a scenario/suite file. */
export function loadSuite(name: string): Scenario[] {
  if (name === 'all') return (['unit', 'reactive', 'long'] as const).flatMap(loadSuite);
  const path = (NAMED_SUITES as readonly string[]).includes(name) ? join(SUITES_DIR, `${name}.json`) : resolve(name);
  if (!existsSync(path)) throw new CliError(`${name}: no such suite or scenario file (named suites: ${NAMED_SUITES.join(', ')}, all)`);
  return parseScenarios(path, readFileSync(path, 'utf8'));
}

/** Farthest a scene's capture may sit from the origin for camera-fed policies, metres. */
const FAR_SCENE_M = 20_000;

/**
 * Reads the scene files of the scanned-scene worlds among `scenarios` (paths relative to the
 * repository root) and, when a camera-fed policy runs, serves each scene's capture to the page.
 *
 * @throws CliError naming the scene file when it is missing or invalid, its capture is missing (and cannot be baked), or it sits
 *   over 20 km from the origin while a camera-fed policy runs.
 */
export async function serveScenes(serveFile: (path: string) => Promise<{ url: string }>, scenarios: readonly Scenario[], cameras: boolean): Promise<NonNullable<BenchRequest['scenes']>> {
  const scenes: NonNullable<BenchRequest['scenes']> = {};
  for (const s of scenarios) {
    if (s.world.kind !== 'scene' || s.world.path in scenes) continue;
    const file = resolve(ROOT, s.world.path);
    if (!existsSync(file)) throw new CliError(`${s.id}: world.path ${s.world.path}: no such scene file (paths are relative to ${ROOT})`);
    const text = readFileSync(file, 'utf8');
    let capture = '';
    try {
      const scene = parseSceneFile(text, s.world.path);
      if (cameras) {
        // Splats are float32 on the GPU: a capture placed 10^5 m out renders in ~1 cm (10^6 m: ~6 cm) steps.
        const [tx, ty] = sceneTransform(scene, s.world.path).translation;
        const far = Math.max(Math.abs(tx), Math.abs(ty));
        if (far > FAR_SCENE_M) throw new CliError(`${s.world.path}: its capture sits ${Math.round(far).toLocaleString('en')} m from the origin, where float32 splats lose precision; keep the scene local (the editor puts the origin on the capture) and record the offset in georeference.offset`);
        capture = (await serveFile(resolve(ROOT, ensureSceneCapture(s.world.path, scene)))).url;
      }
    } catch (e) {
      throw e instanceof SceneFileError ? new CliError(e.message) : e;
    }
    scenes[s.world.path] = { text, capture };
  }
  return scenes;
}


/**
 * Builds (in Node) the OSM worlds `scenarios` name, one line each on stderr, so a missing or changed
 * file is refused before anything runs and the report can draw their maps.
 *
 * @throws UserError naming the file when it is missing or its md5 is not the suite's.
 */
export async function prepareOsmWorlds(scenarios: readonly Scenario[]): Promise<void> {
  const seen = new Set<string>();
  for (const s of scenarios) {
    if (s.world.kind !== 'osm' || seen.has(worldKey(s.world))) continue;
    seen.add(worldKey(s.world));
    const t = performance.now();
    const { world } = await loadScenarioWorldNode(s);
    process.stderr.write(`${s.world.path} (${selectionText(s.world.selection)}): world of ${world.network.streets.length} streets, ${world.crosswalks.length} crosswalks (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
  }
}
