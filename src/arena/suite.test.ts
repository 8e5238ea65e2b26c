/**
 * The checked-in `cityarena` suite: what the generator makes (byte for byte), seven families × 25 in
 * the paper's splits, every task's truth checked against the world's inventory, every task solved by
 * the oracle within its step limit, and the random agent far below. Generating it twice gives the
 * same text; another seed gives another suite.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectOnPolyline } from '../world/polyline';
import { OracleAgent } from './agents/oracle';
import { RandomAgent } from './agents/random';
import { taskWorld } from './generate/context';
import { cityArenaSuite, DIFFICULTY_SPLIT } from './generate/suite';
import { suiteStatistics } from './generate/stats';
import { runArenaEpisode } from './run-episode';
import { summarise } from './summary';
import { CITYARENA_FAMILIES, parseTaskFile, taskFileText, type ArenaTask, taskFileWorld } from './task';

const PATH = resolve(import.meta.dirname, '../../scenes/arena/cityarena.json');
const text = readFileSync(PATH, 'utf8');
const file = parseTaskFile(PATH, text);
const w = taskWorld(taskFileWorld(file.world));

describe('the cityarena suite', () => {
  it('is what the generator makes, byte for byte, twice; another seed differs', { timeout: 120_000 }, async () => {
    const a = taskFileText(await cityArenaSuite(file.world));
    expect(a).toBe(text);
    const b = taskFileText(await cityArenaSuite({ seed: 2, size: 600 }));
    expect(b).not.toBe(a);
  });

  it('has seven families × 25 in the paper\'s Easy/Medium/Hard splits, with its means where it gives them', () => {
    const s = suiteStatistics(file);
    for (const f of CITYARENA_FAMILIES) expect(Object.values(s.counts[f])).toEqual(DIFFICULTY_SPLIT[f]);
    const stat = (family: string, measure: string) => s.statistics.find((x) => x.family === family && x.measure === measure)!;
    expect(stat('vln', 'instruction steps').measured).toEqual({ easy: 4.44, medium: 5.88, hard: 7.38 });
    expect(stat('count', 'true count').measured).toEqual({ easy: 3.5, medium: 4.63, hard: 9 });
    const path = stat('map-navigation', 'path length, m');
    for (const d of ['easy', 'medium', 'hard'] as const) expect(Math.abs(path.measured[d]! - path.paper![d]) / path.paper![d]).toBeLessThan(0.1);
  });

  it('every truth agrees with the inventory', () => {
    const inv = w.inventory;
    const byId = new Map(inv.landmarks.map((l) => [l.id, l]));
    const b = w.world.bounds;
    const check = (t: ArenaTask) => {
      const tr = t.truth;
      if (t.family === 'localization' && tr.scoring === 'exact_match') {
        const p = w.world.nav.nodes[t.start.node];
        const cell = (b[2] - b[0]) / 5;
        expect(tr.cell).toEqual({ x: Math.floor((p[0] - b[0]) / cell), y: Math.floor((b[3] - p[1]) / cell) });
      } else if ((t.family === 'landmark-language' || t.family === 'landmark-image' || t.family === 'vln') && tr.scoring === 'coordinate_match') {
        const l = byId.get(t.source.landmark!)!;
        expect(tr.goal).toEqual(l.entrance);
        expect(tr.epsilon).toBe(10);
        if (t.family === 'landmark-language') expect(t.instruction).toContain(l.name);
        if (t.family === 'vln') expect(t.instruction).toMatch(new RegExp(`Stop in front of ${l.name} on your (left|right)\\.`));
      } else if (t.family === 'map-navigation' && tr.scoring === 'coordinate_match') {
        expect(w.world.nav.nodes.some((p) => p[0] === tr.goal[0] && p[1] === tr.goal[1])).toBe(true);
        expect(tr.epsilon).toBe(20);
        expect(t.map?.goal).toEqual(tr.goal);
      } else if (t.family === 'relational' && tr.scoring === 'fuzzy_match') {
        const answer = inv.landmarks.find((l) => l.name === tr.name)!;
        const anchor = byId.get(t.source.landmark!)!;
        expect(answer.kind).toBe('storefront');
        expect(answer.street).toBe(anchor.street);
        expect(tr.aliases).toEqual([answer.address]);
      } else if (t.family === 'count' && tr.scoring === 'mra') {
        // Recount from the inventory: the kind on the street between the two cross streets' intersections.
        const [, kind, street, from, to] = /^(\w+) on (.+) from (.+) to (.+)$/.exec(t.source.detail!)!;
        const line = inv.streets.find((s) => s.name === street)!.polyline;
        const sOf = (name: string) => inv.intersections.filter((j) => j.streets.includes(street) && j.streets.includes(name)).map((j) => projectOnPolyline(line, j.position[0], j.position[1]).s);
        const inside = (p: readonly number[]) => sOf(from).some((s0) => sOf(to).some((s1) => {
          const pr = projectOnPolyline(line, p[0], p[1]);
          return pr.s > Math.min(s0, s1) + 5 && pr.s < Math.max(s0, s1) - 5 && Math.abs(pr.d) < 25;
        }));
        const n = kind === 'storefront' ? inv.landmarks.filter((l) => l.kind === 'storefront' && l.street === street && inside(l.entrance)).length : inv.objects.filter((o) => o.kind === kind && o.street === street && inside(o.position)).length;
        expect(n, t.id).toBe(tr.count);
      } else throw new Error(`${t.id}: ${t.family} with ${tr.scoring}`);
    };
    for (const t of file.tasks) check(t);
  });

  it('the oracle solves every task within its step limit; random stays far below', { timeout: 120_000 }, async () => {
    const oracle = [];
    const random = [];
    for (const t of file.tasks) {
      oracle.push(await runArenaEpisode(w.world, t, new OracleAgent(), w.names, 0));
      random.push(await runArenaEpisode(w.world, t, new RandomAgent(7, w.names), w.names, 7));
    }
    for (const r of oracle) expect([r.task, r.status, r.score]).toEqual([r.task, 'answered', 1]);
    for (const r of oracle) if (r.distanceToGoal !== null) expect(r.distanceToGoal, r.task).toBeLessThan(file.tasks.find((t) => t.id === r.task)!.truth.scoring === 'coordinate_match' ? 5 : 0);
    const [o, r] = summarise([...oracle, ...random]);
    expect(o.overall).toBe(100);
    expect(r.overall).toBeLessThan(15);
  });

  it('the same task and actions give the same record', async () => {
    const t = file.tasks.find((x) => x.family === 'vln')!;
    const a = await runArenaEpisode(w.world, t, new RandomAgent(3, w.names), w.names, 3);
    const b = await runArenaEpisode(w.world, t, new RandomAgent(3, w.names), w.names, 3);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
