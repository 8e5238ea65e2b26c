/**
 * Distance levels of detail (LOD) for pedestrians: one {@link PedestrianSkinner} and one
 * {@link PedestrianPass} per LOD body (e.g. the MakeHuman set's three), each walker drawn by the
 * LOD of its distance from the eye. A walker's β, pose and appearance are its own whatever the
 * LOD (the LOD bodies share one shape space and one pose convention, makehuman-set.ts), so switching
 * LOD changes only how many triangles draw it.
 *
 * Per frame ({@link PedestrianLodGroup.setFrame}): walker i goes to the first LOD k with
 * distance(eye, position_i) < `switchDistances[k]` (the last LOD takes the rest); each LOD's slots
 * get its walkers' poses and instances, and their β when the slot assignment or a walker's shape
 * (the `appearance.shape` object) changed (the skinner re-runs its shape pass only then).
 */
import type { CameraModel } from '../gpu/camera';
import type { BodyModel } from './body-model';
import type { BodyShape, PedestrianAppearance, PedestrianLighting, PedestrianPlacement } from './pedestrian-appearance';
import { PedestrianPass, type PedestrianTarget } from './pedestrian-pass';
import { PedestrianSkinner } from './pedestrian-skinner';
import { pedestrianBetas } from './pedestrian-wardrobe';
import { poseFloats } from './skinning-layout';

/** Options of {@link PedestrianLodGroup.create}. */
export interface PedestrianLodOptions {
  colorFormat: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  /** LOD bodies, near to far, on one skeleton (same joint count). */
  models: readonly BodyModel[];
  /** Their material vertex buffers (default each model's own, pedestrian-material.ts). */
  materials?: readonly ArrayBuffer[];
  /** models.length − 1 increasing distances (metres) at which the next LOD takes over. */
  switchDistances: readonly number[];
  /** Most walkers. */
  capacity: number;
  label?: string;
}

/** Draws walkers with a body LOD per walker by distance (see the module doc). */
export class PedestrianLodGroup {
  /** Per LOD, the walker index in each slot and the body shape its β came from, as last written. */
  private readonly slots: number[][];
  private readonly slotShapes: BodyShape[][];
  private readonly counts: number[];
  /** Per LOD, the walkers of this frame (reused) and their poses gathered (capacity × stride). */
  private readonly buckets: number[][];
  private readonly gathered: Float32Array[];

  private constructor(
    readonly models: readonly BodyModel[],
    readonly switchDistances: readonly number[],
    readonly capacity: number,
    private readonly skinners: PedestrianSkinner[],
    private readonly passes: PedestrianPass[],
  ) {
    this.slots = models.map(() => []);
    this.slotShapes = models.map(() => []);
    this.counts = models.map(() => 0);
    this.buckets = models.map(() => []);
    this.gathered = models.map(() => new Float32Array(capacity * poseFloats(models[0].jointCount)));
  }

  /**
   * Allocates a skinner and a pass of `capacity` walkers per LOD.
   *
   * @throws Error when the models differ in joint count, `switchDistances` is not models.length − 1
   *   increasing positive numbers, or a skinner or pass cannot be created.
   */
  static async create(device: GPUDevice, o: PedestrianLodOptions): Promise<PedestrianLodGroup> {
    const label = o.label ?? 'PedestrianLodGroup';
    if (o.models.length === 0 || o.models.some((m) => m.jointCount !== o.models[0].jointCount)) {
      throw new Error(`${label}: needs at least one model, all with the same joint count`);
    }
    const d = o.switchDistances;
    if (d.length !== o.models.length - 1 || d.some((x, i) => !(x > 0) || (i > 0 && x <= d[i - 1]))) {
      throw new Error(`${label}: switchDistances [${d.join(', ')}] must be ${o.models.length - 1} increasing positive distances`);
    }
    const skinners = await Promise.all(o.models.map((m, k) => PedestrianSkinner.create(device, m, o.capacity, `${label}.skinner${k}`)));
    const passes = await Promise.all(
      o.models.map((model, k) =>
        PedestrianPass.create(device, { colorFormat: o.colorFormat, depthFormat: o.depthFormat, model, capacity: o.capacity, material: o.materials?.[k], label: `${label}.pass${k}` }),
      ),
    );
    return new PedestrianLodGroup(o.models, d, o.capacity, skinners, passes);
  }

