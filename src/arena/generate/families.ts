/**
 * 360CityArena's seven task families on a Curbside world (paper §3.2; instruction wording from its
 * `prompt_templates.py`): each generator draws a candidate task of a difficulty from the world's
 * inventory and network with its own random stream, or returns null when the draw does not fit
 * (the suite draws again). Ground truth comes from the inventory; what makes a task easy or hard is
 * a measured statistic, documented per family (docs/guide/arena.md).
 */
import type { Rng } from '../../core/random';
import type { Vec2 } from '../../world/geometry';
import type { Landmark } from '../../world/inventory';
import { projectOnPolyline, sampleAt } from '../../world/polyline';
import { navIndex } from '../../world/nav-index';
import { COORDINATE_EPSILON, MAP_NAV_EPSILON } from '../scoring';
import { decisionPoints, navDistances, pathTo, type NavDistances } from '../network';
import type { ArenaTask, CityArenaFamily, Difficulty } from '../task';
import { describeLandmark, type TaskWorld } from './context';
import { numberedDirections, writeDirections } from './directions';
import { EYE_HEIGHT } from '../episode';

/** A drawn task before the suite numbers it and proves it with the oracle (id and step limit unset). */
export type TaskDraft = Omit<ArenaTask, 'id' | 'stepLimit'>;

/** A generator of one family: a draft of `difficulty`, or null. `target` is a per-draw goal (a count, a step number) or null. */
export type FamilyGenerator = (w: TaskWorld, rng: Rng, difficulty: Difficulty, target: number | null) => TaskDraft | null;

/** Shortest-walk bands of the start from the goal per difficulty, metres, for the search families. */
export const SEARCH_BANDS: Record<Difficulty, [number, number]> = { easy: [20, 45], medium: [50, 85], hard: [90, 140] };
/** Path-length bands of map navigation, metres (centred on 360CityArena's 124 / 247 / 347 m means). */
export const MAP_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [100, 150], medium: [215, 280], hard: [310, 390] };
/** Side of the map image of a navigation task, pixels (360CityArena: 640). */
export const MAP_PX = 640;
/** Cells per side of the localization grid (360CityArena: 5 × 5). */
export const GRID_CELLS = 5;

const noSource = { landmark: null, detail: null, pathLength: null, decisionPoints: null, instructionSteps: null };

/** Any node of the network, drawn uniformly. */
function anyNode(w: TaskWorld, rng: Rng): number {
  return rng.int(0, w.world.nav.nodes.length - 1);
}

/** A neighbour of `n` to face at the start: drawn (random heading) or the one of `prefer`. */
function facing(w: TaskWorld, rng: Rng, n: number, prefer?: number): number {
  const adj = w.adj[n];
  if (prefer !== undefined && adj.some((e) => e.to === prefer)) return prefer;
  return adj[rng.int(0, adj.length - 1)].to;
}

/** A node whose walk to the source of `d` lies in [lo, hi] metres, drawn uniformly among them; or null. */
function nodeInBand(d: NavDistances, rng: Rng, [lo, hi]: [number, number]): number | null {
  const pool: number[] = [];
  for (let i = 0; i < d.dist.length; i++) if (d.dist[i] >= lo && d.dist[i] <= hi) pool.push(i);
  return pool.length ? pool[rng.int(0, pool.length - 1)] : null;
}

/** The path from `start` to the goal waypoint `d.source` (reversed tree path). */
function walkTo(d: NavDistances, start: number): number[] {
  return pathTo(d, start)!.reverse();
}

/** A square region around points with a margin, at least `minSide` metres, clipped inside the world. */
function squareAround(w: TaskWorld, pts: readonly Vec2[], margin: number, minSide: number): [number, number, number, number] {
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const side = Math.min(w.world.size, Math.max(minSide, Math.max(...xs) - Math.min(...xs) + 2 * margin, Math.max(...ys) - Math.min(...ys) + 2 * margin));
  const b = w.world.bounds;
  const cx = Math.min(b[2] - side / 2, Math.max(b[0] + side / 2, (Math.max(...xs) + Math.min(...xs)) / 2));
  const cy = Math.min(b[3] - side / 2, Math.max(b[1] + side / 2, (Math.max(...ys) + Math.min(...ys)) / 2));
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return [r(cx - side / 2), r(cy - side / 2), r(cx + side / 2), r(cy + side / 2)];
}

