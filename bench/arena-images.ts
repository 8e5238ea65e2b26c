/**
 * `npm run bench:arena -- [--suite cityarena] [--per 1] [--gpu] [--no-write]`: what seeing agents
 * wait for in the arena, measured as `npm run arena` renders (src/cli/arena-render.ts), written to
 * bench/RESULTS.md (section `arena-images`):
 *
 * - start-up, once per run: the world and inventory in Node, Chromium and the world view opened in
 *   the page (world generation, the first chunks' bake, the renderer and its pipelines) and its first frame;
 * - entering a task to its first observation (the view at the start, the current-location map, the
 *   task's reference image), for the first `--per` tasks of every family × difficulty, each in a part
 *   of the city not seen before;
 * - one step after entering (walk 1 s, render the step's images).
 */
import { Command } from 'commander';
import { taskWorld } from '../src/arena/generate/context';
import { taskWorldLabel, type ArenaTask } from '../src/arena/task';
import { ArenaEpisode } from '../src/arena/episode';
import { ArenaImageRenderer } from '../src/cli/arena-render';
import { loadArenaSuite } from '../src/cli/arena-suite';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { positiveInt } from '../src/cli/parse';
import { withHarness } from '../src/tools/browser-harness';

export const program = new Command('bench:arena')
  .description("Time seeing agents' images in the arena: start-up, entering a task to its first observation, a step.")
  .option('--suite <NAME|FILE>', 'the suite', 'cityarena')
  .option('--per <N>', 'tasks per family × difficulty', positiveInt(25), 1)
  .option('--gpu', "render with the machine's GPU instead of SwiftShader")
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

const quantile = (v: number[], q: number) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const secs = (ms: number) => (ms / 1000).toFixed(2);

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ suite: string; per: number; gpu?: boolean; write: boolean }>();
  let t = performance.now();
  const { file, world } = await loadArenaSuite(o.suite);
  const w = taskWorld(world);
  const nodeMs = performance.now() - t;
  const picked: ArenaTask[] = [];
  const seen = new Map<string, number>();
  for (const task of file.tasks) {
    const key = `${task.family}|${task.difficulty}`;
    if ((seen.get(key) ?? 0) < o.per && task.family !== 'landmark-qa' && task.family !== 'short-navigation') {
      picked.push(task);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const camera = { width: 640, height: 480, fovYDeg: 60 };
  const rows: (string | number)[][] = [];
  let adapter = '';
  let software = true;
  const launchT0 = performance.now();
  await withHarness({ hardwareGpu: o.gpu }, async (h) => {
    const launchMs = performance.now() - launchT0;
    const r = new ArenaImageRenderer(h, world, w.inventory, camera);
    const enter: number[] = [];
    const step: number[] = [];
    let firstMs = 0;
    for (const [k, task] of picked.entries()) {
      const ep = new ArenaEpisode(world, task, w.names);
      t = performance.now();
      await r.render(ep);
      const ms = performance.now() - t;
      if (k === 0) firstMs = ms;
      else enter.push(ms);
      ep.act({ kind: 'forward', seconds: 1 });
      t = performance.now();
      await r.render(ep);
      step.push(performance.now() - t);
      process.stderr.write(`${k + 1}/${picked.length} ${task.id}: enter ${secs(ms)} s, step ${secs(step[step.length - 1])} s\n`);
    }
    adapter = r.adapter;
    software = !o.gpu || /swiftshader/i.test(adapter);
    await r.close();
    rows.push(['world and inventory (Node)', secs(nodeMs), '', '', '1']);
    rows.push(['Chromium and the page', secs(launchMs), '', '', '1']);
    rows.push(['first task: view opened (world in the page, first bake, renderer) and first observation', secs(firstMs), '', '', '1']);
    rows.push(['entering a later task → first observation', secs(quantile(enter, 0.5)), secs(quantile(enter, 0.9)), secs(Math.max(...enter)), String(enter.length)]);
    rows.push(['a step (walk 1 s → observation)', secs(quantile(step, 0.5)), secs(quantile(step, 0.9)), secs(Math.max(...step)), String(step.length)]);
  });
  const table = markdownTable(['what', 'median s', 'p90 s', 'max s', 'n'], rows);
  const body = [
    `## Arena images: start-up, entering a task, a step (\`npm run bench:arena\`, ${new Date().toISOString().slice(0, 10)})`,
    '',
    machineLine(adapter, software),
    '',
    `Suite ${file.suite} (${taskWorldLabel(file.world)}), ${picked.length} tasks (the first ${o.per} of each family × difficulty), 640×480 views encoded as PNG in the page, the 200 m location map and the reference image drawn in Node.`,
    '',
    table,
  ].join('\n');
  console.log(body);
  if (o.write) writeResultsSection('arena-images', body);
});
