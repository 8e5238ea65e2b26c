import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { UserError } from '../core/user-error';
import { parseSceneFile, sceneWorld } from '../world/bake/scene-file';
import { isClearGround } from '../world/grid-route';
import { densify, polylineLength } from '../world/polyline';
import { isWalkable } from '../world/queries';
import { parseScenarios } from '../sim/scenario';
import { CUSTOM_ROUTE_CLEARANCE } from './custom-scenario';
import { readScannedScenes } from './scanned-scenes-node';
import { SCENE_BEHAVIOURS, sceneSuite } from './scene-suite';

const fruit = readScannedScenes().find((s) => s.path === 'scenes/fruit-drops.json')!;

/** An L of 4 m-wide sidewalks, 130 m and 80 m long, with a crosswalk-free corner: routes over 100 m fit. */
const longScene = {
  path: 'scenes/test-long.json',
  scene: parseSceneFile(JSON.stringify({
    format: 'curbside-scene', version: 1, name: 'test-long', capture: 'none.ply', transform: { scale: 1, rotation: [1, 0, 0, 0], translation: [0, 0, 0] }, groundHeight: 0, bounds: [-5, -5, 135, 85],
    walkable: {
      sidewalk: [{ outer: [[0, 0], [130, 0], [130, 4], [0, 4]], holes: [] }, { outer: [[126, 4], [130, 4], [130, 80], [126, 80]], holes: [] }],
      crosswalk: [],
    },
    obstacles: [{ kind: 'bench', polygon: [[60, 0.2], [62, 0.2], [62, 0.8], [60, 0.8]], height: 0.5 }],
  }), 'test-long.json'),
};

describe('sceneSuite', () => {
  it('makes unit and reactive scenarios on the shipped scene, deterministically, each valid and on walkable ground', { timeout: 60_000 }, () => {
    const a = sceneSuite(fruit, { seed: 3 });
    expect(JSON.stringify(sceneSuite(fruit, { seed: 3 }))).toBe(JSON.stringify(a));
    expect(JSON.stringify(sceneSuite(fruit, { seed: 4 }).scenarios)).not.toBe(JSON.stringify(a.scenarios));
    const by = (suite: string) => a.scenarios.filter((s) => s.suite === suite);
    expect(by('unit')).toHaveLength(30);
    expect(by('reactive')).toHaveLength(10 * SCENE_BEHAVIOURS.length);
    expect(new Set(by('reactive').map((s) => s.category))).toEqual(new Set(SCENE_BEHAVIOURS));
    expect(by('long')).toHaveLength(0);
    expect(a.notes).toContain('scenes/fruit-drops.json: 0 of 5 long-horizon routes (the walkable network has no route over 100 m)');
    expect(a.notes.some((n) => n.includes('ped-crossing left out'))).toBe(true);
    // The file parses as a suite (unique ids, schema) and every route stays on walkable ground.
    expect(parseScenarios('suite', JSON.stringify({ scenarios: a.scenarios }))).toHaveLength(a.scenarios.length);
    const world = sceneWorld(fruit.scene);
    for (const s of a.scenarios) {
      expect(s.world).toEqual({ kind: 'scene', path: 'scenes/fruit-drops.json' });
      for (const [x, y] of densify(s.robot.route as Vec2[], 0.25)) expect(isWalkable(world, x, y), s.id).toBe(true);
      for (const p of s.pedestrians) expect(isWalkable(world, p.spawn[0], p.spawn[1]), s.id).toBe(true);
    }
  });

  it('adds long-horizon routes over 100 m where the walkable area allows them, clear of edges and obstacles', () => {
    const { scenarios, notes } = sceneSuite(longScene, { seed: 1, perKind: 2, perBehaviour: 1 });
    const long = scenarios.filter((s) => s.suite === 'long');
    expect(long).toHaveLength(5);
    expect(notes.some((n) => n.includes('long-horizon'))).toBe(false);
    const world = sceneWorld(longScene.scene);
    for (const s of long) {
      const route = s.robot.route as Vec2[];
      expect(polylineLength(route)).toBeGreaterThan(100);
      expect(s.onFailure).toBe('reset-to-waypoint');
      for (const p of densify(route, 0.25)) expect(isClearGround(world, p, CUSTOM_ROUTE_CLEARANCE - 1e-3)).toBe(true);
    }
  });

  it('refuses a scene with no sidewalk a unit route fits on, naming the file', () => {
    const tiny = { path: 'scenes/tiny.json', scene: parseSceneFile(JSON.stringify({ format: 'curbside-scene', version: 1, name: 'tiny', capture: 'none.ply', transform: { scale: 1, rotation: [1, 0, 0, 0], translation: [0, 0, 0] }, groundHeight: 0, walkable: { sidewalk: [{ outer: [[0, 0], [5, 0], [5, 2], [0, 2]], holes: [] }], crosswalk: [] }, obstacles: [] }), 'tiny.json') };
    expect(() => sceneSuite(tiny)).toThrow(UserError);
    expect(() => sceneSuite(tiny)).toThrow(/^scenes\/tiny\.json: no unit route of 10–20 m fits the scene/);
  });
});
