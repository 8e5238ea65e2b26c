/**
 * The map under a failed episode's trajectory picture in the report: the walkable area
 * (sidewalks and crosswalks) and static obstacles of the scenario's world — the scenario's blockers
 * (fences) included — clipped to the box around the route and the trajectory (8 m margin) so each
 * picture stays small. A scene world that is neither bundled nor registered (registerScene) gets the
 * route alone.
 */
import type { Vec2 } from '../core/geometry2d';
import { intersection, ringToMulti } from '../world/clipping';
import type { EpisodeRecord } from './episode-record';
import type { EpisodeBackdrop } from './report-html';
import type { Scenario } from '../sim/scenario';
import { scenarioWorld, type ScenarioWorld } from './scenario-world';

/** Margin around the route and trajectory, metres. */
export const BACKDROP_MARGIN = 8;

/** The backdrop of one episode; only the route for worlds that cannot be loaded. */
export function episodeBackdrop(scenario: Scenario, record: EpisodeRecord): EpisodeBackdrop {
  const pts: Vec2[] = [...scenario.robot.route, ...record.trajectory.map(([, x, y]) => [x, y] as Vec2)];
  const x0 = Math.min(...pts.map((p) => p[0])) - BACKDROP_MARGIN;
  const x1 = Math.max(...pts.map((p) => p[0])) + BACKDROP_MARGIN;
  const y0 = Math.min(...pts.map((p) => p[1])) - BACKDROP_MARGIN;
  const y1 = Math.max(...pts.map((p) => p[1])) + BACKDROP_MARGIN;
  let w: ScenarioWorld;
  try {
    w = scenarioWorld(scenario);
  } catch {
    return { walkable: [], obstacles: [], route: scenario.robot.route };
  }
  const box = ringToMulti([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]);
  const walkable = intersection([...w.world.zones.sidewalk, ...w.world.zones.crosswalk], box).flatMap((p) => [p.outer, ...p.holes]) as Vec2[][];
  const obstacles = w.obstacles.filter((poly) => poly.some(([x, y]) => x >= x0 && x <= x1 && y >= y0 && y <= y1));
  return { walkable, obstacles, route: scenario.robot.route };
}
