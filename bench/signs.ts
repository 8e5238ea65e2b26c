/**
 * `npm run bench:signs -- [--per-world 6] [--out bench/out/signs] [--gpu] [--write]`: can tesseract
 * read the storefront signs from the arena's eye? The 5 × 7 bitmap and the DejaVu Sans Bold atlas
 * (the default) sign styles side by side, in the streets as shipped (fine surface detail), in one run, on the default world (seed 1, 400 m) and the arena's
 * (CITYARENA_WORLD: seed 1, 600 m):
 *
 * - viewpoints: storefronts in a seeded order; for each, a standing point on walkable ground at 4, 6,
 *   8 and 10 m (horizontal distance) from the board's centre, as square to the board as possible
 *   (turned off its normal by 0°, ±5°, … ±45°, the first that works), with no obstacle taller than
 *   the eye between it and the board's ends and centre, and the whole board inside the frame; the
 *   first `--per-world` storefronts with a viewpoint at every distance are used (the same
 *   viewpoints for both styles);
 * - the view: 640 × 480, 60° vertical field of view, eye at the arena's EYE_HEIGHT (1.6 m), turned
 *   towards the board's centre and looking up by the least pitch of 0°, 5°, … 40° that frames the
 *   whole board (an arena agent's `look up`; level where it can: tilting up converges the
 *   letters' verticals, and tesseract reads a leaning I as a backslash); the splats of the chunks the arena's view would select (ChunkedWorld's
 *   60 m view distance) baked in Node in the style, rendered by the headless page (a scene view:
 *   the same splat renderer and sky as the arena's first-person view, no pedestrians);
 * - the reading: SignReader (tesseract.js, offline, sparse text, the image in grey) as shipped (local
 *   Sauvola thresholds, the image enlarged 2×, as the arena's `ocr` agent reads), the same at 1×, and
 *   at 1× with tesseract's global Otsu threshold (SignReader's reading before 2026-12-05), which tells
 *   the sign's legibility apart from the reader's: Otsu loses dark lettering on a light board that
 *   sits on a darker facade; exact when the storefront's full name appears in the text, both
 *   lower-cased with whitespace runs made single
 *   spaces (and typographic quotes made straight).
 *
 * Prints the reading table (style, distance, viewpoints, exact reads, rate) and the splat costs
 * (per sign, per world, bake time); writes PNGs of the first storefronts' viewpoints per style and
 * every OCR text (results.json) under `--out`. `--write` also replaces the `signs` section of
 * bench/RESULTS.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { EYE_HEIGHT } from '../src/arena/episode';
import { SignReader } from '../src/arena/agents/sign-reader';
import { CITYARENA_WORLD } from '../src/arena/generate/suite';
import { writePly } from '../src/splats/formats/ply-writer';
import { camera, CAMERA, chooseViewpoints, DISTANCES, type Viewpoint } from './storefront-views';
import { storefrontSign } from '../src/world/bake/buildings';
import { assembleChunks, ChunkedWorld, DEFAULT_CHUNK_SIZE, DEFAULT_VIEW_DISTANCE, selectChunks } from '../src/world/bake/chunks';
import { bakeSign, SIGN_STYLES, type SignStyle } from '../src/world/bake/sign';
import { SplatBuilder } from '../src/world/bake/splat-builder';
import { shopSigns } from '../src/world/names';
import { DEFAULT_WORLD_SIZE, generateWorld, type World } from '../src/world/world';
import { machineLine, markdownTable, writeResultsSection } from '../src/cli/results-file';
import { isEntryPoint, runCli } from '../src/cli/run-cli';
import { positiveInt } from '../src/cli/parse';
import { withHarness } from '../src/tools/browser-harness';

export const program = new Command('bench:signs')
  .description('Tesseract reading rate of storefront names from arena viewpoints at 4–10 m, old and new sign styles side by side.')
  .option('--per-world <N>', 'storefronts per world (4 viewpoints each)', positiveInt(50), 6)
  .option('--out <DIR>', 'folder for the images and results.json', 'bench/out/signs')
  .option('--images <N>', 'storefronts per world whose views are saved as PNG', positiveInt(50), 2)
  .option('--gpu', "render with the machine's GPU instead of SwiftShader")
  .option('--write', 'also write the section `signs` of bench/RESULTS.md');

/** Lower case, whitespace runs as single spaces, typographic quotes straight. */
export function normaliseText(s: string): string {
  return s.toLowerCase().replace(/[‘’`´]/g, "'").replace(/\s+/g, ' ').trim();
}

/** Splats of every chunk of a world in a style, its storefront signs' splats, and the bake time. */
function worldCost(world: World, style: SignStyle): { total: number; signs: number; signSplats: number; maxSign: number; seconds: number } {
  const t0 = performance.now();
  const cw = new ChunkedWorld(world, DEFAULT_CHUNK_SIZE, { signStyle: style });
  let total = 0;
  for (let id = 0; id < cw.grid.nx * cw.grid.ny; id++) total += cw.chunk(id).cloud.count;
  const seconds = (performance.now() - t0) / 1000;
  let signs = 0, signSplats = 0, maxSign = 0;
  for (const [id, text] of shopSigns(world)) {
    const s = storefrontSign(world.obstacles.find((o) => o.id === id)!, world.curbHeight, text, style);
    if (!s) continue;
    const out = new SplatBuilder();
    bakeSign(out, s.layout, s.centre, s.along, [0.5, 0.1, 0.1], [1, 1, 1]);
    signs++;
    signSplats += out.count;
    maxSign = Math.max(maxSign, out.count);
  }
  return { total, signs, signSplats, maxSign, seconds };
}

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const o = program.opts<{ perWorld: number; out: string; images: number; gpu?: boolean; write?: boolean }>();
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const worlds = [generateWorld({ seed: 1, size: DEFAULT_WORLD_SIZE }), generateWorld({ seed: CITYARENA_WORLD.seed, size: CITYARENA_WORLD.size })];
  const costRows: (string | number)[][] = [];
  for (const w of worlds) {
    for (const style of SIGN_STYLES) {
      const c = worldCost(w, style);
      costRows.push([`${w.seed} (${w.size} m)`, style, c.signs, Math.round(c.signSplats / c.signs), c.maxSign, c.signSplats.toLocaleString('en'), c.total.toLocaleString('en'), c.seconds.toFixed(1)]);
      process.stderr.write(`cost: world ${w.seed}/${w.size} ${style}: ${c.total} splats\n`);
    }
  }
  const chosen = worlds.map((w) => ({ world: w, ...chooseViewpoints(w, o.perWorld) }));
  for (const c of chosen) process.stderr.write(`world ${c.world.seed}/${c.world.size}: ${c.views.length} viewpoints; passed over: ${[...c.skipped].map(([k, v]) => `${v} ${k}`).join(', ') || 'none'}\n`);
  const shipped = await SignReader.create();
  const sauvola = await SignReader.create({ binarisation: 'sauvola', scale: 1 });
  const otsu = await SignReader.create({ binarisation: 'otsu', scale: 1 });
  const results: { style: SignStyle; view: Viewpoint; text: string; exact: boolean; sauvolaText: string; sauvolaExact: boolean; otsuText: string; otsuExact: boolean; image?: string }[] = [];
  let adapter = '';
  try {
    await withHarness({ hardwareGpu: o.gpu }, async (h) => {
      for (const { world, views } of chosen) {
        for (const style of SIGN_STYLES) {
          // The chunks the arena's view would draw from each viewpoint, baked in this style.
          const cw = new ChunkedWorld(world, DEFAULT_CHUNK_SIZE, { signStyle: style });
          const ids = [...new Set(views.flatMap((v) => selectChunks(cw.grid, camera(v.eye, v.target), { viewDistance: DEFAULT_VIEW_DISTANCE })))].sort((a, b) => a - b);
          const cloud = assembleChunks(ids.map((id) => cw.chunk(id)));
          const ply = join(out, `world${world.seed}-${world.size}-${style}.ply`);
          const parts: Uint8Array[] = [];
          writePly(cloud, (b) => void parts.push(b.slice()));
          writeFileSync(ply, Buffer.concat(parts));
          const served = await h.serveFile(ply);
          const sceneText = JSON.stringify({ format: 'curbside-scene', version: 2, name: `world ${world.seed} ${style} signs`, capture: `${served.name}`, transform: {}, groundHeight: world.curbHeight, bounds: world.bounds, walkable: { sidewalk: [], crosswalk: [] } });
          const opened = await h.call('openSceneView', { sceneText, sceneName: `${style}.json`, captureUrl: served.url, captureName: served.name, width: CAMERA.width, height: CAMERA.height, fovYDeg: CAMERA.fovYDeg, eye: views[0].eye, target: views[0].target, up: [0, 0, 1] });
          adapter = opened.adapter;
          try {
            const saved = new Set(views.map((v) => v.buildingId).filter((id, k, a) => a.indexOf(id) === k).slice(0, o.images));
            for (const [k, v] of views.entries()) {
              const f = await h.call('renderViewFrame', { session: opened.session, orbitDeg: 0, pose: { eye: v.eye, target: v.target }, encode: { format: 'png' } });
              const png = new Uint8Array(Buffer.from(f.encodedBase64 ?? '', 'base64'));
              const text = (await shipped.read(png)).text;
              const exact = normaliseText(text).includes(normaliseText(v.shop));
              const otsuText = (await otsu.read(png)).text;
              const otsuExact = normaliseText(otsuText).includes(normaliseText(v.shop));
              const sauvolaText = (await sauvola.read(png)).text;
              const sauvolaExact = normaliseText(sauvolaText).includes(normaliseText(v.shop));
              let image: string | undefined;
              if (saved.has(v.buildingId)) {
                image = `w${world.size}-b${v.buildingId}-${v.distance}m-${style}.png`;
                writeFileSync(join(out, image), png);
              }
              results.push({ style, view: v, text, exact, sauvolaText, sauvolaExact, otsuText, otsuExact, image });
              process.stderr.write(`world ${world.size} ${style} ${k + 1}/${views.length} ${v.distance} m "${v.shop}": ${exact ? 'exact' : 'no'} / ${sauvolaExact ? 'exact' : 'no'} / ${otsuExact ? 'exact' : 'no'} (${JSON.stringify(normaliseText(text).slice(0, 50))})\n`);
            }
          } finally {
            await h.call('closeView', { session: opened.session });
            rmSync(ply, { force: true });
          }
        }
      }
    });
  } finally {
    await shipped.terminate();
    await sauvola.terminate();
    await otsu.terminate();
  }
  const rows: (string | number)[][] = [];
  for (const style of SIGN_STYLES) {
    for (const d of [...DISTANCES, 0]) {
      const rs = results.filter((r) => r.style === style && (d === 0 || r.view.distance === d));
      const exact = rs.filter((r) => r.exact).length, local = rs.filter((r) => r.sauvolaExact).length, global = rs.filter((r) => r.otsuExact).length;
      const pct = (k: number) => `${((100 * k) / Math.max(1, rs.length)).toFixed(1)} %`;
      rows.push([style, d === 0 ? 'all' : `${d} m`, rs.length, exact, pct(exact), local, pct(local), global, pct(global)]);
    }
  }
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
  const software = !o.gpu || /swiftshader/i.test(adapter);
  const nViews = chosen.reduce((s, c) => s + c.views.length, 0);
  const body = [
    `## Storefront signs: tesseract's exact reading rate, old and new styles (\`npm run bench:signs\`, ${new Date().toISOString().slice(0, 10)})`,
    '',
    machineLine(adapter, software),
    '',
    `${nViews} viewpoints per style (${chosen.map((c) => `${c.views.length / DISTANCES.length} storefronts of world ${c.world.seed} at ${c.world.size} m`).join(', ')}; each at ${DISTANCES.join(', ')} m), 640×480, 60° vertical field of view, eye ${EYE_HEIGHT} m, turned to the board and tilted up by the least of 0°, 5°, … that frames it; tesseract.js: SignReader as the arena reads (local Sauvola thresholds on the image enlarged 2×), the same at 1×, and at 1× with tesseract's global Otsu threshold (SignReader's reading before 2026-12-05); exact = the full name in the text (case and whitespace normalised). \`bitmap\`: the 5 × 7 font; \`font\`: DejaVu Sans Bold atlas (the default).`,
    '',
    markdownTable(['style', 'distance', 'viewpoints', 'exact (as shipped)', 'rate', 'exact (Sauvola 1×)', 'rate', 'exact (Otsu 1×)', 'rate'], rows),
    '',
    'Splats (every chunk baked in Node; a sign = its board alone):',
    '',
    markdownTable(['world', 'style', 'signs', 'splats per sign (mean)', 'max', 'sign splats', 'world splats', 'bake s'], costRows),
  ].join('\n');
  console.log(body);
  console.log(`\nimages and results.json in ${out}`);
  if (o.write) writeResultsSection('signs', body);
});
