/**
 * End to end: the tools that take `--world SEED` take a real place too, as a user runs them
 * (`npx tsx src/cli/TOOL.ts --osm FILE …`), on the shared Bristol extract (its own bounds, a
 * world built in about a second): `render` (a view in the page, the map in Node), `bake` (a crop
 * into a PLY), `crowd` (the city crowd on the CPU reference) and `scenario` (a route whose file
 * names the OSM world). Each checks real values: the picture is not one colour, the PLY holds the
 * splats printed, the crowd walks without penetrating a building, the scenario's route lies on
 * the place's walkable ground.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../test/shared-data';
import { osmWorldFromOptions } from './osm-option';
import { isWalkable } from '../world/queries';

const ROOT = resolve(import.meta.dirname, '../..');
const BRISTOL = join(SHARED_DATA, 'osm/bristol_sausage_links.osm');
const dir = mkdtempSync(join(tmpdir(), 'curbside-osm-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tool(name: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, `src/cli/${name}.ts`), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 280_000 });
}

/** Standard deviation of a PNG's luminance (0–255). */
function lumaSpread(path: string): number {
  const png = PNG.sync.read(readFileSync(path));
  const l: number[] = [];
  for (let i = 0; i < png.data.length; i += 4) l.push(0.299 * png.data[i] + 0.587 * png.data[i + 1] + 0.114 * png.data[i + 2]);
  const mean = l.reduce((a, b) => a + b, 0) / l.length;
  return Math.sqrt(l.reduce((a, b) => a + (b - mean) ** 2, 0) / l.length);
}

describe('--osm on render, bake, crowd and scenario', () => {
  it('render draws a view of the real place and its map', { timeout: 600_000 }, () => {
    const view = tool('render', ['--osm', BRISTOL, '--width', '64', '--height', '48', '--out', join(dir, 'view.png')]);
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/view\.png: 64×48, [\d,]+ splats in \d+\/\d+ chunks, eye /);
    expect(lumaSpread(join(dir, 'view.png')), 'a view, not one colour').toBeGreaterThan(8);
    const map = tool('render', ['--osm', BRISTOL, '--map', '--width', '96', '--height', '96', '--out', join(dir, 'map.png')]);
    expect(map.status, map.stderr).toBe(0);
    expect(map.stdout).toMatch(/map\.png: map of .*bristol_sausage_links\.osm \(file bounds\), 96×96, \d+\.\d+ m\/px/);
    expect(lumaSpread(join(dir, 'map.png'))).toBeGreaterThan(8);
    // --world with --osm is the seed; a scene file there is refused by name.
    const bad = tool('render', ['--osm', BRISTOL, '--world', 'scene.json', '--out', join(dir, 'bad.png')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe('error: --world scene.json: expected an integer seed (with --osm, the seed of what OSM leaves open)');
  });

  it('bake writes a crop of the real place with the splats it prints; same input, same bytes', { timeout: 600_000 }, () => {
    const world = osmWorldFromOptions({ osm: BRISTOL }, 400)!;
    const [x, y] = world.nav.nodes[0];
    const crop = [x - 10, y - 10, x + 10, y + 10].map((v) => v.toFixed(1)).join(',');
    const outs = [join(dir, 'a.ply'), join(dir, 'b.ply')];
    for (const out of outs) {
      const r = tool('bake', ['--osm', BRISTOL, '--crop', crop, '--sh-degree', '0', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      const printed = Number(/: ([\d,]+) splats, .*bristol_sausage_links\.osm \(file bounds\), \d+ m, Z up/.exec(r.stdout)?.[1].replace(/,/g, ''));
      const header = readFileSync(out).subarray(0, 400).toString('latin1');
      expect(Number(/element vertex (\d+)/.exec(header)?.[1])).toBe(printed);
      expect(printed).toBeGreaterThan(1000);
    }
    const md5 = outs.map((f) => createHash('md5').update(readFileSync(f)).digest('hex'));
    expect(md5[1]).toBe(md5[0]);
  });

  it('crowd walks the city crowd on the real place', { timeout: 600_000 }, () => {
    const out = join(dir, 'crowd.json');
    const r = tool('crowd', ['--osm', BRISTOL, '--walkers', '12', '--minutes', '0.25', '--backend', 'cpu', '--json', out]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.world).toMatch(/bristol_sausage_links\.osm \(file bounds\)$/);
    expect(report.walkers).toBe(12);
    expect(report.propPenetrations).toBe(0);
    expect(report.meanSpeed).toBeGreaterThan(0.5);
    expect(r.stdout).toMatch(/bristol_sausage_links\.osm \(file bounds\) \(cpu\): 12 walkers/);
  });

  it('scenario makes a route on the real place and names it in the file', { timeout: 600_000 }, () => {
    const world = osmWorldFromOptions({ osm: BRISTOL }, 400)!;
    const nodes = world.nav.nodes;
    const from = nodes[0];
    const to = nodes.find((p) => Math.hypot(p[0] - from[0], p[1] - from[1]) > 25 && Math.hypot(p[0] - from[0], p[1] - from[1]) < 40)!;
    const out = join(dir, 'scenario.json');
    const r = tool('make-scenario', ['--osm', BRISTOL, `--from=${from.join(',')}`, `--to=${to.join(',')}`, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(out, 'utf8'));
    expect(s.world).toMatchObject({ kind: 'osm', md5: createHash('md5').update(readFileSync(BRISTOL)).digest('hex'), selection: { kind: 'file' }, seed: 0 });
    expect(s.robot.route.length).toBeGreaterThan(1);
    for (const [px, py] of s.robot.route) expect(isWalkable(world, px, py), `route point ${px},${py} walkable`).toBe(true);
  });
});
