/**
 * The ladder's levels 1 and 3–5 on the checked-in `urbanground` suite: each family's truth holds
 * against the world (orientation sectors, exploration walks, every place of a kind, stop spacing),
 * the measures on hand-made trajectories (a schedule late or out of order, a multi-stop route's
 * efficiency, a closure crossed before and after its notice), and UrbanGround's fields of every kind
 * and of the matched variants.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../../world/geometry';
import { DEFAULT_GEOREFERENCE, worldToGeodetic } from '../../world/georef';
import { navDistances } from '../network';
import { navIndex } from '../../world/nav-index';
import { dueSecondsAfter, onTimeArrivals, routeEfficiency, scheduleSuccess } from '../scoring';
import { parseTaskFile, type ArenaTask, taskFileWorld } from '../task';
import { taskWorld } from '../generate/context';
import { placeKind, placesOfKind } from '../generate/ladder-common';
import { COMPASS_DIRECTIONS, EXPLORATION_BANDS, EXPLORATION_FAR, ORIENTATION_MARGIN, RELATIVE_DIRECTIONS } from '../generate/ladder-questions';
import { INTENTS, SEARCH_CLEARANCE } from '../generate/ladder-search';
import { STOP_SEPARATION } from '../generate/ladder-plans';
import { CLOSURE_NOTICE_STEPS, PEDESTRIANS_PER_DIFFICULTY } from '../generate/ladder-dynamic';
import { urbanGroundDocument, urbanGroundVariant } from '../control/tasks';
import { bestTour, LadderOracle } from './agent';
import { LadderEpisode, type LadderOutcome } from './episode';

const PATH = resolve(import.meta.dirname, '../../../scenes/arena/urbanground.json');
const file = parseTaskFile(PATH, readFileSync(PATH, 'utf8'));
const world = taskFileWorld(file.world);
const w = taskWorld(world);
const g = DEFAULT_GEOREFERENCE;
const byFamily = (f: string) => file.tasks.filter((t) => t.family === f);
const episode = (t: ArenaTask) => new LadderEpisode(world, w.inventory, g, t);
const deg = 180 / Math.PI;
const wrapDeg = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
const landmark = (id: number | null) => w.inventory.landmarks.find((l) => l.id === id)!;

/** Plays the oracle on an episode to its end. */
async function playOracle(t: ArenaTask, ep = episode(t)): Promise<LadderOutcome> {
  const oracle = new LadderOracle();
  oracle.begin(null, { world, task: t, session: ep.session });
  let out: LadderOutcome | null = null;
  while (!out) out = ep.act((await oracle.act(ep.observation())).action);
  return out;
}

/** Puts the avatar 1 m before the middle of `line` facing across it (operator's teleport, then the agent's look). */
function faceAcross(ep: LadderEpisode, line: readonly Vec2[]): void {
  const [a, b] = line;
  const mid: Vec2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n: Vec2 = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
  const from = worldToGeodetic(g, [mid[0] - n[0], mid[1] - n[1], 0]);
  expect(ep.session.act({ action: 'teleport', lat: from.lat, lon: from.lon })).toMatchObject({ ok: true });
  const heading = (90 - Math.atan2(n[1], n[0]) * deg + 360) % 360;
  ep.act({ action: 'look', yaw: wrapDeg(heading - ep.observation().state.yaw), pitch: 0 });
}

describe('level 1: orientation and exploration questions', () => {
  it('asks where a place in sight lies from the start heading (or by compass when hard), well inside its sector', () => {
    for (const t of byFamily('orientation-qa')) {
      if (t.truth.scoring !== 'choice') throw new Error('not a choice task');
      const l = landmark(t.source.landmark);
      const p = world.nav.nodes[t.start.node];
      const q = world.nav.nodes[t.start.towards];
      const toPlace = Math.atan2(l.entrance[1] - p[1], l.entrance[0] - p[0]) * deg;
      const [options, angle, centres] = t.difficulty === 'hard'
        ? [COMPASS_DIRECTIONS.map((c) => c[0]), 90 - toPlace, COMPASS_DIRECTIONS.map((c) => c[1])]
        : [RELATIVE_DIRECTIONS.map((c) => c[0]), toPlace - Math.atan2(q[1] - p[1], q[0] - p[0]) * deg, RELATIVE_DIRECTIONS.map((c) => c[1])];
      expect(t.truth.options).toEqual(options);
      // The right option's sector holds the bearing with the margin to spare.
      expect(45 - Math.abs(wrapDeg(angle - centres[t.truth.answer]))).toBeGreaterThanOrEqual(ORIENTATION_MARGIN);
    }
  });

  it('asks which shop is within a short walk: the right one is, the other three are far along the network', () => {
    for (const t of byFamily('exploration-qa')) {
      if (t.truth.scoring !== 'choice') throw new Error('not a choice task');
      const d = navDistances(world.nav, t.start.node).dist;
      const walk = (name: string) => Math.min(...w.inventory.landmarks.filter((l) => l.name === name).map((l) => d[l.node]));
      const band = EXPLORATION_BANDS[t.difficulty];
      expect(walk(t.truth.options[t.truth.answer])).toBeLessThanOrEqual(band.walk[1]);
      for (const [k, o] of t.truth.options.entries()) if (k !== t.truth.answer) expect(walk(o)).toBeGreaterThan(Math.max(EXPLORATION_FAR, band.ask));
      expect(t.instruction).toContain(`within a ${band.ask} m walk`);
    }
  });
});

