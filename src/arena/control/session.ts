/**
 * One avatar in a Curbside world driven through UrbanGround's control vocabulary: the state behind
 * `arena:serve`'s HTTP API (http.ts), free of HTTP and of rendering.
 *
 * It holds the free walker (free-walker.ts), the map view (actions.ts), the simulation clock and
 * weather, the active task and the run counters, executes actions and reports `/state` with
 * UrbanGround's fields (`docs/CONTROLS_AND_API.md` of `UrbanGround/UrbanGround`): pose in WGS84
 * (georef.ts; `yaw` a compass heading in degrees, `pitch` degrees up), the surface under the
 * avatar, time and weather, pedestrians, rain and shelter, collision counters and loading state.
 *
 * Time is simulation time, advanced by what actions take (a move of 0.8 s advances the clock 0.8 s
 * × the time scale), never by the wall clock: the same actions give the same states and counters.
 *
 * Pedestrians (crowd.ts): with them on (`enable_pedestrians`, or a task that declares them) a crowd
 * of city walkers lives around where the avatar stood when they appeared. Only moves and sprints
 * take time, so only they advance the walkers: a move is executed in parts of {@link CITY_CROWD_DT}
 * from its start (the last part taking the rest), each walked against the walkers' bodies as they
 * stand (a contact that begins counts once in `pedestrian_collisions`), then the crowd advanced by
 * the part with the avatar as the robot its walkers yield to. The crowd advances by the action's
 * seconds, not by the time scale (which speeds up the day's clock, not anyone's walking). Looks,
 * jumps and map actions take no time: the walkers stand still meanwhile.
 *
 * Tiles never stream in Curbside, so `tiles_progress` is 100 and `tiles_settled`/`idle` are true
 * from the start.
 */
import type { Vec2 } from '../../world/geometry';
import type { World } from '../../world/world';
import type { WorldInventory } from '../../world/inventory';
import { groundHeight } from '../../world/queries';
import { DEFAULT_CONDITIONS, type Conditions } from '../../world/conditions';
import { navIndex, shortestNavPath } from '../../world/nav-index';
import { type Georeference, geodeticToWorld, worldToGeodetic, yawToHeading } from '../../world/georef';
import { deriveSeed } from '../../core/random';
import { CITY_CROWD_DT } from '../../crowd/city-crowd';
import { FreeWalker, type MoveResult } from '../free-walker';
import { applyFirstPersonAction, applyMapAction, initialMapView, moveAvatar, moveLabel, type MapViewState, type MoveAction, type UrbanGroundAction, type URBANGROUND_WEATHERS } from './actions';
import { DEFAULT_PEDESTRIAN_COUNT, DEFAULT_PEDESTRIAN_SEED, SessionCrowd, type PedestrianPose } from './crowd';
import { describeLocation, hasOverheadShelter, surfaceAt } from './surface';

/** UrbanGround's weathers. */
export type UrbanGroundWeather = (typeof URBANGROUND_WEATHERS)[number];

const WEATHER_LABELS: Record<UrbanGroundWeather, string> = {
  sunny: 'Sunny', partly_cloudy: 'Partly cloudy', cloudy: 'Cloudy', overcast: 'Overcast', rainy: 'Rainy', thunderstorm: 'Thunderstorm',
};
/** Rain intensity per weather, 0–1. */
const RAIN_INTENSITY: Record<UrbanGroundWeather, number> = { sunny: 0, partly_cloudy: 0, cloudy: 0, overcast: 0, rainy: 0.5, thunderstorm: 1 };

/** A task the session can enter (converted from an arena task or an UrbanGround task file). */
export interface ControlTask {
  id: string;
  /** UrbanGround's numeric task type, or null for Curbside's own families. */
  type: number | null;
  /** The family or UrbanGround's type name. */
  typeName: string;
  /** Start: ground position (world frame, metres) and heading (rad from +x, counter-clockwise). */
  start: { position: Vec2; yaw: number };
  /** Labelled destinations shown on the map (world frame, metres). */
  endPoints: { label: string; position: Vec2 }[];
  /** Closures the task declares up front: labelled lines (world frame, metres), drawn on the map. */
  closures: { label: string; line: Vec2[] }[];
  /** How many (UrbanGround's `/task` `restricted_zones`). */
  restrictedZones: number;
  /** The look the task runs under (time of day and weather), or null for the session's. */
  conditions: Conditions | null;
  /** The task's own document, returned by `/task/enter`. */
  document: unknown;
  /**
   * Pedestrians the task runs among (UrbanGround's level 5): `count` city walkers from `seed`
   * around the start, on from entering; absent: the session's setting (off, or a default crowd
   * seeded from the task's id when pedestrians were on).
   */
  pedestrians?: { count: number; seed: number };
}

