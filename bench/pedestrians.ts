/**
 * `npm run bench:pedestrians`: pedestrian frame time against pedestrian count at 640×480, with the
 * CPU motion time and per-pass GPU times (skinning, draw), for each body measured side by side in
 * one run (`--body procedural,makehuman`, default both: the built-in procedural body and the
 * shipped MakeHuman set with distance LODs), with the MakeHuman/procedural frame-time ratio per
 * count; written to bench/RESULTS.md (section `pedestrians`) and bench/out/pedestrians.json.
 *
 * Default: 2 timed frames per count (after a warm-up) so the run stays near a minute on a 2-core
 * SwiftShader machine; pass `--frames 10` or more on a GPU.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { withHarness } from '../src/tools/browser-harness';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { CliError } from '../src/core/user-error';

export const program = new Command('bench:pedestrians')
  .description('Pedestrian frame time vs pedestrian count, with motion, skinning and draw times.')
  .option('--counts <n,...>', 'pedestrian counts', '0,10,50,100,250,500')
  .option('--resolution <WxH>', 'image size', '640x480')
  .option('--frames <n>', 'timed frames per count (median reported)', '2')
  .option('--body <list>', 'bodies, comma-separated: procedural, makehuman', 'procedural,makehuman')
  .option('--lod-distances <m,m>', 'MakeHuman LOD switch distances from the eye, metres', '7,15')
  .option('--gpu', "use the machine's GPU instead of SwiftShader")
  .option('--headed', 'show the browser window')
  .option('--no-write', 'print only; leave bench/RESULTS.md unchanged');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ counts: string; resolution: string; frames: string; body: string; lodDistances: string; gpu?: boolean; headed?: boolean; write: boolean }>();
  const bodies = o.body.split(',').map((s) => s.trim());
  if (bodies.length === 0 || bodies.some((b) => b !== 'procedural' && b !== 'makehuman')) throw new CliError(`--body: expected procedural and/or makehuman, got ${o.body}`);
  const lodDistances = o.lodDistances.split(',').map(Number);
  if (lodDistances.length !== 2 || !(lodDistances[0] > 0 && lodDistances[1] > lodDistances[0])) throw new CliError(`--lod-distances: expected two increasing distances, got ${o.lodDistances}`);
  const counts = o.counts.split(',').map((s) => Number(s.trim()));
  const [width, height] = o.resolution.split('x').map(Number);
  if (counts.some((n) => !(Number.isInteger(n) && n >= 0))) throw new CliError(`--counts: expected integers ≥ 0, got ${o.counts}`);
  if (!(width > 0 && height > 0)) throw new CliError(`--resolution: expected WxH, got ${o.resolution}`);
  const frames = Number(o.frames);
  if (!(Number.isInteger(frames) && frames > 0)) throw new CliError(`--frames: expected a positive integer, got ${o.frames}`);
  console.log(`bench:pedestrians: ${counts.length} counts × ${frames} frames at ${width}×${height}`);
  const result = await withHarness({ headed: o.headed, hardwareGpu: o.gpu }, (h) =>
    h.call('runPedestrianBenchmark', { counts, width, height, frames, bodies: bodies as ('procedural' | 'makehuman')[], lodDistances }),
  );
  const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? '–' : v.toFixed(2));
  const procedural = new Map(result.rows.filter((r) => r.body === 'procedural').map((r) => [r.pedestrians, r.frameMs]));
  const table = markdownTable(
    ['body', 'pedestrians', 'walkers per LOD', 'frame ms', 'FPS', '× procedural', 'motion (CPU) ms', 'skinning ms', 'draw ms'],
    result.rows.map((r) => {
      const base = procedural.get(r.pedestrians);
      const ratio = r.body !== 'procedural' && base && r.pedestrians > 0 ? (r.frameMs / base).toFixed(2) : '–';
      return [r.body, r.pedestrians, r.lodCounts.join(' / '), fmt(r.frameMs), (1000 / r.frameMs).toFixed(1), ratio, fmt(r.motionMs), fmt(r.skinningMs), fmt(r.drawMs)];
    }),
  );
  const bodyLine = result.bodies
    .map((b) => `${b.body}: ${b.vertices.map((v, k) => `${v} vertices / ${b.triangles[k]} triangles`).join(', ')}`)
    .join('; ');
  const header = machineLine(result.adapter, result.software);
  console.log(`${header}\n\n${table}`);
  if (o.write) {
    mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./out/pedestrians.json', import.meta.url), JSON.stringify(result, null, 2));
    writeResultsSection(
      'pedestrians',
      `## Pedestrians (\`npm run bench:pedestrians\`), ${new Date().toISOString().slice(0, 10)}\n\n${header}\n\n` +
        `Bodies (${bodyLine}; MakeHuman LODs switch at ${result.lodDistances.join(' m and ')} m from the eye) walking with the procedural gait in front of a robot-eye camera (0.5 m high, 60° vertical FOV) at ${width}×${height}, measured side by side in one run; ` +
        `median of ${frames} frames after a warm-up. Frame ms is submit → onSubmittedWorkDone (skinning + draw, GPU); motion is the CPU gait (update + pose for all pedestrians); ` +
        `skinning = GPU time from an empty timed pass before the skinners to the start of the first draw (forward kinematics + LBS, all LODs); draw = the pedestrian render passes (one per LOD) incl. the clear.\n\n${table}`,
    );
    console.log('wrote bench/RESULTS.md and bench/out/pedestrians.json');
  }
});
