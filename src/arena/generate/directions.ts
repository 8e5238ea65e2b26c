/**
 * Walking directions written from a route on the pedestrian network, in 360CityArena's style
 * (numbered imperative steps: "1. Go straight. 2. Turn left at the second intersection. … 8. Stop in
 * front of LAOX on your right."; its `language_guided_navigation.csv`).
 *
 * The route's turns are the vertices of its polyline simplified to 2 m (Douglas–Peucker) that turn
 * by at least {@link TURN_DEG}; turns closer than 8 m merge (a rounded corner). Crossings are runs of
 * crosswalk edges, named by the street they cross. An intersection (the inventory's junctions) is
 * passed when the route comes within {@link INTERSECTION_REACH} of its centre; "the second
 * intersection" counts those passed since the previous step.
 */
import type { Vec2 } from '../../world/geometry';
import type { Landmark } from '../../world/inventory';
import { navIndex } from '../../world/nav-index';
import { edgeYaw, ordinal, sideOf, type TaskWorld } from './context';

/** Least bend of the simplified route that is a turn, degrees. */
export const TURN_DEG = 40;
/** Distance from a junction centre within which the route passes that intersection, metres. */
export const INTERSECTION_REACH = 18;
/** A straight run longer than this gets its own "Go straight." step, metres. */
const LONG_RUN = 60;

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** Indices of the vertices Douglas–Peucker keeps at tolerance `tol` metres. */
function simplify(pts: readonly Vec2[], tol: number): number[] {
  const keep = new Set<number>([0, pts.length - 1]);
  const stack: [number, number][] = [[0, pts.length - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    const [a, b] = [pts[i], pts[j]];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    let best = -1;
    let far = tol;
    for (let k = i + 1; k < j; k++) {
      const p = pts[k];
      const d = l > 0 ? Math.abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / l : Math.hypot(p[0] - a[0], p[1] - a[1]);
      if (d > far) { far = d; best = k; }
    }
    if (best >= 0) {
      keep.add(best);
      stack.push([i, best], [best, j]);
    }
  }
  return [...keep].sort((x, y) => x - y);
}

type RouteEvent = { s: number; kind: 'turn'; dir: 'left' | 'right' } | { s: number; kind: 'cross'; street: string; end: number };

/**
 * The numbered directions for walking `path` (waypoints) to `target`, as steps without numbers.
 *
 * @throws RangeError for a path of fewer than two waypoints.
 */
export function writeDirections(w: TaskWorld, path: readonly number[], target: Landmark): string[] {
  if (path.length < 2) throw new RangeError('directions: a route needs two waypoints');
  const nav = w.world.nav;
  const pts = path.map((n) => nav.nodes[n]);
  const s: number[] = [0];
  for (let i = 1; i < pts.length; i++) s.push(s[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
  const total = s[s.length - 1];

  // Turns: bends of the simplified polyline, near ones merged.
  const keep = simplify(pts, 2);
  const bends: { s: number; turn: number }[] = [];
  for (let k = 1; k < keep.length - 1; k++) {
    const [a, b, c] = [pts[keep[k - 1]], pts[keep[k]], pts[keep[k + 1]]];
    bends.push({ s: s[keep[k]], turn: wrap(Math.atan2(c[1] - b[1], c[0] - b[0]) - Math.atan2(b[1] - a[1], b[0] - a[0])) });
  }
  const merged: { s: number; turn: number }[] = [];
  for (const b of bends) {
    const last = merged[merged.length - 1];
    if (last && b.s - last.s < 8) last.turn = wrap(last.turn + b.turn);
    else merged.push({ ...b });
  }
  const events: RouteEvent[] = merged.filter((b) => Math.abs(b.turn) >= (TURN_DEG * Math.PI) / 180).map((b) => ({ s: b.s, kind: 'turn', dir: b.turn > 0 ? 'left' : 'right' }));

  // Crossings: runs of crosswalk edges, named by the nearest crosswalk's street.
  const { edgeBetween } = navIndex(nav);
  for (let i = 1; i < path.length; i++) {
    if (nav.edges[edgeBetween(path[i - 1], path[i])!].kind !== 'crosswalk') continue;
    const start = i - 1;
    while (i + 1 < path.length && nav.edges[edgeBetween(path[i], path[i + 1])!].kind === 'crosswalk') i++;
    const mid: Vec2 = [(pts[start][0] + pts[i][0]) / 2, (pts[start][1] + pts[i][1]) / 2];
    const cw = [...w.inventory.crosswalks].sort((p, q) => Math.hypot(p.position[0] - mid[0], p.position[1] - mid[1]) - Math.hypot(q.position[0] - mid[0], q.position[1] - mid[1]) || p.id - q.id)[0];
    events.push({ s: s[start], kind: 'cross', street: cw?.street || 'the street', end: s[i] });
  }
  events.sort((a, b) => a.s - b.s || (a.kind === 'turn' ? -1 : 1));

  // Intersections passed: closest approach of the route to each junction centre.
  const passes = w.inventory.intersections
    .map((j) => {
      let best = { d: Infinity, s: 0 };
      for (let i = 0; i < pts.length; i++) {
        const d = Math.hypot(pts[i][0] - j.position[0], pts[i][1] - j.position[1]);
        if (d < best.d) best = { d, s: s[i] };
      }
      return best;
    })
    .filter((b) => b.d <= INTERSECTION_REACH)
    .map((b) => b.s)
    .sort((a, b) => a - b);

  const steps: string[] = ['Go straight.'];
  let since = 0; // route distance of the previous step's event
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    if (e.kind === 'turn') {
      const atJunction = passes.some((p) => Math.abs(p - e.s) <= INTERSECTION_REACH);
      const passed = passes.filter((p) => p > since + INTERSECTION_REACH && p < e.s - INTERSECTION_REACH).length;
      const next = events[k + 1];
      const crossing = next && next.kind === 'cross' && next.s - e.s < 10 ? next : null;
      let text = atJunction ? `Turn ${e.dir} at the ${ordinal(passed + 1)} intersection` : `Turn ${e.dir}`;
      if (crossing) {
        text += ` and cross ${crossing.street}`;
        k++;
      }
      steps.push(`${text}.`);
      since = crossing ? crossing.end : e.s;
    } else {
      const atJunction = passes.some((p) => Math.abs(p - e.s) <= INTERSECTION_REACH);
      steps.push(atJunction ? `Go straight through the intersection, crossing ${e.street}.` : `Cross ${e.street}.`);
      since = e.end;
    }
    const nextS = events[k + 1]?.s ?? total;
    if (nextS - since > LONG_RUN && k + 1 < events.length) steps.push('Go straight.');
  }
  const last = path.length - 1;
  const yaw = edgeYaw(w, path[last - 1], path[last]);
  steps.push(`Stop in front of ${target.name} on your ${sideOf(pts[last], yaw, target.entrance)}.`);
  return steps;
}

/** Numbers the steps: "1. Go straight.\n2. …". */
export function numberedDirections(steps: readonly string[]): string {
  return steps.map((t, i) => `${i + 1}. ${t}`).join('\n');
}
