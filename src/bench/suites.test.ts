import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWalkable } from '../world/queries';
import { parseScenarios, type Scenario } from '../sim/scenario';
import { loadScenarioWorldNode, readScannedScenes } from './scanned-scenes-node';
import { smokeSuite } from './suites';

const load = (name: string): Scenario[] => {
  const path = resolve(import.meta.dirname, `../../scenes/suites/${name}.json`);
  return parseScenarios(path, readFileSync(path, 'utf8'));
};
const count = (s: Scenario[], key: (x: Scenario) => string) => {
  const m: Record<string, number> = {};
  for (const x of s) m[key(x)] = (m[key(x)] ?? 0) + 1;
  return m;
};

describe('checked-in suites', () => {
  it('unit: 100 straight, 100 curve, 100 crosswalk (procedural) and 30 scanned, with 10–20 m routes, 60 s, terminate on failure', () => {
    const unit = load('unit');
    expect(unit).toHaveLength(330);
    expect(count(unit, (s) => s.category)).toEqual({ straight: 100, curve: 100, crosswalk: 100, scanned: 30 });
    expect(unit.filter((s) => s.world.kind === 'scene').map((s) => s.category)).toEqual(Array(30).fill('scanned'));
    for (const s of unit) {
      const len = s.robot.route.slice(1).reduce((a, p, i) => a + Math.hypot(p[0] - s.robot.route[i][0], p[1] - s.robot.route[i][1]), 0);
      expect(len).toBeGreaterThanOrEqual(10 - 1e-3);
      expect(len).toBeLessThanOrEqual(20 + 1e-3);
      expect(s.timeLimit).toBe(60);
      expect(s.onFailure).toBe('terminate');
    }
  });

  it('reactive: 100 per behaviour plus Static; Gesturing succeeds by stopping', () => {
    const reactive = load('reactive');
    const c = count(reactive, (s) => s.category);
    expect(Object.keys(c).sort()).toEqual(['conversing', 'frontal', 'gesturing', 'lateral', 'obstructing', 'overtaking', 'ped-crossing', 'queuing', 'static']);
    expect(Object.values(c).every((n) => n === 100)).toBe(true);
    expect(reactive.filter((s) => s.category === 'gesturing').every((s) => s.success.kind === 'stop-before')).toBe(true);
    expect(reactive.filter((s) => s.category === 'static').every((s) => s.pedestrians.length === 0)).toBe(true);
    expect(reactive.filter((s) => s.category === 'conversing').every((s) => s.pedestrians.length >= 2)).toBe(true);
  });

  it('long: 100 procedural routes over 100 m with their alternatives fenced, that reset on failure (no scanned scene is large enough); the last 5 of 400–1000 m on a 2 km world', () => {
    const long = load('long');
    expect(long).toHaveLength(100);
    expect(long.slice(95).map((s) => s.world)).toEqual(Array(5).fill({ kind: 'procedural', seed: 9, size: 2000 }));
    expect(long.slice(0, 95).every((s) => s.world.kind === 'procedural' && s.world.size === undefined)).toBe(true);
    for (const s of long.slice(95)) {
      const len = s.robot.route.slice(1).reduce((a, p, i) => a + Math.hypot(p[0] - s.robot.route[i][0], p[1] - s.robot.route[i][1]), 0);
      expect(len).toBeGreaterThanOrEqual(400);
      expect(len).toBeLessThanOrEqual(1000);
    }
    for (const s of long) {
      expect(s.world.kind).toBe('procedural');
      expect(s.blockers?.length).toBeGreaterThan(0);
      const len = s.robot.route.slice(1).reduce((a, p, i) => a + Math.hypot(p[0] - s.robot.route[i][0], p[1] - s.robot.route[i][1]), 0);
      expect(len).toBeGreaterThan(100);
      expect(s.onFailure).toBe('reset-to-waypoint');
    }
  });

  it('train: the unit and reactive categories, no route repeats an evaluation one, ids of their own', () => {
    const train = load('train');
    const c = count(train, (s) => s.category);
    expect(Object.keys(c).sort()).toEqual(['conversing', 'crosswalk', 'curve', 'frontal', 'gesturing', 'lateral', 'obstructing', 'overtaking', 'ped-crossing', 'queuing', 'scanned', 'static', 'straight']);
    expect(train.length).toBeGreaterThan(200);
    expect(train.every((s) => s.suite === 'train' && s.id.startsWith('train/'))).toBe(true);
    const evaluation = [...load('unit'), ...load('reactive')];
    for (const s of train) {
      const same = evaluation.find((e) => JSON.stringify(e.world) === JSON.stringify(s.world) && Math.hypot(e.robot.start[0] - s.robot.start[0], e.robot.start[1] - s.robot.start[1]) < 1 && Math.hypot(e.robot.goal[0] - s.robot.goal[0], e.robot.goal[1] - s.robot.goal[1]) < 1);
      expect(same?.id, `${s.id} repeats an evaluation route`).toBeUndefined();
    }
  });

  it('smoke matches a fresh generation byte for byte (suites are deterministic and up to date)', () => {
    const path = resolve(import.meta.dirname, '../../scenes/suites/smoke.json');
    const fresh = JSON.parse(JSON.stringify(smokeSuite(readScannedScenes())));
    expect(JSON.parse(readFileSync(path, 'utf8')).scenarios).toEqual(fresh);
    expect(count(fresh, (s) => s.category)).toEqual({ straight: 1, curve: 1, crosswalk: 1, scanned: 1, static: 1, obstructing: 1, conversing: 1, queuing: 1, frontal: 1, lateral: 1, overtaking: 1, 'ped-crossing': 1, gesturing: 1, long: 1 });
  }, 60_000); // generates several 400 m worlds

  it('every smoke route and pedestrian spawn is on walkable ground of its world', async () => {
    for (const s of load('smoke')) {
      const w = (await loadScenarioWorldNode(s)).world;
      for (const [x, y] of s.robot.route) expect(isWalkable(w, x, y), `${s.id} route point ${x},${y}`).toBe(true);
      for (const p of s.pedestrians) expect(isWalkable(w, p.spawn[0], p.spawn[1]), `${s.id} spawn`).toBe(true);
    }
  });
});
