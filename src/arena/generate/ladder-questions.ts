/**
 * UrbanGround's level-1 families (local understanding, paper §B.1; their LQ, OQ and SQ tasks): four
 * options drawn from the world's inventory, answered in a separate turn after exploring.
 *
 * - Landmark QA (LQ, visual recognition): "Which of these shops is the nearest to where you
 *   start?" with four storefront names (the nearest, within 6–20 m of the start in walkable line of
 *   sight, and three from over 80 m away). Difficulty by where it stands from the start heading:
 *   easy ahead (within 45°), medium to the side (45–135°), hard behind (you must turn to find it).
 * - Orientation QA (OQ, orientation understanding): where a named place in sight of the start lies
 *   relative to the start heading (ahead, behind, left, right: easy 8–20 m away, medium 20–40 m), or
 *   in which compass direction (hard, 10–40 m). A bearing within 20° of a boundary between two
 *   answers is never asked.
 * - Exploration QA (SQ, active exploration): "One of these shops is within N m walk of where you
 *   start. Which?" — the shop is in sight 20–35 m away (easy), or out of sight at a 25–50 m walk
 *   (medium) or a 50–80 m walk round at least one junction (hard); the other three options are
 *   shops over 150 m away along the network.
 */
import type { Landmark } from '../../world/inventory';
import { decisionPoints, navDistances, pathTo } from '../network';
import type { Difficulty } from '../task';
import { inSight, type LadderGenerator, noSource, placeKind, round, wrap } from './ladder-common';
import type { Rng } from '../../core/random';

/** Bearing of the nearest shop from the start heading per landmark-QA difficulty, degrees (|angle| in [lo, hi)). */
export const QA_BEARINGS: Record<Difficulty, [number, number]> = { easy: [0, 45], medium: [45, 135], hard: [135, 181] };
/** Straight-line distance of an orientation question's place from the start per difficulty, metres. */
export const ORIENTATION_DISTANCES: Record<Difficulty, [number, number]> = { easy: [8, 20], medium: [20, 40], hard: [10, 40] };
/** The relative directions of an orientation question, in option order, and their bearings (degrees, counter-clockwise from the start heading). */
export const RELATIVE_DIRECTIONS = [['Ahead of you', 0], ['Behind you', 180], ['On your left', 90], ['On your right', -90]] as const;
/** The compass directions of a hard orientation question, in option order, and their compass headings (degrees, clockwise from north). */
export const COMPASS_DIRECTIONS = [['North', 0], ['East', 90], ['South', 180], ['West', 270]] as const;
/** Least angle between a question's bearing and the boundary of its answer's sector, degrees. */
export const ORIENTATION_MARGIN = 20;
/** Walk from the start to the exploration question's shop per difficulty, metres, and whether it is in sight of the start. */
export const EXPLORATION_BANDS: Record<Difficulty, { walk: [number, number]; inSight: boolean; ask: number }> = {
  easy: { walk: [20, 35], inSight: true, ask: 40 },
  medium: { walk: [25, 50], inSight: false, ask: 60 },
  hard: { walk: [50, 80], inSight: false, ask: 90 },
};
/** Least network walk from the start to an exploration question's wrong options, metres. */
export const EXPLORATION_FAR = 150;

/** The four options with `right` at a drawn place among three distinct names drawn from `pool`; null when the pool is short. */
function fourOptions(rng: Rng, right: string, pool: readonly string[]): { options: string[]; answer: number } | null {
  const names = [...new Set(pool)].filter((n) => n !== right);
  if (names.length < 3) return null;
  const wrong: string[] = [];
  while (wrong.length < 3) {
    const n = names[rng.int(0, names.length - 1)];
    if (!wrong.includes(n)) wrong.push(n);
  }
  const answer = rng.int(0, 3);
  const options = [...wrong];
  options.splice(answer, 0, right);
  return { options, answer };
}

/** Landmark QA (see the module comment). */
export const landmarkQa: LadderGenerator = (w, rng, difficulty) => {
  const nodes = w.world.nav.nodes;
  const start = rng.int(0, nodes.length - 1);
  const p = nodes[start];
  const shops = w.inventory.landmarks.filter((l) => l.kind === 'storefront');
  let nearest: Landmark | null = null;
  let best = Infinity;
  for (const l of shops) {
    const d = Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]);
    if (d < best) [nearest, best] = [l, d];
  }
  if (!nearest || best < 6 || best > 20 || !inSight(w, p, nearest.entrance, 1.5)) return null;
  // The nearest by a clear margin: no other shop within 5 m of as near.
  if (shops.some((l) => l !== nearest && Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]) < best + 5)) return null;
  const towards = w.adj[start][rng.int(0, w.adj[start].length - 1)].to;
  const q = nodes[towards];
  const bearing = Math.abs(wrap(Math.atan2(nearest.entrance[1] - p[1], nearest.entrance[0] - p[0]) - Math.atan2(q[1] - p[1], q[0] - p[0]))) * (180 / Math.PI);
  const [lo, hi] = QA_BEARINGS[difficulty];
  if (bearing < lo || bearing >= hi) return null;
  const opts = fourOptions(rng, nearest.name, shops.filter((l) => Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]) > 80).map((l) => l.name));
  if (!opts) return null;
  return {
    family: 'landmark-qa', difficulty,
    instruction: 'Which of these shops is the nearest to where you start? Look around (you may move) and then answer with one letter.',
    start: { node: start, towards },
    grantsLocation: false, map: null, referenceView: null,
    truth: { scoring: 'choice', ...opts },
    source: { ...noSource, landmark: nearest.id, detail: `${round(bearing)}° from the start heading, ${round(best)} m` },
  };
};

