import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import type { PinholeCamera } from '../gpu/camera';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { isWalkable } from '../world/queries';
import { runEpisode } from './episode';
import { parseScenarios, type Scenario } from '../sim/scenario';
import { concatClouds, scenarioBackground } from './scenario-background';
import { orangeSplatsNear } from '../../test/fence-splats';
import { loadScenarioWorldNode, readCapture, readRepoText } from './scanned-scenes-node';
import { registerScene, scenarioWorld, sceneCapturePath } from './scenario-world';
import { allocateSplatCloud } from '../splats/splat-cloud';

const load = (name: string): Scenario[] => {
  const path = resolve(import.meta.dirname, `../../scenes/suites/${name}.json`);
  return parseScenarios(path, readFileSync(path, 'utf8'));
};
const lengthOf = (r: [number, number][]) => r.slice(1).reduce((a, p, i) => a + Math.hypot(p[0] - r[i][0], p[1] - r[i][1]), 0);
const camera = (eye: [number, number, number], target: [number, number, number]): PinholeCamera => ({ eye, target, up: [0, 0, 1], fovYDeg: 60, width: 64, height: 48, near: 0.05, far: 200 });

describe('scanned-scene unit scenarios', () => {
  const scanned = load('unit').filter((s) => s.category === 'scanned');

  it('the shipped scenes are bundled: their worlds load synchronously, with no reader', () => {
    const w = scenarioWorld(scanned[0]);
    expect(w.scene?.name).toBe('fruit-drops');
    expect(scenarioWorld(scanned[1]).scene?.name).toBe('street-corner');
    expect(w.isWalkable(0, 2.5)).toBe(true);
  });

  it('30 on the two scanned scenes: 10 straight, 10 turn, 10 crossing, alternating; 10–20 m; start, goal and route on walkable ground', async () => {
    expect(scanned).toHaveLength(30);
    for (const kind of ['straight', 'turn', 'crossing']) {
      const ofKind = scanned.filter((s) => s.id.includes(`/${kind}/`));
      expect(ofKind).toHaveLength(10);
      for (const path of ['scenes/fruit-drops.json', 'scenes/street-corner.json']) expect(ofKind.filter((s) => s.world.kind === 'scene' && s.world.path === path)).toHaveLength(5);
    }
    for (const s of scanned) {
      expect(['scenes/fruit-drops.json', 'scenes/street-corner.json']).toContain(s.world.kind === 'scene' ? s.world.path : '');
      const w = await loadScenarioWorldNode(s);
      const len = lengthOf(s.robot.route);
      expect(len, s.id).toBeGreaterThanOrEqual(10 - 1e-3);
      expect(len, s.id).toBeLessThanOrEqual(20 + 1e-3);
      expect(s.timeLimit).toBe(60);
      expect(s.onFailure).toBe('terminate');
      for (const [x, y] of [...s.robot.route, s.robot.start, s.robot.goal]) expect(w.isWalkable(x, y), `${s.id} ${x},${y}`).toBe(true);
    }
  });

  it('the scene world has the annotation: walkable sidewalk and crosswalk, the sign as an obstacle, none of the road', async () => {
    const w = await loadScenarioWorldNode(scanned[0]);
    expect(w.scene?.name).toBe('fruit-drops');
    expect(w.isWalkable(0, 2.5)).toBe(true); // sidewalk
    expect(w.isWalkable(7.75, 8)).toBe(true); // crosswalk
    expect(w.isWalkable(0, 0)).toBe(false); // the sign, off the sidewalk
    expect(w.isWalkable(0, 6)).toBe(false);
    expect(w.obstacles).toEqual([[[-1.15, -0.6], [1.15, -0.6], [1.15, 0.6], [-1.15, 0.6]]]);
    expect(w.walkableEdges.length).toBeGreaterThanOrEqual(8);
    expect(isWalkable(w.world, 9, 3)).toBe(true);
    // The synchronous form works once the scene is registered; a re-registration replaces it.
    expect(scenarioWorld(scanned[0])).toBe(w);
    registerScene('scenes/fruit-drops.json', await readRepoText('scenes/fruit-drops.json'));
    expect(scenarioWorld(scanned[0])).not.toBe(w);
    expect(() => scenarioWorld({ ...scanned[0], world: { kind: 'scene', path: 'scenes/nope.json' } })).toThrow(/scenes\/nope\.json is not loaded/);
    expect(sceneCapturePath('scenes/fruit-drops.json', w.scene!)).toBe('../shared/data/splats/fruit_drops_minimal.ply');
  });

  it('the expert drives a scanned turn scenario to its goal without a failure', async () => {
    const s = load('smoke').find((x) => x.category === 'scanned')!;
    const world = await loadScenarioWorldNode(s);
    const r = await runEpisode(s, 0, s.seed, { world, pedestrians: new ScenarioPedestrians([], world.obstacles, s.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
    expect(r.failures).toEqual([]);
    expect(r.end).toBe('goal');
  });
});

describe('scenarioBackground', () => {
  it('concatClouds keeps the highest SH degree, zero-filling the bands a cloud lacks', () => {
    const a = allocateSplatCloud(2, 1), b = allocateSplatCloud(1, 0);
    a.shRest.fill(0.5);
    a.positions.set([1, 2, 3, 4, 5, 6]);
    b.positions.set([7, 8, 9]);
    const out = allocateSplatCloud(8, 1);
    out.shRest.fill(9);
    const c = concatClouds([a, b], out);
    expect(c.count).toBe(3);
    expect(c.shDegree).toBe(1);
    expect(Array.from(c.positions)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Array.from(c.shRest)).toEqual([...Array(18).fill(0.5), ...Array(9).fill(0)]);
    expect(c.shRest.buffer).toBe(out.shRest.buffer);
  });

  it('scene worlds: the capture placed in the world frame, changed on the first view only', async () => {
    const s = load('smoke').find((x) => x.category === 'scanned')!;
    const world = await loadScenarioWorldNode(s);
    expect(() => scenarioBackground(s, world)).toThrow(/capture/);
    const capture = await readCapture(world, 'scenes/fruit-drops.json');
    const bg = scenarioBackground(s, world, { capture });
    const cam = camera([0.3, 3.2, 0.95], [0, 0, 0.55]);
    const a = bg.view(cam);
    expect(a.changed).toBe(true);
    expect(a.cloud.count).toBe(capture.count);
    // The sign (the capture's subject) stands near the world origin after the scene's transform.
    let near = 0;
    for (let i = 0; i < a.cloud.count; i++) if (Math.hypot(a.cloud.positions[3 * i], a.cloud.positions[3 * i + 1]) < 2) near++;
    expect(near).toBeGreaterThan(a.cloud.count / 4);
    expect(bg.view(cam).changed).toBe(false);
  });

  it('procedural worlds with blockers: fence splats at the blockers, only when in view; unchanged views report changed = false', () => {
    const s = load('smoke').find((x) => x.category === 'long')!;
    const world = scenarioWorld(s);
    const bg = scenarioBackground(s, world);
    const fence = s.blockers![0].polygon;
    const [cx, cy] = [fence.reduce((a, p) => a + p[0], 0) / fence.length, fence.reduce((a, p) => a + p[1], 0) / fence.length];
    const cam = camera([cx + 5, cy, 1], [cx, cy, 0.5]);
    const orange = (c: { count: number; positions: Float32Array; shDc: Float32Array }) => orangeSplatsNear(c, cx, cy, 5);
    const a = bg.view(cam, { viewDistance: 30 });
    expect(a.changed).toBe(true);
    expect(orange(a.cloud)).toBeGreaterThan(100);
    expect(bg.view(cam, { viewDistance: 30 }).changed).toBe(false);
    // Without the blockers (the same world, plain ChunkedWorld) there is no fence there.
    const plain = scenarioBackground({ ...s, blockers: undefined }, scenarioWorld({ ...s, blockers: undefined })).view(cam, { viewDistance: 30 });
    expect(orange(plain.cloud)).toBe(0);
    expect(a.cloud.count).toBeGreaterThan(plain.cloud.count);
    // Far away (fences out of the view distance): the base cloud alone, and changed.
    const far = bg.view(camera([cx + 500, cy, 1], [cx + 505, cy, 0.5]), { viewDistance: 10 });
    expect(far.changed).toBe(true);
    expect(orange(far.cloud)).toBe(0);
  }, 60_000);
});
