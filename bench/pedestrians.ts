/**
 * `npm run bench:pedestrians`: pedestrian frame time against pedestrian count at 640×480, with the
 * CPU motion time and per-pass GPU times (skinning, draw), written to bench/RESULTS.md (section
 * `pedestrians`) and bench/out/pedestrians.json.
 *
 * Default: 2 timed frames per count (after a warm-up) so the run stays near a minute on a 2-core
 * SwiftShader machine; pass `--frames 10` or more on a GPU.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { withHarness } from '../src/tools/browser-harness';
import { runCli } from '../src/cli/run-cli';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';

const program = new Command('bench:pedestrians')
  .description('Pedestrian frame time vs pedestrian count, with motion, skinning and draw times.')
  .option('--counts <n,...>', 'pedestrian counts', '0,10,50,100,250,500')
  .option('--resolution <WxH>', 'image size', '640x480')
  .option('--frames <n>', 'timed frames per count (median reported)', '2')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

runCli(async () => {
  program.parse();
  const o = program.opts<{ counts: string; resolution: string; frames: string; gpu?: boolean; headed?: boolean; write: boolean }>();
  const counts = o.counts.split(',').map((s) => Number(s.trim()));
  const [width, height] = o.resolution.split('x').map(Number);
  if (counts.some((n) => !(Number.isInteger(n) && n >= 0))) throw new Error(`--counts: expected integers ≥ 0, got ${o.counts}`);
  if (!(width > 0 && height > 0)) throw new Error(`--resolution: expected WxH, got ${o.resolution}`);
  const frames = Number(o.frames);
  if (!(Number.isInteger(frames) && frames > 0)) throw new Error(`--frames: expected a positive integer, got ${o.frames}`);
  console.log(`bench:pedestrians: ${counts.length} counts × ${frames} frames at ${width}×${height}`);
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, (h) =>
    h.call('runPedestrianBenchmark', { counts, width, height, frames }),
  );
  const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? '–' : v.toFixed(2));
  const table = markdownTable(
    ['pedestrians', 'frame ms', 'FPS', 'motion (CPU) ms', 'skinning ms', 'draw ms'],
    result.rows.map((r) => [r.pedestrians, fmt(r.frameMs), (1000 / r.frameMs).toFixed(1), fmt(r.motionMs), fmt(r.skinningMs), fmt(r.drawMs)]),
  );
  const header = machineLine(result.adapter, result.software);
  console.log(`${header}\n\n${table}`);
  if (o.write) {
    mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./out/pedestrians.json', import.meta.url), JSON.stringify(result, null, 2));
    writeResultsSection(
      'pedestrians',
      `## Pedestrians (\`npm run bench:pedestrians\`), ${new Date().toISOString().slice(0, 10)}\n\n${header}\n\n` +
        `Built-in procedural body (${result.vertices} vertices, ${result.triangles} triangles) walking with the procedural gait in front of a robot-eye camera (0.5 m high, 60° vertical FOV) at ${width}×${height}; ` +
        `median of ${frames} frames after a warm-up. Frame ms is submit → onSubmittedWorkDone (skinning + draw, GPU); motion is the CPU gait (update + pose for all pedestrians); ` +
        `skinning = GPU time from an empty timed pass before \`PedestrianSkinner.encode\` to the start of the draw (forward kinematics + LBS); draw = the pedestrian render pass incl. its clear.\n\n${table}`,
    );
    console.log('wrote bench/RESULTS.md and bench/out/pedestrians.json');
  }
});
