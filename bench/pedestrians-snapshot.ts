/**
 * `npx tsx bench/pedestrians-snapshot.ts [--out bench/out/pedestrians.png]`: renders ~10 seeded
 * pedestrians (walking, talking, a stop gesture, a wave, queue shuffling) on a grey ground plane
 * from a robot-eye camera (0.5 m high) and writes a PNG, to look at the pedestrian pass.
 * `--body procedural|makehuman` picks the body (default the shipped MakeHuman set with LODs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { PNG } from 'pngjs';
import { withHarness } from '../src/tools/browser-harness';
import { runCli } from '../src/cli/run-cli';
import { CliError } from '../src/core/user-error';

const program = new Command('pedestrians-snapshot')
  .option('--out <png>', 'output PNG', 'bench/out/pedestrians.png')
  .option('--count <n>', 'pedestrians', '10')
  .option('--seed <n>', 'crowd seed', '3')
  .option('--time <s>', 'seconds of motion before the frame', '2')
  .option('--width <px>', 'width', '640')
  .option('--height <px>', 'height', '480')
  .option('--body <body>', 'procedural or makehuman (the shipped set with distance LODs)', 'makehuman')
  .option('--lod-distances <m,m>', 'MakeHuman LOD switch distances from the eye, metres', '7,15')
  .option('--gpu', "use the machine's GPU instead of SwiftShader");

runCli(async () => {
  program.parse();
  const o = program.opts<{ out: string; count: string; seed: string; time: string; width: string; height: string; body: string; lodDistances: string; gpu?: boolean }>();
  if (o.body !== 'procedural' && o.body !== 'makehuman') throw new CliError(`--body: expected procedural or makehuman, got ${o.body}`);
  const r = await withHarness({ hardwareGpu: o.gpu }, (h) =>
    h.call('renderPedestrianSnapshot', { width: Number(o.width), height: Number(o.height), count: Number(o.count), seed: Number(o.seed), time: Number(o.time), body: o.body as 'procedural' | 'makehuman', lodDistances: o.lodDistances.split(',').map(Number) }),
  );
  const png = new PNG({ width: r.width, height: r.height });
  png.data = Buffer.from(r.rgbaBase64, 'base64');
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, PNG.sync.write(png));
  console.log(`${o.out}: ${r.width}×${r.height}, ${o.count} ${o.body} pedestrians, ${r.adapter}`);
});