/** Orientation QA (see the module comment). */
export const orientationQa: LadderGenerator = (w, rng, difficulty) => {
  const nodes = w.world.nav.nodes;
  const start = rng.int(0, nodes.length - 1);
  const p = nodes[start];
  const [lo, hi] = ORIENTATION_DISTANCES[difficulty];
  const near = w.targets.filter((l) => {
    const d = Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]);
    return d >= lo && d <= hi;
  });
  if (near.length === 0) return null;
  const target = near[rng.int(0, near.length - 1)];
  if (!inSight(w, p, target.entrance, 1.5)) return null;
  const towards = w.adj[start][rng.int(0, w.adj[start].length - 1)].to;
  const q = nodes[towards];
  const deg = 180 / Math.PI;
  const toTarget = Math.atan2(target.entrance[1] - p[1], target.entrance[0] - p[0]);
  // The sector whose centre is nearest the bearing, and the bearing's distance from the sector's edge.
  const pick = (bearing: number, centres: readonly number[]) => {
    let best = 0;
    for (let k = 1; k < centres.length; k++) if (Math.abs(wrap((bearing - centres[k]) / deg)) < Math.abs(wrap((bearing - centres[best]) / deg))) best = k;
    return { answer: best, margin: 45 - Math.abs(wrap((bearing - centres[best]) / deg)) * deg };
  };
  const name = target.kind === 'storefront' ? target.name : `the ${placeKind(target)} ${target.name.startsWith('Statue') ? `(${target.name})` : `on ${target.street}`}`;
  let chosen: { answer: number; margin: number };
  let options: string[];
  let instruction: string;
  if (difficulty === 'hard') {
    // Compass heading of the place from the start: clockwise from north (+y).
    const heading = (90 - toTarget * deg + 360) % 360;
    chosen = pick(heading, COMPASS_DIRECTIONS.map((c) => c[1]));
    options = COMPASS_DIRECTIONS.map((c) => c[0]);
    instruction = `In which compass direction from where you start is ${name}? Look around (you may move) and then answer with one letter.`;
  } else {
    const bearing = wrap(toTarget - Math.atan2(q[1] - p[1], q[0] - p[0])) * deg;
    chosen = pick(bearing, RELATIVE_DIRECTIONS.map((c) => c[1]));
    options = RELATIVE_DIRECTIONS.map((c) => c[0]);
    instruction = `Facing the way you face at the start, where is ${name}: ahead of you, behind you, on your left or on your right? Keep your starting view as the reference; look around (you may move) and then answer with one letter.`;
  }
  if (chosen.margin < ORIENTATION_MARGIN) return null;
  return {
    family: 'orientation-qa', difficulty, instruction,
    start: { node: start, towards },
    grantsLocation: false, map: null, referenceView: null,
    truth: { scoring: 'choice', options, answer: chosen.answer },
    source: { ...noSource, landmark: target.id, detail: `${options[chosen.answer]}, ${round(Math.hypot(target.entrance[0] - p[0], target.entrance[1] - p[1]))} m, ${round(chosen.margin)}° inside its sector` },
  };
};

/** Exploration QA (see the module comment). */
export const explorationQa: LadderGenerator = (w, rng, difficulty) => {
  const shops = w.targets.filter((l) => l.kind === 'storefront');
  const target = shops[rng.int(0, shops.length - 1)];
  const band = EXPLORATION_BANDS[difficulty];
  const d = navDistances(w.world.nav, target.node);
  const pool: number[] = [];
  for (let i = 0; i < d.dist.length; i++) if (d.dist[i] >= band.walk[0] && d.dist[i] <= band.walk[1]) pool.push(i);
  if (pool.length === 0) return null;
  const start = pool[rng.int(0, pool.length - 1)];
  const p = w.world.nav.nodes[start];
  if (inSight(w, p, target.entrance, 1.5) !== band.inSight) return null;
  const path = pathTo(d, start);
  const turns = path ? decisionPoints(w.world.nav, path.reverse()) : 0;
  if (difficulty === 'hard' && turns < 1) return null;
  // No other shop within the asked walk: the answer is the only one of the four there.
  const from = navDistances(w.world.nav, start).dist;
  const walkTo = (l: Landmark) => from[l.node];
  const all = w.inventory.landmarks.filter((l) => l.kind === 'storefront');
  const far = all.filter((l) => walkTo(l) > EXPLORATION_FAR).map((l) => l.name);
  const opts = fourOptions(rng, target.name, far.filter((n) => !all.some((l) => l.name === n && walkTo(l) <= band.ask)));
  if (!opts) return null;
  return {
    family: 'exploration-qa', difficulty,
    instruction: `One of these shops is within a ${band.ask} m walk of where you start. Which one? It may not be visible from where you stand: look around and walk the nearby streets to find it, then answer with one letter.`,
    start: { node: start, towards: w.adj[start][rng.int(0, w.adj[start].length - 1)].to },
    grantsLocation: false, map: null, referenceView: null,
    truth: { scoring: 'choice', ...opts },
    source: { ...noSource, landmark: target.id, pathLength: round(d.dist[start]), decisionPoints: turns, detail: band.inSight ? 'in sight of the start' : 'out of sight of the start' },
  };
};