/**
 * Localization: where in a 5 × 5 grid over the city map did you start? Answer `x:N y:N` (0-based, x
 * to the right, y downwards from the top row). No map of the current location (360CityArena: the
 * family without one). Difficulty by how far the start is from the nearest intersection (street
 * names to read): easy ≤ 25 m, medium 25–50 m, hard > 50 m; starts within 8 m of a cell border are
 * not drawn (a border is not something to read off the street).
 */
export const localization: FamilyGenerator = (w, rng, difficulty) => {
  const n = anyNode(w, rng);
  const p = w.world.nav.nodes[n];
  const b = w.world.bounds;
  const cell = (b[2] - b[0]) / GRID_CELLS;
  const gx = (p[0] - b[0]) / cell;
  const gy = (b[3] - p[1]) / cell;
  const border = Math.min(gx - Math.floor(gx), Math.ceil(gx) - gx, gy - Math.floor(gy), Math.ceil(gy) - gy) * cell;
  if (border < 8) return null;
  const near = Math.min(...w.inventory.intersections.map((j) => Math.hypot(j.position[0] - p[0], j.position[1] - p[1])));
  const band = near <= 25 ? 'easy' : near <= 50 ? 'medium' : 'hard';
  if (band !== difficulty) return null;
  return {
    family: 'localization', difficulty,
    instruction: 'Your task is to explore the city and determine your initial starting position. A reference map with a grid overlay is provided in the task reference image. You must pick your answer from this grid: answer "x:[grid_x] y:[grid_y]" with integer indices (x counts columns from the left, y rows from the top, both from 0). Do not output continuous coordinates.',
    start: { node: n, towards: facing(w, rng, n) },
    grantsLocation: false,
    map: { bounds: [...b] as [number, number, number, number], sizePx: MAP_PX, grid: GRID_CELLS },
    referenceView: null,
    truth: { scoring: 'exact_match', cell: { x: Math.floor(gx), y: Math.floor(gy) } },
    source: { ...noSource, detail: `${near.toFixed(1)} m from an intersection` },
  };
};

/** A search target and a start in the band of `difficulty`, or null. */
function searchStart(w: TaskWorld, rng: Rng, difficulty: Difficulty, pool: readonly Landmark[]): { target: Landmark; start: number; path: number[] } | null {
  if (pool.length === 0) return null;
  const target = pool[rng.int(0, pool.length - 1)];
  const d = navDistances(w.world.nav, target.node);
  const start = nodeInBand(d, rng, SEARCH_BANDS[difficulty]);
  return start === null ? null : { target, start, path: walkTo(d, start) };
}

/**
 * Landmark search by language: go to a named landmark (by its name, and its kind and street), start
 * 20–45 / 50–85 / 90–140 m away along the network (easy / medium / hard); scored by the final
 * position within 10 m of its entrance.
 */
export const landmarkLanguage: FamilyGenerator = (w, rng, difficulty) => {
  const s = searchStart(w, rng, difficulty, w.targets);
  if (!s) return null;
  const { target } = s;
  const what = describeLandmark(target);
  return {
    family: 'landmark-language', difficulty,
    instruction: `Your task is to go to ${what}. When you get in front of ${target.name}, use the ANSWER action to confirm completion.\n\nThe goal is not far from the starting point.`,
    start: { node: s.start, towards: facing(w, rng, s.start) },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'coordinate_match', goal: target.entrance, epsilon: COORDINATE_EPSILON },
    source: { ...noSource, landmark: target.id, pathLength: round(pathLength(w, s.path)), decisionPoints: decisionPoints(w.world.nav, s.path) },
  };
};

