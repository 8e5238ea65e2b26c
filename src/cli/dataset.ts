/**
 * `npm run dataset -- --suite S --out DIR [--robot wheeled|dog|humanoid] [--categories a,b] [--per-category N] [--skip-per-category K] [--seeds N] [--envs B] [--size WxH] [--quality Q] [--perturb] [--fresh]`:
 * records expert rollouts as visual-navigation training data, in the layout the field's training
 * code reads (visualnav-transformer / GNM):
 *
 * ```
 * DIR/<trajectory>/0.jpg, 1.jpg, …        robot-camera frames at the expert's control rate
 * DIR/<trajectory>/traj_data.pkl          {"position": float64 [T, 2] (x, y), "yaw": float64 [T], "goal": [2], "perturbed": [T], "success": [1]}, world frame, metres / radians
 * DIR/data_splits/train/traj_names.txt    one trajectory name per line (about 90 %)
 * DIR/data_splits/test/traj_names.txt     the rest (chosen by a hash of the name: stable as data grows)
 * DIR/dataset.json                        embodiment, camera intrinsics, height, pitch, gait, rate, episodes, Curbside version
 * ```
 *
 * `--robot` picks the embodiment (src/robot/embodiments.ts) that drives and carries the camera: its
 * limits bound the expert, its camera height and pitch replace the default mount's, and a legged
 * robot's gait moves the camera. dataset.json names it (`robot`, with its `gait`); a directory whose
 * dataset.json names another embodiment is refused rather than mixed.
 *
 * Frames come from the robot camera on the GPU as in the bench (`BenchRequest.record`: the default
 * camera mount, city splats and the scenario's pedestrians), one per control step before the
 * expert acts; frame k and row k of `traj_data.pkl` are the same instant. A trajectory is
 * `<scenario id>_r<run>` with `/` as `_`. With `--perturb`, bursts of turn rate are added to the
 * expert's commands (DART-style recovery data, src/policy/command-perturbation.ts) and
 * `perturbed[k]` is 1 where the command after frame k carried one; `success` is 1 when the episode
 * reached its goal. Resumable: a trajectory whose `traj_data.pkl` exists is
 * kept and not run again (kill and rerun loses nothing but the episodes in flight); `--fresh`
 * starts over. Progress as in the bench.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import type { BenchRequest, RecordedFrame } from '../bench/headless-api';
import { pickleFloat64Arrays } from '../bench/numpy-pickle';
import { planJobs } from '../bench/plan';
import { BenchProgress } from '../bench/progress';
import type { EpisodeRecord } from '../bench/episode-record';
import type { RobotName } from '../robot/robot-spec';
import { embodiedMount, robotSpec } from '../robot/embodiments';
import { parseRobotOption, ROBOT_OPTION_HELP } from './robot-option';
import { DEFAULT_CAMERA_MOUNT } from '../policy/manifest';
import { ExpertPolicy } from '../policy/expert-policy';
import { DEFAULT_PERTURBATION } from '../policy/command-perturbation';
import { withHarness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';
import { positiveInt } from './parse';
import { loadSuite, serveScenes } from './suite-inputs';

const ROOT = resolve(import.meta.dirname, '../..');

/** Test share of the trajectories (by name hash). */
const TEST_SHARE = 0.1;

export const program = new Command('dataset')
  .description('Record expert rollouts (robot-camera JPEGs + traj_data.pkl per trajectory) as GNM / visualnav-transformer training data.')
  .option('--suite <name|file>', 'smoke, unit, reactive, long, train, all, or a scenario/suite JSON file', 'smoke')
  .requiredOption('--out <dir>', 'dataset directory')
  .option('--robot <name>', ROBOT_OPTION_HELP, parseRobotOption, 'wheeled' as RobotName)
  .option('--seeds <N>', 'runs per scenario with different seeds', positiveInt(1000), 1)
  .option('--envs <B>', 'environments stepped in lockstep', positiveInt(256), 1)
  .option('--size <WxH>', 'frame size, pixels', '160x120')
  .option('--quality <q>', 'JPEG quality in (0, 1]', '0.9')
  .option('--categories <a,b,…>', 'only scenarios of these categories (e.g. straight,curve,crosswalk)')
  .option('--per-category <N>', 'only the first N scenarios of each category, in suite order', positiveInt(100000))
  .option('--skip-per-category <K>', 'skip the first K scenarios of each category (to keep them for evaluation)', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new CliError(`--skip-per-category: expected a non-negative integer, got '${v}'`);
    return n;
  })
  .option('--perturb', "inject turn-rate bursts into the expert's commands (recovery data; flagged per frame in traj_data.pkl)")
  .option('--fresh', 'delete the directory\'s trajectories first instead of resuming')
  .option('--headed', 'show the browser window')
  .option('--gpu', "use the machine's GPU instead of SwiftShader");

