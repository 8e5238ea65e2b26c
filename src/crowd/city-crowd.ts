/**
 * A living city crowd: ambient walkers on a world's pedestrian network (the navigation graph),
 * alone or in groups of 2–3 that walk side by side, each leg to a new destination drawn on arrival:
 * a shop front (pausing 5–20 s), a bus stop (10–30 s), a kiosk (5–15 s) or a plain network spot
 * (walking on at once). Everything derives from the seed: the same world, seed and backend give the
 * same crowd.
 *
 * The walkers are `walk` pedestrians of a {@link PedestrianBatch} slot (ORCA with the world's
 * obstacles, the hold rule when standing, see scenario-pedestrians.ts); this controller only hands
 * out new routes between steps ({@link PedestrianBatch.setRoute}), so both backends run the same
 * plan. Walkers keep right of the network line ({@link KEEP_RIGHT}); a group's members walk side
 * by side {@link GROUP_SPACING} apart ({@link laneOffsets}; a member whose offset line is not
 * walkable or not clear of obstacles walks the network line itself) and start each leg together
 * once every member has arrived and the pause is over.
 *
 * Frames: world x-y, metres, seconds.
 */
import type { Vec2 } from '../core/geometry2d';
import { createRng, type Rng } from '../core/random';
import type { PedestrianSpec } from '../sim/scenario';
import type { RobotState } from '../robot/unicycle';
import { worldInventory } from '../world/inventory';
import { isWalkable, lineClearOfObstacles } from '../world/queries';
import { navIndex } from '../world/nav-index';
import { findRoute } from '../world/routes';
import type { World } from '../world/world';
import { CityCrowdMetrics, type CityCrowdMeasures } from './city-crowd-metrics';
import type { PedestrianBatch } from './pedestrian-batch';

/** Side-by-side spacing of a group's members, centre to centre, metres (0.6 m bodies + 0.1 m). */
export const GROUP_SPACING = 0.7;
/** Walkers keep right: a lone walker's line lies this far right of the network line, metres (opposing flows pass without meeting head-on). */
export const KEEP_RIGHT = 0.45;

/**
 * Lateral offsets (metres, + left of the direction of travel) of a group's lines: the group keeps
 * right (a lone walker by {@link KEEP_RIGHT}, a group's centre by half that), members
 * {@link GROUP_SPACING} apart, the leader rightmost.
 */
export function laneOffsets(size: number): number[] {
  const centre = size === 1 ? -KEEP_RIGHT : -KEEP_RIGHT / 2; // a group is wider: it keeps right by less
  return Array.from({ length: size }, (_, m) => centre + (m - (size - 1) / 2) * GROUP_SPACING);
}
/** Walkers spawn at least this far apart, metres. */
export const SPAWN_SPACING = 0.9;
/** A walker's line keeps this clearance from obstacles when offset for a group, metres. */
const LINE_CLEARANCE = 0.35;
/** A new destination lies at least this far from every other group's destination, metres (nobody queues for one spot). */
export const DESTINATION_SPACING = 2.5;
/** Share of legs that go to a landmark (shop front, bus stop, kiosk) when the area has one. */
export const LANDMARK_SHARE = 0.4;
/** Plain spots keep this far from network junctions (nodes of three or more edges), metres: nobody stops where paths cross. */
const JUNCTION_CLEARANCE = 4;
/** A group whose walking member moved less than this … */
export const GIVE_WAY_PROGRESS = 0.3;
/** … in this long (a jam) turns to another destination, seconds. */
export const GIVE_WAY_SECONDS = 4;
/** Pause range per destination kind, seconds. */
export const PAUSES = { storefront: [5, 20], 'bus-stop': [10, 30], kiosk: [5, 15], spot: [0, 0] } as const;
type DestinationKind = keyof typeof PAUSES;

/** A place walkers go to. */
export interface Destination {
  kind: DestinationKind;
  point: Vec2;
}

/** The world's centre, or the network node nearest it when none lies within `radius` (see {@link CityCrowdOptions.centre}). */
function defaultCentre(world: World, radius: number): Vec2 {
  let best: Vec2 = [0, 0], bestD = Infinity;
  for (const p of world.nav.nodes) {
    const d = Math.hypot(p[0], p[1]);
    if (d < bestD) { bestD = d; best = [p[0], p[1]]; }
  }
  return bestD <= radius ? [0, 0] : best;
}

/** Options of {@link CityCrowd}. */
export interface CityCrowdOptions {
  walkers: number;
  seed: number;
  /**
   * Where the crowd lives: spawns and destinations within `radius` of `centre` (default: the
   * world's centre, or where no network node lies within `radius` of it, as on a real place whose
   * mapped streets sit off the selection's centre, the network node nearest it; 150 m).
   */
  centre?: Vec2;
  radius?: number;
  /** Nobody spawns within `radius` metres of `centre` (e.g. where an avatar stands when the crowd appears); default: no such zone. */
  keepClear?: { centre: Vec2; radius: number };
}

