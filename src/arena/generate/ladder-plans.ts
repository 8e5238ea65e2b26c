/**
 * UrbanGround's level-4 families (multi-task planning, paper §B.4; their SF and MP tasks).
 *
 * - Time-window schedule (SF): 2 / 3 / 4 appointments at named places (easy / medium / hard), each
 *   a 50–150 m walk from the one before, in a fixed order with a due time each. The clock starts at
 *   a drawn time between 08:00 and 16:00 and runs with the moves; each due time is the start plus
 *   the shortest walk so far at walking pace × {@link SCHEDULE_SLACK} + 2 minutes, rounded up to
 *   five minutes (and five minutes after the one before at least). Late or out of order fails
 *   (truth `schedule`).
 * - Multi-stop route (MP): 3 / 3 / 4 named places within a 120 / 200 / 250 m walk of the start, in
 *   any order; the oracle's best tour ({@link bestTour}) is the reference of the route's efficiency
 *   (truth `multi_stop`).
 *
 * Stops stand at least 2 × the arrival radius + 5 m apart and from the start, so that reaching one
 * never counts as reaching another.
 */
import { landmarkWhere } from './context';
import type { Vec2 } from '../../world/geometry';
import type { Landmark } from '../../world/inventory';
import { navDistances } from '../network';
import { WALK_SPEED } from '../walker';
import { bestTour } from '../ladder/agent';
import type { Difficulty } from '../task';
import { ARRIVAL_RADIUS, type LadderGenerator, noSource, placeKind, round } from './ladder-common';

/** Appointments per schedule difficulty. */
export const SCHEDULE_STOPS: Record<Difficulty, number> = { easy: 2, medium: 3, hard: 4 };
/** The walk from one appointment to the next, metres. */
export const SCHEDULE_LEG: [number, number] = [50, 150];
/** Time allowed per second of the shortest walk at walking pace, per difficulty. */
export const SCHEDULE_SLACK: Record<Difficulty, number> = { easy: 2.0, medium: 1.6, hard: 1.3 };
/** Stops per multi-stop difficulty, and the farthest walk of a stop from the start, metres. */
export const MULTI_STOP: Record<Difficulty, { stops: number; within: number }> = { easy: { stops: 3, within: 120 }, medium: { stops: 3, within: 200 }, hard: { stops: 4, within: 250 } };
/** Least straight-line distance between two stops, or a stop and the start, metres. */
export const STOP_SEPARATION = 2 * ARRIVAL_RADIUS + 5;

/** What one does at a place of each kind, for a schedule's appointments. */
const ERRANDS: Record<string, string> = {
  bakery: 'pick up a cake', cafe: 'meet a friend for coffee', pharmacy: 'collect a prescription', books: 'pick up an ordered book',
  hardware: 'buy a drill bit', florist: 'collect a bouquet', grocery: 'buy vegetables', barber: 'have a haircut', laundry: 'drop off shirts',
  deli: 'buy lunch', optician: 'pick up new glasses', tailor: 'collect a suit', 'bus stop': 'meet a friend off the bus', kiosk: 'buy a newspaper',
  // Kinds of real places (OSM values, context.ts osmKindWord).
  bank: 'see an adviser', restaurant: 'have lunch with a client', hotel: 'meet a guest in the lobby', supermarket: 'buy groceries',
  'post office': 'post a parcel', pub: 'meet friends for a drink', 'fast food': 'grab a quick bite', cinema: 'pick up film tickets',
  theatre: 'collect theatre tickets', 'place of worship': 'attend a service', casino: 'meet a friend', attraction: 'meet a tour guide',
};

const far = (p: Vec2, others: readonly Vec2[]) => others.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) >= STOP_SEPARATION);
const clock = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const place = (l: Landmark) => `${l.name} (${landmarkWhere(l)})`;

