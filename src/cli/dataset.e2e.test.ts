/**
 * End to end: `npm run dataset` records an expert rollout as GNM-layout training data — one JPEG per
 * control step, traj_data.pkl (read back with Python's pickle) whose rows are those frames' poses
 * starting at the scenario's start pose, splits and metadata — and a rerun resumes with nothing to do.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/dataset.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });

describe('npm run dataset', () => {
  it('writes frames, traj_data.pkl, splits and metadata, and resumes', { timeout: 300_000 }, () => {
    const smoke = JSON.parse(readFileSync(join(ROOT, 'scenes/suites/smoke.json'), 'utf8')) as { scenarios: { id: string; timeLimit: number; robot: { start: number[] } }[] };
    const scenario = smoke.scenarios.find((s) => s.id === 'smoke/obstructing/000')!;
    const suite = join(dir, 'suite.json');
    writeFileSync(suite, JSON.stringify([{ ...scenario, timeLimit: 2 }]));
    const out = join(dir, 'data');
    const first = run(['--suite', suite, '--out', out, '--size', '64x48']);
    expect(first.status, first.stderr + first.stdout).toBe(0);
    const traj = join(out, 'smoke_obstructing_000_r0');
    const jpgs = readdirSync(traj).filter((f) => f.endsWith('.jpg'));
    expect(jpgs.length).toBe(20); // 2 s at the expert's 10 Hz
    for (let k = 0; k < jpgs.length; k++) {
      const b = readFileSync(join(traj, `${k}.jpg`));
      expect([b[0], b[1]], `${k}.jpg is a JPEG`).toEqual([0xff, 0xd8]);
      expect(b.length, `${k}.jpg is not a blank frame`).toBeGreaterThan(800);
    }
    const meta = JSON.parse(readFileSync(join(out, 'dataset.json'), 'utf8'));
    expect(meta).toMatchObject({ format: 'curbside-dataset/1', policy: 'expert', rateHz: 10, trajectories: 1, frameCount: 20, camera: { width: 64, height: 48, fovYDeg: 60, heightM: 0.8, pitchDeg: 0, cx: 32, cy: 24 } });
    const names = ['train', 'test'].flatMap((s) => readFileSync(join(out, 'data_splits', s, 'traj_names.txt'), 'utf8').split('\n').filter(Boolean));
    expect(names).toEqual(['smoke_obstructing_000_r0']);
    if (hasNumpy) {
      const py = "import pickle, json, sys; d = pickle.load(open(sys.argv[1], 'rb')); print(json.dumps({'position': d['position'].tolist(), 'yaw': d['yaw'].tolist(), 'goal': d['goal'].tolist(), 'shape': list(d['position'].shape)}))";
      const r = spawnSync('python3', ['-c', py, join(traj, 'traj_data.pkl')], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const d = JSON.parse(r.stdout) as { position: number[][]; yaw: number[]; goal: number[]; shape: number[] };
      expect(d.goal).toEqual((scenario as unknown as { robot: { goal: number[] } }).robot.goal);
      expect(d.shape).toEqual([20, 2]);
      expect(d.yaw).toHaveLength(20);
      const [x0, y0, yaw0] = scenario.robot.start;
      expect(d.position[0][0]).toBeCloseTo(x0, 6);
      expect(d.position[0][1]).toBeCloseTo(y0, 6);
      expect(d.yaw[0]).toBeCloseTo(yaw0, 6);
      // The robot moved along its route: the last pose is metres away from the first.
      expect(Math.hypot(d.position[19][0] - x0, d.position[19][1] - y0)).toBeGreaterThan(0.5);
    }
    const again = run(['--suite', suite, '--out', out, '--size', '64x48']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 to record');
  });
});
