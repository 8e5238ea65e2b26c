/**
 * End to end: a user's mistake on the command line (a suite file that does not validate, a bad
 * --shard, a file that is not a splat capture, a bad --pedestrians or --pedestrian-at, a bad city-crowd option, an unknown
 * --robot or a results folder of another robot) ends in exactly one `error: …` line on stderr and
 * exit status 1, never a stack trace. The tools run as a user runs them (`npx tsx src/cli/…`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-user-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(tool: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli', tool), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
}

describe('user errors on the command line', () => {
  const bad = join(dir, 'bad-suite.json');
  writeFileSync(bad, JSON.stringify({ version: 1, scenarios: [{ id: 3 }] }));
  // The street-corner scene 9,226 km north: fine for the expert (f64), refused for a camera-fed policy.
  const farDir = join(ROOT, 'out/test-far');
  mkdirSync(farDir, { recursive: true });
  const farScene = JSON.parse(readFileSync(join(ROOT, 'scenes/street-corner.json'), 'utf8'));
  farScene.transform.translation[1] += 9_226_100;
  farScene.capture = '../../scenes/captures/street-corner.ply';
  writeFileSync(join(farDir, 'far.json'), JSON.stringify(farScene));
  const farSuite = join(dir, 'far-suite.json');
  writeFileSync(farSuite, JSON.stringify([{ id: 'far/1', suite: 'custom', category: 'straight', world: { kind: 'scene', path: 'out/test-far/far.json' }, robot: { start: [9.6, 9226100, 1.57], goal: [9.6, 9226110], route: [[9.6, 9226100], [9.6, 9226110]] }, timeLimit: 30, success: { kind: 'reach-goal', goalRadius: 1 }, onFailure: 'terminate', seed: 1 }]));
  const arenaSuite = JSON.parse(readFileSync(join(ROOT, 'scenes/arena/cityarena.json'), 'utf8'));
  const badStart = join(dir, 'bad-start.json');
  writeFileSync(badStart, JSON.stringify({ ...arenaSuite, tasks: [{ ...arenaSuite.tasks[0], start: { node: 0, towards: 999999 } }] }));
  const wrongScoring = join(dir, 'wrong-scoring.json');
  writeFileSync(wrongScoring, JSON.stringify({ ...arenaSuite, tasks: [{ ...arenaSuite.tasks.find((t: { family: string }) => t.family === 'vln'), family: 'localization' }] }));
  // A results file of the wheeled robot (records without `robot`) and a dataset recorded with the dog.
  const wheeledOut = join(dir, 'wheeled-out');
  mkdirSync(wheeledOut, { recursive: true });
  writeFileSync(join(wheeledOut, 'episodes.jsonl'), `${JSON.stringify({ scenarioId: 'smoke/static/000', suite: 'smoke', category: 'static', policy: 'expert', crowd: 'gpu', run: 0 })}\n`);
  const dogDataset = join(dir, 'dog-dataset');
  mkdirSync(dogDataset, { recursive: true });
  writeFileSync(join(dogDataset, 'dataset.json'), JSON.stringify({ format: 'curbside-dataset/1', robot: 'dog' }));
  const cases: [string, string, string[], RegExp][] = [
    ['an unknown --robot for the bench', 'bench.ts', ['--robot', 'tank'], /^error: option '--robot <name>' argument 'tank' is invalid\. unknown robot 'tank': expected one of wheeled, dog, humanoid$/],
    ['an unknown --robot for a dataset', 'dataset.ts', ['--out', join(dir, 'ds'), '--robot', 'Dog'], /^error: option '--robot <name>' argument 'Dog' is invalid\. unknown robot 'Dog': expected one of wheeled, dog, humanoid$/],
    ['resuming the wheeled robot\'s results with --robot dog', 'bench.ts', ['--robot', 'dog', '--out', wheeledOut], /^error: .*wheeled-out\/episodes\.jsonl: holds episodes run with --robot wheeled; resume with that robot, or start again with --fresh \(or another --out\)$/],
    ['adding wheeled trajectories to a dataset recorded with --robot dog', 'dataset.ts', ['--out', dogDataset], /^error: .*dog-dataset\/dataset\.json: the dataset was recorded with --robot dog; add to it with that robot, or start again with --fresh \(or another --out\)$/],
    ['a scene far from the origin with a camera-fed policy', 'bench.ts', ['--suite', farSuite, '--out', join(dir, 'far-out')], /^error: out\/test-far\/far\.json: its capture sits 9,226,\d{3} m from the origin, where float32 splats lose precision; keep the scene local .*georeference\.offset/],
    ['a suite file that does not validate', 'bench.ts', ['--suite', bad], /^error: .*bad-suite\.json: 0\.id: .*expected string/],
    ['a malformed --shard', 'bench.ts', ['--shard', '3/2'], /^error: --shard 3\/2: expected i\/n with 1 <= i <= n/],
    ['a file that is not a splat capture', 'render.ts', ['--scene', bad, '--out', join(dir, 'x.png')], /^error: bad-suite\.json: unknown splat format/],
    ['a time of day that is not HH:MM', 'render.ts', ['--world', '1', '--time', '7:30', '--out', join(dir, 'x.png')], /^error: --time 7:30: expected HH:MM between 00:00 and 24:00/],
    ['a negative pedestrian count', 'render.ts', ['--world', '1', '--pedestrians', '-1', '--out', join(dir, 'x.png')], /^error: option '--pedestrians <n>' argument '-1' is invalid\. expected an integer in 0\.\.1000, got '-1'$/],
    ['a pedestrian count that is not an integer', 'render.ts', ['--world', '1', '--pedestrians', '2.5', '--out', join(dir, 'x.png')], /^error: option '--pedestrians <n>' argument '2\.5' is invalid\. expected an integer in 0\.\.1000, got '2\.5'$/],
    ['a --pedestrian-at that is not x,y[,heading]', 'render.ts', ['--world', '1', '--pedestrian-at', '3', '--out', join(dir, 'x.png')], /^error: option '--pedestrian-at <x,y\[,heading\]>' argument '3' is invalid\. expected x,y or x,y,heading \(metres, radians\), got '3'$/],
    ['a --pedestrian-at outside the world', 'render.ts', ['--world', '1', '--pedestrian-at', '5000,0', '--width', '16', '--height', '12', '--out', join(dir, 'x.png')], /^error: --pedestrian-at 5000,0: outside world 1 \(x -200\.0\.\.200\.0, y -200\.0\.\.200\.0 m\)$/],
    ['a --pedestrian-at on a capture alone', 'render.ts', ['--scene', bad, '--pedestrian-at', '1,2', '--out', join(dir, 'x.png')], /^error: --pedestrian-at applies to views of a world \(--world SEED\|SCENE\.json\)/],
    ['--orbit without --frames', 'render.ts', ['--world', '1', '--orbit', '2', '--out', join(dir, 'x.png')], /^error: --orbit needs --frames N/],
    ['a frame count of 0', 'render.ts', ['--world', '1', '--frames', '0', '--out', join(dir, 'x.png')], /^error: option '--frames <n>' argument '0' is invalid\. expected an integer in 1\.\.100000, got '0'$/],
    ['a crowd run given both --scenario and --world', 'crowd.ts', ['--scenario', 'circle', '--world', '1'], /^error: give exactly one of --scenario circle\|blocks\|FILE\.json or --world SEED$/],
    ['a city crowd of 0 walkers', 'crowd.ts', ['--world', '1', '--walkers', '0'], /^error: option '--walkers <n>' argument '0' is invalid/],
    ['a city crowd of negative minutes', 'crowd.ts', ['--world', '1', '--minutes', '-2'], /^error: option '--minutes <m>' argument '-2' is invalid\. expected a number > 0, got '-2'$/],
    ['an unknown condition for matched runs', 'bench.ts', ['--conditions', 'dusk,snow'], /^error: --conditions: unknown condition 'snow': expected day, dusk, night, fog, rain/],
    ['a world size outside 150–2000 m', 'world.ts', ['--seed', '1', '--size', '90', '--json', join(dir, 'w.json')], /^error: option '--size <M>' argument '90' is invalid\. expected metres in \[150, 2000\], got '90'/],
    ['a malformed arena task file', 'arena.ts', ['--suite', bad], /^error: .*bad-suite\.json: format: /],
    ['an unknown arena agent', 'arena.ts', ['--agent', 'oracle', 'gpt9'], /^error: --agent gpt9: unknown agent \(expected one of oracle, random, ocr, openai:MODEL, remote\)$/],
    ['an arena --api-base that is not a URL', 'arena.ts', ['--agent', 'openai:m', '--api-base', 'localhost:8000'], /^error: --api-base localhost:8000: expected an http\(s\) URL such as http:\/\/127\.0\.0\.1:8000\/v1$/],
    ['an unknown arena condition', 'arena.ts', ['--conditions', 'dusk,snow'], /^error: --conditions: unknown condition 'snow': expected day, dusk, night, fog, rain/],
    ['an arena suite that is a folder', 'arena.ts', ['--suite', dir], /^error: --suite .*: a folder, not a task file$/],
    ['an arena task whose start is not on the network', 'arena.ts', ['--suite', badStart, '--out', join(dir, 'bad-start-out')], /^error: .*bad-start\.json: tasks\.0\.start: 0–999999 is not an edge of world 1's pedestrian network/],
    ['an arena task scored against its family', 'arena.ts', ['--suite', wrongScoring], /^error: .*wrong-scoring\.json: tasks\.0\.truth\.scoring: localization is scored by exact_match, not coordinate_match$/],
    ['an arena --out that cannot be created', 'arena.ts', ['--family', 'count', '--out', '/dev/null/x'], /^error: --out \/dev\/null\/x: cannot create it \(\/dev\/null is not a folder\)$/],
    ['an openai agent without a model', 'arena.ts', ['--agent', 'openai:'], /^error: --agent openai:: give the model name, e\.g\. openai:gpt-5$/],
    ['a malformed arena --shard', 'arena.ts', ['--shard', '3/2'], /^error: --shard 3\/2: expected i\/n with 1 <= i <= n/],
    ['an arena suite that does not exist', 'arena.ts', ['--suite', 'nowhere.json'], /^error: --suite nowhere\.json: not a suite \(cityarena, urbanground\) and no such task file$/],
    ['arena task generation without --out', 'arena-tasks.ts', ['--suite', 'cityarena'], /^error: --out FILE is required to generate a suite \(or pass --stats\)$/],
    ['arena:serve without a world', 'arena-serve.ts', [], /^error: give --suite NAME\|FILE, --tasks DIR or --world SEED \(what world to serve\)$/],
    ['arena:serve with a --tasks folder holding no task/', 'arena-serve.ts', ['--tasks', dir], /^error: --tasks .*: no task\/ folder inside \(expected .*\/task\/<ID>\.json, as arena:export writes\)$/],
    ['arena:serve with a bad --origin', 'arena-serve.ts', ['--world', '1', '--origin', '95,10'], /^error: --origin 95,10: latitude 95 is outside -89\.\.89 degrees$/],
    ['arena:serve with a short --token', 'arena-serve.ts', ['--world', '1', '--token', 'abc'], /^error: --token: at least 8 characters$/],
    ['arena:export of a suite without ladder tasks', 'arena-export.ts', ['--suite', 'cityarena', '--out', join(dir, 'export')], /^error: --suite cityarena: no task of a ladder family \(UrbanGround has no kind for 360CityArena's families\)$/],
    ['arena:export to another format', 'arena-export.ts', ['--suite', 'urbanground', '--format', 'habitat', '--out', join(dir, 'export')], /^error: --format habitat: expected urbanground$/],
    ['an inventory file that is not .json', 'world.ts', ['--seed', '1', '--json', join(dir, 'w.txt')], /^error: --json .*w\.txt: the output must be a \.json file/],
  ];
  for (const [what, tool, args, message] of cases) {
    it(`${what}: one error line, exit 1, no stack`, { timeout: 300_000 }, () => {
      const r = run(tool, args);
      const lines = r.stderr.trim().split('\n');
      expect(r.status, r.stderr).toBe(1);
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});
