/**
 * The world an episode runs in, as the episode loop and the pedestrians need it: walkability and
 * static obstacles of a procedural world (by seed), of an annotated scanned scene (by path) or of a
 * real place from OpenStreetMap (by file md5 and selection), plus the scenario's blockers (barriers)
 * as extra obstacles.
 *
 * Scene worlds need the scene file's text, and where it comes from differs between Node (fs) and
 * the page (fetch): {@link loadScenarioWorld} takes a reader, or a caller registers the text with
 * {@link registerScene} once and then uses the synchronous {@link scenarioWorld}. The scenes shipped
 * in `scenes/` that the suites use ({@link BUILT_IN_SCENES}) are bundled, so `scenarioWorld` works
 * for them without either. Scene paths are the scenario's `world.path`, relative to the repository
 * root (e.g. `scenes/fruit-drops.json`). OSM worlds need the file's elements: Node reads and checks
 * the file ({@link ReadOsm}), the page is sent an extract of the selection (src/world/osm/world-ref.ts registerOsmWorld).
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import { union } from '../world/clipping';
import type { FailureWorld } from '../robot/failure-monitor';
import { parseSceneFile, sceneWorld, type SceneFile } from '../world/bake/scene-file';
import { isWalkable } from '../world/queries';
import type { World } from '../world/world';
import type { Scenario } from '../sim/scenario';
import type { OsmData } from '../world/osm/elements';
import { osmWorldKey, osmWorldLabel, registeredOsmWorld, registerOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';
import { suiteWorld } from './suites';
import { prepareClosures, type ClosurePlan } from './closures';
import fruitDrops from '../../scenes/fruit-drops.json';
import streetCorner from '../../scenes/street-corner.json';

/** Scene files bundled with the code (the suites' scanned scenes), by repository-relative path. */
export const BUILT_IN_SCENES: Readonly<Record<string, unknown>> = { 'scenes/fruit-drops.json': fruitDrops, 'scenes/street-corner.json': streetCorner };

export interface ScenarioWorld extends FailureWorld {
  world: World;
  /** Static obstacles (CCW polygons): the world's, then the scenario's blockers. */
  obstacles: Ring[];
  /** The scenario's blockers alone (CCW polygons, metres; also at the end of `obstacles`). */
  blockers: Ring[];
  /**
   * Boundary segments of the walkable area (the union of sidewalks and crosswalks, so their shared
   * borders are not walls), for the privileged expert to keep its footprint on walkable ground.
   */
  walkableEdges: [Vec2, Vec2][];
  /** The scenario's closures resolved against the world (src/bench/closures.ts); absent without closures. */
  closures?: ClosurePlan;
  /** The parsed scene file, for scanned-scene worlds. */
  scene?: SceneFile;
}

/** Reads a text file by its repository-relative path (fs in Node, fetch in the page). */
export type ReadText = (path: string) => Promise<string>;
/** Gives the OSM elements of an OSM scenario world, its md5 checked (Node: src/bench/osm-worlds-node.ts). */
export type ReadOsm = (ref: OsmWorldRef) => Promise<OsmData>;

const scenes = new Map<string, SceneFile>();
/** Worlds without blockers, by world key. */
const bases = new Map<string, ScenarioWorld>();
/** Worlds with blockers, by world key and blockers. */
const variants = new Map<string, ScenarioWorld>();


/** The cache key of a scenario world: an OSM world by its data (md5), selection and seed, not by the path it was read from. */
export function worldKey(w: Scenario['world']): string {
  if (w.kind === 'procedural') return `procedural:${w.seed}${w.size ? `/${w.size}` : ''}`;
  if (w.kind === 'osm') return osmWorldKey(w);
  return `scene:${w.path}`;
}

/**
 * Parses a scene file's text and registers it under `path` (the scenarios' `world.path`), so
 * {@link scenarioWorld} can build its world. Registering the same path again replaces it.
 *
 * @throws SceneFileError naming `path` and the field when the file does not validate.
 */
export function registerScene(path: string, text: string): SceneFile {
  const scene = parseSceneFile(text, path);
  scenes.set(path, scene);
  bases.delete(`scene:${path}`);
  for (const k of [...variants.keys()]) if (k.startsWith(`scene:${path}\u0000`)) variants.delete(k);
  return scene;
}

/** The registered scene file of `path`, or undefined. */
export function registeredScene(path: string): SceneFile | undefined {
  return scenes.get(path);
}

/**
 * The repository-relative path of a scene's capture (`capture` is relative to the scene file), e.g.
 * `scenes/fruit-drops.json` + `../../shared/data/splats/x.ply` → `../shared/data/splats/x.ply`.
 */