  /** The LOD index for a walker at `distance` metres from the eye. */
  lodFor(distance: number): number {
    const k = this.switchDistances.findIndex((d) => distance < d);
    return k < 0 ? this.models.length - 1 : k;
  }

  /**
   * Skinned vertices of LOD `k` after {@link encode} (slots in the order of the walkers of that LOD,
   * ascending walker index; layout as `PedestrianSkinner.skinnedVertices`).
   */
  skinnedVertices(k: number): GPUBuffer {
    return this.skinners[k].skinnedVertices;
  }

  /** Walkers per LOD after the last {@link setFrame}. */
  get lodCounts(): readonly number[] {
    return this.counts;
  }

  /**
   * Assigns walkers to LODs by their distance from `eye` (world, metres) and writes their poses,
   * placements and appearances (β from `appearance.shape`, pedestrian-wardrobe.ts).
   *
   * @param poses walkers × (3J + 3) (θ then root translation, as `PedestrianSkinner.setPoses`).
   * @throws Error when the arrays disagree in length or exceed the capacity.
   */
  setFrame(eye: readonly number[], placements: readonly PedestrianPlacement[], appearances: readonly PedestrianAppearance[], poses: Float32Array): void {
    const n = placements.length;
    const stride = poseFloats(this.models[0].jointCount);
    if (n > this.capacity || appearances.length !== n || poses.length < n * stride) {
      throw new Error(`PedestrianLodGroup.setFrame: ${n} placements, ${appearances.length} appearances, ${poses.length / stride} poses (capacity ${this.capacity})`);
    }
    const buckets = this.buckets;
    for (const b of buckets) b.length = 0;
    placements.forEach((p, i) => {
      const dist = Math.hypot(p.position[0] - eye[0], p.position[1] - eye[1], p.position[2] - eye[2]);
      buckets[this.lodFor(dist)].push(i);
    });
    buckets.forEach((ids, k) => {
      this.counts[k] = ids.length;
      if (ids.length === 0) {
        this.slots[k] = [];
        this.slotShapes[k] = [];
        return;
      }
      const model = this.models[k];
      const gathered = this.gathered[k];
      ids.forEach((i, s) => gathered.set(poses.subarray(i * stride, (i + 1) * stride), s * stride));
      this.skinners[k].setPoses(gathered.subarray(0, ids.length * stride));
      this.passes[k].setInstances(ids.map((i) => placements[i]), ids.map((i) => appearances[i]));
      const old = this.slots[k], oldShapes = this.slotShapes[k];
      // New β when the slots hold other walkers, or a walker got another shape (a new appearance object:
      // e.g. the caller reset its walkers).
      if (ids.length !== old.length || ids.some((i, s) => old[s] !== i || oldShapes[s] !== appearances[i].shape)) {
        const B = model.shapeCount;
        const betas = new Float32Array(ids.length * B);
        ids.forEach((i, s) => betas.set(pedestrianBetas(model, appearances[i].shape), s * B));
        this.skinners[k].setShapes(betas);
        this.slots[k] = ids.slice();
        this.slotShapes[k] = ids.map((i) => appearances[i].shape);
      }
    });
  }

  /**
   * Records skinning of every LOD, then one draw pass per LOD (the first clears as `target` says,
   * the others load). Records only; the caller submits.
   *
   * @param drawTimestamps optional timestamp writes per LOD draw pass (e.g. profiler spans).
   */
  encode(encoder: GPUCommandEncoder, camera: CameraModel, target: PedestrianTarget, drawTimestamps?: (k: number) => GPURenderPassTimestampWrites | undefined): void {
    this.skinners.forEach((s, k) => s.encode(encoder, this.counts[k]));
    this.passes.forEach((p, k) => {
      const t = k === 0 ? target : { ...target, clearColor: null, clearDepth: false };
      p.encode(encoder, camera, this.skinners[k].skinnedVertices, this.counts[k], t, drawTimestamps?.(k));
    });
  }

  /** Sets the lighting of every LOD's pass (time of day, weather; `PedestrianPass.setLighting`). */
  setLighting(lighting: PedestrianLighting): void {
    for (const p of this.passes) p.setLighting(lighting);
  }

  /** Frees every skinner and pass. */
  destroy(): void {
    for (const r of [...this.skinners, ...this.passes]) r.destroy();
  }
}
