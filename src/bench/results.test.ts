import { mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodeRecord } from '../../test/episode-records';
import { summarise, formatStat, summaryTable } from './aggregate';
import { appendResult, mergeResults, parseShard, readResults, shardFromEnvironment } from './results-log';
import { parseScenarios } from '../sim/scenario';

const record = episodeRecord;

describe('results log', () => {
  it('appends lines, reads them back, and ignores a truncated last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curbside-'));
    const path = join(dir, 'out', 'episodes.jsonl');
    appendResult(path, record({ scenarioId: 'a' }));
    appendResult(path, record({ scenarioId: 'b' }));
    appendFileSync(path, '{"scenarioId": "c", "su');
    expect(readResults(path).map((r) => r.scenarioId)).toEqual(['a', 'b']);
    writeFileSync(path, '{bad\n{"scenarioId":"x"}\n');
    expect(() => readResults(path)).toThrow(/episodes\.jsonl:1: malformed/);
  });

  it('parses --shard i/n', () => {
    expect(() => parseShard('4/3')).toThrow(/1 <= i <= n/);
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
  });

  it('takes --shard auto from a Slurm job array or a Kubernetes Indexed Job', () => {
    // sbatch --array=0-3: task 2 of 4 is shard 3/4; --array=1-4 counts from SLURM_ARRAY_TASK_MIN.
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({ index: 3, count: 4 });
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({ index: 4, count: 4 });
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '4' }, 8)).toEqual({ index: 1, count: 8 });
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '0' }, 5)).toEqual({ index: 1, count: 5 });
    expect(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '0' })).toThrow('--shard auto: a Kubernetes Indexed Job gives JOB_COMPLETION_INDEX but not the count: add --shards N');
    expect(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '5' }, 5)).toThrow('--shard auto: JOB_COMPLETION_INDEX=5 is not below --shards 5');
    expect(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '3' })).toThrow('--shard auto: SLURM_ARRAY_TASK_ID=5 is outside the 3 tasks from SLURM_ARRAY_TASK_MIN=0');
    expect(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: 'x', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow('--shard auto: SLURM_ARRAY_TASK_ID=x is not a non-negative integer');
    expect(() => shardFromEnvironment({})).toThrow(/no scheduler array index found/);
  });

  it('merges shards without duplicates', () => {
    const a = [record({ scenarioId: 'a' }), record({ scenarioId: 'b' })];
    const b = [record({ scenarioId: 'b' }), record({ scenarioId: 'c', run: 1 })];
    expect(mergeResults([a, b]).map((r) => `${r.scenarioId}${r.run}`)).toEqual(['a0', 'b0', 'c1']);
  });
});

describe('summarise', () => {
  it('takes rates per run, then mean ± std across runs', () => {
    // Run 0: 2 of 2 succeed; run 1: 1 of 2 → rates 1.0 and 0.5 → 0.75 ± 0.354.
    const rs = [
      record({ scenarioId: 'a', run: 0 }), record({ scenarioId: 'b', run: 0 }),
      record({ scenarioId: 'a', run: 1 }), record({ scenarioId: 'b', run: 1, success: false, routeCompletion: 0.4, distance: 50,
        failures: [{ kind: 'collision-obstacle', time: 3, x: 0, y: 0 }, { kind: 'out-of-lane', time: 4, x: 0, y: 0 }] }),
    ];
    const row = summarise(rs).find((r) => r.category === 'straight')!;
    expect(row.episodes).toBe(4);
    expect(row.successRate.mean).toBeCloseTo(0.75, 12);
    expect(row.successRate.std).toBeCloseTo(Math.SQRT1_2 / 2, 12);
    // Run 1 travelled 65 m with 2 failures → 3.077/100 m; run 0: 0.
    expect(row.failuresPer100m.mean).toBeCloseTo((200 / 65) / 2, 12);
    expect(row.collisionsPer100m.mean).toBeCloseTo((100 / 65) / 2, 12);
    expect(formatStat(row.successRate, 1, true)).toBe('75.0 ± 35.4');
    expect(summarise(rs).some((r) => r.category === 'all')).toBe(true);
  });

  it('counts walkers walking into the robot apart from collisions the robot caused', () => {
    const hit = (walkedInto: boolean) => ({ kind: 'collision-pedestrian' as const, time: 1, x: 0, y: 0, with: 0, walkedInto });
    const rs = [record({ scenarioId: 'a', distance: 50, failures: [hit(true), hit(true), hit(false), { kind: 'collision-obstacle', time: 2, x: 0, y: 0 }] })];
    const row = summarise(rs).find((r) => r.category === 'straight')!;
    expect(row.collisionsPer100m.mean).toBeCloseTo(4, 12); // 2 of 4 events in 50 m
    expect(row.walkedIntoPer100m.mean).toBeCloseTo(4, 12);
    expect(row.failuresPer100m.mean).toBeCloseTo(8, 12);
    expect(summaryTable(summarise(rs)).split('\n')[0]).toContain('walked into/100m');
  });
});

