/**
 * The pedestrians of B benchmark environments, stepped together: one slot per environment, each
 * holding one episode's scenario pedestrians (behaviour state machines + ORCA). Slots never see
 * each other's pedestrians. A slot is (re)loaded when its environment starts a new episode, so
 * slots run episodes that started at different times.
 *
 * Two implementations share this contract: {@link CpuPedestrianBatch} (the TypeScript reference,
 * one {@link ScenarioPedestrians} per slot, float64) and the GPU crowd (WGSL, float32).
 */
import type { Ring, Vec2 } from '../core/geometry2d';
import type { PedestrianSpec } from '../sim/scenario';
import type { PedestrianDisc } from '../robot/failure-monitor';
import type { RobotState } from '../robot/unicycle';
import { ScenarioPedestrians, type AnimationState } from './scenario-pedestrians';

/** One slot's pedestrians as of the batch's last step (scenario order; world frame, metres, m/s). */
export interface PedestrianSlotView {
  /** Collision cylinders (radius 0.3 m, SidewalkBench). */
  discs(): PedestrianDisc[];
  /** Velocities, m/s. */
  velocities(): Vec2[];
  /** Gesture of each pedestrian (`stop` is Gesturing's raised hand, `talk` Conversing). */
  gestures(): AnimationState['gesture'][];
  /** What the pedestrian renderer needs per pedestrian. */
  animation(): AnimationState[];
  /** Whether pedestrian i's event trigger has fired. */
  triggered(i: number): boolean;
  /** Whether pedestrian i had a path to walk after the last step (false: it stands, holding its anchor). */
  walking(i: number): boolean;
}

/** B environments' pedestrians (see the module comment). */
export interface PedestrianBatch {
  /** B. */
  readonly slots: number;
  /** Which implementation, for logs and records. */
  readonly backend: 'cpu' | 'gpu';
  /**
   * Starts an episode in `slot`: its pedestrians from `specs`, static `obstacles` (CCW polygons,
   * world frame) and the episode `seed` (spawn jitter and behaviour timing derive from it).
   *
   * @throws RangeError when `slot` is out of range or the slot's capacity is exceeded.
   */
  load(slot: number, specs: readonly PedestrianSpec[], obstacles: readonly Ring[], seed: number): Promise<void>;
  /** Empties `slot` (its environment has no episode running). */
  unload(slot: number): void;
  /**
   * Advances by `dt` seconds every loaded slot whose `robots[slot]` is given (null: that slot does
   * not step now). `robots[slot]` is that environment's robot: the behaviours' trigger and a
   * neighbour disc to the pedestrians.
   */
  step(dt: number, robots: readonly (Readonly<RobotState> | null)[]): Promise<void>;
  /**
   * Gives pedestrian `i` of `slot` a new path (world frame, metres, any length) to walk at `speed`
   * m/s from the next step on — for ambient walkers (`walk`/`idle`), e.g. a new destination on
   * arrival. Call between steps.
   *
   * @throws RangeError when the slot is empty or `i` is not one of its pedestrians; Error for a
   *   non-finite point or speed.
   */
  setRoute(slot: number, i: number, route: readonly Vec2[], speed: number): void;
  /** The pedestrians of `slot` (a live view: it reflects later steps). */
  view(slot: number): PedestrianSlotView;
  destroy(): void;
}

/** The TypeScript reference batch: one {@link ScenarioPedestrians} per slot. */
export class CpuPedestrianBatch implements PedestrianBatch {
  readonly backend = 'cpu' as const;
  private readonly sims: (ScenarioPedestrians | null)[];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`CpuPedestrianBatch: slots ${slots} is not a positive integer`);
    this.sims = new Array(slots).fill(null);
  }

  async load(slot: number, specs: readonly PedestrianSpec[], obstacles: readonly Ring[], seed: number): Promise<void> {
    this.check(slot);
    this.sims[slot] = new ScenarioPedestrians(specs, obstacles, seed);
  }

  unload(slot: number): void {
    this.check(slot);
    this.sims[slot] = null;
  }

  async step(dt: number, robots: readonly (Readonly<RobotState> | null)[]): Promise<void> {
    this.sims.forEach((sim, i) => {
      const robot = robots[i];
      if (sim && robot) sim.step(dt, robot);
    });
  }

  setRoute(slot: number, i: number, route: readonly Vec2[], speed: number): void {
    this.check(slot);
    const sim = this.sims[slot];
    if (!sim) throw new RangeError(`CpuPedestrianBatch.setRoute: slot ${slot} has no episode loaded`);
    sim.setRoute(i, route, speed);
  }

  view(slot: number): PedestrianSlotView {
    this.check(slot);
    const sim = this.sims[slot];
    if (!sim) throw new RangeError(`CpuPedestrianBatch: slot ${slot} has no episode loaded`);
    return sim;
  }

  destroy(): void {
    this.sims.fill(null);
  }

  private check(slot: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.slots) throw new RangeError(`CpuPedestrianBatch: slot ${slot} is outside 0..${this.slots - 1}`);
  }
}
