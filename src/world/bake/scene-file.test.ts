/** Scanned-scene files: validation errors name the field; the real capture loads, transforms and answers walkable queries. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { loadSplatFile, splatBounds } from '../../splats/formats';
import { evalSplatColor } from '../../splats/spherical-harmonics';
import { groundHeight, isWalkable, obstaclesAt, zoneAt } from '../queries';
import { loadScene, parseSceneFile, sceneTransform, transformSplatCloud, type SceneFile } from './scene-file';

const SCENE_PATH = resolve(import.meta.dirname, '../../../scenes/fruit-drops.json');
const text = readFileSync(SCENE_PATH, 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: the tests mutate parsed JSON of any shape
type Json = Record<string, any>;

function withChange(mut: (j: Json) => void): string {
  const j = JSON.parse(text);
  mut(j);
  return JSON.stringify(j);
}

describe('parseSceneFile', () => {
  it('accepts scenes/fruit-drops.json', () => {
    const s = parseSceneFile(text, 'fruit-drops.json');
    expect(s.name).toBe('fruit-drops');
    expect(resolve(dirname(SCENE_PATH), s.capture)).toMatch(/shared\/data\/splats\/fruit_drops_minimal\.ply$/);
  });

  const cases: [string, (j: Json) => void, RegExp][] = [
    ['bad JSON', () => undefined, /^s\.json: \(root\): invalid JSON/],
    ['wrong format tag', (j) => { j.format = 'nope'; }, /^s\.json: format: /],
    ['capture extension', (j) => { j.capture = 'x.obj'; }, /^s\.json: capture: expected a \.ply, \.splat, \.spz, \.glb or \.gltf file/],
    ['negative scale', (j) => { j.transform.scale = -1; }, /^s\.json: transform(\.scale)?: /],
    ['short ring', (j) => { j.walkable.sidewalk[0].outer = [[0, 0], [1, 0]]; }, /^s\.json: walkable\.sidewalk\.0\.outer: a ring needs at least 3 vertices/],
    ['self-intersecting ring', (j) => { j.walkable.crosswalk[0].outer = [[0, 0], [1, 1], [1, 0], [0, 1]]; }, /^s\.json: walkable\.crosswalk\.0\.outer: /],
    ['non-convex obstacle', (j) => { j.obstacles[0].polygon = [[0, 0], [2, 0], [1, 0.3], [2, 1], [0, 1]]; }, /^s\.json: obstacles\.0\.polygon: obstacle polygons must be convex/],
    ['missing obstacle height', (j) => { delete j.obstacles[0].height; }, /^s\.json: obstacles\.0\.height: /],
    ['unknown field', (j) => { j.colour = 'red'; }, /^s\.json: \(root\): .*colour/],
    ['reflection matrix', (j) => { j.transform = { matrix: [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }; }, /^s\.json: transform\.matrix: determinant/],
    ['version 3', (j) => { j.version = 3; }, /^s\.json: version: /],
    ['self-intersecting road', (j) => { j.version = 2; j.road = [{ outer: [[0, 0], [2, 2], [2, 0], [0, 1]], holes: [] }]; }, /^s\.json: road\.0\.outer: edges/],
    ['unknown point kind', (j) => { j.version = 2; j.points = [{ name: 'a', kind: 'shop', position: [0, 0] }]; }, /^s\.json: points\.0\.kind: /],
    ['short georeference offset', (j) => { j.version = 2; j.georeference = { offset: [1, 2] }; }, /^s\.json: georeference\.offset: /],
    ['shear matrix', (j) => { j.transform = { matrix: [1, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }; }, /^s\.json: transform\.matrix: .*not a rotation times a uniform scale/],
  ];
  for (const [what, mut, re] of cases) {
    it(`names the field: ${what}`, () => {
      const src = what === 'bad JSON' ? '{ "format": ' : withChange(mut);
      expect(() => parseSceneFile(src, 's.json')).toThrow(re);
    });
  }

  it('reads version 2 fields (road, named points, georeference) and makes the road a road zone', () => {
    const v2 = parseSceneFile(withChange((j) => {
      j.version = 2;
      j.road = [{ outer: [[-10, 4], [10, 4], [10, 6], [-10, 6]], holes: [] }];
      j.points = [{ name: 'east end', kind: 'goal', position: [9, 2.5] }];
      j.georeference = { offset: [431_250.5, 9_226_100.25, 12], crs: 'EPSG:32749' };
    }), 's.json');
    expect(v2.points[0]).toEqual({ name: 'east end', kind: 'goal', position: [9, 2.5] });
    expect(v2.georeference?.offset).toEqual([431_250.5, 9_226_100.25, 12]);
    const capture = loadSplatFile('fruit_drops_minimal.ply', readSharedData('splats/fruit_drops_minimal.ply'));
    const w = loadScene(v2, capture, 's.json').world;
    expect(zoneAt(w, 0, 5)).toBe('road');
    expect(isWalkable(w, 0, 5)).toBe(false);
    // Version 1 files read with the new fields empty.
    const v1 = parseSceneFile(text, 'fruit-drops.json');
    expect(v1.road).toEqual([]);
    expect(v1.points).toEqual([]);
  });

  it('takes a 4×4 similarity matrix equal to scale + quaternion + translation', () => {
    const q = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];
    const a = sceneTransform({ transform: { scale: 2, rotation: q, translation: [1, 2, 3] } } as SceneFile);
    const b = sceneTransform({ transform: { matrix: [2, 0, 0, 1, 0, 0, 2, 2, 0, -2, 0, 3, 0, 0, 0, 1] } } as SceneFile);
    expect(b.scale).toBeCloseTo(2, 12);
    for (let i = 0; i < 9; i++) expect(b.rotation[i]).toBeCloseTo(a.rotation[i], 12);
    for (let i = 0; i < 4; i++) expect(b.quaternion[i]).toBeCloseTo(a.quaternion[i], 12);
  });
});

describe('loadScene on the real capture (fruit_drops_minimal.ply, SH degree 3)', () => {
  const scene = parseSceneFile(text, 'fruit-drops.json');
  const capture = loadSplatFile('fruit_drops_minimal.ply', readSharedData('splats/fruit_drops_minimal.ply'));
  const loaded = loadScene(scene, capture, 'fruit-drops.json');

  it('places the capture upright on the ground inside the obstacle polygon', () => {
    const b = splatBounds(loaded.cloud);
    expect(b.min[2]).toBeGreaterThan(scene.groundHeight - 0.1);
    expect(b.max[2]).toBeLessThan(scene.groundHeight + 1.2);
    expect(b.max[2] - b.min[2]).toBeGreaterThan(0.5); // the capture's y-down axis now points down in Z
    expect(obstaclesAt(loaded.world, b.center[0], b.center[1])).toHaveLength(1);
  });

  it('answers walkable queries from the annotation', () => {
    const w = loaded.world;
    expect(isWalkable(w, 0, 2.5)).toBe(true);
    expect(zoneAt(w, 0, 2.5)).toBe('sidewalk');
    expect(zoneAt(w, 7.5, 8)).toBe('crosswalk');
    expect(isWalkable(w, 0, 0)).toBe(false);
    expect(zoneAt(w, 0, 0)).toBe('building');
    expect(zoneAt(w, -11, 12)).toBe('lot');
    expect(zoneAt(w, 50, 0)).toBe('outside');
    expect(groundHeight(w, 0, 2.5)).toBe(scene.groundHeight);
  });

  it('transforms scales, rotations and view-dependent colour consistently', () => {
    const t = loaded.transform;
    const i = 123;
    for (let k = 0; k < 3; k++) expect(loaded.cloud.scales[3 * i + k]).toBeCloseTo(capture.scales[3 * i + k] * t.scale, 6);
    // Colour seen along world direction d equals the capture's colour along Rᵀ d (SH bands rotated).
    const R = t.rotation;
    const a = new Float64Array(3), b = new Float64Array(3);
    for (const d of [[0.3, -0.8, 0.52], [-0.6, 0.1, -0.79], [0, 0, 1]]) {
      const l = Math.hypot(...d);
      const dw = d.map((v) => v / l);
      const dc = [0, 1, 2].map((k) => R[k] * dw[0] + R[3 + k] * dw[1] + R[6 + k] * dw[2]);
      for (const j of [0, 7, 4000]) {
        evalSplatColor(loaded.cloud, j, dw, a);
        evalSplatColor(capture, j, dc, b);
        for (let c = 0; c < 3; c++) expect(a[c]).toBeCloseTo(b[c], 4);
      }
    }
  });

  it('leaves the input cloud untouched', () => {
    const again = transformSplatCloud(capture, loaded.transform);
    expect(Buffer.from(again.positions.buffer).equals(Buffer.from(loaded.cloud.positions.buffer))).toBe(true);
  });
});
