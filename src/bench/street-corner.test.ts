/**
 * The second scanned scene, scenes/street-corner.json (made with the scene editor by
 * test/make-street-scene.ts on a baked corner of world 1): its capture is rebaked when missing,
 * the annotation lies on the capture's ground, and the expert drives its unit scenarios.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { parseScenarios } from '../sim/scenario';
import { loadSplatFile } from '../splats/formats';
import { loadScene, parseSceneFile, type SceneFile } from '../world/bake/scene-file';
import { runEpisode } from './episode';
import { ensureSceneCapture, loadScenarioWorldNode, readRepoText, REPO_ROOT } from './scanned-scenes-node';

const scene = parseSceneFile(readFileSync(resolve(REPO_ROOT, 'scenes/street-corner.json'), 'utf8'), 'scenes/street-corner.json');

describe('scenes/street-corner.json', { timeout: 120_000 }, () => {
  it('records how its capture is baked, and a missing capture is baked once, then reused', () => {
    expect(scene.source?.bake).toEqual({ world: 1, size: 150, shDegree: 0, crop: [-75, -62, -38, -18] });
    const scenePath = 'out/test-scenes/street-corner.json';
    const file = resolve(REPO_ROOT, 'out/test-scenes/captures/street-corner.ply');
    rmSync(file, { force: true });
    expect(ensureSceneCapture(scenePath, scene)).toBe('out/test-scenes/captures/street-corner.ply');
    expect(existsSync(file)).toBe(true);
    const mtime = statSync(file).mtimeMs;
    ensureSceneCapture(scenePath, scene);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const cloud = loadSplatFile(file, readFileSync(file));
    expect(cloud.count).toBe(52_376);
    expect(() => ensureSceneCapture(scenePath, { ...scene, capture: 'captures/none.ply', source: undefined } as SceneFile)).toThrow(/out\/test-scenes\/street-corner\.json: capture captures\/none\.ply .* does not exist/);
  });

  it('lies on the levelled capture: opaque ground splats under every walkable polygon, the annotation at z = 0', async () => {
    const path = ensureSceneCapture('scenes/street-corner.json', scene);
    const loaded = loadScene(scene, loadSplatFile(path, readFileSync(resolve(REPO_ROOT, path))), 'street-corner.json');
    for (const p of [...scene.walkable.sidewalk, ...scene.walkable.crosswalk]) {
      const xs = p.outer.map((v) => v[0]), ys = p.outer.map((v) => v[1]);
      const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
      const zs: number[] = [];
      for (let i = 0; i < loaded.cloud.count; i++) {
        if (loaded.cloud.opacities[i] < 0.5) continue;
        if (Math.hypot(loaded.cloud.positions[3 * i] - cx, loaded.cloud.positions[3 * i + 1] - cy) < 0.5) zs.push(loaded.cloud.positions[3 * i + 2]);
      }
      zs.sort((a, b) => a - b);
      expect(zs.length, `splats under (${cx}, ${cy})`).toBeGreaterThan(5);
      expect(Math.abs(zs[zs.length >> 1]), `ground under (${cx}, ${cy})`).toBeLessThan(0.25); // sidewalk paving 0.15 m above the road
    }
    expect(scene.obstacles.filter((o) => o.label === 'from the scan').length).toBeGreaterThan(10);
  });

  it('the expert drives its unit scenarios in the checked-in unit suite to the goal without a failure', async () => {
    const unit = parseScenarios('unit.json', await readRepoText('scenes/suites/unit.json')).filter((s) => s.world.kind === 'scene' && s.world.path === 'scenes/street-corner.json');
    expect(unit).toHaveLength(15);
    for (const s of unit.filter((_, i) => i % 3 === 0)) {
      const world = await loadScenarioWorldNode(s);
      const r = await runEpisode(s, 0, s.seed, { world, pedestrians: new ScenarioPedestrians([], world.obstacles, s.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
      expect(r.failures, s.id).toEqual([]);
      expect(r.end, s.id).toBe('goal');
    }
  });
});
