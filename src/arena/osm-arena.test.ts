/**
 * Arena tasks in real places (issue 43): the checked-in Monaco suites (`scenes/arena/monaco-casino*.json`,
 * made by `npm run arena:tasks -- [--suite urbanground] --osm scenes/cities/monaco-casino.json`) name
 * the extract by its md5, regenerate byte for byte, name real shops and streets, and the oracle
 * solves them; suites made on the two OSM XML files (Bristol's file bounds, 320 m of Borough) are
 * solved by the oracle after a round trip through their text, with what the place cannot hold noted.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldGeoreference, worldToGeodetic } from '../world/georef';
import { readOsm } from '../world/osm/read';
import { registerOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';
import type { World } from '../world/world';
import { OracleAgent } from './agents/oracle';
import { taskWorld } from './generate/context';
import { urbanGroundSuite } from './generate/ladder';
import { cityArenaSuite } from './generate/suite';
import { LadderOracle } from './ladder/agent';
import { runLadderEpisode } from './ladder/run';
import { runArenaEpisode } from './run-episode';
import { checkTaskStarts, isUrbanGroundFamily, parseTaskFile, taskFileText, taskFileWorld, type ArenaTaskFile } from './task';

const ROOT = resolve(import.meta.dirname, '../..');
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const readSuite = (name: string) => {
  const path = resolve(ROOT, 'scenes/arena', name);
  const text = readFileSync(path, 'utf8');
  return { text, file: parseTaskFile(path, text) };
};

/** Registers the world of a task file's OSM ref from the file on disk (as the Node tools do). */
function loadWorld(file: ArenaTaskFile): World {
  const ref = file.world as OsmWorldRef;
  const bytes = readFileSync(resolve(ROOT, ref.path));
  expect(md5(bytes)).toBe(ref.md5);
  return registerOsmWorld(ref, readOsm(bytes, ref.path));
}

/** Plays every task of `file` (or those `pick` keeps) with the oracle and returns the scores. */
async function oracleScores(file: ArenaTaskFile, world: World, pick: (k: number) => boolean = () => true): Promise<number[]> {
  const w = taskWorld(world);
  const scores: number[] = [];
  for (const [k, t] of file.tasks.entries()) {
    if (!pick(k)) continue;
    const r = isUrbanGroundFamily(t.family)
      ? await runLadderEpisode(world, w.inventory, worldGeoreference(world), t, new LadderOracle(), 0)
      : await runArenaEpisode(world, t, new OracleAgent(), w.names, 0);
    scores.push(r.score);
  }
  return scores;
}

