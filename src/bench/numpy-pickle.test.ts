/** The numpy pickle writer, read back by Python's pickle with numpy (skipped, saying so, where python3 has no numpy). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pickleFloat64Arrays } from './numpy-pickle';

const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

describe('pickleFloat64Arrays', () => {
  it.skipIf(!hasNumpy)('writes a traj_data.pkl that pickle.load reads as float64 ndarrays of the right shapes and values', () => {
    const T = 300;
    const position = Array.from({ length: 2 * T }, (_, i) => (i % 2 ? -0.25 * i : 1e5 + i / 7));
    const yaw = Array.from({ length: T }, (_, i) => Math.sin(i) * Math.PI);
    const file = join(mkdtempSync(join(tmpdir(), 'curbside-pkl-')), 'traj_data.pkl');
    writeFileSync(file, pickleFloat64Arrays({ position: { shape: [T, 2], data: position }, yaw: { shape: [T], data: yaw } }));
    const py = `
import pickle, json, sys, numpy as np
d = pickle.load(open(sys.argv[1], 'rb'))
print(json.dumps({k: {'type': type(v).__name__, 'dtype': str(v.dtype), 'shape': list(v.shape), 'values': v.ravel().tolist()} for k, v in d.items()}))`;
    const r = spawnSync('python3', ['-W', 'ignore', '-c', py, file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as Record<string, { type: string; dtype: string; shape: number[]; values: number[] }>;
    expect(Object.keys(got)).toEqual(['position', 'yaw']);
    expect(got.position).toEqual({ type: 'ndarray', dtype: 'float64', shape: [T, 2], values: position });
    expect(got.yaw).toEqual({ type: 'ndarray', dtype: 'float64', shape: [T], values: yaw });
  });

  it('refuses a shape that does not match the data', () => {
    expect(() => pickleFloat64Arrays({ yaw: { shape: [3], data: [1, 2] } })).toThrow(/yaw: shape \[3\] does not hold 2 values/);
  });
});
