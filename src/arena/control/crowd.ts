/**
 * A control session's pedestrians (UrbanGround's level 5, "navigation among pedestrians"): the
 * crowd layer's ambient city walkers (src/crowd/city-crowd.ts: walkers alone or in groups on the
 * world's pedestrian network, ORCA among each other and the world's obstacles, pausing at shop
 * fronts, bus stops and kiosks) on the CPU backend — the engine of `CpuPedestrianBatch`, one
 * `ScenarioPedestrians`, stepped synchronously here — so the same world, seed, count and avatar
 * motion give the same walkers bit for bit, with no GPU and no browser.
 *
 * The crowd lives around where the avatar stands when it appears: spawns and destinations within
 * {@link CROWD_RADIUS} of that point (a larger disc when too few network spots lie there), nobody
 * spawning within {@link SPAWN_CLEARANCE} of the avatar. It advances only when told, by simulation
 * seconds, in fixed {@link CITY_CROWD_DT} steps (a remainder waits for the next call). The avatar
 * is the crowd's robot: walkers (ORCA responsibility 0.5) yield to a 0.45 m disc moving with the
 * avatar's velocity, so they step aside for it, but it does not steer for them. The crowd stays
 * where it appeared: an avatar that walks far off or teleports leaves it behind (a crowd appears
 * around the avatar again when pedestrians are re-enabled or a task is entered).
 *
 * Frames: world x-y (metres), headings rad from +x counter-clockwise, seconds.
 */
import type { Ring } from '../../core/geometry2d';
import type { Vec2 } from '../../world/geometry';
import type { World } from '../../world/world';
import type { PedestrianSpec } from '../../sim/scenario';
import type { RobotState } from '../../robot/unicycle';
import { CITY_CROWD_DT, CityCrowd } from '../../crowd/city-crowd';
import type { PedestrianBatch, PedestrianSlotView } from '../../crowd/pedestrian-batch';
import { ScenarioPedestrians } from '../../crowd/scenario-pedestrians';
import type { BodyDisc } from '../free-walker';

/** Walkers when `enable_pedestrians` is given no count (no task, or a task without `pedestrians`). */
export const DEFAULT_PEDESTRIAN_COUNT = 40;
/** Seed of a crowd the task does not seed (mixed with the task's id, see the session). */
export const DEFAULT_PEDESTRIAN_SEED = 1;
/** The crowd's spawns and destinations lie within this distance of where it appears, metres. */
export const CROWD_RADIUS = 100;
/** Nobody spawns closer than this to the avatar, metres (its 0.25 m body, a walker's 0.3 m and room to pass). */
export const SPAWN_CLEARANCE = 3;
/** Where the crowd's robot is parked when no avatar is given: this far along both axes, metres (out of everyone's reach). */
const PARKED = 5000;

/** What a renderer needs of one walker: ground position (world frame, metres), facing (rad from +x) and walking speed (m/s, 0 standing). */
export interface PedestrianPose {
  position: Vec2;
  heading: number;
  walkSpeed: number;
}

/** The avatar as the crowd sees it: ground position (metres), heading of its motion (rad from +x) and speed along it (m/s). */
export interface CrowdAvatar {
  position: Vec2;
  heading: number;
  speed: number;
}

/**
 * One slot of the CPU backend (`CpuPedestrianBatch`'s engine, a {@link ScenarioPedestrians}) with a
 * synchronous step: the session executes actions synchronously, the batch interface's steps are
 * promises. The same arithmetic as `CpuPedestrianBatch`, so the same walkers.
 */
class SyncCpuSlot implements PedestrianBatch {
  readonly slots = 1;
  readonly backend = 'cpu' as const;

  constructor(private sim: ScenarioPedestrians) {}

  /** Advances the walkers by `dt` seconds with `robot` as the robot. */
  stepNow(dt: number, robot: Readonly<RobotState>): void {
    this.sim.step(dt, robot);
  }

  async load(_slot: number, specs: readonly PedestrianSpec[], obstacles: readonly Ring[], seed: number): Promise<void> {
    this.sim = new ScenarioPedestrians(specs, obstacles, seed);
  }

  unload(): void {
    throw new Error('SyncCpuSlot: a session crowd is dropped, not unloaded');
  }

  async step(dt: number, robots: readonly (Readonly<RobotState> | null)[]): Promise<void> {
    const r = robots[0];
    if (r) this.sim.step(dt, r);
  }