/** A street viewpoint of `target` for its reference image: a waypoint 6–14 m from its entrance, away from `start`; or null. */
function referenceViewpoint(w: TaskWorld, target: Landmark, start: number): { eye: [number, number, number]; target: [number, number, number] } | null {
  const nodes = w.world.nav.nodes;
  const s = nodes[start];
  const cands = navIndex(w.world.nav)
    .nodesNear(target.entrance, 14)
    .filter((n) => {
      const p = nodes[n];
      const d = Math.hypot(p[0] - target.entrance[0], p[1] - target.entrance[1]);
      return d >= 6 && Math.hypot(p[0] - s[0], p[1] - s[1]) >= 15;
    });
  if (cands.length === 0) return null;
  const p = nodes[cands[Math.floor(cands.length / 2)]];
  const aimHeight = target.kind === 'storefront' ? 2.6 : 1.5;
  return { eye: [p[0], p[1], EYE_HEIGHT], target: [target.entrance[0], target.entrance[1], aimHeight] };
}

/**
 * Landmark search by image: go to the landmark shown in the reference image (rendered from another
 * street viewpoint 6–14 m from it); bands and scoring as by language.
 */
export const landmarkImage: FamilyGenerator = (w, rng, difficulty) => {
  const s = searchStart(w, rng, difficulty, w.targets);
  if (!s) return null;
  const view = referenceViewpoint(w, s.target, s.start);
  if (!view) return null;
  return {
    family: 'landmark-image', difficulty,
    instruction: 'Your task is to go to the landmark shown in the task reference image. When you get in front of the landmark, use the ANSWER action to confirm completion.\n\nThe goal is not far from the starting point.',
    start: { node: s.start, towards: facing(w, rng, s.start) },
    grantsLocation: true, map: null, referenceView: view,
    truth: { scoring: 'coordinate_match', goal: s.target.entrance, epsilon: COORDINATE_EPSILON },
    source: { ...noSource, landmark: s.target.id, pathLength: round(pathLength(w, s.path)), decisionPoints: decisionPoints(w.world.nav, s.path) },
  };
};

const round = (v: number) => Math.round(v * 10) / 10;

function pathLength(w: TaskWorld, path: readonly number[]): number {
  const n = w.world.nav.nodes;
  let l = 0;
  for (let i = 1; i < path.length; i++) l += Math.hypot(n[path[i]][0] - n[path[i - 1]][0], n[path[i]][1] - n[path[i - 1]][1]);
  return l;
}

/**
 * Map navigation: walk from the blue marker to the red one on a map image; shortest walk in
 * 100–150 / 215–280 / 310–390 m (360CityArena's means 124 / 247 / 347 m); scored by the final
 * position within 20 m of the goal.
 */
export const mapNavigation: FamilyGenerator = (w, rng, difficulty) => {
  const goal = anyNode(w, rng);
  const d = navDistances(w.world.nav, goal);
  const start = nodeInBand(d, rng, MAP_NAV_BANDS[difficulty]);
  if (start === null) return null;
  const path = walkTo(d, start);
  const nodes = w.world.nav.nodes;
  const [sp, gp] = [nodes[start], nodes[goal]];
  return {
    family: 'map-navigation', difficulty,
    instruction: 'Your task is to navigate from the starting position to the goal destination using the available actions. A navigation reference map is provided in the task reference image: the BLUE marker indicates your starting position and the RED marker indicates your goal destination. When you reach the goal area, use the ANSWER action to confirm completion.',
    start: { node: start, towards: facing(w, rng, start) },
    grantsLocation: true,
    map: { bounds: squareAround(w, path.map((n) => nodes[n]), 40, 200), sizePx: MAP_PX, start: [sp[0], sp[1]], goal: [gp[0], gp[1]] },
    referenceView: null,
    truth: { scoring: 'coordinate_match', goal: [gp[0], gp[1]], epsilon: MAP_NAV_EPSILON },
    source: { ...noSource, pathLength: round(d.dist[start]), decisionPoints: decisionPoints(w.world.nav, path) },
  };
};

/**
 * Vision-language navigation: follow numbered directions (directions.ts) to a storefront 60–260 m
 * away; `target` is the number of steps wanted (the suite draws them so that the means land on
 * 360CityArena's 4.4 / 5.9 / 7.4); scored by the final position within 10 m of the storefront.
 */
