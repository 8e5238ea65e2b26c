import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { contextStride, DEFAULT_CAMERA_MOUNT, ManifestError, observationDims, parsePolicyManifest, ringSlots } from './manifest';

const VALID = {
  format: 'curbside-policy/1',
  name: 'test',
  rateHz: 4,
  image: { width: 85, height: 64 },
  context: { frames: 6, spacing: 0.5 },
  normalization: { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], appliedBy: 'curbside' },
  inputs: { observation: 'obs' },
  output: { kind: 'waypoints', name: 'waypoints', count: 5, dims: 4 },
};

/** A copy of VALID with `path` (dot-separated) set to `value` (undefined deletes). */
function withField(path: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(VALID));
  const keys = path.split('.');
  let o = copy;
  for (const k of keys.slice(0, -1)) o = o[k];
  if (value === undefined) delete o[keys.at(-1)!];
  else o[keys.at(-1)!] = value;
  return copy;
}

describe('parsePolicyManifest', () => {
  it('accepts a valid manifest and fills defaults (camera, crop, layout, goal, scale)', () => {
    const m = parsePolicyManifest(JSON.stringify(VALID), 'model.json');
    expect(m.camera).toEqual(DEFAULT_CAMERA_MOUNT);
    expect(m.image.crop).toBe('none');
    expect(m.inputs.layout).toBe('BTCHW');
    expect(m.goal).toEqual({ type: 'none' });
    expect(m.output).toMatchObject({ scale: 1, normalized: false, waypointIndex: 2 });
    expect(contextStride(m)).toBe(2);
    expect(ringSlots(m)).toBe(11);
    expect(observationDims(m)).toEqual([6, 3, 64, 85]);
  });

  it.each([
    ['image.width', -3, /model\.json: image\.width: /],
    ['image.height', undefined, /model\.json: image\.height: /],
    ['context.frames', 0, /model\.json: context\.frames: /],
    ['context.spacing', 0.3, /model\.json: context\.spacing: 0\.3 s at 4 Hz is 1\.2 control steps/],
    ['normalization.std', [0.2, 0, 0.2], /model\.json: normalization\.std: every std must be > 0/],
    ['normalization.appliedBy', 'model', /model\.json: normalization\.appliedBy: /],
    ['output.kind', 'trajectory', /model\.json: output\.kind: /],
    ['output.dims', 3, /model\.json: output\.dims: /],
    ['output.waypointIndex', 5, /model\.json: output\.waypointIndex: must be below count/],
    ['rateHz', 'fast', /model\.json: rateHz: /],
    ['format', 'v2', /model\.json: format: /],
    ['goal', { type: 'point' }, /model\.json: goal\.input: /],
    ['camera', { fovYDeg: 200 }, /model\.json: camera\.fovYDeg: /],
    ['extra', 1, /model\.json: \(root\): .*extra/],
    ['noise', { input: 'obs', shape: [8, 2] }, /model\.json: inputs: input names must be distinct/],
  ])('names the field: %s = %j', (path, value, message) => {
    expect(() => parsePolicyManifest(withField(path, value), 'model.json')).toThrow(ManifestError);
    expect(() => parsePolicyManifest(withField(path, value), 'model.json')).toThrow(message);
  });

  it('names the file on invalid JSON', () => {
    expect(() => parsePolicyManifest('{"format":', 'bad.json')).toThrow(/^bad\.json: invalid JSON/);
  });

  it('accepts every shipped example manifest', async () => {
    for (const name of ['single-frame', 'context3', 'point-goal', 'cmd', 'diffusion', 'image-goal']) {
      const file = `assets/policies/${name}/model.json`;
      parsePolicyManifest(await readFile(file, 'utf8'), file);
    }
  });
});
