
import { shortestNavPath, navIndex } from '../../world/nav-index';
import { worldGeoreference } from '../../world/georef';
import { decisionPoints } from '../network';
import { LadderOracle } from '../ladder/agent';
import { LadderEpisode } from '../ladder/episode';
import type { ArenaTask, Difficulty } from '../task';
import { ARRIVAL_RADIUS, closeAlong, longWalkDraft, CLOSURES_PER_DIFFICULTY, describe, type LadderGenerator, LADDER_STEP_LIMIT, noSource, round, startInBand } from './ladder-common';

/** Valid steps before closure replanning's notice (about UrbanGround's 30 s at one model turn every 3–4 s). */
export const CLOSURE_NOTICE_STEPS = 8;
/** Shortest-walk band of closure replanning, metres. */
export const DYNAMIC_CLOSURE_BAND: [number, number] = [150, 320];
/** Shortest-walk bands of navigation among pedestrians, metres. */
export const PEDESTRIAN_NAV_BANDS: Record<Difficulty, [number, number]> = { easy: [150, 250], medium: [250, 350], hard: [350, 450] };
/** Walkers per navigation-among-pedestrians difficulty. */
export const PEDESTRIANS_PER_DIFFICULTY: Record<Difficulty, number> = { easy: 30, medium: 60, hard: 100 };

/** Closure replanning (see the module comment). */
export const dynamicClosure: LadderGenerator = async (w, rng, difficulty) => {
  const target = w.targets[rng.int(0, w.targets.length - 1)];
  const s = startInBand(w, rng, target, DYNAMIC_CLOSURE_BAND);
  if (!s || s.path.length < 8) return null;
  const nav = w.world.nav;
  const instruction = `[Navigation Task] Walk to ${describe(target)}. There is no known obstruction right now; walk, look and use the map as you like. Stop (terminate) when you are in front of it; you succeed within ${ARRIVAL_RADIUS} m of its entrance.`;
  const plain: ArenaTask = {
    id: 'probe', family: 'dynamic-closure', difficulty, instruction,
    start: { node: s.start, towards: s.path[1] }, grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival', goal: target.entrance, radius: ARRIVAL_RADIUS, label: target.name },
    stepLimit: LADDER_STEP_LIMIT, source: noSource,
  };
  // Where the oracle stands at the notice: walk it there on the task without closures.
  const probe = new LadderEpisode(w.world, w.inventory, worldGeoreference(w.world), plain);
  const oracle = new LadderOracle();
  oracle.begin(null, { world: w.world, task: plain, session: probe.session });
  while (probe.steps.filter((x) => x.valid).length < CLOSURE_NOTICE_STEPS) {
    if (probe.steps.length > CLOSURE_NOTICE_STEPS * 3 || probe.act((await oracle.act(probe.observation())).action)) return null;
  }
  const here = probe.session.position;
  const from = navIndex(nav).nodesNear(here, 30)[0];
  if (from === undefined) return null;
  const rest = shortestNavPath(nav, from, target.node);
  if (!rest || rest.nodes.length < 6) return null;
  const closed = closeAlong(w, rng, rest.nodes, from, target.node, CLOSURES_PER_DIFFICULTY[difficulty], rest.length);
  if (!closed) return null;
  const { closures } = closed;
  return {
    family: 'dynamic-closure', difficulty, instruction,
    start: plain.start, grantsLocation: true, map: null, referenceView: null,
    truth: plain.truth, closures, closureNotice: { afterSteps: CLOSURE_NOTICE_STEPS },
    source: { ...noSource, landmark: target.id, pathLength: round(s.walk), decisionPoints: decisionPoints(nav, s.path), detail: `${closures.length} closures after step ${CLOSURE_NOTICE_STEPS}; ${round(rest.length)} m left then` },
  };
};

/** Navigation among pedestrians (see the module comment). */
export const pedestrianNavigation: LadderGenerator = (w, rng, difficulty) => {
  const draft = longWalkDraft(w, rng, 'pedestrian-navigation', difficulty, PEDESTRIAN_NAV_BANDS[difficulty]);
  if (!draft) return null;
  const count = PEDESTRIANS_PER_DIFFICULTY[difficulty];
  const { source, ...rest } = draft;
  return { ...rest, pedestrians: { count, seed: rng.int(0, 2 ** 31 - 1) }, source: { ...source, detail: `${count} pedestrians` } };
};
