/**
 * What every generator of UrbanGround's ladder families shares (ladder.ts and its siblings): the
 * ladder's defaults (their arrival radius and step limit), the generator contract, and small
 * queries of a task world — line of sight, the edge facing a point, a landmark as a task names it,
 * a start at a given walk from a landmark, the places of a kind.
 */
import type { Rng } from '../../core/random';
import type { Vec2 } from '../../world/geometry';
import type { Landmark } from '../../world/inventory';
import { walkableExtent, zoneAt } from '../../world/queries';
import { nearestStreet } from '../control/surface';
import { SHOP_KINDS } from '../../world/names';
import { decisionPoints, navDistances, pathTo } from '../network';
import { shortestNavPath } from '../../world/nav-index';
import { closedEdges } from '../ladder/agent';
import type { Difficulty } from '../task';
import { describeLandmark, landmarkKindWord, TARGET_REACH, type TaskWorld } from './context';
import type { TaskDraft } from './families';

/** UrbanGround's arrival radius, metres. */
export const ARRIVAL_RADIUS = 15;
/** UrbanGround's step limit. */
export const LADDER_STEP_LIMIT = 150;
/** Closures per difficulty of constrained navigation and closure replanning. */
export const CLOSURES_PER_DIFFICULTY: Record<Difficulty, number> = { easy: 1, medium: 2, hard: 3 };
/** Longest way around the closures, as a multiple of the shortest walk (or of the walk that remained at the notice). */
export const MAX_DETOUR = 2.5;

/** A task's `source` with nothing filled in. */
export const noSource = { landmark: null, detail: null, pathLength: null, decisionPoints: null, instructionSteps: null };
/** Rounds to 0.1. */
export const round = (v: number) => Math.round(v * 10) / 10;
/** An angle wrapped to (−π, π]. */
export const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

/** A generator of a ladder family: a draft of `difficulty`, or null (draw again); async where it plays the oracle (closure replanning). */
export type LadderGenerator = (w: TaskWorld, rng: Rng, difficulty: Difficulty) => TaskDraft | null | Promise<TaskDraft | null>;

/** Whether the straight line from `a` to `b` crosses no building (sampled every 0.5 m, the last `skipEnd` m not checked). */
export function inSight(w: TaskWorld, a: Vec2, b: Vec2, skipEnd: number): boolean {
  const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
  for (let s = 0; s < d - skipEnd; s += 0.5) {
    const t = s / d;
    if (zoneAt(w.world, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) === 'building') return false;
  }
  return true;
}

/** The neighbour of node `n` whose edge points nearest to `towards`. */
export function facingPoint(w: TaskWorld, n: number, towards: Vec2): number {
  const p = w.world.nav.nodes[n];
  const want = Math.atan2(towards[1] - p[1], towards[0] - p[0]);
  let best = w.adj[n][0].to;
  let bestErr = Infinity;
  for (const e of w.adj[n]) {
    const q = w.world.nav.nodes[e.to];
    const err = Math.abs(wrap(Math.atan2(q[1] - p[1], q[0] - p[0]) - want));
    if (err < bestErr) [best, bestErr] = [e.to, err];
  }
  return best;
}

/** A landmark as a task names it (context.ts describeLandmark). */
export const describe = describeLandmark;

/** A start node whose shortest walk to `target` lies in `band`, and that walk (start first); or null. */
export function startInBand(w: TaskWorld, rng: Rng, target: Landmark, band: [number, number]): { start: number; walk: number; path: number[] } | null {
  const d = navDistances(w.world.nav, target.node);
  const pool: number[] = [];
  for (let i = 0; i < d.dist.length; i++) if (d.dist[i] >= band[0] && d.dist[i] <= band[1]) pool.push(i);
  if (pool.length === 0) return null;
  const start = pool[rng.int(0, pool.length - 1)];
  const path = pathTo(d, start);
  return path ? { start, walk: d.dist[start], path: path.reverse() } : null;
}

/**
 * The kind of place a landmark is, as place search asks for it: a storefront's shop kind from its
 * sign (`SHOP_KINDS`, lower case: "pharmacy"), else the landmark kind ("bus stop", "kiosk", …); a
 * real place's from its OSM kind ("pharmacy", "bank", "hotel").
 */
export function placeKind(l: Landmark): string {
  if (l.kind !== 'storefront' || l.osm) return landmarkKindWord(l);
  const word = l.name.split(' ').find((t) => (SHOP_KINDS as readonly string[]).includes(t));
  return word ? word.toLowerCase() : 'shop';
}