interface Group {
  members: number[];
  speed: number;
  /** Where the leader stands / walks to. */
  at: Vec2;
  /** Seconds of pause left after every member arrived (null: walking a leg). */
  pause: number | null;
  /** Leader's position GIVE_WAY_SECONDS ago per member (null while standing), and the time it was taken. */
  since: { t: number; p: Vec2 }[] | null;
  /** The destination of the leg being walked: its kind and the pause there, s. */
  pendingKind: DestinationKind;
  pendingPause: number;
}

/** The offset of polyline `pts` by `d` metres to its left (per-vertex averaged normals). */
export function offsetPolyline(pts: readonly Vec2[], d: number): Vec2[] {
  return pts.map((p, i) => {
    const a = pts[Math.max(0, i - 1)];
    const b = pts[Math.min(pts.length - 1, i + 1)];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    return [p[0] - ((b[1] - a[1]) / len) * d, p[1] + ((b[0] - a[0]) / len) * d] as Vec2;
  });
}

/**
 * The crowd's plan and controller: spawns, groups, destinations and legs (see the module comment).
 *
 * @throws RangeError when `walkers` is not a positive integer or no network node lies within the radius.
 */
export class CityCrowd {
  /** The walkers as pedestrian specs (`walk`, with their first leg as the route), in batch order. */
  readonly specs: PedestrianSpec[];
  /** The world's obstacle footprints (CCW rings) the walkers avoid. */
  readonly obstacles: Vec2[][];
  readonly groups: Group[];
  /** Shop fronts, bus stops and kiosks in the area. */
  readonly landmarks: Destination[];
  /** Network spots in the area away from junctions. */
  readonly spots: Destination[];
  private readonly rng: Rng;
  /** Legs started (each group's first included). */
  legs = 0;
  /** Legs given up in a jam (the group turned to another destination). */
  gaveWay = 0;
  private time = 0;
  /** Pauses taken at shop fronts, bus stops and kiosks. */
  readonly pausesTaken: Record<DestinationKind, number> = { storefront: 0, 'bus-stop': 0, kiosk: 0, spot: 0 };

  constructor(readonly world: World, readonly options: CityCrowdOptions) {
    const { walkers, seed } = options;
    if (!(Number.isInteger(walkers) && walkers >= 1)) throw new RangeError(`CityCrowd: walkers ${walkers} is not a positive integer`);
    const radius = options.radius ?? 150;
    const centre = options.centre ?? defaultCentre(world, radius);
    const within = (p: readonly number[]) => Math.hypot(p[0] - centre[0], p[1] - centre[1]) <= radius;
    const nodes = world.nav.nodes.filter(within);
    if (nodes.length === 0) throw new RangeError(`CityCrowd: no pedestrian-network node within ${radius} m of (${centre.join(', ')})`);
    this.rng = createRng(seed).fork('city-crowd');
    const { adj } = navIndex(world.nav);
    const junctions = world.nav.nodes.filter((_, i) => adj[i].length >= 3);
    const spots = nodes.filter((n) => junctions.every((j) => Math.hypot(j[0] - n[0], j[1] - n[1]) >= JUNCTION_CLEARANCE));
    this.landmarks = landmarkDestinations(world, within);
    this.spots = spots.map((n): Destination => ({ kind: 'spot', point: [n[0], n[1]] }));
    if (this.spots.length === 0) throw new RangeError(`CityCrowd: no pedestrian-network spot within ${radius} m of (${centre.join(', ')}) away from junctions`);
    this.obstacles = world.obstacles.map((o) => o.footprint.map(([x, y]) => [x, y] as Vec2));
    this.groups = [];
    this.specs = [];
    const spawns: Vec2[] = [];
    const clear = options.keepClear;
    const free = (p: Vec2) => isWalkable(world, p[0], p[1]) && (!clear || Math.hypot(p[0] - clear.centre[0], p[1] - clear.centre[1]) >= clear.radius) && spawns.every((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) >= SPAWN_SPACING) && lineClearOfObstacles(world, [p], LINE_CLEARANCE);
    for (let attempt = 0; this.specs.length < walkers; attempt++) {
      if (attempt > walkers * 200) throw new RangeError(`CityCrowd: cannot place ${walkers} walkers ${SPAWN_SPACING} m apart within ${radius} m of (${centre.join(', ')})`);
      const n = nodes[this.rng.int(0, nodes.length - 1)];
      const start: Vec2 = [n[0], n[1]];
      if (!free(start)) continue;
      const leg = this.legFrom(start);
      if (!leg) continue;
      const r = this.rng.next();
      const size = Math.min(walkers - this.specs.length, r < 0.05 ? 3 : r < 0.25 ? 2 : 1);
      // The group's lanes (keeping right), else centred on the network line, else as many as fit.
      const lanesOf = (offsets: number[]) => {
        const lines: Vec2[][] = [];
        for (const off of offsets) {
          const line = offsetPolyline(leg.route, off);
          if (free(line[0]) && !lines.some((l) => Math.hypot(l[0][0] - line[0][0], l[0][1] - line[0][1]) < GROUP_SPACING - 0.05) && this.lineOk(line)) lines.push(line);
        }
        return lines;
      };
      const centred = laneOffsets(size).map((o, _, all) => o - (all[0] + all[all.length - 1]) / 2);
      const lines = [lanesOf(laneOffsets(size)), lanesOf(centred)].sort((x, y) => y.length - x.length)[0];
      if (lines.length === 0) continue;
      const speed = this.rng.range(1.1, 1.65);
      const group: Group = { members: [], speed, at: leg.to.point, pause: null, since: null, pendingKind: leg.to.kind, pendingPause: pauseOf(this.rng, leg.to.kind) };
      for (const line of lines) {
        group.members.push(this.specs.length);
        spawns.push(line[0]);
        this.specs.push({ behaviour: 'walk', spawn: line[0], heading: Math.atan2(line[1][1] - line[0][1], line[1][0] - line[0][0]), speed, route: line });
      }
      this.groups.push(group);
      this.legs++;
    }
  }

