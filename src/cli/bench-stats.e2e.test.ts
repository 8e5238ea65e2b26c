/**
 * End to end: `npm run bench -- --stats` with the camera-fed example ONNX policy prints one
 * `stats:` line of key=value pairs, and running the same two episodes in lockstep (`--envs 2`)
 * creates no more pipelines and needs no more submissions per control step than one at a time
 * (`--envs 1`). Two smoke scenarios (one with a pedestrian) with their time limits cut to 2 s, so
 * both episodes end at the same step.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-bench-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STATS_LINE = /^stats: submissions\/step=(\S+) computePasses\/step=(\S+) renderPasses\/step=(\S+) readbackBytes\/step=(\S+) pipelinesCreated=(\d+) controlSteps=(\d+)$/m;

/** Runs the two-episode suite with `--envs B --stats` and parses its `stats:` line. */
function benchStats(suite: string, envs: number) {
  const args = ['--suite', suite, '--policy', 'onnx:assets/policies/single-frame/model.onnx', '--envs', String(envs), '--stats', '--fresh', '--out', join(dir, `envs${envs}`)];
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/bench.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  expect(r.status, r.stderr).toBe(0);
  const m = STATS_LINE.exec(r.stdout);
  expect(m, r.stdout).not.toBeNull();
  const [submissions, computePasses, renderPasses, readbackBytes, pipelinesCreated, controlSteps] = m!.slice(1).map(Number);
  return { submissions, computePasses, renderPasses, readbackBytes, pipelinesCreated, controlSteps };
}

describe('npm run bench --stats', () => {
  it('prints the GPU work per control step; --envs 2 creates no more pipelines and submits no more per step than --envs 1', () => {
    const smoke = JSON.parse(readFileSync(join(ROOT, 'scenes/suites/smoke.json'), 'utf8')) as { scenarios: { id: string }[] };
    const suite = join(dir, 'suite.json');
    const ids = ['smoke/straight/000', 'smoke/frontal/000'];
    writeFileSync(suite, JSON.stringify(smoke.scenarios.filter((s) => ids.includes(s.id)).map((s) => ({ ...s, timeLimit: 2 }))));

    const one = benchStats(suite, 1);
    // Every episode (2 scenarios × 5 seeds) times out, not a success: each has its camera strip, linked from the report,
    // and the one with a pedestrian records the pedestrian's path beside the robot's.
    const out = join(dir, 'envs1');
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { scenarioId: string; run: number; trajectory: unknown[]; pedestrianPaths?: [number, number][][] });
    expect(new Set(records.map((r) => `${r.scenarioId}#${r.run}`)).size).toBe(10);
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    for (const r of records) {
      const name = `onnx_single-frame__${r.scenarioId.replace(/\//g, '_')}__${r.run}`;
      const jpg = readFileSync(join(out, 'frames', `${name}.jpg`));
      expect([jpg[0], jpg[1]], 'a JPEG').toEqual([0xff, 0xd8]);
      const { times } = JSON.parse(readFileSync(join(out, 'frames', `${name}.json`), 'utf8')) as { times: number[] };
      // 2 s at the example's 2 Hz: the frames the policy saw at t = 0, 0.5, 1 and 1.5 s (all within the strip's 3 s).
      expect(times.map((t) => Math.round(t * 1000) / 1000)).toEqual([0, 0.5, 1, 1.5]);
      expect(report).toContain(`src="frames/${name}.jpg"`);
    }
    const frontal = records.find((r) => r.scenarioId === 'smoke/frontal/000' && r.run === 0)!;
    expect(frontal.pedestrianPaths).toHaveLength(1);
    expect(frontal.pedestrianPaths![0]).toHaveLength(frontal.trajectory.length);
    expect(records.find((r) => r.scenarioId === 'smoke/straight/000' && r.run === 0)!.pedestrianPaths).toBeUndefined();
    expect(report).toContain('class="ped"');
    const two = benchStats(suite, 2);
    expect(one.controlSteps).toBe(2 * two.controlSteps);
    expect(one.pipelinesCreated).toBeGreaterThan(0);
    expect(two.pipelinesCreated).toBe(one.pipelinesCreated);
    expect(two.submissions).toBe(one.submissions);
    // Each step renders both cameras (a render pass per view for pedestrians and splats).
    expect(two.renderPasses).toBeGreaterThan(one.renderPasses);
    expect(one.readbackBytes).toBeGreaterThan(0);
  }, 300_000);
});