export const vln: FamilyGenerator = (w, rng, difficulty, steps) => {
  const pool = w.targets.filter((l) => l.kind === 'storefront');
  if (pool.length === 0) return null;
  const target = pool[rng.int(0, pool.length - 1)];
  const d = navDistances(w.world.nav, target.node);
  const start = nodeInBand(d, rng, [60, 260]);
  if (start === null) return null;
  const path = walkTo(d, start);
  if (path.length < 3) return null;
  const directions = writeDirections(w, path, target);
  if (steps !== null && directions.length !== steps) return null;
  return {
    family: 'vln', difficulty,
    instruction: `Your task is to follow the directions to reach your destination. Please follow the instructions below:\n\n${numberedDirections(directions)}\n\nOnce you have reached your destination, output the ANSWER action.`,
    start: { node: start, towards: path[1] },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'coordinate_match', goal: target.entrance, epsilon: COORDINATE_EPSILON },
    source: { ...noSource, landmark: target.id, pathLength: round(d.dist[start]), decisionPoints: decisionPoints(w.world.nav, path), instructionSteps: directions.length },
  };
};

/** The relations asked per difficulty: doors to the left (+) or right (−), or across (0). */
const RELATIONS: Record<Difficulty, { doors: number; text: string }[]> = {
  easy: [{ doors: 1, text: 'the store to the left of it' }, { doors: -1, text: 'the store to the right of it' }],
  medium: [{ doors: 2, text: 'the store two doors to the left of it' }, { doors: -2, text: 'the store two doors to the right of it' }, { doors: 0, text: 'the store across the street from it' }],
  hard: [{ doors: 3, text: 'the store three doors to the left of it' }, { doors: -3, text: 'the store three doors to the right of it' }, { doors: 0, text: 'the store across the street from it' }],
};
/** Start bands of the relational family, metres along the network from the anchor. */
const RELATION_BANDS: Record<Difficulty, [number, number]> = { easy: [10, 35], medium: [20, 60], hard: [50, 100] };

/**
 * Relational spatial reasoning: find a storefront and name the one beside it ("two doors to the
 * left", left and right as seen facing its facade from the street) or across the street (the
 * storefront on the other side whose position along the street is within 10 m). The answer is
 * fuzzy-matched against the name and address. Easy: next door, start 10–35 m away; medium: two
 * doors or across, 20–60 m; hard: three doors or across, 50–100 m.
 */
export const relational: FamilyGenerator = (w, rng, difficulty) => {
  const stores = w.targets.filter((l) => l.kind === 'storefront');
  if (stores.length === 0) return null;
  const anchor = stores[rng.int(0, stores.length - 1)];
  const rel = RELATIONS[difficulty][rng.int(0, RELATIONS[difficulty].length - 1)];
  const look: Vec2 = [anchor.position[0] - anchor.entrance[0], anchor.position[1] - anchor.entrance[1]];
  const ll = Math.hypot(look[0], look[1]) || 1;
  const [fx, fy] = [look[0] / ll, look[1] / ll];
  const [lx, ly] = [-fy, fx]; // left as seen facing the facade
  const anchorSide = w.inventory.objects[anchor.id].side;
  let answer: Landmark | undefined;
  if (rel.doors !== 0) {
    const row = w.inventory.objects
      .filter((o) => o.kind === 'building' && o.street === anchor.street && o.side === anchorSide && o.id !== anchor.id)
      .map((o) => ({ o, t: (o.position[0] - anchor.position[0]) * lx + (o.position[1] - anchor.position[1]) * ly, depth: Math.abs((o.position[0] - anchor.position[0]) * fx + (o.position[1] - anchor.position[1]) * fy) }))
      .filter((c) => c.depth < 12 && Math.sign(c.t) === Math.sign(rel.doors))
      .sort((a, b) => Math.abs(a.t) - Math.abs(b.t));
    const k = Math.abs(rel.doors) - 1;
    const hit = row[k];
    if (!hit || Math.abs(hit.t) > 14 * Math.abs(rel.doors)) return null;
    answer = w.targets.find((l) => l.id === hit.o.id && l.kind === 'storefront');
  } else {
    const line = w.inventory.streets.find((s) => s.name === anchor.street);
    if (!line) return null;
    const sa = projectOnPolyline(line.polyline, anchor.entrance[0], anchor.entrance[1]).s;
    answer = stores
      .filter((l) => l.street === anchor.street && w.inventory.objects[l.id].side !== anchorSide && w.inventory.objects[l.id].side !== null)
      .map((l) => ({ l, ds: Math.abs(projectOnPolyline(line.polyline, l.entrance[0], l.entrance[1]).s - sa) }))
      .filter((c) => c.ds <= 10)
      .sort((a, b) => a.ds - b.ds || a.l.id - b.l.id)[0]?.l;
  }
  if (!answer) return null;
  const d = navDistances(w.world.nav, anchor.node);
  const start = nodeInBand(d, rng, RELATION_BANDS[difficulty]);
  if (start === null) return null;
  return {
    family: 'relational', difficulty,
    instruction: `Find a nearby ${anchor.name} and tell me the name of ${rel.text}. ${anchor.name} is right nearby.`,
    start: { node: start, towards: facing(w, rng, start) },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'fuzzy_match', name: answer.name, aliases: answer.address ? [answer.address] : [] },
    source: { ...noSource, landmark: anchor.id, detail: rel.text, pathLength: round(d.dist[start]) },
  };
};

