/**
 * End to end: a user's mistake on the command line (a suite file that does not validate, a bad
 * --shard, a file that is not a splat capture, a bad --pedestrians or --pedestrian-at, a bad city-crowd option, an unknown
 * --robot or a results folder of another robot, and at least one mistake per `npm run` tool, the
 * bench scripts included) ends in exactly one `error: …` line on stderr that names the option or
 * file, what is wrong and what would be accepted, and exit status 1, never a stack trace. The tools
 * run as a user runs them (`npx tsx src/cli/…`, `npx tsx bench/…`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../../test/docs-reference';
import { SHARED_DATA as SHARED } from '../../test/shared-data';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-user-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a tool: a file of src/cli (`bench.ts`) or a path from the repository root (`bench/splats.ts`). */
function run(tool: string, args: string[]) {
  const file = tool.includes('/') ? join(ROOT, tool) : join(ROOT, 'src/cli', tool);
  return spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
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
  // A real-place task file whose OSM file changed since it was made (its md5 no longer matches).
  const monacoTasks = JSON.parse(readFileSync(join(ROOT, 'scenes/arena/monaco-casino.json'), 'utf8'));
  const changedOsmTasks = join(dir, 'changed-osm-tasks.json');
  writeFileSync(changedOsmTasks, JSON.stringify({ ...monacoTasks, world: { ...monacoTasks.world, md5: '0123456789abcdef0123456789abcdef' } }));
  const wrongScoring = join(dir, 'wrong-scoring.json');
  writeFileSync(wrongScoring, JSON.stringify({ ...arenaSuite, tasks: [{ ...arenaSuite.tasks.find((t: { family: string }) => t.family === 'vln'), family: 'localization' }] }));
  // A results file of the wheeled robot (records without `robot`) and a dataset recorded with the dog.
  const wheeledOut = join(dir, 'wheeled-out');
  mkdirSync(wheeledOut, { recursive: true });
  writeFileSync(join(wheeledOut, 'episodes.jsonl'), `${JSON.stringify({ scenarioId: 'smoke/static/000', suite: 'smoke', category: 'static', policy: 'expert', crowd: 'gpu', run: 0 })}\n`);
  const dogOut = join(dir, 'dog-out');
  mkdirSync(dogOut, { recursive: true });
  writeFileSync(join(dogOut, 'episodes.jsonl'), `${JSON.stringify({ scenarioId: 'smoke/static/001', suite: 'smoke', category: 'static', policy: 'expert', crowd: 'gpu', run: 0, robot: 'dog' })}\n`);
  const dogDataset = join(dir, 'dog-dataset');
  mkdirSync(dogDataset, { recursive: true });
  writeFileSync(join(dogDataset, 'dataset.json'), JSON.stringify({ format: 'curbside-dataset/1', robot: 'dog' }));
  const truncatedPbf = join(dir, 'cut.osm.pbf');
  writeFileSync(truncatedPbf, readFileSync(join(SHARED, 'osm/monaco.osm.pbf')).subarray(0, 300_000));
  // A real-place suite whose OSM file is no longer the one it was made from (its md5 differs).
  const changedOsm = join(dir, 'changed-osm.json');
  const monaco = JSON.parse(readFileSync(join(ROOT, 'scenes/suites/monaco-casino.json'), 'utf8'));
  writeFileSync(changedOsm, JSON.stringify({ scenarios: [{ ...monaco.scenarios[0], world: { ...monaco.scenarios[0].world, md5: '0'.repeat(32) } }] }));
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
    ['a crowd run given both --scenario and --world', 'crowd.ts', ['--scenario', 'circle', '--world', '1'], /^error: give exactly one of --scenario circle\|blocks\|FILE\.json or --world SEED \(or --osm FILE\)$/],
    ['a crowd --world-size without a city', 'crowd.ts', ['--scenario', 'circle', '--world-size', '300'], /^error: --world-size applies to a city crowd \(--world SEED or --osm FILE\)$/],
    ['a bake with no world', 'bake.ts', ['--out', join(dir, 'x.ply')], /^error: --world SEED or --osm FILE: give one \(the world to bake\)$/],
    ['a bake of a missing OSM file', 'bake.ts', ['--osm', join(dir, 'nope.osm.pbf'), '--out', join(dir, 'x.ply')], /^error: --osm .*nope\.osm\.pbf: no such file$/],
    ['a scenario with no world', 'make-scenario.ts', ['--from', '0,0', '--to', '5,5'], /^error: --world SEED\|SCENE\.json or --osm FILE: give one \(the world of the scenario\)$/],
    ['a render of a real place with a scene file as --world', 'render.ts', ['--osm', join(dir, 'nope.osm'), '--world', 'a.json', '--out', join(dir, 'x.png')], /^error: --world a\.json: expected an integer seed \(with --osm, the seed of what OSM leaves open\)$/],
    ['a city crowd of 0 walkers', 'crowd.ts', ['--world', '1', '--walkers', '0'], /^error: option '--walkers <n>' argument '0' is invalid/],
    ['a city crowd of negative minutes', 'crowd.ts', ['--world', '1', '--minutes', '-2'], /^error: option '--minutes <m>' argument '-2' is invalid\. expected a number > 0, got '-2'$/],
    ['an unknown condition for matched runs', 'bench.ts', ['--conditions', 'dusk,snow'], /^error: --conditions: unknown condition 'snow': expected day, dusk, night, fog, rain/],
    ['a world size outside 150–2000 m', 'world.ts', ['--seed', '1', '--size', '90', '--json', join(dir, 'w.json')], /^error: option '--size <M>' argument '90' is invalid\. expected metres in \[150, 2000\], got '90'/],
    ['a malformed arena task file', 'arena.ts', ['--suite', bad], /^error: .*bad-suite\.json: format: /],
    ['an unknown arena agent', 'arena.ts', ['--agent', 'oracle', 'gpt9'], /^error: --agent gpt9: unknown agent \(expected one of oracle, random, ocr, openai:MODEL, remote\)$/],
    ['an arena --api-base that is not a URL', 'arena.ts', ['--agent', 'openai:m', '--api-base', 'localhost:8000'], /^error: --api-base localhost:8000: expected an http\(s\) URL such as http:\/\/127\.0\.0\.1:8000\/v1$/],
    ['an unknown arena condition', 'arena.ts', ['--conditions', 'dusk,snow'], /^error: --conditions: unknown condition 'snow': expected day, dusk, night, fog, rain/],
    ['an arena suite that is a folder', 'arena.ts', ['--suite', dir], /^error: --suite .*: a folder, not a task file$/],
    ['an arena task whose start is not on the network', 'arena.ts', ['--suite', badStart, '--out', join(dir, 'bad-start-out')], /^error: .*bad-start\.json: tasks\.0\.start: 0–999999 is not an edge of the pedestrian network of world 1 \(600 m\)/],
    ['an arena task scored against its family', 'arena.ts', ['--suite', wrongScoring], /^error: .*wrong-scoring\.json: tasks\.0\.truth\.scoring: localization is scored by exact_match, not coordinate_match$/],
    ['an arena --out that cannot be created', 'arena.ts', ['--family', 'count', '--out', '/dev/null/x'], /^error: --out \/dev\/null\/x: cannot create it \(\/dev\/null is not a folder\)$/],
    ['an openai agent without a model', 'arena.ts', ['--agent', 'openai:'], /^error: --agent openai:: give the model name, e\.g\. openai:gpt-5$/],
    ['a malformed arena --shard', 'arena.ts', ['--shard', '3/2'], /^error: --shard 3\/2: expected i\/n with 1 <= i <= n/],
    ['an arena suite that does not exist', 'arena.ts', ['--suite', 'nowhere.json'], /^error: --suite nowhere\.json: not a suite \(cityarena, urbanground, monaco-casino, monaco-casino-urbanground\) and no such task file$/],
    ['arena task generation without --out', 'arena-tasks.ts', ['--suite', 'cityarena'], /^error: --out FILE is required to generate a suite \(or pass --stats\)$/],
    ['arena:serve without a world', 'arena-serve.ts', [], /^error: give --suite NAME\|FILE, --tasks DIR, --world SEED or --osm FILE \(what world to serve\)$/],
    ['arena:serve with two worlds that differ', 'arena-serve.ts', ['--suite', 'cityarena', '--world', '2'], /^error: --world 2: names world 2 \(600 m\), but --suite cityarena is set in world 1 \(600 m\)$/],
    ['arena:serve with --origin on a real place', 'arena-serve.ts', ['--suite', 'monaco-casino', '--origin', '47,8'], /^error: --origin: scenes\/cities\/monaco-casino\.json \(centre 43\.7396,7\.4278 size 800\) is a real place; its origin is its selection's centre \(43\.7396, 7\.4278\)$/],
    ['an arena task file whose OSM file changed', 'arena.ts', ['--suite', changedOsmTasks, '--out', join(dir, 'changed-osm-out')], /^error: scenes\/cities\/monaco-casino\.json: md5 [0-9a-f]{32} is not the 0123456789abcdef0123456789abcdef the suite was made from/],
    ['arena:tasks --stats with --osm', 'arena-tasks.ts', ['--stats', '--osm', 'scenes/cities/monaco-casino.json'], /^error: --osm: not with --stats \(the task file names its world\)$/],
    ['arena:serve with a --tasks folder holding no task/', 'arena-serve.ts', ['--tasks', dir], /^error: --tasks .*: no task\/ folder inside \(expected .*\/task\/<ID>\.json, as arena:export writes\)$/],
    ['arena:serve with a bad --origin', 'arena-serve.ts', ['--world', '1', '--origin', '95,10'], /^error: --origin 95,10: latitude 95 is outside -89\.\.89 degrees$/],
    ['arena:serve with a short --token', 'arena-serve.ts', ['--world', '1', '--token', 'abc'], /^error: --token: at least 8 characters$/],
    ['arena:export of a suite without ladder tasks', 'arena-export.ts', ['--suite', 'cityarena', '--out', join(dir, 'export')], /^error: --suite cityarena: no task of a ladder family \(UrbanGround has no kind for 360CityArena's families\)$/],
    ['arena:export to another format', 'arena-export.ts', ['--suite', 'urbanground', '--format', 'habitat', '--out', join(dir, 'export')], /^error: --format habitat: expected urbanground$/],
    ['an --osm file that is not OpenStreetMap', 'world.ts', ['--osm', join(ROOT, 'package.json'), '--json', join(dir, 'w.json')], /^error: .*package\.json: not an OpenStreetMap file \(neither \.osm\.pbf nor OSM XML/],
    ['a truncated .osm.pbf', 'world.ts', ['--osm', truncatedPbf, '--centre', '43.7396,7.4278', '--json', join(dir, 'w.json')], /^error: .*cut\.osm\.pbf: truncated \.osm\.pbf \(blob \d+/],
    ['an OSM file over 2 km without a selection', 'world-map.ts', ['--osm', join(SHARED, 'osm/monaco.osm.pbf'), '--out', join(dir, 'm.png')], /^error: .*monaco\.osm\.pbf: the file's bounds .* over 2 km across: give --centre LAT,LON --size M/],
    ['an OSM extract without --osm', 'osm-extract.ts', ['--centre', '43.7396,7.4278', '--out', join(dir, 'c.json')], /^error: required option '--osm <FILE>' not specified$/],
    ['an OSM extract that is not .json', 'osm-extract.ts', ['--osm', join(SHARED, 'osm/bristol_sausage_links.osm'), '--out', join(dir, 'c.txt')], /^error: --out .*c\.txt: the output must be a \.json file$/],
    ['--centre without --osm', 'world.ts', ['--seed', '1', '--centre', '43.7,7.4', '--json', join(dir, 'w.json')], /^error: --centre: only with --osm FILE$/],
    ['an inventory file that is not .json', 'world.ts', ['--seed', '1', '--json', join(dir, 'w.txt')], /^error: --json .*w\.txt: the output must be a \.json file/],
    ['merging a wheeled robot\'s results with a dog\'s', 'bench-merge.ts', ['--out', join(dir, 'merged'), wheeledOut, dogOut], /^error: the directories hold episodes of different robots \(.*wheeled-out: wheeled; .*dog-out: dog\); merge the runs of one --robot at a time$/],
    ['a bench folder to merge that holds no results', 'bench-merge.ts', ['--out', join(dir, 'merged'), join(dir, 'nowhere')], /^error: .*nowhere: no episodes\.jsonl \(is it a bench --out directory\?\)$/],
    ['a scenario goal that is not x,y', 'make-scenario.ts', ['--world', '1', '--from', '0,0', '--to', '5'], /^error: option '--to <x,y>' argument '5' is invalid\. expected two comma-separated numbers x,y \(metres\), got '5'$/],
    ['a scenario behaviour that does not exist', 'make-scenario.ts', ['--world', '1', '--from', '0,0', '--to', '5,5', '--behaviour', 'dance'], /^error: option '--behaviour <name>' argument 'dance' is invalid\. Allowed choices are static, obstructing, /],
    ['a scenario world that is neither a seed nor a scene', 'make-scenario.ts', ['--world', 'nowhere.json', '--from', '0,0', '--to', '5,5'], /^error: --world nowhere\.json: neither a world seed \(a non-negative integer\) nor a readable scene file \(no such file\)$/],
    ['a real-place suite whose OSM file changed', 'bench.ts', ['--suite', changedOsm, '--policy', 'expert', '--out', join(dir, 'osm-out')], /^error: scenes\/cities\/monaco-casino\.json: md5 [0-9a-f]{32} is not the 0{32} the suite was made from: the file changed/],
    ['a real-place suite without --out', 'make-suites.ts', ['--osm', join(SHARED, 'osm/bristol_sausage_links.osm'), '--centre', '51.4594,-2.5512'], /^error: --osm needs --out FILE\.json \(the suite file to write\)$/],
    ['a scene suite from a scene that does not exist', 'make-suites.ts', ['--scene', 'nowhere.json', '--out', join(dir, 's.json')], /^error: --scene nowhere\.json: cannot read the file \(no such file\)$/],
    ['a map that is not .png', 'world-map.ts', ['--seed', '1', '--out', join(dir, 'm.jpg')], /^error: --out .*m\.jpg: the output must be a \.png file$/],
    ['a map route of an unknown block type', 'world-map.ts', ['--seed', '1', '--out', join(dir, 'm.png'), '--route', 'plaza'], /^error: --route plaza: unknown block type \(expected crosswalk, straight, curve, /],
    ['a bake to a file that is not .ply', 'bake.ts', ['--world', '1', '--out', join(dir, 'w.txt')], /^error: --out .*w\.txt: the output must be a \.ply file/],
    ['a bake at SH degree 5', 'bake.ts', ['--world', '1', '--out', join(dir, 'w.ply'), '--sh-degree', '5'], /^error: --sh-degree: expected 0\.\.3, got '5'$/],
    ['a profile resolution that is not WxH', 'profile.ts', ['--resolutions', '640x'], /^error: --resolutions: expected WxH, got '640x'$/],
    ['a profile of a capture that does not exist', 'profile.ts', ['--scene', 'nowhere.ply'], /^error: nowhere\.ply: no such file$/],
    ['a policy smoke run of 0 steps', 'policy-smoke.ts', ['--steps', '0'], /^error: option '--steps <n>' argument '0' is invalid\. expected an integer in 1\.\.1000, got '0'$/],
    ['example policies given two folders', 'policy-examples.ts', ['a', 'b'], /^error: too many arguments\. Expected 1 argument but got 2\.$/],
    ['bench:splats counts that are not integers', 'bench/splats.ts', ['--counts', '10,x'], /^error: --counts: expected positive integers, got 10,x$/],
    ['bench:pedestrians of an unknown body', 'bench/pedestrians.ts', ['--body', 'robot'], /^error: --body: expected procedural and\/or makehuman, got robot$/],
    ['bench:crowd of an unknown table', 'bench/crowd.ts', ['--tables', 'foo'], /^error: --tables: unknown table foo \(expected orca, batch\)$/],
    ['bench:peers at a size that is not WxH', 'bench/peers.ts', ['--size', '10'], /^error: option '--size <WxH>' argument '10' is invalid\. expected WxH with positive integers such as 320x240, got '10'$/],
    ['bench:world at a size outside 150–2000 m', 'bench/world-scale.ts', ['--sizes', '400,10'], /^error: option '--sizes <m,\.\.\.>' argument '400,10' is invalid\. expected metres in \[150, 2000\], got '10'$/],
    ['bench:signs with no storefronts', 'bench/signs.ts', ['--per-world', '0'], /^error: option '--per-world <N>' argument '0' is invalid\. expected an integer in 1\.\.50, got '0'$/],
    ['bench:look of unknown views', 'bench/look.ts', ['--views', 'sky'], /^error: option '--views <set>' argument 'sky' is invalid\. Allowed choices are robot, storefront, all\.$/],
    ['bench:gpu of an unknown step', 'bench/gpu.ts', ['--steps', 'nope'], /^error: --steps nope: unknown step nope \(expected some of peers, profile, pedestrians, crowd, smoke-envs1, smoke-envs8, arena, arena-images\)$/],
    ['bench:arena of a suite that does not exist', 'bench/arena-images.ts', ['--suite', 'nope'], /^error: --suite nope: not a suite \(cityarena, urbanground, monaco-casino, monaco-casino-urbanground\) and no such task file$/],
  ];
  it('has a case for every `npm run` tool', () => {
    expect(tools().length).toBeGreaterThan(20);
    const covered = new Set(cases.map(([, tool]) => (tool.includes('/') ? tool : `src/cli/${tool}`)));
    expect(tools().map((t) => t.file).filter((file) => !covered.has(file))).toEqual([]);
  });
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