  /** Walkers in groups of two or more. */
  get groupedWalkers(): number {
    return this.groups.filter((g) => g.members.length > 1).reduce((n, g) => n + g.members.length, 0);
  }

  /**
   * After a step: a group whose members all stand (arrived) pauses its destination's time, then
   * gets its next leg (a new destination, routes offset per member) through `batch.setRoute`.
   */
  control(batch: PedestrianBatch, slot: number, dt: number): void {
    const view = batch.view(slot);
    this.time += dt;
    const discs = view.discs();
    for (const g of this.groups) {
      if (g.members.some((i) => view.walking(i))) {
        if (!this.jammed(g, discs.map((d) => [d.x, d.y]))) continue;
        // A jam: the group gives way, turning to another destination from where its leader stands.
        const at: Vec2 = [discs[g.members[0]].x, discs[g.members[0]].y];
        if (!isWalkable(this.world, at[0], at[1])) continue;
        g.at = at;
        g.pause = 0;
        g.pendingPause = 0;
        g.pendingKind = 'spot';
        this.gaveWay++;
      }
      g.since = null;
      if (g.pause === null) {
        g.pause = g.pendingPause;
        this.pausesTaken[g.pendingKind]++;
      }
      g.pause -= dt;
      if (g.pause > 1e-9) continue;
      const leg = this.legFrom(g.at);
      if (!leg) continue; // try another destination next step
      const keepRight = laneOffsets(g.members.length);
      const centred = keepRight.map((o) => o - (keepRight[0] + keepRight[keepRight.length - 1]) / 2);
      g.members.forEach((i, m) => {
        const line = [keepRight[m], centred[m], 0].map((off) => offsetPolyline(leg.route, off)).find((l) => this.lineOk(l)) ?? leg.route;
        batch.setRoute(slot, i, line, g.speed);
      });
      g.at = leg.to.point;
      g.pause = null;
      g.pendingPause = pauseOf(this.rng, leg.to.kind);
      g.pendingKind = leg.to.kind;
      this.legs++;
    }
  }

  /** Whether a walking member of `g` moved less than GIVE_WAY_PROGRESS in the last GIVE_WAY_SECONDS (updates the group's samples). */
  private jammed(g: Group, pos: readonly Vec2[]): boolean {
    if (!g.since) {
      g.since = g.members.map((i) => ({ t: this.time, p: pos[i] }));
      return false;
    }
    if (this.time - g.since[0].t < GIVE_WAY_SECONDS - 1e-9) return false;
    const stuck = g.members.some((i, m) => Math.hypot(pos[i][0] - g.since![m].p[0], pos[i][1] - g.since![m].p[1]) < GIVE_WAY_PROGRESS);
    g.since = g.members.map((i) => ({ t: this.time, p: pos[i] }));
    return stuck;
  }