export function sceneCapturePath(scenePath: string, scene: SceneFile): string {
  const parts = scenePath.split('/').slice(0, -1);
  for (const p of scene.capture.split('/')) {
    if (p === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

function walkableEdgesOf(world: World): [Vec2, Vec2][] {
  const edges: [Vec2, Vec2][] = [];
  for (const poly of union(world.zones.sidewalk, world.zones.crosswalk)) {
    for (const ring of [poly.outer, ...poly.holes]) {
      ring.forEach((a, i) => edges.push([[a[0], a[1]], [ring[(i + 1) % ring.length][0], ring[(i + 1) % ring.length][1]]]));
    }
  }
  return edges;
}

function baseWorld(s: Scenario): ScenarioWorld {
  const key = worldKey(s.world);
  let w = bases.get(key);
  if (!w) {
    let world: World;
    let scene: SceneFile | undefined;
    if (s.world.kind === 'procedural') world = suiteWorld(s.world.seed, s.world.size);
    else if (s.world.kind === 'osm') {
      const osm = registeredOsmWorld(s.world);
      if (!osm) throw new Error(`${s.id}: OSM world ${osmWorldLabel(s.world)} is not loaded (call loadScenarioWorld, or registerOsmWorld first)`);
      world = osm;
    } else {
      scene = scenes.get(s.world.path);
      if (!scene && s.world.path in BUILT_IN_SCENES) scene = registerScene(s.world.path, JSON.stringify(BUILT_IN_SCENES[s.world.path]));
      if (!scene) throw new Error(`${s.id}: scene ${s.world.path} is not loaded (call loadScenarioWorld, or registerScene first)`);
      world = sceneWorld(scene);
    }
    const obstacles: Ring[] = world.obstacles.map((o) => o.footprint.map(([x, y]) => [x, y] as Vec2));
    w = { world, obstacles, blockers: [], walkableEdges: walkableEdgesOf(world), isWalkable: (x, y) => isWalkable(world, x, y), ...(scene ? { scene } : {}) };
    bases.set(key, w);
  }
  return w;
}

/**
 * The world of a scenario (cached per world, and per world, blockers and closures). Closure fences
 * are not in `obstacles`: they become obstacles when their closure triggers (EpisodeRun).
 *
 * @throws Error for a scene world whose file was not registered ({@link registerScene}).
 */
export function scenarioWorld(s: Scenario): ScenarioWorld {
  const base = baseWorld(s);
  if (!s.blockers?.length && !s.closures?.length) return base;
  const key = `${worldKey(s.world)}\u0000${JSON.stringify(s.blockers ?? [])}\u0000${JSON.stringify(s.closures ?? [])}`;
  let w = variants.get(key);
  if (!w) {
    const blockers: Ring[] = (s.blockers ?? []).map((b) => b.polygon.map(([x, y]) => [x, y] as Vec2));
    w = { ...base, obstacles: [...base.obstacles, ...blockers], blockers };
    if (s.closures?.length) w.closures = { world: base.world, closures: prepareClosures(base.world, s.closures) };
    variants.set(key, w);
  }
  return w;
}

/** Static obstacles within this distance of the robot's route are the pedestrians' obstacles, metres. */
export const PEDESTRIAN_OBSTACLE_RANGE = 40;

/**
 * The static obstacles a scenario's pedestrians avoid: the world's polygons (blockers included,
 * then every closure's fences: the crowd's obstacles are fixed per episode, so pedestrians avoid a
 * closure's fences from the start) with a vertex within {@link PEDESTRIAN_OBSTACLE_RANGE} of the
 * robot's reference route. One filter for the benchmark runner, the demo and the crowd benchmark,
 * so they all simulate the same crowd.
 */
export function pedestrianObstacles(s: Scenario, world: ScenarioWorld = scenarioWorld(s)): Ring[] {
  const route = s.robot.route;
  const all = world.closures ? [...world.obstacles, ...world.closures.closures.flatMap((c) => c.fences)] : world.obstacles;
  return all.filter((poly) => poly.some(([x, y]) => route.some(([rx, ry]) => Math.hypot(x - rx, y - ry) < PEDESTRIAN_OBSTACLE_RANGE)));
}

/**
 * The world of a scenario, reading its scene file first when it is a scene world not yet
 * registered: Node passes `(p) => readFile(resolve(ROOT, p), 'utf8')`, the page a fetch of the
 * served file.
 */
export async function loadScenarioWorld(s: Scenario, readText: ReadText, readOsm?: ReadOsm): Promise<ScenarioWorld> {
  if (s.world.kind === 'scene' && !scenes.has(s.world.path)) registerScene(s.world.path, await readText(s.world.path));
  if (s.world.kind === 'osm' && !registeredOsmWorld(s.world)) {
    if (!readOsm) throw new Error(`${s.id}: OSM world ${s.world.path}: no reader for OSM files here (register its elements with registerOsmWorld)`);
    registerOsmWorld(s.world, await readOsm(s.world));
  }
  return scenarioWorld(s);
}
