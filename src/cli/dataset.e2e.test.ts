/**
 * End to end: `npm run dataset` records an expert rollout as GNM-layout training data — one JPEG per
 * control step, traj_data.pkl (read back with Python's pickle) whose rows are those frames' poses
 * starting at the scenario's start pose, splits and metadata — and a rerun resumes with nothing to do;
 * with `--perturb` the same episode follows the same poses until the first burst of its seeded
 * schedule, flags exactly the burst frames, and leaves the clean line after it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSeed } from '../bench/plan';
import { deriveSeed } from '../core/random';
import { CommandPerturbation } from '../policy/command-perturbation';
import type { Scenario } from '../sim/scenario';

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
    writeFileSync(suite, JSON.stringify([{ ...scenario, timeLimit: 7 }]));
    const out = join(dir, 'data');
    const first = run(['--suite', suite, '--out', out, '--size', '64x48']);
    expect(first.status, first.stderr + first.stdout).toBe(0);
    const traj = join(out, 'smoke_obstructing_000_r0');
    const jpgs = readdirSync(traj).filter((f) => f.endsWith('.jpg'));
    expect(jpgs.length).toBe(70); // 7 s at the expert's 10 Hz
    for (let k = 0; k < jpgs.length; k++) {
      const b = readFileSync(join(traj, `${k}.jpg`));
      expect([b[0], b[1]], `${k}.jpg is a JPEG`).toEqual([0xff, 0xd8]);
      expect(b.length, `${k}.jpg is not a blank frame`).toBeGreaterThan(800);
    }
    const meta = JSON.parse(readFileSync(join(out, 'dataset.json'), 'utf8'));
    expect(meta).toMatchObject({ format: 'curbside-dataset/1', policy: 'expert', rateHz: 10, trajectories: 1, frameCount: 70, camera: { width: 64, height: 48, fovYDeg: 60, heightM: 0.8, pitchDeg: 0, cx: 32, cy: 24 } });
    const names = ['train', 'test'].flatMap((s) => readFileSync(join(out, 'data_splits', s, 'traj_names.txt'), 'utf8').split('\n').filter(Boolean));
    expect(names).toEqual(['smoke_obstructing_000_r0']);
    if (hasNumpy) {
      const d = readPickle(join(traj, 'traj_data.pkl'));
      expect(d.goal).toEqual((scenario as unknown as { robot: { goal: number[] } }).robot.goal);
      expect(d.shape).toEqual([70, 2]);
      expect(d.yaw).toHaveLength(70);
      expect(d.perturbed).toEqual(new Array(70).fill(0));
      expect(d.success).toHaveLength(1);
      const [x0, y0, yaw0] = scenario.robot.start;
      expect(d.position[0][0]).toBeCloseTo(x0, 6);
      expect(d.position[0][1]).toBeCloseTo(y0, 6);
      expect(d.yaw[0]).toBeCloseTo(yaw0, 6);
      // The robot moved along its route: the last pose is metres away from the first.
      expect(Math.hypot(d.position[69][0] - x0, d.position[69][1] - y0)).toBeGreaterThan(0.5);
    }
    const again = run(['--suite', suite, '--out', out, '--size', '64x48']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 to record');

    // The same episode with turn-rate bursts: identical up to the first burst, flagged exactly there.
    const noisy = join(dir, 'noisy');
    const third = run(['--suite', suite, '--out', noisy, '--size', '64x48', '--perturb']);
    expect(third.status, third.stderr + third.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(noisy, 'dataset.json'), 'utf8')).perturbation).toMatchObject({ startS: 1 });
    if (hasNumpy) {
      const clean = readPickle(join(traj, 'traj_data.pkl'));
      const d = readPickle(join(noisy, 'smoke_obstructing_000_r0', 'traj_data.pkl'));
      const schedule = new CommandPerturbation(deriveSeed(runSeed(scenario as unknown as Scenario, 0), 'perturbation'));
      const expected = d.yaw.map((_, k) => (schedule.burstAt(k / 10) ? 1 : 0));
      expect(d.perturbed).toEqual(expected);
      const first = expected.indexOf(1);
      expect(first, 'a burst within 7 s').toBeGreaterThan(10);
      for (let k = 0; k <= first; k++) expect(d.position[k], `frame ${k} before the first burst`).toEqual(clean.position[k]);
      const k = Math.min(first + 8, d.yaw.length - 1);
      expect(Math.abs(d.yaw[k] - clean.yaw[k]), 'the burst turned the robot off the clean line').toBeGreaterThan(0.05);
    }
  });
});

/** traj_data.pkl read back with Python's pickle. */
function readPickle(file: string): { position: number[][]; yaw: number[]; goal: number[]; shape: number[]; perturbed: number[]; success: number[] } {
  const py = "import pickle, json, sys; d = pickle.load(open(sys.argv[1], 'rb')); print(json.dumps({'position': d['position'].tolist(), 'yaw': d['yaw'].tolist(), 'goal': d['goal'].tolist(), 'shape': list(d['position'].shape), 'perturbed': d['perturbed'].tolist(), 'success': d['success'].tolist()}))";
  const r = spawnSync('python3', ['-c', py, file], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
