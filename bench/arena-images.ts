import { readFileSync } from 'node:fs';
import { generateWorld } from '../src/world/world';
import { taskWorld } from '../src/arena/generate/context';
import { parseTaskFile } from '../src/arena/task';
import { ArenaEpisode } from '../src/arena/episode';
import { ArenaImageRenderer, arenaMapImage, encodePng } from '../src/cli/arena-render';
import { locationMapSpec } from '../src/arena/map-images';
import { withHarness } from '../src/tools/browser-harness';
import { resolveArenaSuite } from '../src/cli/arena-suite';

const path = resolveArenaSuite('cityarena');
const file = parseTaskFile(path, readFileSync(path, 'utf8'));
let t = performance.now();
const world = generateWorld({ seed: file.world.seed, size: file.world.size });
const w = taskWorld(world);
console.log('world+inventory', (performance.now() - t).toFixed(0));
const ids = ['vln-01', 'vln-02', 'count-03', 'relational-04', 'landmark-language-05', 'map-navigation-06', 'localization-07'];
await withHarness({}, async (h) => {
  const r = new ArenaImageRenderer(h, world, w.inventory, { width: 640, height: 480, fovYDeg: 60 });
  for (const id of ids) {
    const task = file.tasks.find((x) => x.id === id);
    if (!task) { console.log('no', id); continue; }
    const ep = new ArenaEpisode(world, task, w.names);
    const pose = ep.cameraPose();
    const [x, y, z] = pose.eye;
    const target: [number, number, number] = [x + Math.cos(pose.yaw), y + Math.sin(pose.yaw), z];
    await r.view({ eye: [0,0,1.6], target: [1,0,1.6] }).catch(()=>null);
    t = performance.now();
    const f0 = await h.call('renderViewFrame', { session: (r as any).session, orbitDeg: 0, pose: { eye: pose.eye, target } });
    const viewMs = performance.now() - t;
    const firstPage = f0.renderMs;
    t = performance.now();
    const f = await h.call('renderViewFrame', { session: (r as any).session, orbitDeg: 0, pose: { eye: pose.eye, target } });
    const again = performance.now() - t;
    t = performance.now();
    const rgba = Buffer.from(f.rgbaBase64, 'base64');
    encodePng(f.width, f.height, rgba);
    const pngMs = performance.now() - t;
    t = performance.now();
    const spec = locationMapSpec(task, { position: [x, y], yaw: pose.yaw });
    if (spec) arenaMapImage(world, w.inventory, spec);
    const mapMs = performance.now() - t;
    t = performance.now();
    await r.render(ep);
    const fullMs = performance.now() - t;
    console.log(id, { open: r.openMs.toFixed(0), viewMs: viewMs.toFixed(0), firstPage: firstPage.toFixed(0), again: again.toFixed(0), pageRender: f.renderMs.toFixed(0), pngMs: pngMs.toFixed(0), mapMs: mapMs.toFixed(0), fullRender: fullMs.toFixed(0), splats: f.splatCount, chunks: f.chunkCount });
  }
  await r.close();
});