describe('level 3: place search and implicit intent', () => {
  it('counts every place of the kind, asks for none within sight range, and never names the kind in an intent', () => {
    for (const t of [...byFamily('place-search'), ...byFamily('implicit-intent')]) {
      if (t.truth.scoring !== 'arrival_any') throw new Error('not an arrival_any task');
      const places = placesOfKind(w, t.truth.category);
      expect(t.truth.goals.map((x) => x.label)).toEqual(places.map((l) => l.name));
      const p = world.nav.nodes[t.start.node];
      for (const l of places) expect(Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1])).toBeGreaterThanOrEqual(SEARCH_CLEARANCE);
      if (t.family === 'implicit-intent') {
        expect(INTENTS[t.truth.category].some((i) => t.instruction.includes(i))).toBe(true);
        expect(t.instruction.toLowerCase()).not.toContain(t.truth.category);
      }
    }
  });

  it('succeeds at any place of the kind, not only the nearest', () => {
    const t = byFamily('place-search').find((x) => x.truth.scoring === 'arrival_any' && x.truth.goals.length >= 3)!;
    if (t.truth.scoring !== 'arrival_any') throw new Error('not an arrival_any task');
    const far = t.truth.goals.at(-1)!.goal;
    expect(far).not.toEqual(landmark(t.source.landmark).entrance);
    const ep = episode(t);
    const lastLabel = t.truth.goals.at(-1)!.label;
    const node = world.nav.nodes[w.inventory.landmarks.find((l) => l.name === lastLabel)!.node];
    const there = worldToGeodetic(g, [node[0], node[1], 0]);
    expect(ep.session.act({ action: 'teleport', lat: there.lat, lon: there.lon })).toMatchObject({ ok: true });
    const out = ep.act({ action: 'look', yaw: 10, pitch: 0 });
    expect(out).toMatchObject({ status: 'arrived', score: 1 });
    expect(out!.metrics.remainingDistance).toBeLessThanOrEqual(6);
  });
});

