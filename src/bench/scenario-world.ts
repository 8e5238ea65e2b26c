/**
 * The world an episode runs in, as the episode loop and the pedestrians need it: walkability and
 * static obstacles of a procedural world (cached per seed).
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import { union } from '../world/clipping';
import type { FailureWorld } from '../robot/failure-monitor';
import { isWalkable } from '../world/queries';
import type { World } from '../world/world';
import type { Scenario } from './scenario';
import { suiteWorld } from './suites';

export interface ScenarioWorld extends FailureWorld {
  world: World;
  /**
   * Boundary segments of the walkable area (the union of sidewalks and crosswalks, so their shared
   * borders are not walls), for the privileged expert to keep its footprint on walkable ground.
   */
  walkableEdges: [Vec2, Vec2][];
}

const cache = new Map<number, ScenarioWorld>();

/**
 * The world of a scenario.
 *
 * @throws Error for scene-file worlds, which the benchmark does not load yet.
 */
export function scenarioWorld(s: Scenario): ScenarioWorld {
  if (s.world.kind !== 'procedural') throw new Error(`${s.id}: scanned-scene worlds (${s.world.path}) are not supported by the benchmark runner yet`);
  let w = cache.get(s.world.seed);
  if (!w) {
    const world = suiteWorld(s.world.seed);
    const obstacles: Ring[] = world.obstacles.map((o) => o.footprint.map(([x, y]) => [x, y] as [number, number]));
    const walkable = union(world.zones.sidewalk, world.zones.crosswalk);
    const walkableEdges: [Vec2, Vec2][] = [];
    for (const poly of walkable) {
      for (const ring of [poly.outer, ...poly.holes]) {
        ring.forEach((a, i) => walkableEdges.push([[a[0], a[1]], [ring[(i + 1) % ring.length][0], ring[(i + 1) % ring.length][1]]]));
      }
    }
    w = { world, obstacles, walkableEdges, isWalkable: (x, y) => isWalkable(world, x, y) };
    cache.set(s.world.seed, w);
  }
  return w;
}