/** The folder name of a trajectory. */
export const trajectoryName = (scenarioId: string, run: number): string => `${scenarioId.replace(/[^\w.-]+/g, '_')}_r${run}`;

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; out: string; robot: RobotName; seeds: number; envs: number; size: string; quality: string; categories?: string; perCategory?: number; skipPerCategory?: number; fresh?: boolean; perturb?: boolean; headed?: boolean; gpu?: boolean }>();
  const size = /^(\d+)x(\d+)$/.exec(o.size);
  if (!size || Number(size[1]) < 8 || Number(size[2]) < 8 || Number(size[1]) > 4096 || Number(size[2]) > 4096) throw new CliError(`--size ${o.size}: expected WxH, 8–4096 pixels each`);
  const [width, height] = [Number(size[1]), Number(size[2])];
  const quality = Number(o.quality);
  if (!(quality > 0 && quality <= 1)) throw new CliError(`--quality ${o.quality}: expected a number in (0, 1]`);
  const out = resolve(o.out);
  const wanted = o.categories?.split(',').map((c) => c.trim()).filter(Boolean);
  const taken = new Map<string, number>();
  const scenarios = loadSuite(o.suite).filter((s) => {
    if (wanted && !wanted.includes(s.category)) return false;
    const n = taken.get(s.category) ?? 0;
    taken.set(s.category, n + 1);
    const skip = o.skipPerCategory ?? 0;
    return n >= skip && (o.perCategory === undefined || n < skip + o.perCategory);
  });
  if (scenarios.length === 0) throw new CliError(`--suite ${o.suite}${wanted ? ` --categories ${o.categories}` : ''}: no scenarios to record`);
  if (o.fresh && existsSync(out)) for (const d of readdirSync(out)) if (existsSync(join(out, d, 'traj_data.pkl')) || d === 'data_splits' || d === 'dataset.json') rmSync(join(out, d), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const robot = robotSpec(o.robot);
  const metaFile = join(out, 'dataset.json');
  const recordedWith = existsSync(metaFile) ? ((JSON.parse(readFileSync(metaFile, 'utf8')) as { robot?: RobotName }).robot ?? 'wheeled') : o.robot;
  if (recordedWith !== o.robot) throw new CliError(`${metaFile}: the dataset was recorded with --robot ${recordedWith}; add to it with that robot, or start again with --fresh (or another --out)`);

  // Done: the trajectories with a traj_data.pkl (written last, after every frame).
  const all = planJobs(scenarios, ['expert'], o.seeds, { index: 1, count: 1 }, new Set()).all;
  const jobs = all.filter((j) => !existsSync(join(out, trajectoryName(j.scenario.id, j.run), 'traj_data.pkl')));
  console.log(`dataset: suite ${o.suite}, robot ${o.robot} (${scenarios.length} scenarios × ${o.seeds} seeds = ${all.length} trajectories), ${jobs.length} to record at ${width}×${height}, in ${out}`);

  const progress = new BenchProgress(jobs.length, all.length - jobs.length);
  const poses = new Map<string, { time: number; x: number; y: number; yaw: number; perturbed: boolean }[]>();
  const goals = new Map(jobs.map((j) => [trajectoryName(j.scenario.id, j.run), j.scenario.robot.goal] as const));
  if (jobs.length > 0) {
    await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, async (h) => {
      await h.page.exposeFunction('curbsideFrame', (f: RecordedFrame) => {
        const name = trajectoryName(f.scenarioId, f.run);
        const dir = join(out, name);
        if (f.step === 0) {
          rmSync(dir, { recursive: true, force: true }); // a trajectory cut short by a kill restarts clean
          mkdirSync(dir, { recursive: true });
          poses.set(name, []);
        }
        writeFileSync(join(dir, `${f.step}.jpg`), Buffer.from(f.jpeg, 'base64'));
        poses.get(name)!.push({ time: f.time, x: f.x, y: f.y, yaw: f.yaw, perturbed: f.perturbed });
      });
      await h.page.exposeFunction('curbsideEpisodeDone', (record: EpisodeRecord) => {
        const name = trajectoryName(record.scenarioId, record.run);
        const p = poses.get(name) ?? [];
        const goal = goals.get(name) ?? [Number.NaN, Number.NaN];
        writeFileSync(join(out, name, 'traj_data.pkl'), pickleFloat64Arrays({
          position: { shape: [p.length, 2], data: p.flatMap((q) => [q.x, q.y]) },
          yaw: { shape: [p.length], data: p.map((q) => q.yaw) },
          goal: { shape: [2], data: goal },
          perturbed: { shape: [p.length], data: p.map((q) => (q.perturbed ? 1 : 0)) },
          success: { shape: [1], data: [record.success ? 1 : 0] },
        }));
        poses.delete(name);
        progress.episode(record.success, `expert ${record.scenarioId}#${record.run} (${p.length} frames)`);
      });
      const scenes = await serveScenes(h.serveFile, jobs.map((j) => j.scenario), true);
      const req: BenchRequest = { jobs, envs: o.envs, crowd: 'gpu', modelFiles: {}, scenes, record: { width, height, quality, perturb: o.perturb ?? false }, robot: o.robot };
      await h.call('runBenchEpisodes', req);
    });
    progress.finish();
  }

  // Splits and metadata over every trajectory in the directory (earlier runs included).
  const names = readdirSync(out).filter((d) => existsSync(join(out, d, 'traj_data.pkl'))).sort();
  const isTest = (n: string) => createHash('sha256').update(n).digest().readUInt32BE(0) / 2 ** 32 < TEST_SHARE;
  for (const [split, keep] of [['train', (n: string) => !isTest(n)], ['test', isTest]] as const) {
    mkdirSync(join(out, 'data_splits', split), { recursive: true });
    writeFileSync(join(out, 'data_splits', split, 'traj_names.txt'), `${names.filter(keep).join('\n')}\n`);
  }
  const frames = names.reduce((s, n) => s + readdirSync(join(out, n)).filter((f) => f.endsWith('.jpg')).length, 0);
  const mount = embodiedMount(robot, DEFAULT_CAMERA_MOUNT);
  const fy = height / 2 / Math.tan((mount.fovYDeg * Math.PI) / 360);
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  writeFileSync(metaFile, `${JSON.stringify({
    format: 'curbside-dataset/1',
    curbside: version,
    suite: o.suite,
    policy: 'expert',
    robot: robot.name,
    perturbation: o.perturb ? { ...DEFAULT_PERTURBATION, note: 'turn-rate bursts added to the expert commands; traj_data.pkl perturbed[k] = 1 where the command after frame k carried one' } : null,
    seeds: o.seeds,
    rateHz: new ExpertPolicy(robot).rateHz,
    camera: { width, height, fx: fy, fy, cx: width / 2, cy: height / 2, fovYDeg: mount.fovYDeg, heightM: mount.height, pitchDeg: mount.pitchDeg, gait: robot.gait },
    frames: { format: 'jpeg', quality },
    poses: 'traj_data.pkl: position [T, 2] (x, y) and yaw [T], world frame (Z up), metres and radians, frame k at row k; goal [2], the scenario goal; perturbed [T], 1 where the command after frame k carried a perturbation burst; success [1], 1 when the episode reached its goal',
    trajectories: names.length,
    frameCount: frames,
  }, null, 2)}\n`);
  console.log(`dataset: ${names.length} trajectories, ${frames} frames; splits in ${join(out, 'data_splits')}, metadata in ${join(out, 'dataset.json')}`);
});