describe('level 4: schedules and multi-stop routes', () => {
  it('spaces the stops apart and from the start; due times rise with the walk, five minutes apart at least', () => {
    for (const t of [...byFamily('schedule'), ...byFamily('multi-stop')]) {
      if (t.truth.scoring !== 'schedule' && t.truth.scoring !== 'multi_stop') throw new Error('not a stops task');
      const pts = [world.nav.nodes[t.start.node], ...t.truth.stops.map((s) => s.goal)];
      for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) expect(Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1])).toBeGreaterThanOrEqual(STOP_SEPARATION);
      if (t.truth.scoring === 'schedule') {
        const due = t.truth.stops.map((s) => dueSecondsAfter((t.truth as { startTime: string }).startTime, s.due));
        for (let k = 1; k < due.length; k++) expect(due[k] - due[k - 1]).toBeGreaterThanOrEqual(300);
        expect(t.instruction).toContain(`It is now ${t.truth.startTime}.`);
      }
    }
  });

  it('reads schedule success, lateness and order from the visits (the due minute\'s grace included)', () => {
    const due = [300, 900];
    expect(scheduleSuccess({ reachedAt: [200, 959], orderViolations: 0 }, due)).toBe(1);
    expect(scheduleSuccess({ reachedAt: [200, 960], orderViolations: 0 }, due)).toBe(0);
    expect(onTimeArrivals({ reachedAt: [200, 960], orderViolations: 0 }, due)).toBe(1);
    expect(scheduleSuccess({ reachedAt: [200, 500], orderViolations: 1 }, due)).toBe(0);
    expect(scheduleSuccess({ reachedAt: [200, null], orderViolations: 0 }, due)).toBe(0);
    expect(dueSecondsAfter('23:50', '00:10')).toBe(1200);
  });

  it('keeps the oracle on time, and fails it when every due time is the start', async () => {
    const t = byFamily('schedule').find((x) => x.difficulty === 'hard')!;
    if (t.truth.scoring !== 'schedule') throw new Error('not a schedule');
    const ok = await playOracle(t);
    expect(ok).toMatchObject({ status: 'arrived', score: 1 });
    expect(ok.metrics).toMatchObject({ stopsTotal: 4, stopsReached: 4, onTimeArrivals: 4, orderViolations: 0 });
    const rushed: ArenaTask = { ...t, truth: { ...t.truth, stops: t.truth.stops.map((s) => ({ ...s, due: t.truth.scoring === 'schedule' ? t.truth.startTime : s.due })) } };
    const late = await playOracle(rushed);
    expect(late.score).toBe(0);
    expect(late.metrics.stopsReached).toBe(4);
    expect(late.metrics.onTimeArrivals).toBeLessThan(4);
  });

  it('counts an arrival at a later appointment first as out of order, and says so in the progress line', () => {
    const t = byFamily('schedule')[0];
    if (t.truth.scoring !== 'schedule') throw new Error('not a schedule');
    const ep = episode(t);
    expect(ep.observation().progress).toMatch(new RegExp(`^It is ${t.truth.startTime}\\. Appointments:\\n1\\. ${t.truth.stops[0].label}, due ${t.truth.stops[0].due}: next`));
    // To the waypoint of the second appointment's place (within the radius of its entrance).
    const secondLabel = t.truth.stops[1].label;
    const second = world.nav.nodes[w.inventory.landmarks.find((l) => l.name === secondLabel)!.node];
    const there = worldToGeodetic(g, [second[0], second[1], 0]);
    expect(ep.session.act({ action: 'teleport', lat: there.lat, lon: there.lon })).toMatchObject({ ok: true });
    ep.act({ action: 'look', yaw: 5, pitch: 0 });
    const out = ep.act({ action: 'terminate' });
    expect(out).toMatchObject({ status: 'terminated', score: 0 });
    expect(out!.metrics).toMatchObject({ stopsReached: 0, orderViolations: 1 });
  });

  it('finds the best visiting order and measures the route against it', async () => {
    for (const t of byFamily('multi-stop').slice(0, 4)) {
      if (t.truth.scoring !== 'multi_stop') throw new Error('not a multi-stop task');
      const stops = t.truth.stops.map((s) => s.goal);
      const best = bestTour(world, world.nav.nodes[t.start.node], stops);
      expect(Math.round(best.length * 10) / 10).toBe(t.truth.oracleTour);
      // No order is shorter than the best (every permutation of up to four stops checked by hand).
      const perms = (a: number[]): number[][] => (a.length <= 1 ? [a] : a.flatMap((x, i) => perms([...a.slice(0, i), ...a.slice(i + 1)]).map((r) => [x, ...r])));
      // Each order's length under the same leg model: network walk between the stops' nearest waypoints, plus each stop's straight step off and back on.
      const near = (p: Vec2) => navIndex(world.nav).nodesNear(p, 40)[0];
      const nodes = stops.map(near);
      const off = stops.map((s, k) => Math.hypot(s[0] - world.nav.nodes[nodes[k]][0], s[1] - world.nav.nodes[nodes[k]][1]));
      const lengthOf = (order: number[]) => {
        let len = 0;
        let at = near(world.nav.nodes[t.start.node]);
        for (const [i, k] of order.entries()) {
          len += navDistances(world.nav, at).dist[nodes[k]] + off[k] + (i > 0 ? off[order[i - 1]] : 0);
          at = nodes[k];
        }
        return len;
      };
      const all = perms(stops.map((_, k) => k)).map(lengthOf);
      expect(Math.min(...all)).toBeCloseTo(best.length, 6);
      expect(lengthOf(best.order)).toBeCloseTo(best.length, 6);
    }
    expect(routeEfficiency(300, 400)).toBe(0.75);
    expect(routeEfficiency(300, 0)).toBeNull();
    const t = byFamily('multi-stop')[0];
    const out = await playOracle(t);
    expect(out.metrics.stopsReached).toBe(out.metrics.stopsTotal);
    expect(out.metrics.routeEfficiency).toBeGreaterThan(0.9);
  });
});