/** Counted kinds and how a person says them. */
const COUNTED: Record<string, string> = { tree: 'trees', lampPost: 'street lamps', bench: 'benches', bin: 'litter bins', hydrant: 'fire hydrants', bollard: 'bollards', storefront: 'shops' };

/**
 * Object count: how many trees / street lamps / benches / litter bins / fire hydrants / bollards /
 * shops along a named street between two cross streets (both sides)? `target` is the count wanted
 * (the suite draws counts whose means land on 360CityArena's 3.5 / 4.6 / 9.0); scored by mean
 * relative accuracy. The start is on the stretch's first metres, facing along it.
 */
export const count: FamilyGenerator = (w, rng, difficulty, wanted) => {
  const inv = w.inventory;
  const street = inv.streets[rng.int(0, inv.streets.length - 1)];
  const line = street.polyline;
  const cross = inv.intersections
    .filter((j) => j.streets.includes(street.name) && j.streets.some((n) => n !== street.name))
    .map((j) => ({ j, s: projectOnPolyline(line, j.position[0], j.position[1]).s, other: j.streets.filter((n) => n !== street.name)[0] }))
    .sort((a, b) => a.s - b.s);
  if (cross.length < 2) return null;
  const k = rng.int(0, cross.length - 2);
  const [a, b] = [cross[k], cross[k + 1]];
  if (b.s - a.s < 40 || a.other === b.other) return null;
  const kinds = Object.keys(COUNTED);
  const kind = kinds[rng.int(0, kinds.length - 1)];
  const inStretch = (p: Vec2) => {
    const pr = projectOnPolyline(line, p[0], p[1]);
    return pr.s > a.s + 5 && pr.s < b.s - 5 && Math.abs(pr.d) < 25;
  };
  const truth = kind === 'storefront'
    ? inv.landmarks.filter((l) => l.kind === 'storefront' && l.street === street.name && inStretch(l.entrance)).length
    : inv.objects.filter((o) => o.kind === kind && o.street === street.name && inStretch(o.position)).length;
  if (wanted !== null && truth !== wanted) return null;
  const at = sampleAt(line, a.s + 8).p;
  const near = navIndex(w.world.nav).nodesNear(at, 15);
  if (near.length === 0) return null;
  const start = near[0];
  const ahead = sampleAt(line, a.s + 20).p;
  const towards = [...w.adj[start]].sort((p, q) => Math.hypot(w.world.nav.nodes[p.to][0] - ahead[0], w.world.nav.nodes[p.to][1] - ahead[1]) - Math.hypot(w.world.nav.nodes[q.to][0] - ahead[0], w.world.nav.nodes[q.to][1] - ahead[1]))[0].to;
  return {
    family: 'count', difficulty,
    instruction: `Your task is to count the number of ${COUNTED[kind]} along ${street.name} between ${a.other} and ${b.other}, on both sides of the street. Count only inside the specified range. Output the answer as a number.`,
    start: { node: start, towards },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'mra', count: truth },
    source: { ...noSource, detail: `${kind} on ${street.name} from ${a.other} to ${b.other}`, pathLength: round(b.s - a.s) },
  };
};

/** The generator of each family. */
export const FAMILY_GENERATORS: Record<CityArenaFamily, FamilyGenerator> = {
  localization, 'landmark-language': landmarkLanguage, 'landmark-image': landmarkImage, 'map-navigation': mapNavigation, vln, relational, count,
};