/** Every place of `kind` reached from the sidewalk (entrance within the targets' reach of the network), in inventory order. */
export function placesOfKind(w: TaskWorld, kind: string): Landmark[] {
  return w.inventory.landmarks.filter((l) => l.nodeDistance <= TARGET_REACH && placeKind(l) === kind);
}

/** A closure line across the walkable ground at the middle of nav edge `k` (0.5 m past each side), labelled by its street. */
export function closureAcross(w: TaskWorld, k: number): { label: string; line: Vec2[] } {
  const e = w.world.nav.edges[k];
  const [a, b] = [w.world.nav.nodes[e.a], w.world.nav.nodes[e.b]];
  const mid: Vec2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n: Vec2 = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
  const ext = walkableExtent(w.world, mid, n, 8);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const street = nearestStreet(w.inventory, mid)?.name ?? 'a street';
  const kind = e.kind === 'crosswalk' ? 'crossing' : 'sidewalk';
  // Where along the street: the nearest house number on it.
  let by = '';
  let best = 30;
  for (const o of w.inventory.objects) {
    if (o.kind !== 'building' || o.street !== street || !o.name) continue;
    const d = Math.hypot(o.position[0] - mid[0], o.position[1] - mid[1]);
    const m = /^(\d+) /.exec(o.name);
    if (m && d < best) [best, by] = [d, ` by number ${m[1]}`];
  }
  return {
    label: `the ${kind} of ${street}${by}`,
    line: [[r3(mid[0] - n[0] * (ext.right + 0.5)), r3(mid[1] - n[1] * (ext.right + 0.5))], [r3(mid[0] + n[0] * (ext.left + 0.5)), r3(mid[1] + n[1] * (ext.left + 0.5))]],
  };
}

/**
 * Closes `count` edges of the shortest way from node `from` to node `to` (each from the middle third
 * of the way that is then shortest, drawn with `rng`), as closure lines across the walkable ground
 * ({@link closureAcross}); null when an edge cannot be found, no way around is left or it is longer
 * than {@link MAX_DETOUR} × `walk` metres, or a closed edge touches `from` or `to`.
 *
 * @returns the closure lines and the length of the way around them, metres.
 */
export function closeAlong(w: TaskWorld, rng: Rng, way: readonly number[], from: number, to: number, count: number, walk: number): { closures: { label: string; line: Vec2[] }[]; around: number } | null {
  const nav = w.world.nav;
  const edgeOf = (p: number, q: number) => nav.edges.findIndex((e) => (e.a === p && e.b === q) || (e.a === q && e.b === p));
  const closures: { label: string; line: Vec2[] }[] = [];
  let removed = new Set<number>();
  let route = way;
  let around = walk;
  for (let c = 0; c < count; c++) {
    const i = Math.floor(route.length / 3) + rng.int(0, Math.max(0, Math.floor(route.length / 3) - 1));
    const k = edgeOf(route[i], route[i + 1]);
    if (k < 0) return null;
    closures.push(closureAcross(w, k));
    removed = closedEdges(nav, closures);
    const path = shortestNavPath(nav, from, to, { removed });
    if (!path || path.length > MAX_DETOUR * walk) return null;
    route = path.nodes;
    around = path.length;
  }
  if ([...removed].some((k) => [nav.edges[k].a, nav.edges[k].b].some((n) => n === from || n === to))) return null;
  return { closures, around };
}

/**
 * A long walk to a named landmark several streets away, with the map (long navigation; navigation
 * among pedestrians adds its walkers to the same draft): a target and a start whose shortest walk
 * lies in `band` metres, facing a drawn edge; null when none is found.
 */
export function longWalkDraft(w: TaskWorld, rng: Rng, family: 'long-navigation' | 'pedestrian-navigation', difficulty: Difficulty, band: [number, number]): TaskDraft | null {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const s = startInBand(w, rng, target, band);
  if (!s || s.path.length < 2) return null;
  return {
    family, difficulty,
    instruction: `[Long Navigation Task] Walk to ${describe(target)}, several streets away. Open the map to find it and plan your way (no route is drawn for you). Stop (terminate) when you are in front of it; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`,
    start: { node: s.start, towards: w.adj[s.start][rng.int(0, w.adj[s.start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), decisionPoints: decisionPoints(w.world.nav, s.path) },
  };
}