/** Time-window schedule (see the module comment). */
export const schedule: LadderGenerator = (w, rng, difficulty) => {
  const nodes = w.world.nav.nodes;
  const start = rng.int(0, nodes.length - 1);
  const stops: Landmark[] = [];
  const walks: number[] = [];
  let at = start;
  for (let k = 0; k < SCHEDULE_STOPS[difficulty]; k++) {
    const d = navDistances(w.world.nav, at).dist;
    const taken = [nodes[start], ...stops.map((s) => s.entrance)];
    const pool = w.targets.filter((l) => d[l.node] >= SCHEDULE_LEG[0] && d[l.node] <= SCHEDULE_LEG[1] && !stops.includes(l) && far(l.entrance, taken));
    if (pool.length === 0) return null;
    const next = pool[rng.int(0, pool.length - 1)];
    stops.push(next);
    walks.push(d[next.node]);
    at = next.node;
  }
  const startMinutes = 8 * 60 + 30 * rng.int(0, 16);
  let walked = 0;
  const due: number[] = [];
  for (const wk of walks) {
    walked += wk;
    // Five minutes apart at least: each appointment has its own slot.
    due.push(Math.max(startMinutes + Math.ceil(((walked / WALK_SPEED) * SCHEDULE_SLACK[difficulty] + 120) / 60 / 5) * 5, (due.at(-1) ?? 0) + 5));
  }
  const errand = (s: Landmark) => {
    const e = ERRANDS[placeKind(s)] ?? 'meet a colleague';
    return e[0].toUpperCase() + e.slice(1);
  };
  const lines = stops.map((s, k) => `${k + 1}. ${errand(s)} at ${place(s)}, by ${clock(due[k])}.`);
  return {
    family: 'schedule', difficulty,
    instruction: `[Time-Window Schedule Task] It is now ${clock(startMinutes)}. Your appointments today, in the order you must keep them:\n${lines.join('\n')}\nVisit them in this order and arrive at each by its time (within ${ARRIVAL_RADIUS} m of the place); the clock runs while you walk. Stop (terminate) after the last one.`,
    start: { node: start, towards: w.adj[start][rng.int(0, w.adj[start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'schedule', stops: stops.map((s, k) => ({ goal: s.entrance, label: s.name, due: clock(due[k]) })), radius: ARRIVAL_RADIUS, startTime: clock(startMinutes) },
    source: { ...noSource, landmark: stops[0].id, pathLength: round(walked), detail: `${stops.length} appointments, slack ×${SCHEDULE_SLACK[difficulty]}` },
  };
};

/** Multi-stop route (see the module comment). */
export const multiStop: LadderGenerator = (w, rng, difficulty) => {
  const nodes = w.world.nav.nodes;
  const start = rng.int(0, nodes.length - 1);
  const { stops: n, within } = MULTI_STOP[difficulty];
  const d = navDistances(w.world.nav, start).dist;
  const pool = w.targets.filter((l) => d[l.node] >= STOP_SEPARATION && d[l.node] <= within);
  const stops: Landmark[] = [];
  for (let tries = 0; stops.length < n && tries < 50; tries++) {
    const l = pool[rng.int(0, Math.max(0, pool.length - 1))];
    if (l && !stops.includes(l) && far(l.entrance, [nodes[start], ...stops.map((s) => s.entrance)])) stops.push(l);
  }
  if (stops.length < n) return null;
  let tour: number;
  try {
    tour = bestTour(w.world, nodes[start], stops.map((s) => s.entrance)).length;
  } catch {
    return null;
  }
  const names = stops.map(place);
  return {
    family: 'multi-stop', difficulty,
    instruction: `[Multi-Point Route Planning Task] Today you want to visit ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}. There is no required order: plan the shortest route yourself and visit all ${n}; a place counts as visited within ${ARRIVAL_RADIUS} m of it.`,
    start: { node: start, towards: w.adj[start][rng.int(0, w.adj[start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'multi_stop', stops: stops.map((s) => ({ goal: s.entrance, label: s.name })), radius: ARRIVAL_RADIUS, oracleTour: round(tour) },
    source: { ...noSource, landmark: stops[0].id, pathLength: round(tour), detail: `${n} stops` },
  };
};