  setRoute(_slot: number, i: number, route: readonly Vec2[], speed: number): void {
    this.sim.setRoute(i, route, speed);
  }

  view(): PedestrianSlotView {
    return this.sim;
  }

  destroy(): void {}
}

/** The crowd of a session (see the module comment). */
export class SessionCrowd {
  /** Walkers. */
  readonly count: number;
  /** The disc the crowd lives in (world frame, metres). */
  readonly centre: Vec2;
  readonly radius: number;
  private readonly crowd: CityCrowd;
  private readonly slot: SyncCpuSlot;
  /** Simulation seconds asked for, and steps taken. */
  private elapsed = 0;
  private steps = 0;

  /**
   * Spawns `count` walkers from `seed` around `centre` (the avatar's position): within
   * {@link CROWD_RADIUS}, or twice that, or the whole world when too few network spots lie nearer;
   * none within {@link SPAWN_CLEARANCE} of `centre`.
   *
   * @throws RangeError when `count` is not a positive integer or the world cannot hold the walkers.
   */
  constructor(readonly world: World, options: { count: number; seed: number; centre: Vec2 }) {
    const { count, seed, centre } = options;
    if (!(Number.isInteger(count) && count >= 1)) throw new RangeError(`pedestrians: count ${count} is not a positive integer`);
    const b = world.bounds;
    const whole = Math.hypot(Math.max(centre[0] - b[0], b[2] - centre[0]), Math.max(centre[1] - b[1], b[3] - centre[1]));
    let made: { crowd: CityCrowd; radius: number } | null = null;
    let why = '';
    for (const radius of [CROWD_RADIUS, 2 * CROWD_RADIUS, whole]) {
      try {
        made = { crowd: new CityCrowd(world, { walkers: count, seed, centre, radius, keepClear: { centre, radius: SPAWN_CLEARANCE } }), radius };
        break;
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        why = e.message;
      }
    }
    if (!made) throw new RangeError(`pedestrians: cannot place ${count} walkers in world ${world.seed} (${why})`);
    this.count = count;
    this.centre = [centre[0], centre[1]];
    this.radius = made.radius;
    this.crowd = made.crowd;
    this.slot = new SyncCpuSlot(new ScenarioPedestrians(this.crowd.specs, this.crowd.obstacles, seed));
  }

  /** Simulation seconds the walkers have been stepped (whole {@link CITY_CROWD_DT} steps). */
  get time(): number {
    return this.steps * CITY_CROWD_DT;
  }

  /**
   * Advances the walkers by `seconds` of simulation time: as many {@link CITY_CROWD_DT} steps as
   * the total time asked for so far holds (a remainder is stepped by a later call), each followed by
   * the crowd's controller (new legs, pauses), with `avatar` as the robot they yield to (null: none).
   *
   * @returns the steps taken.
   * @throws RangeError for a negative or non-finite duration.
   */
  advance(seconds: number, avatar: CrowdAvatar | null): number {
    if (!(Number.isFinite(seconds) && seconds >= 0)) throw new RangeError(`pedestrians: cannot advance by ${seconds} s`);
    this.elapsed += seconds;
    const robot: RobotState = avatar
      ? { x: avatar.position[0], y: avatar.position[1], yaw: avatar.heading, v: avatar.speed, w: 0 }
      : { x: PARKED, y: PARKED, yaw: 0, v: 0, w: 0 };
    let taken = 0;
    while ((this.steps + 1) * CITY_CROWD_DT <= this.elapsed + 1e-9) {
      this.slot.stepNow(CITY_CROWD_DT, robot);
      this.crowd.control(this.slot, 0, CITY_CROWD_DT);
      this.steps++;
      taken++;
    }
    return taken;
  }

  /** The walkers' bodies as the avatar bumps into them: centre (metres) and radius (the crowd's 0.3 m collision cylinder). */
  discs(): BodyDisc[] {
    return this.slot.view().discs().map((d) => ({ x: d.x, y: d.y, radius: d.radius }));
  }

  /** The walkers' poses for drawing, in crowd order (see {@link PedestrianPose}). */
  poses(): PedestrianPose[] {
    const view = this.slot.view();
    const anim = view.animation();
    return view.discs().map((d, i) => ({ position: [d.x, d.y] as Vec2, heading: anim[i].heading, walkSpeed: anim[i].walkSpeed }));
  }
}