describe('the Monaco arena suites', () => {
  const city = readSuite('monaco-casino.json');
  const ladder = readSuite('monaco-casino-urbanground.json');
  const world = loadWorld(city.file);
  const w = taskWorld(world);

  it('name the shipped extract by md5 and selection, carry the ODbL attribution, and regenerate byte for byte', { timeout: 120_000 }, async () => {
    for (const { file } of [city, ladder]) {
      expect(file.world).toMatchObject({ kind: 'osm', path: 'scenes/cities/monaco-casino.json', selection: { kind: 'centre', lat: 43.7396, lon: 7.4278, size: 800 }, seed: 0, furniture: 'osm+generated' });
      expect(file.attribution).toMatch(/OpenStreetMap contributors.*ODbL/);
      checkTaskStarts('monaco', file, world.nav);
    }
    expect([city.file.suite, ladder.file.suite]).toEqual(['cityarena-monaco-casino', 'urbanground-monaco-casino']);
    expect(taskFileText({ ...(await cityArenaSuite(city.file.world)), suite: city.file.suite })).toBe(city.text);
  });

  it('name real shops and streets of Monaco, never a missing address', () => {
    const osmNamed = new Set(w.inventory.landmarks.filter((l) => l.osm).map((l) => l.name));
    expect(osmNamed.size).toBe(w.inventory.landmarks.length);
    for (const name of ['Casino de Monte Carlo', 'Hôtel de Paris', 'Cafe de Paris']) expect(osmNamed.has(name)).toBe(true);
    const texts = [...city.file.tasks, ...ladder.file.tasks].map((t) => t.instruction);
    for (const t of texts) expect(t).not.toMatch(/\bnull\b|\bundefined\b/);
    const named = [...osmNamed].filter((n) => texts.some((t) => t.includes(n)));
    expect(named.length).toBeGreaterThanOrEqual(20);
    expect(texts.some((t) => t.includes('Casino de Monte Carlo, the casino on Avenue de Monte-Carlo'))).toBe(true);
    // A family the place cannot fill is noted, not dropped silently.
    expect(city.file.notes?.some((n) => /relational: 0 of 9 tasks/.test(n))).toBe(true);
  });

  it('are solved by the oracle: every cityarena task, the first task of each ladder family × difficulty', { timeout: 120_000 }, async () => {
    expect((await oracleScores(city.file, world)).every((s) => s === 1)).toBe(true);
    const firsts = new Set<string>();
    const pick = (k: number) => {
      const t = ladder.file.tasks[k];
      const key = `${t.family}/${t.difficulty}`;
      if (firsts.has(key)) return false;
      firsts.add(key);
      return true;
    };
    const scores = await oracleScores(ladder.file, world, pick);
    expect(scores).toHaveLength(39);
    expect(scores.every((s) => s === 1)).toBe(true);
  });

  it('report positions at their real WGS84 coordinates: a start node lies within the 800 m square about Place du Casino', () => {
    const g = worldGeoreference(world);
    expect(g).toEqual({ lat: 43.7396, lon: 7.4278, height: 0 });
    const t = ladder.file.tasks[0];
    const [x, y] = world.nav.nodes[t.start.node];
    const p = worldToGeodetic(g, [x, y, 0]);
    expect(Math.abs(p.lat - 43.7396)).toBeLessThan(400 / 111_000);
    expect(Math.abs(p.lon - 7.4278)).toBeLessThan(400 / (111_000 * Math.cos((43.74 * Math.PI) / 180)));
  });
});

describe('arena suites on the OSM XML files', () => {
  const places: { name: string; ref: OsmWorldRef }[] = [
    { name: 'Bristol (file bounds)', ref: { kind: 'osm', path: '../shared/data/osm/bristol_sausage_links.osm', md5: '', selection: { kind: 'file' }, seed: 0, furniture: 'osm+generated' } },
    { name: 'Borough (320 m)', ref: { kind: 'osm', path: '../shared/data/osm/borough_sausage_links.osm', md5: '', selection: { kind: 'centre', lat: 51.5005, lon: -0.0915, size: 320 }, seed: 0, furniture: 'osm+generated' } },
  ];
  it.each(places)('$name: both suites made, round-tripped through their text and solved by the oracle', { timeout: 120_000 }, async ({ ref: given }) => {
    const bytes = readFileSync(resolve(ROOT, given.path));
    const ref = { ...given, md5: md5(bytes) };
    const world = registerOsmWorld(ref, readOsm(bytes, ref.path));
    for (const make of [cityArenaSuite, urbanGroundSuite]) {
      const made = await make(ref);
      const file = parseTaskFile(ref.path, taskFileText(made));
      expect(file.world).toEqual(ref);
      expect(taskFileWorld(file.world)).toBe(world);
      expect(file.tasks.length).toBeGreaterThanOrEqual(100);
      // Small places cannot fill every family: the shortfall is in the notes, by family and difficulty.
      for (const n of file.notes ?? []) expect(n).toMatch(/^(easy|medium|hard) [a-z-]+: \d+ of \d+ tasks/);
      const scores = await oracleScores(file, world);
      expect(scores.filter((s) => s === 1)).toHaveLength(file.tasks.length);
    }
  });
});
