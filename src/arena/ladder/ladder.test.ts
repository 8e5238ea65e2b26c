/**
 * UrbanGround's ladder in the arena: the checked-in `urbanground` suite is what the generator makes
 * byte for byte, every task's truth holds against the world, the oracle solves every task and the
 * random agent stays far below; the episode rules (arrival after a step, terminate, the answer turn,
 * the step limit, refused actions); multiple-choice answers read as UrbanGround's harness reads them;
 * and export to UrbanGround's task schema → re-import gives the same tasks.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GEOREFERENCE, worldToGeodetic } from '../../world/georef';
import { CONDITION_PRESETS } from '../../world/conditions';
import { zoneAt } from '../../world/queries';
import { navDistances } from '../network';
import { parseChoiceAnswer } from '../scoring';
import { parseTaskFile, taskFileText, URBANGROUND_FAMILIES, URBANGROUND_FAMILY_KIND, type ArenaTask, taskFileWorld } from '../task';
import { taskWorld } from '../generate/context';
import { ARRIVAL_RADIUS, INSTRUCTION_NAV_BANDS, LADDER_PER_DIFFICULTY, LONG_NAV_BANDS, SHORT_NAV_BANDS, SHORT_NAV_MIN_DISTANCE, urbanGroundSuite } from '../generate/ladder';
import { controlTaskFromUrbanGround, parseUrbanGroundTask, urbanGroundDocument } from '../control/tasks';
import { summarise } from '../summary';
import { suiteStatistics } from '../generate/stats';
import { LadderOracle, LadderRandom } from './agent';
import { LadderEpisode } from './episode';
import { runLadderEpisode } from './run';

const PATH = resolve(import.meta.dirname, '../../../scenes/arena/urbanground.json');
const text = readFileSync(PATH, 'utf8');
const file = parseTaskFile(PATH, text);
const world = taskFileWorld(file.world);
const w = taskWorld(world);
const g = DEFAULT_GEOREFERENCE;
const byFamily = (f: string) => file.tasks.filter((t) => t.family === f);
const episode = (t: ArenaTask) => new LadderEpisode(world, w.inventory, g, t);

describe('the urbanground suite', () => {
  it('is what the generator makes, byte for byte', { timeout: 120_000 }, async () => {
    expect(taskFileText(await urbanGroundSuite(file.world))).toBe(text);
  });

  it('holds its families in equal splits with UrbanGround\'s radius and step limit', () => {
    for (const f of URBANGROUND_FAMILIES) {
      for (const d of ['easy', 'medium', 'hard']) expect(byFamily(f).filter((t) => t.difficulty === d)).toHaveLength(LADDER_PER_DIFFICULTY);
    }
    expect(file.tasks.every((t) => t.stepLimit === 150)).toBe(true);
    // Per level, with the matched variants of levels 1 and 2 (four conditions each): near UrbanGround's 810.
    const n = 3 * LADDER_PER_DIFFICULTY;
    expect(suiteStatistics(file).levels).toEqual([
      { level: 1, tasks: 3 * n, variants: 12 * n, total: 15 * n }, { level: 2, tasks: 4 * n, variants: 16 * n, total: 20 * n },
      { level: 3, tasks: 2 * n, variants: 0, total: 2 * n }, { level: 4, tasks: 2 * n, variants: 0, total: 2 * n }, { level: 5, tasks: 2 * n, variants: 0, total: 2 * n },
    ]);
  });

  it('asks landmark QA about the storefront nearest the start, with three shops from far away', () => {
    const shops = w.inventory.landmarks.filter((l) => l.kind === 'storefront');
    for (const t of byFamily('landmark-qa')) {
      if (t.truth.scoring !== 'choice') throw new Error('not a choice task');
      const p = world.nav.nodes[t.start.node];
      const dist = (name: string) => Math.min(...shops.filter((l) => l.name === name).map((l) => Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1])));
      const right = t.truth.options[t.truth.answer];
      expect(new Set(t.truth.options).size).toBe(4);
      expect(dist(right)).toBeGreaterThanOrEqual(6);
      expect(dist(right)).toBeLessThanOrEqual(20);
      for (const [k, o] of t.truth.options.entries()) if (k !== t.truth.answer) expect(dist(o)).toBeGreaterThan(80);
    }
  });

  it('sends short navigation to a landmark entrance in sight, in its walking band and over 1.5 radii away', () => {
    for (const t of byFamily('short-navigation')) {
      if (t.truth.scoring !== 'arrival') throw new Error('not an arrival task');
      const target = w.inventory.landmarks.find((l) => l.id === t.source.landmark)!;
      expect(t.truth.goal).toEqual(target.entrance);
      expect(t.truth.radius).toBe(ARRIVAL_RADIUS);
      const [lo, hi] = SHORT_NAV_BANDS[t.difficulty];
      const walk = navDistances(world.nav, target.node).dist[t.start.node];
      expect(walk).toBeGreaterThanOrEqual(lo);
      expect(walk).toBeLessThanOrEqual(hi);
      const p = world.nav.nodes[t.start.node];
      const d = Math.hypot(target.entrance[0] - p[0], target.entrance[1] - p[1]);
      expect(d).toBeGreaterThanOrEqual(SHORT_NAV_MIN_DISTANCE);
      for (let s = 0; s < d - 1.5; s += 0.5) expect(zoneAt(world, p[0] + ((target.entrance[0] - p[0]) * s) / d, p[1] + ((target.entrance[1] - p[1]) * s) / d)).not.toBe('building');
    }
  });

  it('sends long and instruction navigation to a landmark over their walking bands, the latter with numbered directions', () => {
    for (const [family, bands] of [['long-navigation', LONG_NAV_BANDS], ['instruction-navigation', INSTRUCTION_NAV_BANDS]] as const) {
      for (const t of byFamily(family)) {
        if (t.truth.scoring !== 'arrival') throw new Error('not an arrival task');
        const target = w.inventory.landmarks.find((l) => l.id === t.source.landmark)!;
        expect(t.truth.goal).toEqual(target.entrance);
        const walk = navDistances(world.nav, target.node).dist[t.start.node];
        expect(walk).toBeGreaterThanOrEqual(bands[t.difficulty][0]);
        expect(walk).toBeLessThanOrEqual(bands[t.difficulty][1]);
        if (family === 'instruction-navigation') {
          expect(t.instruction).toMatch(/\n1\. /);
          expect(t.instruction).toContain(`${t.source.instructionSteps}. Stop in front of ${target.name}`);
        }
      }
    }
  });

  it('is solved by the oracle, every task; the random agent stays far below', { timeout: 240_000 }, async () => {
    const oracle = [];
    const random = [];
    for (const t of file.tasks) {
      oracle.push(await runLadderEpisode(world, w.inventory, g, t, new LadderOracle(), 0));
      // The random floor without the crowds' cost (150 steps among walkers, per seed): pedestrian navigation is long navigation's floor.
      if (t.family !== 'pedestrian-navigation') for (const seed of [1, 2]) random.push(await runLadderEpisode(world, w.inventory, g, t, new LadderRandom(seed), seed));
    }
    const [o, r] = summarise([...oracle, ...random]);
    expect(o.overall).toBe(100);
    const questions = ['landmark-qa', 'orientation-qa', 'exploration-qa'];
    expect(oracle.filter((x) => !questions.includes(x.family)).every((x) => x.status === 'arrived' || x.status === 'terminated')).toBe(true);
    expect(oracle.every((x) => x.metrics.buildingCollisions === 0)).toBe(true);
    expect(r.overall).toBeLessThan(50);
    // UrbanGround's measures over the navigation episodes: the oracle keeps to the network and the closures.
    expect(o.ladder).toMatchObject({ episodes: file.tasks.filter((t) => t.truth.scoring !== 'choice').length, networkAdherence: 100, closureCompliance: 100, stopsReached: 100, onTime: 100 });
    expect(o.ladder!.levels).toEqual({ 1: 100, 2: 100, 3: 100, 4: 100, 5: 100 });
    expect(o.ladder!.routeEfficiency).toBeGreaterThan(0.9);
    expect(o.ladder!.remainingDistanceRatio).toBeLessThan(0.5);
    expect(r.ladder!.remainingDistanceRatio).toBeGreaterThan(o.ladder!.remainingDistanceRatio!);
  });
});

describe('ladder episodes', () => {
  const sn = byFamily('short-navigation')[0];
  const lq = byFamily('landmark-qa')[0];

  it('end navigation as arrived after the action that enters the radius, scored where the avatar stands', async () => {
    const ep = episode(sn);
    const oracle = new LadderOracle();
    oracle.begin({ taskId: sn.id, family: sn.family, instruction: sn.instruction }, { world, task: sn, session: ep.session });
    let out = null;
    while (!out) out = ep.act((await oracle.act(ep.observation())).action);
    expect(['arrived', 'terminated']).toContain(out.status);
    expect(out.score).toBe(1);
    expect(out.distanceToGoal).toBeLessThanOrEqual(ARRIVAL_RADIUS);
    expect(out.metrics.remainingDistanceRatio).toBeCloseTo((out.distanceToGoal as number) / (out.metrics.originalDistance as number), 9);
    expect(out.metrics.networkAdherence).toBe(1);
  });

  it('score navigation that stops at the start 0, and refuse an answer to it', () => {
    const ep = episode(sn);
    expect(ep.act({ action: 'answer', answer: 'A' })).toBeNull();
    expect(ep.observation().notices[0]).toMatch(/scored where you stop/);
    const out = ep.act({ action: 'terminate' });
    expect(out?.status).toBe('terminated');
    expect(out?.score).toBe(0);
    expect(out?.steps).toBe(0);
  });

  it('do not count a refused action as a step', () => {
    const ep = episode(sn);
    expect(ep.act({ action: 'map_pan', east: 10, north: 0 })).toBeNull();
    expect(ep.observation().step).toBe(0);
    expect(ep.observation().notices[0]).toMatch(/map is not open/);
    // The operator's actions are not the agent's: no teleport to the goal, no computed route.
    expect(ep.act({ action: 'teleport', lat: g.lat, lon: g.lon })).toBeNull();
    expect(ep.observation().notices[0]).toMatch(/^teleport: not an agent's action/);
    expect(ep.act({ action: 'navigate' })).toBeNull();
    ep.act({ action: 'look', yaw: 30, pitch: 0 });
    expect(ep.observation().step).toBe(1);
    expect(ep.steps.map((s) => s.valid)).toEqual([false, false, false, true]);
  });

  it('take one answer after a question\'s exploration, read as UrbanGround reads it', () => {
    if (lq.truth.scoring !== 'choice') throw new Error('not a choice task');
    const right = 'ABCD'[lq.truth.answer];
    const wrong = 'ABCD'[(lq.truth.answer + 1) % 4];
    const ep = episode(lq);
    ep.act({ action: 'look', yaw: 90, pitch: 0 });
    expect(ep.act({ action: 'terminate' })).toBeNull();
    expect(ep.observation().answerTurn).toBe(true);
    expect(ep.observation().options).toEqual(lq.truth.options);
    expect(ep.act({ action: 'move', dir: 'forward', seconds: 1 })).toBeNull();
    const out = ep.act({ action: 'answer', answer: `option ${right.toLowerCase()}` });
    expect(out).toMatchObject({ status: 'answered', score: 1, steps: 1 });
    expect(episode(lq).act({ action: 'answer', answer: wrong })?.score).toBe(0);
    expect(episode(lq).act({ action: 'answer', answer: `${right}.` })?.score).toBe(0);
  });

  it('turn the step limit into the answer turn of a question and the end of a navigation', () => {
    const short = (t: ArenaTask): ArenaTask => ({ ...t, stepLimit: 3 });
    const q = episode(short(lq));
    for (let k = 0; k < 3; k++) expect(q.act({ action: 'look', yaw: 10, pitch: 0 })).toBeNull();
    expect(q.observation().answerTurn).toBe(true);
    const n = episode(short(sn));
    n.act({ action: 'look', yaw: 180, pitch: 0 });
    n.act({ action: 'look', yaw: 10, pitch: 0 });
    expect(n.act({ action: 'look', yaw: 10, pitch: 0 })?.status).toBe('step_limit');
  });

  it('end at once as closure_crossed when a move crosses a closure line of a constrained navigation', () => {
    const cn = byFamily('constrained-navigation')[0];
    const c = cn.closures![0];
    const [a, b] = c.line;
    const mid: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const n: [number, number] = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
    const ep = episode(cn);
    // Put the avatar 1 m before the line, facing across it (the operator's teleport, then the agent's look).
    const from = worldToGeodetic(g, [mid[0] - n[0], mid[1] - n[1], 0]);
    expect(ep.session.act({ action: 'teleport', lat: from.lat, lon: from.lon })).toMatchObject({ ok: true });
    const heading = ((90 - (Math.atan2(n[1], n[0]) * 180) / Math.PI) % 360 + 360) % 360;
    const turn = ((heading - ep.observation().state.yaw + 540) % 360) - 180;
    expect(ep.act({ action: 'look', yaw: turn, pitch: 0 })).toBeNull();
    const out = ep.act({ action: 'move', dir: 'forward', seconds: 1.5 });
    expect(out).toMatchObject({ status: 'closure_crossed', score: 0 });
    expect(out?.metrics.closureCrossings).toBe(1);
    expect(ep.steps.at(-1)?.valid).toBe(true);
    // The oracle's way around never crosses one, and the closures go to UrbanGround as restrictedZones.
    expect(byFamily('constrained-navigation').map((t) => t.closures!.length)).toEqual([1, 2, 3].flatMap((n) => Array(LADDER_PER_DIFFICULTY).fill(n)));
    const doc = urbanGroundDocument(world, g, cn)!;
    expect(doc.restrictedZones?.[0].label).toBe(c.label);
    const back = controlTaskFromUrbanGround(world, g, parseUrbanGroundTask('CN.json', JSON.stringify(doc)), 'CN.json');
    for (const [k, p] of back.closures[0].line.entries()) expect(Math.hypot(p[0] - c.line[k][0], p[1] - c.line[k][1])).toBeLessThan(0.01);
  });

  it('run under a matched condition: its time of day and weather in the state the agent sees', () => {
    const night = new LadderEpisode(world, w.inventory, g, sn, CONDITION_PRESETS.night).observation().state;
    expect([night.time, night.weather, night.is_raining]).toEqual(['23:00:00', 'sunny', false]);
    const rain = new LadderEpisode(world, w.inventory, g, sn, CONDITION_PRESETS.rain);
    expect(rain.observation().state).toMatchObject({ time: '13:00:00', weather: 'rainy', is_raining: true });
    rain.act({ action: 'move', dir: 'forward', seconds: 2 });
    expect(rain.observation().state.rain_exposure_seconds + (rain.observation().state.has_overhead_shelter ? 2 : 0)).toBe(2);
    expect(new LadderEpisode(world, w.inventory, g, sn, CONDITION_PRESETS.fog).observation().state.weather).toBe('foggy');
  });

  it('give the same states and records for the same actions', () => {
    const run = () => {
      const ep = episode(sn);
      for (const a of [{ action: 'look', yaw: -40, pitch: 0 }, { action: 'move', dir: 'forward', seconds: 2 }, { action: 'sprint', dir: 'left', seconds: 0.5 }] as const) ep.act(a);
      return JSON.stringify([ep.steps, ep.observation()]);
    };
    expect(run()).toBe(run());
  });
});

describe('multiple-choice answers', () => {
  it('read a letter A–D alone, or after "option"', () => {
    expect(parseChoiceAnswer('B')).toBe(1);
    expect(parseChoiceAnswer(' b ')).toBe(1);
    expect(parseChoiceAnswer('Option C')).toBe(2);
    expect(parseChoiceAnswer('OPTIOND')).toBe(3);
    for (const bad of ['B.', 'B) bakery', 'E', '', 'AB', 'the answer is A']) expect(parseChoiceAnswer(bad)).toBeNull();
  });
});

describe('export to UrbanGround\'s task schema', () => {
  it('writes their fields and prefixes, and re-imports to the same starts, headings and goals', () => {
    for (const t of file.tasks) {
      const doc = urbanGroundDocument(world, g, t)!;
      const kind = URBANGROUND_FAMILY_KIND[t.family as keyof typeof URBANGROUND_FAMILY_KIND];
      expect(doc.id).toBe(`${kind.prefix}-${t.id}`);
      expect(doc.type).toBe(kind.type);
      const back = controlTaskFromUrbanGround(world, g, parseUrbanGroundTask(`${doc.id}.json`, JSON.stringify(doc)), `${doc.id}.json`);
      const p = world.nav.nodes[t.start.node];
      const q = world.nav.nodes[t.start.towards];
      expect(Math.hypot(back.start.position[0] - p[0], back.start.position[1] - p[1])).toBeLessThan(1e-3);
      expect(Math.abs(Math.atan2(Math.sin(back.start.yaw - Math.atan2(q[1] - p[1], q[0] - p[0])), Math.cos(back.start.yaw - Math.atan2(q[1] - p[1], q[0] - p[0]))))).toBeLessThan(1e-4);
      if (t.truth.scoring === 'arrival') {
        const e = back.endPoints[0].position;
        expect(Math.hypot(e[0] - t.truth.goal[0], e[1] - t.truth.goal[1])).toBeLessThan(1e-3);
        expect(back.endPoints[0].label).toBe(t.truth.label);
      } else if (t.truth.scoring === 'schedule' || t.truth.scoring === 'multi_stop') {
        // Their ordered schedule targets and unordered route targets come back as the end points, in order.
        expect(back.endPoints.map((e) => e.label)).toEqual(t.truth.stops.map((s) => s.label));
        for (const [k, e] of back.endPoints.entries()) expect(Math.hypot(e.position[0] - t.truth.stops[k].goal[0], e.position[1] - t.truth.stops[k].goal[1])).toBeLessThan(1e-3);
      } else if (t.truth.scoring === 'arrival_any') {
        // A place search names no target (they judge the final view); an implicit intent hides one place of the kind.
        expect(doc.poiCategory).toBe(t.truth.category);
        expect(back.endPoints).toHaveLength(t.family === 'place-search' ? 0 : 1);
      } else if (t.truth.scoring === 'choice') {
        expect(doc.qaOptions?.map((o) => o.text)).toEqual(t.truth.options);
        expect(doc.qaAnswerIndex).toBe(t.truth.answer);
      }
    }
  });

  it('skips 360CityArena\'s families', () => {
    const cityarena = parseTaskFile('cityarena.json', readFileSync(resolve(import.meta.dirname, '../../../scenes/arena/cityarena.json'), 'utf8'));
    expect(urbanGroundDocument(world, g, cityarena.tasks[0])).toBeNull();
  });
});