/** The `/state` object (UrbanGround's fields; degrees, metres, seconds). */
export interface ControlState {
  mode: 'first_person' | 'map';
  lat: number;
  lon: number;
  alt: number;
  yaw: number;
  pitch: number;
  surface: string;
  on_sidewalk: boolean;
  time: string;
  weather: string;
  weather_label: string;
  pedestrians_active: boolean;
  pedestrian_count: number;
  is_raining: boolean;
  rain_intensity: number;
  being_rained_on: boolean;
  has_overhead_shelter: boolean;
  rain_hits: number;
  rain_exposure_seconds: number;
  pedestrian_collisions: number;
  building_collisions: number;
  stats_tracked_seconds: number;
  tiles_progress: number;
  tiles_settled: boolean;
  idle: boolean;
}

/** What an action did: its one-line label, or an error (`status` 400 for a request that cannot be done, 404 for an unknown task). */
export type ActResult = { ok: true; action: string } | { ok: false; status: 400 | 404; error: string };

/** One executed action of the active task (the record `arena:serve` keeps). */
export interface ControlStep {
  /** Simulation seconds since the task was entered. */
  t: number;
  action: string;
  /** Position (world frame, metres) and heading (compass degrees) after it. */
  position: Vec2;
  heading: number;
}

/** Seconds since midnight of "HH:MM[:SS]". */
function clockSeconds(time: string): number {
  const [h, m, s] = time.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The avatar and its world (see the module comment). */
export class ControlSession {
  private walker: FreeWalker;
  private map: MapViewState;
  private route: Vec2[] | null = null;
  private networkShown = false;
  /** Simulation clock, seconds since midnight (wraps at 24 h). */
  private clock: number;
  private timeScale = 1;
  private weather: UrbanGroundWeather = 'sunny';
  /** A condition the weather list lacks (fog) from the task, else null. */
  private fog = false;
  /** The pedestrians, or null while they are off. */
  private crowd: SessionCrowd | null = null;
  private active: { task: ControlTask; enteredAt: number; steps: ControlStep[] } | null = null;
  private counters = { rainHits: 0, rainSeconds: 0, trackedSeconds: 0, buildingBase: 0, pedestrianBase: 0 };
  private readonly home: { position: Vec2; yaw: number };

  /**
   * @param start where the avatar stands with no task (default: the first navigation node, facing east).
   * @throws RangeError when the start is inside an obstacle or outside the world.
   */
  constructor(readonly world: World, readonly inventory: WorldInventory, readonly georef: Georeference, private readonly tasks: ReadonlyMap<string, ControlTask>, start?: { position: Vec2; yaw: number }) {
    this.home = start ?? { position: [...world.nav.nodes[0]] as Vec2, yaw: 0 };
    this.walker = new FreeWalker(world, this.home);
    this.map = initialMapView(this.home.position);
    this.clock = clockSeconds(DEFAULT_CONDITIONS.time);
  }

  /** Ids of the tasks that can be entered. */
  taskIds(): string[] {
    return [...this.tasks.keys()];
  }

  /** The active task, or null. */
  get task(): ControlTask | null {
    return this.active?.task ?? null;
  }

  /** The active task's executed actions. */
  get steps(): readonly ControlStep[] {
    return this.active?.steps ?? [];
  }

  /** The avatar's ground position (world frame, metres). */
  get position(): Vec2 {
    return this.walker.state.position;
  }

  /** Share of the movement time spent on the pedestrian network since the avatar was placed (UrbanGround's network adherence), or null before any move. */
  networkAdherence(): number | null {
    return this.walker.networkAdherence();
  }

  /** The map view (open, focus, span, selection), the route shown on it and whether the network overlay is on. */
  get mapView(): { view: MapViewState; route: Vec2[] | null; network: boolean } {
    return { view: { ...this.map }, route: this.route, network: this.networkShown };
  }

  /**
   * The pedestrians as they stand now (world frame, metres; heading rad from +x; walking speed m/s),
   * for drawing: empty while they are off.
   */
  get pedestrians(): PedestrianPose[] {
    return this.crowd?.poses() ?? [];
  }

  /** Simulation seconds the current pedestrians have walked since they appeared (0 while off): a renderer advances their gaits by its changes. */
  get pedestrianSeconds(): number {
    return this.crowd?.time ?? 0;
  }

  /** The look to render with: time of day (the clock, to the minute) and weather (rain, fog or clear). */
  conditions(): Conditions {
    const minutes = Math.floor(this.clock / 60) % (24 * 60);
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    return { time, weather: this.fog ? 'fog' : RAIN_INTENSITY[this.weather] > 0 ? 'rain' : 'clear' };
  }

  /** The first-person camera: eye (world frame, metres; `eyeHeight` above the ground), yaw (rad from +x) and pitch (rad, up positive). */
  cameraPose(eyeHeight: number): { eye: [number, number, number]; yaw: number; pitch: number } {
    const s = this.walker.state;
    return { eye: [s.position[0], s.position[1], groundHeight(this.world, s.position[0], s.position[1]) + eyeHeight], yaw: s.yaw, pitch: s.pitch };
  }

  /** `/state` (see {@link ControlState}). */
  state(): ControlState {
    const s = this.walker.state;
    const ground = groundHeight(this.world, s.position[0], s.position[1]);
    const geo = worldToGeodetic(this.georef, [s.position[0], s.position[1], ground]);
    const surface = surfaceAt(this.world, this.inventory, s.position);
    const raining = RAIN_INTENSITY[this.weather] > 0;
    const shelter = hasOverheadShelter(this.world, s.position);
    const seconds = Math.floor(this.clock) % 86_400;
    const time = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60].map((v) => String(v).padStart(2, '0')).join(':');
    return {
      mode: this.map.open ? 'map' : 'first_person',
      lat: round(geo.lat, 9), lon: round(geo.lon, 9), alt: round(geo.height, 3),
      yaw: round(yawToHeading(s.yaw), 3), pitch: round((s.pitch * 180) / Math.PI, 3),
      surface: surface.surface, on_sidewalk: surface.onSidewalk,
      time, weather: this.fog ? 'foggy' : this.weather, weather_label: this.fog ? 'Foggy' : WEATHER_LABELS[this.weather],
      pedestrians_active: this.crowd !== null, pedestrian_count: this.crowd?.count ?? 0,
      is_raining: raining, rain_intensity: RAIN_INTENSITY[this.weather], being_rained_on: raining && !shelter, has_overhead_shelter: shelter,
      rain_hits: this.counters.rainHits, rain_exposure_seconds: round(this.counters.rainSeconds, 3),
      pedestrian_collisions: s.pedestrianCollisions - this.counters.pedestrianBase, building_collisions: s.buildingCollisions - this.counters.buildingBase,
      stats_tracked_seconds: round(this.counters.trackedSeconds, 3),
      tiles_progress: 100, tiles_settled: true, idle: true,
    };
  }

  /** `/task`: whether a task is active and, if so, its id, type, labelled end points (WGS84) and closure count. */
  taskInfo(): Record<string, unknown> {
    const t = this.active?.task;
    if (!t) return { active: false };
    const endPoints = t.endPoints.map((e) => {
      const g = worldToGeodetic(this.georef, [e.position[0], e.position[1], groundHeight(this.world, e.position[0], e.position[1])]);
      return { label: e.label, lat: round(g.lat, 9), lon: round(g.lon, 9) };
    });
    return { active: true, id: t.id, type: t.type, type_name: t.typeName, end_points: endPoints, restricted_zones: t.restrictedZones };
  }

  /** Zeroes the run counters (`/stats/reset`). */
  resetStats(): void {
    const s = this.walker.state;
    this.counters = { rainHits: 0, rainSeconds: 0, trackedSeconds: 0, buildingBase: s.buildingCollisions, pedestrianBase: s.pedestrianCollisions };
  }

  /**
   * Enters task `id`: the avatar to its start, its conditions applied, the map closed, counters
   * reset; its pedestrians (a fresh crowd around the start) when it declares them, else a fresh
   * default crowd if pedestrians were on, else none.
   *
   * @returns the task, or an error naming the id (404).
   * @throws RangeError when the task's pedestrians cannot be placed (a count that is not a positive integer).
   */
  enterTask(id: string): { ok: true; task: ControlTask } | { ok: false; status: 404; error: string } {
    const task = this.tasks.get(id);
    if (!task) {
      const some = this.taskIds().slice(0, 5).join(', ');
      return { ok: false, status: 404, error: `id: no task ${JSON.stringify(id).slice(0, 80)} (${this.tasks.size} tasks, e.g. ${some})` };
    }
    this.walker = new FreeWalker(this.world, task.start);
    this.map = initialMapView(task.start.position);
    this.route = null;
    if (task.conditions) {
      this.clock = clockSeconds(task.conditions.time);
      this.weather = task.conditions.weather === 'rain' ? 'rainy' : 'sunny';
      this.fog = task.conditions.weather === 'fog';
    }
    const peds = task.pedestrians ?? (this.crowd ? this.defaultPedestrians(task) : null);
    this.crowd = peds ? new SessionCrowd(this.world, { ...peds, centre: task.start.position }) : null;
    this.resetStats();
    this.active = { task, enteredAt: this.clock, steps: [] };
    return { ok: true, task };
  }

  /** Leaves the active task (`/task/exit`): its conditions cleared, the avatar where it stands. @returns the task left, or null. */
  exitTask(): ControlTask | null {
    const t = this.active?.task ?? null;
    this.active = null;
    this.fog = false;
    this.route = null;
    return t;
  }

  /** The crowd of `task` (or of the free session) when it declares none: {@link DEFAULT_PEDESTRIAN_COUNT} walkers seeded from its id. */
  private defaultPedestrians(task: ControlTask | null): { count: number; seed: number } {
    return { count: DEFAULT_PEDESTRIAN_COUNT, seed: deriveSeed(DEFAULT_PEDESTRIAN_SEED, task ? `task ${task.id}` : 'no task') };
  }

  /**
   * The parts a move among pedestrians is executed in: {@link CITY_CROWD_DT} s each from its start,
   * the last taking the rest (so at least CITY_CROWD_DT, and the whole move when shorter).
   */
  private static moveParts(seconds: number): number[] {
    const n = Math.max(1, Math.floor(seconds / CITY_CROWD_DT + 1e-9));
    return Array.from({ length: n }, (_, k) => (k === n - 1 ? seconds - CITY_CROWD_DT * (n - 1) : CITY_CROWD_DT));
  }

  /** One part of a move among the pedestrians: walked against their discs, then the crowd advanced by it with the avatar's motion. */
  private moveAmong(crowd: SessionCrowd, a: MoveAction, seconds: number, acc: { distance: number; blockedBy: MoveResult['blockedBy'] }): void {
    const before = this.walker.state.position;
    const r = moveAvatar(this.walker, { ...a, seconds }, crowd.discs());
    acc.distance += r.distance;
    acc.blockedBy ??= r.blockedBy;
    const s = this.walker.state;
    const [dx, dy] = [s.position[0] - before[0], s.position[1] - before[1]];
    const moved = Math.hypot(dx, dy);
    crowd.advance(seconds, { position: s.position, heading: moved > 0 ? Math.atan2(dy, dx) : s.yaw, speed: seconds > 0 ? moved / seconds : 0 });
  }

  /** Advances the clock by `seconds` of action; rain exposure is judged where the action ends (rained on: a rain hit and its seconds). */
  private pass(seconds: number): void {
    if (RAIN_INTENSITY[this.weather] > 0 && !hasOverheadShelter(this.world, this.walker.state.position)) {
      this.counters.rainSeconds += seconds;
      this.counters.rainHits++;
    }
    this.counters.trackedSeconds += seconds;
    this.clock = (this.clock + seconds * this.timeScale) % 86_400;
  }

  /**
   * Executes one action (`POST /action`).
   *
   * @returns its label (UrbanGround's `action` field), or an error naming what is wrong (400).
   */
  act(a: UrbanGroundAction): ActResult {
    const r = this.execute(a);
    // Entering and leaving tasks are not steps of one.
    if (a.action !== 'enter_task' && a.action !== 'exit_task') this.record(r);
    return r;
  }

  /**
   * Executes one action and samples what it looks like while it runs (UrbanGround's
   * `?interval=S&max_frames=N`): a move or sprint is executed in parts of `interval` seconds with
   * `capture` called after each (at most `maxFrames`, the last part taking the rest); any other
   * action is captured once after it. The same final state as {@link act}; one recorded step.
   */
  async actSampled<T>(a: UrbanGroundAction, interval: number, maxFrames: number, capture: () => Promise<T>): Promise<{ result: ActResult; frames: T[] }> {
    if ((a.action !== 'move' && a.action !== 'sprint') || this.map.open) {
      const result = this.act(a);
      return { result, frames: result.ok ? [await capture()] : [] };
    }
    const parts = Math.max(1, Math.min(maxFrames, Math.floor(a.seconds / interval + 1e-9)));
    const frames: T[] = [];
    const crowd = this.crowd;
    if (crowd) {
      // The same parts as act's (the same final state); a frame after the part that reaches each
      // sample time (k × interval, the last at the end).
      const acc = { distance: 0, blockedBy: null as MoveResult['blockedBy'] };
      const moveParts = ControlSession.moveParts(a.seconds);
      let [done, passed, sampled] = [0, 0, 0];
      for (const [k, seconds] of moveParts.entries()) {
        this.moveAmong(crowd, a, seconds, acc);
        done += seconds;
        const last = k === moveParts.length - 1;
        if (!last && (sampled + 1 >= parts || done < (sampled + 1) * interval - 1e-9)) continue;
        this.pass(done - passed);
        passed = done;
        sampled++;
        frames.push(await capture());
      }
      const result: ActResult = { ok: true, action: moveLabel(a, acc.distance, acc.blockedBy) };
      this.record(result);
      return { result, frames };
    }
    let done = 0;
    let blocked = '';
    for (let k = 0; k < parts; k++) {
      const seconds = k === parts - 1 ? a.seconds - done : interval;
      done += seconds;
      const label = applyFirstPersonAction(this.walker, { ...a, seconds });
      blocked ||= /\(stopped by an? \w+/.exec(label)?.[0] ?? '';
      this.pass(seconds);
      frames.push(await capture());
    }
    const turn = (a.yaw_rate ?? 0) !== 0 || (a.pitch_rate ?? 0) !== 0 ? `, turning ${a.yaw_rate ?? 0}°/s` : '';
    const result: ActResult = { ok: true, action: `${a.action}: ${a.dir} for ${a.seconds}s${turn}${blocked ? ` ${blocked})` : ''}` };
    this.record(result);
    return { result, frames };
  }

  private record(r: ActResult): void {
    if (!r.ok || !this.active) return;
    const s = this.walker.state;
    this.active.steps.push({ t: round((this.clock - this.active.enteredAt + 86_400) % 86_400, 3), action: r.action, position: s.position, heading: round(yawToHeading(s.yaw), 3) });
  }

  private execute(a: UrbanGroundAction): ActResult {
    const bad = (error: string): ActResult => ({ ok: false, status: 400, error });
    const here = this.walker.state.position;
    switch (a.action) {
      case 'move':
      case 'sprint': {
        if (this.map.open) return bad(`${a.action}: the map is open (close_map first)`);
        const crowd = this.crowd;
        let label: string;
        if (!crowd) label = applyFirstPersonAction(this.walker, a);
        else {
          const acc = { distance: 0, blockedBy: null as MoveResult['blockedBy'] };
          for (const seconds of ControlSession.moveParts(a.seconds)) this.moveAmong(crowd, a, seconds, acc);
          label = moveLabel(a, acc.distance, acc.blockedBy);
        }
        this.pass(a.seconds);
        return { ok: true, action: label };
      }
      case 'look':
        if (this.map.open) return bad('look: the map is open (close_map first)');
        return { ok: true, action: applyFirstPersonAction(this.walker, a) };
      case 'jump':
        return { ok: true, action: 'jump' };
      case 'open_map':
      case 'close_map':
      case 'map_pan':
      case 'map_zoom':
      case 'map_select': {
        const m = applyMapAction(this.map, a, here);
        if (!m.ok) return bad(m.error);
        this.map = m.view;
        return { ok: true, action: a.action === 'map_select' && m.view.selected ? `map_select: ${this.describeSelected()}` : a.action };
      }
      case 'map_orbit':
        if (!this.map.open) return bad('map_orbit: the map is not open (open_map first)');
        return { ok: true, action: 'map_orbit: the map stays top-down and north-up' };
      case 'identify_location':
      case 'navigate':
      case 'map_teleport': {
        const p = this.map.selected;
        if (!this.map.open || !p) return bad(`${a.action}: select a point first (open_map, then map_select)`);
        if (a.action === 'identify_location') return { ok: true, action: `identify_location: ${describeLocation(this.world, this.inventory, p)}` };
        if (a.action === 'navigate') {
          const route = this.routeTo(p);
          if (!route) return bad('navigate: no pedestrian route reaches the selected point (nothing walkable within 30 m of it)');
          this.route = route.points;
          return { ok: true, action: `navigate: route of ${Math.round(route.length)} m to the selected point` };
        }
        try {
          this.walker.teleport(p);
        } catch (e) {
          return bad(`map_teleport: the selected point ${(e as Error).message}`);
        }
        this.map = { ...this.map, open: false };
        return { ok: true, action: 'map_teleport: moved to the selected point' };
      }
      case 'clear_route':
        this.route = null;
        return { ok: true, action: 'clear_route' };
      case 'teleport': {
        const p = geodeticToWorld(this.georef, { lat: a.lat, lon: a.lon, height: a.height ?? a.alt ?? this.georef.height });
        try {
          this.walker.teleport([p[0], p[1]]);
        } catch (e) {
          return bad(`lat, lon: ${a.lat}, ${a.lon} is ${(e as Error).message.replace(/^\([^)]*\) is /, '')}`);
        }
        return { ok: true, action: `teleport: ${a.lat.toFixed(6)}, ${a.lon.toFixed(6)}` };
      }
      case 'show_network':
      case 'hide_network':
      case 'toggle_network':
        this.networkShown = a.action === 'show_network' ? true : a.action === 'hide_network' ? false : !this.networkShown;
        return { ok: true, action: `${a.action}: network ${this.networkShown ? 'shown' : 'hidden'}` };
      case 'where_am_i':
        return { ok: true, action: `where_am_i: ${surfaceAt(this.world, this.inventory, here).surface}` };
      case 'set_weather':
        this.weather = a.weather;
        this.fog = false;
        return { ok: true, action: `set_weather: ${a.weather}` };
      case 'set_time':
        this.clock = a.hour * 3600 + a.minute * 60;
        return { ok: true, action: `set_time: ${String(a.hour).padStart(2, '0')}:${String(a.minute).padStart(2, '0')}` };
      case 'set_time_scale':
        this.timeScale = a.factor;
        return { ok: true, action: `set_time_scale: ${a.factor}` };
      case 'enable_pedestrians': {
        if (this.crowd) return { ok: true, action: `enable_pedestrians: ${this.crowd.count} walkers (already on)` };
        const task = this.active?.task ?? null;
        try {
          this.crowd = new SessionCrowd(this.world, { ...(task?.pedestrians ?? this.defaultPedestrians(task)), centre: here });
        } catch (e) {
          return bad(`enable_pedestrians: ${(e as Error).message}`);
        }
        return { ok: true, action: `enable_pedestrians: ${this.crowd.count} walkers` };
      }
      case 'disable_pedestrians':
        this.crowd = null;
        return { ok: true, action: 'disable_pedestrians' };
      case 'enter_task': {
        const r = this.enterTask(a.id);
        return r.ok ? { ok: true, action: `enter_task: ${a.id}` } : r;
      }
      case 'exit_task': {
        const t = this.exitTask();
        return { ok: true, action: t ? `exit_task: ${t.id}` : 'exit_task: no task was active' };
      }
      case 'terminate':
        return bad('terminate: the runner handles terminate; it is not sent to POST /action');
    }
  }

  private describeSelected(): string {
    const p = this.map.selected as Vec2;
    const g = worldToGeodetic(this.georef, [p[0], p[1], groundHeight(this.world, p[0], p[1])]);
    return `${g.lat.toFixed(6)}, ${g.lon.toFixed(6)}`;
  }

  /** Shortest pedestrian route from the avatar to `p` over the navigation graph (nearest nodes within 30 m), or null. */
  private routeTo(p: Vec2): { points: Vec2[]; length: number } | null {
    const idx = navIndex(this.world.nav);
    const from = idx.nodesNear(this.walker.state.position, 30)[0];
    const to = idx.nodesNear(p, 30)[0];
    if (from === undefined || to === undefined) return null;
    const path = shortestNavPath(this.world.nav, from, to);
    if (!path) return null;
    const points: Vec2[] = [this.walker.state.position, ...path.nodes.map((n) => this.world.nav.nodes[n]), p];
    let length = 0;
    for (let i = 1; i < points.length; i++) length += Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    return { points, length };
  }
}