describe('scenario files', () => {
  const ok = {
    id: 'u/1', suite: 'unit', category: 'straight', world: { kind: 'procedural', seed: 3 },
    robot: { start: [0, 0, 0], goal: [15, 0], route: [[0, 0], [15, 0]] }, timeLimit: 60,
    success: { kind: 'reach-goal' }, seed: 9,
  };
  it('parses a valid scenario with defaults', () => {
    const [s] = parseScenarios('a.json', JSON.stringify(ok));
    expect(s.pedestrians).toEqual([]);
    expect(s.onFailure).toBe('terminate');
    expect(s.success).toEqual({ kind: 'reach-goal', goalRadius: 1 });
  });
  it('names the file and the field of the first problem', () => {
    expect(() => parseScenarios('bad.json', JSON.stringify([ok, { ...ok, id: 'u/2', robot: { ...ok.robot, route: [[0, 0]] } }]))).toThrow(/^bad\.json: 1\.robot\.route: /);
    expect(() => parseScenarios('bad.json', JSON.stringify({ ...ok, timeLimit: -1 }))).toThrow(/bad\.json: timeLimit/);
    // A misspelt field is an error, not silently ignored (it would run without its pedestrians).
    expect(() => parseScenarios('typo.json', JSON.stringify({ ...ok, pedestrain: [] }))).toThrow(/typo\.json: \(root\): Unrecognized key: "pedestrain"/);
    expect(() => parseScenarios('list.json', JSON.stringify([ok, { ...ok, id: 'b', timeLimit: -1 }]))).toThrow(/list\.json: 1\.timeLimit/);
    expect(() => parseScenarios('empty.json', '[]')).toThrow('empty.json: the suite holds no scenarios');
    expect(() => parseScenarios('bad.json', '{')).toThrow(/bad\.json: not valid JSON/);
    expect(() => parseScenarios('dup.json', JSON.stringify([ok, ok]))).toThrow(/duplicate scenario id 'u\/1'/);
    expect(() => parseScenarios('g.json', JSON.stringify({ ...ok, success: { kind: 'stop-before', pedestrian: 0 } }))).toThrow(/has 0 pedestrians/);
  });
});

describe('HTML report', () => {
  it('is self-contained and shows tables, charts and a picture per failed episode', async () => {
    const { buildReport } = await import('./report-html');
    const rs = [
      record({ scenarioId: 'a', trajectory: [[0, 0, 0], [1, 1, 0]] }),
      record({ scenarioId: 'b', success: false, end: 'failure', trajectory: [[0, 0, 0], [1, 2, 0.5]], failures: [{ kind: 'out-of-lane', time: 1, x: 2, y: 0.5 }] }),
    ];
    const html = buildReport({ title: 'Run', meta: ['policy expert'], records: rs, backdrop: (_r) => ({ walkable: [[[0, -2], [20, -2], [20, 2], [0, 2]]], obstacles: [], route: [[0, 0], [15, 0]] }) });
    expect(html).toContain('<h2>unit</h2>');
    expect(html).toContain('Failed episodes (1)');
    expect((html.match(/<svg /g) ?? []).length).toBe(1);
    expect(html).toContain('class="fail out-of-lane"');
    expect(html).not.toMatch(/<script src=|<link /); // nothing fetched
    expect(html).toContain('new Chart(');
  });

  it("draws the pedestrians' paths and links a failed episode's camera strip with its frame times", async () => {
    const { buildReport } = await import('./report-html');
    const failed = record({
      scenarioId: 'unit/x/001', policy: 'onnx:m', success: false, end: 'failure', trajectory: [[0, 0, 0], [1, 1, 0], [2, 2, 0]],
      pedestrianPaths: [[[5, 1], [4, 1], [3, 1]]], failures: [{ kind: 'collision-pedestrian', time: 2, x: 2, y: 0 }],
    });
    const html = buildReport({ title: 'Run', meta: [], records: [failed], strip: (r) => (r === failed ? { src: 'frames/onnx_m__unit_x_001__0.jpg', times: [0.5, 1, 1.5] } : undefined) });
    expect(html).toMatch(/<polyline class="ped" points="[^"]+ [^"]+ [^"]+"\/>/);
    expect(html).toContain('class="ped-end"');
    expect(html).toContain('<img src="frames/onnx_m__unit_x_001__0.jpg"');
    expect(html).toContain('robot camera at 0.5, 1.0, 1.5 s');
    // Without strips (the expert, or an old results directory): the picture alone.
    expect(buildReport({ title: 'Run', meta: [], records: [failed] })).not.toContain('<img');
  });

  it('names strip files after policy, scenario and run, with only safe characters', async () => {
    const { stripFileName } = await import('./episode-record');
    expect(stripFileName({ policy: 'onnx:bc-gnm', scenarioId: 'unit/scanned/fruit-drops/turn/003', run: 2 })).toBe('onnx_bc-gnm__unit_scanned_fruit-drops_turn_003__2.jpg');
    expect(stripFileName({ policy: 'ws://host:9/x', scenarioId: 'a b', run: 0 })).toBe('ws___host_9_x__a_b__0.jpg');
  });
});
