/**
 * The second scanned scene, scenes/street-corner.json (made with the scene editor by
 * test/make-street-scene.ts on a baked corner of world 1): its capture is rebaked when missing,
 * the annotation lies on the capture's ground, the expert drives its unit scenarios, and moving the
 * scene and its scenarios 10^5–10^6 m from the origin changes no episode beyond float rounding.
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
import { sceneSuite } from './scene-suite';
import { ensureSceneCapture, loadScenarioWorldNode, readRepoText, REPO_ROOT } from './scanned-scenes-node';
import { registerScene, scenarioWorld } from './scenario-world';
import type { Scenario } from '../sim/scenario';

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
    expect(cloud.count).toBe(141_825);
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

  it('gives the same episodes far from the origin: the scene and its scenarios moved by (431,250.5, 9,226,100.25) m', async () => {
    // UTM-scale offsets: every subsystem the expert's episode touches (world queries, routes, failure
    // monitor, ORCA pedestrians, the expert) runs in f64 and must not care where the scene sits.
    const [dx, dy] = [431_250.5, 9_226_100.25];
    const text = await readRepoText('scenes/street-corner.json');
    const far = JSON.parse(text);
    const move = (p: number[]) => [p[0] + dx, p[1] + dy];
    far.transform.translation = [far.transform.translation[0] + dx, far.transform.translation[1] + dy, far.transform.translation[2]];
    for (const k of ['sidewalk', 'crosswalk'] as const) for (const p of far.walkable[k]) p.outer = p.outer.map(move);
    for (const p of far.road) p.outer = p.outer.map(move);
    for (const o of far.obstacles) o.polygon = o.polygon.map(move);
    for (const pt of far.points) pt.position = move(pt.position);
    registerScene('scenes/street-corner-far.json', JSON.stringify(far));
    const unit = parseScenarios('unit.json', await readRepoText('scenes/suites/unit.json')).filter((s) => s.world.kind === 'scene' && s.world.path === 'scenes/street-corner.json');
    const reactive = parseScenarios('r.json', JSON.stringify(sceneSuiteScenarios()));
    for (const s of [...unit.slice(0, 3), ...reactive]) {
      const moved: Scenario = {
        ...s, world: { kind: 'scene', path: 'scenes/street-corner-far.json' },
        robot: { start: [s.robot.start[0] + dx, s.robot.start[1] + dy, s.robot.start[2]], goal: move(s.robot.goal) as [number, number], route: s.robot.route.map((p) => move(p) as [number, number]) },
        pedestrians: s.pedestrians.map((p) => movePedestrian(p, dx, dy)),
      };
      const run = async (sc: Scenario) => {
        const world = scenarioWorld(sc);
        return runEpisode(sc, 0, sc.seed, { world, pedestrians: new ScenarioPedestrians(sc.pedestrians, world.obstacles, sc.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
      };
      const [near, away] = [await run(s), await run(moved)];
      expect(away.end, s.id).toBe(near.end);
      expect(away.failures.map((f) => f.kind), s.id).toEqual(near.failures.map((f) => f.kind));
      expect(Math.abs(away.duration - near.duration), s.id).toBeLessThan(1e-9);
      expect(Math.abs(away.distance - near.distance), s.id).toBeLessThan(1e-6);
      expect(Math.abs(away.routeCompletion - near.routeCompletion), s.id).toBeLessThan(1e-6);
      const [, xn, yn] = near.trajectory[near.trajectory.length - 1];
      const [, xa, ya] = away.trajectory[away.trajectory.length - 1];
      expect(Math.hypot(xa - dx - xn, ya - dy - yn), s.id).toBeLessThan(1e-6);
    }
  });
});

/** Two reactive scenarios with pedestrians on the street-corner scene (the scene suite's generator). */
function sceneSuiteScenarios(): Scenario[] {
  const { scenarios } = sceneSuite({ path: 'scenes/street-corner.json', scene }, { seed: 0, perKind: 1, perBehaviour: 1, longCount: 0 });
  return scenarios.filter((s) => s.category === 'obstructing' || s.category === 'frontal');
}

/** A pedestrian spec moved by (dx, dy): spawn, route, and every point-valued parameter (flat point lists too). */
function movePedestrian(p: Scenario['pedestrians'][number], dx: number, dy: number): Scenario['pedestrians'][number] {
  const params: Record<string, number | string | number[]> = {};
  for (const [k, v] of Object.entries(p.params ?? {})) params[k] = Array.isArray(v) ? v.map((c, i) => c + (i % 2 ? dy : dx)) : v;
  return {
    ...p,
    spawn: [p.spawn[0] + dx, p.spawn[1] + dy],
    ...(p.route ? { route: p.route.map((q) => [q[0] + dx, q[1] + dy] as [number, number]) } : {}),
    ...(p.params ? { params } : {}),
  };
}