  /**
   * A leg from `from` to a destination drawn from the seed (a landmark with {@link LANDMARK_SHARE},
   * else a spot; 5–120 m of route; not within {@link DESTINATION_SPACING} of another group's), or null.
   */
  private legFrom(from: Vec2): { to: Destination; route: Vec2[] } | null {
    for (let t = 0; t < 8; t++) {
      const pool = this.landmarks.length > 0 && this.rng.next() < LANDMARK_SHARE ? this.landmarks : this.spots;
      const to = pool[this.rng.int(0, pool.length - 1)];
      const d = Math.hypot(to.point[0] - from[0], to.point[1] - from[1]);
      if (d < 5 || this.groups.some((g) => Math.hypot(g.at[0] - to.point[0], g.at[1] - to.point[1]) < DESTINATION_SPACING)) continue;
      let route: ReturnType<typeof findRoute>;
      try {
        route = findRoute(this.world, from, to.point);
      } catch {
        continue;
      }
      if (!route || route.points.length < 2 || route.length > 120) continue;
      return { to, route: route.points.map(([x, y]) => [x, y] as Vec2) };
    }
    return null;
  }

  /** Every vertex of `line` walkable and clear of obstacles (a lane may pass near a prop between vertices: ORCA steers around it). */
  private lineOk(line: readonly Vec2[]): boolean {
    return line.every((p) => isWalkable(this.world, p[0], p[1]) && lineClearOfObstacles(this.world, [p], LINE_CLEARANCE));
  }
}

function pauseOf(rng: Rng, kind: DestinationKind): number {
  const [lo, hi] = PAUSES[kind];
  return hi > lo ? rng.range(lo, hi) : lo;
}

/**
 * Shop fronts (0.8 m in front of a storefront's facade, where walkable and clear), bus stops and
 * kiosks (their nearest network node) among the world's landmarks within the crowd's area.
 */
function landmarkDestinations(world: World, within: (p: readonly number[]) => boolean): Destination[] {
  const out: Destination[] = [];
  const inv = worldInventory(world);
  for (const l of inv.landmarks) {
    if (!within(l.position)) continue;
    const node = inv.network.nodes[l.node];
    if (l.kind === 'storefront') {
      const front = world.obstacles[l.id]?.front ?? [0, 0];
      const p: Vec2 = [l.entrance[0] + front[0] * 0.8, l.entrance[1] + front[1] * 0.8];
      out.push({ kind: 'storefront', point: isWalkable(world, p[0], p[1]) && lineClearOfObstacles(world, [p], LINE_CLEARANCE) ? p : [node[0], node[1]] });
    } else if (l.kind === 'bus-stop' || l.kind === 'kiosk') out.push({ kind: l.kind, point: [node[0], node[1]] });
  }
  return out;
}

/** Result of {@link runCityCrowd}. */
export interface CityCrowdReport extends CityCrowdMeasures {
  walkers: number;
  groups: number;
  groupedWalkers: number;
  steps: number;
  dt: number;
  /** Simulated time, s. */
  seconds: number;
  legs: number;
  /** Legs given up in a jam. */
  gaveWay: number;
  pauses: { storefront: number; busStop: number; kiosk: number };
  wallSeconds: number;
  stepsPerSecond: number;
}

/** The city crowd's time step, s (the benchmark's control period). */
export const CITY_CROWD_DT = 0.1;

/** Where the crowd's batch puts its robot: far away, parked (the crowd runs without one). */
const PARKED_ROBOT_OFFSET = 5000;

/**
 * Runs a city crowd of `options.walkers` for `seconds` in slot 0 of `batch` (a one-slot batch of
 * either backend with room for the walkers and the world's obstacles near them) and measures it.
 *
 * @param progress Called about every 10 simulated seconds with the time simulated.
 */
export async function runCityCrowd(world: World, batch: PedestrianBatch, options: CityCrowdOptions, seconds: number, dt = CITY_CROWD_DT, progress: (t: number) => void = () => {}): Promise<CityCrowdReport> {
  const crowd = new CityCrowd(world, options);
  const t0 = performance.now();
  await batch.load(0, crowd.specs, crowd.obstacles, options.seed);
  const robot: RobotState = { x: PARKED_ROBOT_OFFSET, y: PARKED_ROBOT_OFFSET, yaw: 0, v: 0, w: 0 };
  const metrics = new CityCrowdMetrics(world, crowd.specs.length);
  const steps = Math.round(seconds / dt);
  for (let k = 1; k <= steps; k++) {
    await batch.step(dt, [robot]);
    metrics.observe(batch.view(0), dt);
    crowd.control(batch, 0, dt);
    if (k % Math.round(10 / dt) === 0) progress(k * dt);
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  return {
    walkers: crowd.specs.length, groups: crowd.groups.length, groupedWalkers: crowd.groupedWalkers, steps, dt, seconds: steps * dt, legs: crowd.legs, gaveWay: crowd.gaveWay,
    pauses: { storefront: crowd.pausesTaken.storefront, busStop: crowd.pausesTaken['bus-stop'], kiosk: crowd.pausesTaken.kiosk },
    ...metrics.result(), wallSeconds, stepsPerSecond: steps / Math.max(1e-9, wallSeconds),
  };
}
