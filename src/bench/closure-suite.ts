/**
 * The closure suite (`scenes/suites/closure.json`, `npm run bench -- --suite closure`): routes of
 * 60–140 m on the suites' procedural worlds where a 6 m stretch of the route's sidewalk or
 * crosswalk closes while the robot drives (src/bench/closures.ts), so the policy must take a detour
 * that the notice announces. Scenario k's closure triggers when the robot comes within 3 m of the
 * route point 12 m before the stretch (k mod 3 = 0 or 1), or at the time the expert would be there
 * at 1.3 m/s (k mod 3 = 2). Every scenario is checked at generation: the stretch cuts the route, it
 * lies clear of the start and the goal, and a detour exists from the trigger point that is longer
 * than the route's remainder and at most three times it plus 80 m; and the privileged expert
 * reaches the goal without a failure. The notice names the street.
 * Deterministic: everything derives from `SUITE_SEED`.
 */
import { createRng } from '../core/random';
import { pointInRing, type Ring, type Vec2 } from '../core/geometry2d';
import { namedStreetLine, worldNames } from '../world/names';
import { navIndex } from '../world/nav-index';
import { arcLengths, polylineLength, projectOnPolyline, sampleAt } from '../world/polyline';
import { walkableExtent, zoneAt } from '../world/queries';
import { findRoute } from '../world/routes';
import type { World } from '../world/world';
import type { Closure, Scenario } from '../sim/scenario';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { detourRoute, prepareClosures } from './closures';
import { CROWD_DT, runEpisode } from './episode';
import { pedestrianObstacles, scenarioWorld } from './scenario-world';
import { SUITE_SEED, suiteWorld, WORLD_SEEDS } from './suites';

/** Length of the closed stretch along the route, metres. */
export const CLOSURE_LENGTH = 6;
/** The robot-near trigger point lies this far before the stretch along the route, metres. */
export const CLOSURE_WARNING = 12;
/** The expert's cruising speed assumed for time triggers, m/s. */
const ASSUMED_SPEED = 1.3;

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The named street nearest to p, or "the street". */
function streetNear(world: World, p: Vec2): string {
  let best = { d: Infinity, name: 'the street' };
  for (const s of worldNames(world).streets) {
    const { d } = projectOnPolyline(namedStreetLine(s), p[0], p[1]);
    if (Math.abs(d) < best.d) best = { d: Math.abs(d), name: s.name };
  }
  return best.name;
}

/**
 * `count` closure scenarios (see the module comment), ids `closure/NNN`, suite `closure`,
 * category `closure-<trigger kind>`.
 *
 * Each candidate is kept only when the privileged expert solves it (reaches the goal without a failure).
 *
 * @throws Error when the suite worlds do not yield `count` scenarios in 200 attempts each.
 */
export async function closureSuite(count = 6): Promise<Scenario[]> {
  const rng = createRng(SUITE_SEED).fork('closure');
  const out: Scenario[] = [];
  for (let attempt = 0; out.length < count; attempt++) {
    if (attempt > count * 200) throw new Error(`suites: could not make ${count} closure scenarios`);
    const k = out.length;
    const worldSeed = WORLD_SEEDS[attempt % WORLD_SEEDS.length];
    const world = suiteWorld(worldSeed);
    const nodes = world.nav.nodes;
    const a = nodes[rng.int(0, nodes.length - 1)], b = nodes[rng.int(0, nodes.length - 1)];
    const route = findRoute(world, a, b);
    if (!route || route.length < 60 || route.length > 140) continue;
    const pts = route.points.map(([x, y]) => [r3(x), r3(y)] as Vec2);
    const cum = arcLengths(pts);
    const sc = route.length * (0.45 + 0.15 * rng.next());
    const { p, t } = sampleAt(pts, sc, cum) as { p: Vec2; t: Vec2 };
    const n: Vec2 = [-t[1], t[0]];
    const ext = walkableExtent(world, p, n, 4);
    if (ext.left >= 4 || ext.right >= 4 || ext.left + ext.right < 1) continue;
    const h = CLOSURE_LENGTH / 2, l = ext.left + 0.3, r = -(ext.right + 0.3);
    const at = (u: number, v: number): Vec2 => [r3(p[0] + t[0] * u + n[0] * v), r3(p[1] + t[1] * u + n[1] * v)];
    const area: Ring = [at(-h, r), at(h, r), at(h, l), at(-h, l)];
    const [start, goal] = [pts[0], pts[pts.length - 1]];
    if (pointInRing(start[0], start[1], area) || pointInRing(goal[0], goal[1], area) || Math.hypot(goal[0] - p[0], goal[1] - p[1]) < 8) continue;
    const warn = sampleAt(pts, sc - h - CLOSURE_WARNING, cum).p as Vec2;
    if (sc - h - CLOSURE_WARNING < 5) continue;
    const trigger: Closure['trigger'] = k % 3 === 2
      ? { kind: 'time', at: Math.round((sc - h - CLOSURE_WARNING) / ASSUMED_SPEED) }
      : { kind: 'robot-near', point: [r3(warn[0]), r3(warn[1])], radius: 3 };
    const street = streetNear(world, p);
    const what = zoneAt(world, p[0], p[1]) === 'crosswalk' ? `Crosswalk across ${street}` : `Sidewalk on ${street}`;
    const closure: Closure = { area, trigger, notice: `${what} closed ahead for construction. Find another way.` };
    const [prepared] = prepareClosures(world, [closure]);
    if (prepared.fences.length < 2) continue;
    const closed = new Set(prepared.closedEdges);
    const { edgeBetween } = navIndex(world.nav);
    if (!route.nodes.some((u, i) => i > 0 && closed.has(edgeBetween(route.nodes[i - 1], u) ?? -1))) continue;
    const detour = detourRoute(world, warn, goal, closed, [area, ...prepared.fences]);
    if (!detour) continue;
    const remaining = route.length - (sc - h - CLOSURE_WARNING), around = polylineLength(detour);
    if (around <= remaining + 2 || around > 3 * remaining + 80) continue;
    const [s0, s1] = pts;
    const scenario: Scenario = {
      id: `closure/${String(k).padStart(3, '0')}`,
      suite: 'closure',
      category: `closure-${trigger.kind}`,
      world: { kind: 'procedural', seed: worldSeed },
      robot: { start: [s0[0], s0[1], r3(Math.atan2(s1[1] - s0[1], s1[0] - s0[0]))], goal, route: pts },
      timeLimit: Math.ceil((sc + around) / 0.5),
      pedestrians: [],
      closures: [closure],
      success: { kind: 'reach-goal', goalRadius: 1 },
      onFailure: 'terminate',
      seed: rng.int(0, 2 ** 31 - 1),
    };
    // Solvable by the robot: the expert drives it to the goal without a failure (a U-turn may not
    // fit where the sidewalk is narrow).
    if (await expertSolves(scenario)) out.push(scenario);
  }
  return out;
}

/** Whether the privileged expert reaches the goal of `s` without a failure (CPU, no camera). */
async function expertSolves(s: Scenario): Promise<boolean> {
  const world = scenarioWorld(s);
  const pedestrians = new ScenarioPedestrians(s.pedestrians, pedestrianObstacles(s, world), s.seed);
  const record = await runEpisode(s, 0, s.seed, { world, pedestrians, policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: CROWD_DT });
  return record.success && record.failures.length === 0;
}