describe('level 5: closures after a notice, and pedestrians', () => {
  const dcr = byFamily('dynamic-closure')[0];

  it('neither shows nor enforces the closures before the notice', () => {
    const ep = episode(dcr);
    expect(ep.session.task?.closures).toHaveLength(0);
    faceAcross(ep, dcr.closures![0].line);
    expect(ep.act({ action: 'move', dir: 'forward', seconds: 1.5 })).toBeNull();
    expect(ep.observation().notices.join(' ')).not.toMatch(/NOTICE/);
  });

  it('hands over a one-time notice at its step, then fails a crossing at once', () => {
    const ep = episode(dcr);
    for (let k = 0; k < CLOSURE_NOTICE_STEPS - 1; k++) ep.act({ action: 'look', yaw: 5, pitch: 0 });
    expect(ep.session.task?.closures).toHaveLength(0);
    ep.act({ action: 'look', yaw: 5, pitch: 0 });
    const notice = ep.observation().notices.join(' ');
    expect(notice).toMatch(/^look: .* NOTICE: /);
    for (const c of dcr.closures!) expect(notice).toContain(c.label);
    expect(ep.session.task?.closures).toHaveLength(dcr.closures!.length);
    ep.act({ action: 'look', yaw: 5, pitch: 0 });
    expect(ep.observation().notices.join(' ')).not.toMatch(/NOTICE/);
    faceAcross(ep, dcr.closures![0].line);
    const out = ep.act({ action: 'move', dir: 'forward', seconds: 1.5 });
    expect(out).toMatchObject({ status: 'closure_crossed', score: 0 });
    expect(out!.metrics.closureCrossings).toBe(1);
  });

  it('puts the closures across the way that remains at the notice, and the oracle goes round', async () => {
    for (const t of byFamily('dynamic-closure').filter((x) => x.difficulty === 'hard').slice(0, 3)) {
      expect(t.closureNotice).toEqual({ afterSteps: CLOSURE_NOTICE_STEPS });
      expect(t.closures).toHaveLength(3);
      const out = await playOracle(t);
      expect(out).toMatchObject({ score: 1 });
      expect(out.metrics.closureCrossings).toBe(0);
    }
  });

  it('brings the pedestrians of its difficulty into long navigation', () => {
    for (const t of byFamily('pedestrian-navigation')) expect(t.pedestrians?.count).toBe(PEDESTRIANS_PER_DIFFICULTY[t.difficulty]);
  });
});

describe("UrbanGround's documents of levels 3–5 and the matched variants", () => {
  it('writes each kind\'s own fields', () => {
    const doc = (f: string) => urbanGroundDocument(world, g, byFamily(f)[0])!;
    expect(doc('place-search')).toMatchObject({ type: 3, searchOrigin: expect.any(Object), poiCategory: expect.any(String) });
    expect(doc('place-search').description).toMatch(/^Find an? /);
    expect(doc('implicit-intent')).toMatchObject({ type: 12, exploreStart: expect.any(Object), endPoint: expect.any(Object) });
    expect(doc('schedule')).toMatchObject({ type: 5, scheduleStart: expect.any(Object) });
    expect(doc('schedule').schedule).toHaveLength(byFamily('schedule')[0].truth.scoring === 'schedule' ? 2 : 0);
    expect(doc('multi-stop').multiRouteTargets?.[0]).toMatchObject({ kind: 'poi', note: expect.any(String) });
    expect(doc('dynamic-closure')).toMatchObject({ id: `DCR-${byFamily('dynamic-closure')[0].id}`, type: 12 });
    expect(doc('dynamic-closure').restrictedZones).toHaveLength(1);
    expect(doc('pedestrian-navigation')).toMatchObject({ type: 2, startPoint: expect.any(Object), endPoint: expect.any(Object) });
    // The kind named in a search's description is one of the inventory's.
    expect(placeKind(landmark(byFamily('place-search')[0].source.landmark))).toBe(doc('place-search').poiCategory);
  });

  it('re-prefixes questions and short navigation for dusk, night and rain, and nothing else', () => {
    const lq = urbanGroundDocument(world, g, byFamily('landmark-qa')[0])!;
    const sn = urbanGroundDocument(world, g, byFamily('short-navigation')[0])!;
    const ln = urbanGroundDocument(world, g, byFamily('long-navigation')[0])!;
    expect(urbanGroundVariant(lq, 'dusk')).toEqual({ ...lq, id: lq.id.replace(/^LQ-/, 'EVQ-') });
    expect(urbanGroundVariant(sn, 'night')?.id).toBe(sn.id.replace(/^SN-/, 'NTN-'));
    expect(urbanGroundVariant(sn, 'rain')?.id).toBe(sn.id.replace(/^SN-/, 'RN-'));
    expect(urbanGroundVariant(ln, 'dusk')).toBeNull();
    expect(() => urbanGroundVariant(lq, 'fog')).toThrow(/fog.*dusk, night, rain/);
  });
});
