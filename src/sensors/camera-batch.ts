/**
 * The robot cameras of B environments, rendered in one submission per control step (issue #7: "a
 * robot camera … for B environments per step in one submission, one view per environment, each
 * environment seeing only its own pedestrians"). One {@link RobotCamera} per slot — each owns its
 * uniforms, sort buffers, pedestrian buffers and target, so B views encoded before one
 * `queue.submit` do not overwrite each other — and one bake cache per world shared by the slots.
 */
import { submit } from '../gpu/gpu-stats';
import type { SplatBackground } from '../splats/splat-background';
import { ChunkedWorld } from '../world/bake/chunks';
import type { World } from '../world/world';
import { RobotCamera, type PedestrianView, type RobotCameraOptions } from './robot-camera';
import type { RobotState } from '../robot/unicycle';
import type { Conditions } from '../world/conditions';

/** Camera options shared by the slots (the world, background and seed are per episode). */
export type CameraBatchOptions = Omit<RobotCameraOptions, 'world' | 'background' | 'seed' | 'conditions'>;

/** What one slot's camera draws this step. */
export interface CameraSlotView {
  state: Pick<RobotState, 'x' | 'y' | 'yaw'>;
  /** This environment's pedestrians only. */
  pedestrians: readonly PedestrianView[];
  /** Gait time since the slot's previous view, s (0 for an episode's first). */
  dt: number;
}

/**
 * A chunked view of a world with its own visible set and assembly, baking through `baked`'s chunk
 * cache (so slots in one world bake each chunk once).
 */
class SharedBakeView extends ChunkedWorld {
  constructor(private readonly baked: ChunkedWorld) {
    super(baked.world, baked.grid.chunkSize);
  }

  override chunk(id: number) {
    return this.baked.chunk(id);
  }
}

/** B robot cameras (see the module comment). */
export class CameraBatch {
  private readonly cameras: (RobotCamera | null)[];
  private readonly bakes = new Map<World, ChunkedWorld>();

  constructor(private readonly device: GPUDevice, readonly slots: number, private readonly options: CameraBatchOptions) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`CameraBatch: slots ${slots} is not a positive integer`);
    this.cameras = new Array(slots).fill(null);
  }

  /**
   * Starts an episode in `slot`: its camera moves to `world` with `background` (default: the
   * world's baked chunks, shared between slots) and reseeds its pedestrians' looks and gaits from
   * the episode `seed`, so the frames depend only on the episode, not on the slot's history. The
   * episode's `conditions` (time of day, weather; default none: the default look) shade its views.
   *
   * @throws RangeError for a bad slot or bad conditions.
   */
  async load(slot: number, world: World, seed: number, background?: SplatBackground, conditions?: Conditions): Promise<void> {
    this.check(slot);
    const bg = background ?? this.bakedView(world);
    const camera = this.cameras[slot];
    if (!camera) {
      this.cameras[slot] = await RobotCamera.create(this.device, { ...this.options, world, background: bg, seed, conditions });
    } else {
      camera.setWorld(world, bg);
      camera.resetPedestrians(seed);
      camera.setConditions(conditions);
    }
  }

  /**
   * A new view of `world`'s baked chunks, sharing their bake cache with every other view of the
   * same world (a slot's own view keeps its own `changed` state): the base to put a scenario's
   * blockers on (src/bench/scenario-background.ts).
   */
  bakedView(world: World): SplatBackground {
    let bake = this.bakes.get(world);
    if (!bake) this.bakes.set(world, (bake = new ChunkedWorld(world)));
    return new SharedBakeView(bake);
  }

  /** The camera of `slot` (after its first {@link load}). */
  camera(slot: number): RobotCamera {
    this.check(slot);
    const c = this.cameras[slot];
    if (!c) throw new RangeError(`CameraBatch: slot ${slot} was never loaded`);
    return c;
  }

  /** The frame texture of `slot` (its camera's colour target; OFFSCREEN_COLOR_FORMAT). */
  frame(slot: number): GPUTexture {
    return this.camera(slot).target.color;
  }

  /** Records the views of the slots given in `views` (null: the slot is not drawn) into `encoder`. */
  async encode(encoder: GPUCommandEncoder, views: readonly (CameraSlotView | null)[]): Promise<void> {
    if (views.length !== this.slots) throw new RangeError(`CameraBatch.encode: ${views.length} views for ${this.slots} slots`);
    for (let i = 0; i < views.length; i++) {
      const v = views[i];
      if (v) await this.camera(i).encode(encoder, v.state, v.pedestrians, v.dt);
    }
  }

  /** Renders `views` (see {@link encode}) in one submission; resolves when it is submitted. */
  async render(views: readonly (CameraSlotView | null)[]): Promise<void> {
    const encoder = this.device.createCommandEncoder({ label: 'CameraBatch.render' });
    await this.encode(encoder, views);
    submit(this.device, encoder);
  }

  destroy(): void {
    for (const c of this.cameras) c?.destroy();
    this.cameras.fill(null);
    this.bakes.clear();
  }

  private check(slot: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.slots) throw new RangeError(`CameraBatch: slot ${slot} is outside 0..${this.slots - 1}`);
  }
}
