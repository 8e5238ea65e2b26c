/**
 * The GPU {@link PedestrianBatch}: the scenario pedestrians of B benchmark environments (slots),
 * stepped together in WGSL (`shaders/crowd/behaviours.wgsl`). Same semantics as the TypeScript
 * reference {@link CpuPedestrianBatch} / {@link ScenarioPedestrians} (SidewalkBench seeds/002 §3.2
 * behaviours; ORCA of van den Berg et al. 2011 with RVO2's semantics), in float32 instead of float64.
 *
 * Layout: slot s owns pedestrians s·P .. s·P + P − 1 (P = maxPedestriansPerSlot) of every
 * per-pedestrian buffer and obstacle vertices s·V .. s·V + V − 1 (V = maxObstacleVerticesPerSlot).
 * Positions on the GPU are relative to the slot's origin (its first pedestrian's spawn, kept here in
 * float64), so float32 keeps sub-millimetre resolution anywhere in a 2 km world.
 *
 * | buffer           | per            | contents                                                 |
 * |------------------|----------------|----------------------------------------------------------|
 * | slots            | slot, 48 B     | `SlotStep`: robot disc, time, dt, counts (written per step) |
 * | pedParams        | ped, 48 B      | `PedParams`: constants from the spec (written by load)   |
 * | pedStates        | ped, 32 B      | `PedState`: behaviour state machine                      |
 * | kinematics       | ped, 24 B      | `PedKinematics`: position, velocity, heading, flags (read back) |
 * | routes / paths   | point, 8 B     | a pool per slot (`routePointsPerSlot`, grown on demand): each pedestrian's region holds its spec route (interact: exit points) / the waypoints still to walk |
 * | obstacleVertices | vertex, 32 B   | `ObstacleVertex` (RVO2), slot's polygons within 60 m     |
 * | nextVelocity     | ped, 8 B       | ORCA result before integration                           |
 *
 * Per {@link GpuPedestrianBatch.step}: one `writeBuffer` of the B `SlotStep`s, one submission (one
 * compute pass: updateBehaviours → computeVelocities → integrate, then a copy of `kinematics` into
 * a reused staging buffer), and one `mapAsync` readback into a host mirror that the slot views read.
 * No per-step GPU allocations.
 *
 * Routes of any length: a load (or {@link GpuPedestrianBatch.setRoute}) that needs more points than
 * a slot's pool holds grows every slot's pool (new `routes`/`paths` buffers, the old regions copied
 * on the GPU, one new bind group; the old buffers are destroyed once the queue is done with them).
 * A slot's region starts at `SlotStep.pathBase`; a pedestrian's at `PedParams.pathOffset` in it.
 *
 * Known differences from the reference: float32 (measured ≤ 3.2e-5 m over 15 s of every behaviour,
 * see the .gpu.test); comparisons that land exactly on a boundary (a trigger distance, a queue
 * wait that is a multiple of dt, a lateral start time, an interact stay whose duration − dt/2 is a
 * multiple of dt) may resolve one step apart; ORCA considers
 * the nearest 16 obstacle edges (`MAX_OBSTACLE_NEIGHBORS`), the TS all edges within range.
 *
 * Use: `const batch = await GpuPedestrianBatch.create(device, { slots: B, maxPedestriansPerSlot: 16 })`,
 * then exactly as {@link CpuPedestrianBatch}; `await` each `step` before the next.
 */
import { MAX_WALK_SPEED } from '../humans/motion';
import type { Ring, Vec2 } from '../core/geometry2d';
import type { PedestrianSpec } from '../sim/scenario';
import type { PedestrianDisc } from '../robot/failure-monitor';
import type { RobotState } from '../robot/unicycle';
import { dispatchSize1d } from '../gpu/dispatch';
import { beginComputePass, mapForReading, submit } from '../gpu/gpu-stats';
import { cacheKey, createComputePipeline, deviceCached } from '../gpu/pipeline-cache';
import { createKernelModule } from '../gpu/shader-loader';
import { CROWD_WORKGROUP_SIZE, MAX_OBSTACLE_NEIGHBORS, MAX_NEIGHBORS, ORCA_LINE_CAPACITY } from './gpu-crowd';
import {
  OBSTACLE_VERTEX_LAYOUT, PED_FLAG_TRIGGERED, PED_FLAG_WALKING, PED_GESTURES, PED_KINEMATICS_LAYOUT as K, PED_NEVER, PED_NO_GROUP, PED_PARAMS_LAYOUT as PP,
  PED_STATE_LAYOUT as PS, PEDESTRIAN_KINDS, SLOT_STEP_LAYOUT as SS, packObstacleVertices,
} from './gpu-layout';
import { buildObstacleVertices } from './obstacles';
import type { PedestrianBatch, PedestrianSlotView } from './pedestrian-batch';
import {
  type AnimationState, BEHAVIOUR_CONSTANTS, type InteractParams, initialResponsibility, interactParams, jitteredSpawns, obstaclesNear, PEDESTRIAN_ORCA, PEDESTRIAN_RADIUS, ROBOT_DISC_RADIUS,
} from './scenario-pedestrians';

/** Default of {@link GpuPedestrianBatchOptions.routePointsPerSlot}: the initial pool (it grows on demand). */
export const DEFAULT_ROUTE_POINTS_PER_SLOT = 256;

/** Options of {@link GpuPedestrianBatch.create}. */
export interface GpuPedestrianBatchOptions {
  /** B, the number of environments (≥ 1). */
  slots: number;
  /** Pedestrians one slot can hold (≥ 1); {@link GpuPedestrianBatch.load} throws beyond it. */
  maxPedestriansPerSlot: number;
  /** Obstacle vertices (after the 60 m filter) one slot can hold; default 2048 (procedural reactive scenes: ≤ ~700). */
  maxObstacleVerticesPerSlot?: number;
  /** Initial route-point pool of one slot (all its pedestrians' regions); grows on demand. Default {@link DEFAULT_ROUTE_POINTS_PER_SLOT}. */
  routePointsPerSlot?: number;
  label?: string;
}

interface SlotInfo {
  /** World position of the slot's GPU origin, m (float64). */
  origin: Vec2;
  count: number;
  /** Episode time, s (float64, summed like the TS reference). */
  time: number;
  obstacleRange: [number, number];
  /** Each pedestrian's region of the slot's route pool: offset and capacity, points. */
  regions: { offset: number; capacity: number }[];
  /** Points of the pool allocated. */
  poolUsed: number;
}

/** Points a pedestrian's region needs: its route (+1 for an interact object), its exit points, and 2 for a served queue member's or a lateral crossing's path. */
function regionPoints(spec: PedestrianSpec): number {
  const exit = spec.behaviour === 'interact' && Array.isArray(spec.params?.exit) ? spec.params.exit.length / 2 : 0;
  return Math.max(2, (spec.route?.length ?? 0) + 1, Math.ceil(exit));
}

const STORAGE = GPUBufferUsage.STORAGE;
const kindIndex = (behaviour: PedestrianSpec['behaviour']) => PEDESTRIAN_KINDS.indexOf(behaviour);

/**
 * The behaviour kernels (updateBehaviours, computeVelocities, integrate) for one set of override
 * constants (slot and pedestrian counts, ORCA tuning), with their bind group layout: compiled once
 * per device and constants, shared by every batch on the device.
 */
function behaviourKernels(device: GPUDevice, constants: Record<string, number>) {
  return deviceCached(device, cacheKey('GpuPedestrianBatch', constants), async () => {
    const module = await createKernelModule(device, 'crowd/behaviours.wgsl');
    const readOnly = new Set([0, 1, 4, 6]);
    const layout = device.createBindGroupLayout({
      label: 'GpuPedestrianBatch.bindGroupLayout',
      entries: Array.from({ length: 8 }, (_, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: readOnly.has(binding) ? 'read-only-storage' : 'storage' } as GPUBufferBindingLayout })),
    });
    const pipelineLayout = device.createPipelineLayout({ label: 'GpuPedestrianBatch.pipelineLayout', bindGroupLayouts: [layout] });
    const pipeline = (entryPoint: string) => createComputePipeline(device, { label: `GpuPedestrianBatch.${entryPoint}`, layout: pipelineLayout, compute: { module, entryPoint, constants } });
    const [behaviours, velocities, integrate] = await Promise.all([pipeline('updateBehaviours'), pipeline('computeVelocities'), pipeline('integrate')]);
    return { layout, behaviours, velocities, integrate };
  });
}

const BIND_ORDER = ['slots', 'pedParams', 'pedStates', 'kinematics', 'routes', 'paths', 'obstacleVertices', 'nextVelocity'] as const;

/** The batch's bind group over its current buffers (recreated when the route pools grow). */
function bindGroupOf(device: GPUDevice, label: string, layout: GPUBindGroupLayout, buffers: Record<(typeof BIND_ORDER)[number], GPUBuffer>): GPUBindGroup {
  return device.createBindGroup({ label: `${label}.bindGroup`, layout, entries: BIND_ORDER.map((name, binding) => ({ binding, resource: { buffer: buffers[name] } })) });
}

/** Pedestrian behaviours + ORCA for B slots on the GPU (see the module comment). */
export class GpuPedestrianBatch implements PedestrianBatch {
  readonly backend = 'gpu' as const;
  private readonly info: (SlotInfo | null)[];
  /** Host copy of `kinematics` as of the last step (or load). */
  private readonly mirror: ArrayBuffer;
  private readonly mirrorF32: Float32Array;
  private readonly mirrorU32: Uint32Array;
  private readonly slotData: ArrayBuffer;
  private readonly groups: { slots: [number, number]; peds: [number, number] };
  private stepping = false;
  /** Initial kinematics of slots loaded while a step was in flight (re-applied after its readback). */
  private readonly loadedInFlight = new Map<number, Uint8Array>();
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    readonly slots: number,
    readonly maxPedestriansPerSlot: number,
    readonly maxObstacleVerticesPerSlot: number,
    /** Route points each slot's pool holds now (grows on demand). */
    private routePointsPerSlot: number,
    private readonly label: string,
    private readonly pipelines: Record<'behaviours' | 'velocities' | 'integrate', GPUComputePipeline>,
    private readonly layout: GPUBindGroupLayout,
    private bindGroup: GPUBindGroup,
    private readonly buffers: Record<'slots' | 'pedParams' | 'pedStates' | 'kinematics' | 'routes' | 'paths' | 'obstacleVertices' | 'nextVelocity' | 'staging', GPUBuffer>,
  ) {
    this.info = new Array(slots).fill(null);
    this.mirror = new ArrayBuffer(slots * maxPedestriansPerSlot * K.size);
    this.mirrorF32 = new Float32Array(this.mirror);
    this.mirrorU32 = new Uint32Array(this.mirror);
    this.slotData = new ArrayBuffer(slots * SS.size);
    const maxPerDim = device.limits.maxComputeWorkgroupsPerDimension;
    this.groups = { slots: dispatchSize1d(slots, CROWD_WORKGROUP_SIZE, maxPerDim), peds: dispatchSize1d(slots * maxPedestriansPerSlot, CROWD_WORKGROUP_SIZE, maxPerDim) };
  }

  /**
   * Allocates every slot's buffers (all slots start empty); the kernels are compiled once per device
   * and override constants.
   *
   * @throws RangeError when `slots`, `maxPedestriansPerSlot` or `maxObstacleVerticesPerSlot` is not
   *   a positive integer; Error when WGSL compilation fails.
   */
  static async create(device: GPUDevice, options: GpuPedestrianBatchOptions): Promise<GpuPedestrianBatch> {
    const { slots, maxPedestriansPerSlot: peds } = options;
    const vertsPerSlot = options.maxObstacleVerticesPerSlot ?? 2048;
    const routePoints = options.routePointsPerSlot ?? DEFAULT_ROUTE_POINTS_PER_SLOT;
    const label = options.label ?? 'GpuPedestrianBatch';
    for (const [name, v] of [['slots', slots], ['maxPedestriansPerSlot', peds], ['maxObstacleVerticesPerSlot', vertsPerSlot], ['routePointsPerSlot', routePoints]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`GpuPedestrianBatch.create: ${name} ${v} is not a positive integer`);
    }
    if (PEDESTRIAN_ORCA.maxNeighbors > MAX_NEIGHBORS || PEDESTRIAN_ORCA.maxNeighbors + MAX_OBSTACLE_NEIGHBORS > ORCA_LINE_CAPACITY) {
      throw new Error('GpuPedestrianBatch.create: ORCA line capacity too small');
    }
    const constants: Record<string, number> = {
      CROWD_WORKGROUP_SIZE, SLOT_COUNT: slots, PEDS_PER_SLOT: peds, MAX_OBSTACLE_NEIGHBORS,
      PED_MAX_NEIGHBORS: PEDESTRIAN_ORCA.maxNeighbors, PED_RADIUS: PEDESTRIAN_RADIUS, ROBOT_RADIUS: ROBOT_DISC_RADIUS,
      MAX_SPEED: PEDESTRIAN_ORCA.maxSpeed, TIME_HORIZON: PEDESTRIAN_ORCA.timeHorizon, TIME_HORIZON_OBST: PEDESTRIAN_ORCA.timeHorizonObst,
      NEIGHBOR_DIST: PEDESTRIAN_ORCA.neighborDist, ...BEHAVIOUR_CONSTANTS,
    };
    const { layout, behaviours, velocities, integrate } = await behaviourKernels(device, constants);

    const n = slots * peds;
    const make = (field: string, size: number, usage = STORAGE | GPUBufferUsage.COPY_DST) => device.createBuffer({ label: `${label}.${field}`, size: Math.max(16, Math.ceil(size / 4) * 4), usage });
    const buffers = {
      slots: make('slots', slots * SS.size),
      pedParams: make('pedParams', n * PP.size),
      pedStates: make('pedStates', n * PS.size),
      kinematics: make('kinematics', n * K.size, STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC),
      routes: make('routes', slots * routePoints * 8, STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC),
      paths: make('paths', slots * routePoints * 8, STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC),
      obstacleVertices: make('obstacleVertices', slots * vertsPerSlot * OBSTACLE_VERTEX_LAYOUT.size),
      nextVelocity: make('nextVelocity', n * 8, STORAGE),
      staging: make('staging', n * K.size, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
    };
    return new GpuPedestrianBatch(device, slots, peds, vertsPerSlot, routePoints, label, { behaviours, velocities, integrate }, layout, bindGroupOf(device, label, layout, buffers), buffers);
  }

  /**
   * Grows every slot's route pool to at least `points` (doubling): new `routes`/`paths` buffers,
   * each slot's region copied on the GPU (queued after any step in flight), a new bind group; the
   * old buffers are destroyed once the queue has finished with them.
   */
  private growPool(points: number): void {
    const old = this.routePointsPerSlot;
    let cap = old;
    while (cap < points) cap *= 2;
    const encoder = this.device.createCommandEncoder({ label: `${this.label}.growPool` });
    const retired: GPUBuffer[] = [];
    for (const name of ['routes', 'paths'] as const) {
      const was = this.buffers[name];
      const grown = this.device.createBuffer({ label: `${this.label}.${name}`, size: this.slots * cap * 8, usage: was.usage });
      for (let slot = 0; slot < this.slots; slot++) encoder.copyBufferToBuffer(was, slot * old * 8, grown, slot * cap * 8, old * 8);
      this.buffers[name] = grown;
      retired.push(was);
    }
    submit(this.device, encoder);
    this.bindGroup = bindGroupOf(this.device, this.label, this.layout, this.buffers);
    this.routePointsPerSlot = cap;
    void this.device.queue.onSubmittedWorkDone().then(() => retired.forEach((b) => b.destroy()));
  }

  /** Route points each slot's pool holds now. */
  get routePoolPoints(): number {
    return this.routePointsPerSlot;
  }

  /**
   * Starts an episode in `slot` (see {@link PedestrianBatch.load}): uploads the pedestrians (spawn
   * jitter from `createRng(seed).fork('pedestrians')`, as the TS reference), their routes and the
   * obstacles within 60 m of any of them (CCW polygons, world frame, m) into the slot's region.
   *
   * Routes may have any length (the slot pools grow, see the module comment).
   *
   * @throws RangeError when `slot` is out of range, or more than `maxPedestriansPerSlot`
   *   pedestrians or more than `maxObstacleVerticesPerSlot` obstacle vertices are given; Error for an obstructing pedestrian
   *   without `params.target`, a lateral one without `params.crossPoint`/`params.exit`, a
   *   non-finite queue order, an interact one with bad `params` (see interactParams), or bad
   *   polygons (buildObstacleVertices).
   */
  async load(slot: number, specs: readonly PedestrianSpec[], obstacles: readonly Ring[], seed: number): Promise<void> {
    this.check(slot);
    const where = `GpuPedestrianBatch.load(slot ${slot})`;
    if (specs.length > this.maxPedestriansPerSlot) throw new RangeError(`${where}: ${specs.length} pedestrians exceed maxPedestriansPerSlot ${this.maxPedestriansPerSlot}`);
    const spawns = jitteredSpawns(specs, seed);
    const origin: Vec2 = specs.length > 0 ? [specs[0].spawn[0], specs[0].spawn[1]] : [0, 0];
    const rel = (p: readonly number[]): [number, number] => [p[0] - origin[0], p[1] - origin[1]];
    const near = obstaclesNear(obstacles, spawns);
    const { vertices } = buildObstacleVertices(near.map((poly) => ({ env: 0, vertices: poly.map((p) => { const [x, y] = rel(p); return { x, y }; }) })), 1);
    if (vertices.length > this.maxObstacleVerticesPerSlot) {
      throw new RangeError(`${where}: ${vertices.length} obstacle vertices within 60 m exceed maxObstacleVerticesPerSlot ${this.maxObstacleVerticesPerSlot}`);
    }
    const P = this.maxPedestriansPerSlot;
    const regions: SlotInfo['regions'] = [];
    let poolUsed = 0;
    for (const spec of specs) {
      const capacity = regionPoints(spec);
      regions.push({ offset: poolUsed, capacity });
      poolUsed += capacity;
    }
    if (poolUsed > this.routePointsPerSlot) this.growPool(poolUsed);
    const params = new ArrayBuffer(P * PP.size);
    const states = new ArrayBuffer(P * PS.size);
    const kin = new ArrayBuffer(P * K.size);
    const routes = new Float32Array(Math.max(1, poolUsed) * 2);
    const paths = new Float32Array(Math.max(1, poolUsed) * 2);
    const [pf, pu, sf, su, kf, ku] = [new Float32Array(params), new Uint32Array(params), new Float32Array(states), new Uint32Array(states), new Float32Array(kin), new Uint32Array(kin)];
    specs.forEach((spec, i) => {
      const who = `${where}: pedestrians[${i}] (${spec.behaviour})`;
      const route = spec.route ?? [];
      const base = regions[i].offset;
      const point = (name: string, required: boolean): [number, number] => {
        const v = spec.params?.[name];
        if (Array.isArray(v) && v.length >= 2) return rel(v);
        if (required) throw new Error(`${who}: params.${name} must be a point [x, y]`);
        return [0, 0];
      };
      const lateral = spec.behaviour === 'lateral';
      const order = Number(spec.params?.order ?? 0);
      const wait = Number(spec.params?.wait ?? 10);
      if (spec.behaviour === 'queuing' && !(Number.isFinite(order) && Number.isFinite(wait))) throw new Error(`${who}: params.order and params.wait must be finite numbers`);
      // Interact: paths start as route + object; routes[] holds the exit points (walked after the stay).
      let interact: InteractParams | undefined;
      if (spec.behaviour === 'interact') {
        try {
          interact = interactParams(spec);
        } catch (e) {
          throw new Error(`${who}: ${(e as Error).message}`);
        }
      }
      const o = (i * PP.size) / 4;
      if (interact) pf.set([...rel(spec.spawn), ...rel(interact.object), ...rel(interact.facing)], o);
      else pf.set([...rel(spec.spawn), ...point(lateral ? 'crossPoint' : 'target', spec.behaviour === 'obstructing' || lateral), ...point('exit', lateral)], o);
      pu[o + PP.kind / 4] = kindIndex(spec.behaviour);
      pu[o + PP.group / 4] = spec.group ?? PED_NO_GROUP;
      pf[o + PP.order / 4] = order;
      pf[o + PP.wait / 4] = interact ? interact.duration : wait;
      pf[o + PP.triggerDistance / 4] = spec.triggerDistance ?? -1;
      const stored = interact ? interact.exit : route;
      pu[o + PP.routeLen / 4] = stored.length;
      pu[o + PP.pathOffset / 4] = base;
      pf[o + PP.exitSide / 4] = Number(spec.params?.exitSide ?? 1) < 0 ? -1 : 1;
      pf[o + PP.heading / 4] = spec.heading;
      stored.forEach((p, k) => routes.set(rel(p), (base + k) * 2));
      const walksAtOnce = spec.behaviour === 'walk';
      if (walksAtOnce) paths.set(routes.subarray(base * 2, (base + route.length) * 2), base * 2);
      if (interact) [...route, interact.object].forEach((p, k) => paths.set(rel(p), (base + k) * 2));
      const s = (i * PS.size) / 4;
      sf.set([spec.speed, initialResponsibility(spec.behaviour), 0, PED_NEVER], s);
      su.set([0, walksAtOnce ? route.length : interact ? route.length + 1 : 0], s + PS.pathStart / 4);
      su[s + PS.phase / 4] = 0; // interact: INTERACT_APPROACH
      sf[s + PS.place / 4] = order;
      sf.set(rel(spawns[i]), s + PS.anchor / 4);
      const k = (i * K.size) / 4;
      kf.set([...rel(spawns[i]), 0, 0, spec.heading], k);
      ku[k + K.flags / 4] = spec.behaviour === 'conversing' ? PED_GESTURES.indexOf('talk') << 1 : 0;
    });
    const firstVertex = slot * this.maxObstacleVerticesPerSlot;
    const shifted = vertices.map((v) => ({ ...v, next: v.next + firstVertex, prev: v.prev + firstVertex }));
    const q = this.device.queue;
    const first = slot * P;
    q.writeBuffer(this.buffers.pedParams, first * PP.size, params);
    q.writeBuffer(this.buffers.pedStates, first * PS.size, states);
    q.writeBuffer(this.buffers.kinematics, first * K.size, kin);
    const poolStart = slot * this.routePointsPerSlot * 8;
    q.writeBuffer(this.buffers.routes, poolStart, routes.buffer, 0, poolUsed * 8);
    q.writeBuffer(this.buffers.paths, poolStart, paths.buffer, 0, poolUsed * 8);
    if (shifted.length > 0) q.writeBuffer(this.buffers.obstacleVertices, firstVertex * OBSTACLE_VERTEX_LAYOUT.size, packObstacleVertices(shifted));
    const initial = new Uint8Array(kin);
    new Uint8Array(this.mirror, first * K.size, P * K.size).set(initial);
    // A step in flight was submitted before these writes: its readback must not overwrite them.
    if (this.stepping) this.loadedInFlight.set(slot, initial);
    this.info[slot] = { origin, count: specs.length, time: 0, obstacleRange: [firstVertex, firstVertex + shifted.length], regions, poolUsed };
  }

  /**
   * Gives pedestrian `i` of `slot` a new path to walk at `speed` m/s from the next step on (world
   * frame, metres; any length: a path longer than its region gets a new one at the end of the
   * slot's pool, which grows when full). For ambient walkers (`walk`/`idle`), e.g. a new
   * destination on arrival. Call between steps.
   *
   * @throws RangeError when the slot is empty or `i` is not one of its pedestrians; Error for a
   *   non-finite point or speed.
   */
  setRoute(slot: number, i: number, route: readonly Vec2[], speed: number): void {
    this.check(slot);
    const info = this.info[slot];
    if (!info) throw new RangeError(`GpuPedestrianBatch.setRoute: slot ${slot} has no episode loaded`);
    if (!Number.isInteger(i) || i < 0 || i >= info.count) throw new RangeError(`GpuPedestrianBatch.setRoute: pedestrian ${i} is outside 0..${info.count - 1}`);
    if (!(Number.isFinite(speed) && speed >= 0) || route.some((p) => !(Number.isFinite(p[0]) && Number.isFinite(p[1])))) throw new Error('GpuPedestrianBatch.setRoute: non-finite point or speed');
    const q = this.device.queue;
    const region = info.regions[i];
    if (route.length > region.capacity) {
      if (info.poolUsed + route.length > this.routePointsPerSlot) this.growPool(info.poolUsed + route.length);
      region.offset = info.poolUsed;
      region.capacity = route.length;
      info.poolUsed += route.length;
      q.writeBuffer(this.buffers.pedParams, (slot * this.maxPedestriansPerSlot + i) * PP.size + PP.pathOffset, new Uint32Array([region.offset]));
    }
    const pts = new Float32Array(Math.max(1, route.length) * 2);
    route.forEach((p, k) => pts.set([p[0] - info.origin[0], p[1] - info.origin[1]], 2 * k));
    if (route.length > 0) q.writeBuffer(this.buffers.paths, (slot * this.routePointsPerSlot + region.offset) * 8, pts, 0, route.length * 2);
    const state = (slot * this.maxPedestriansPerSlot + i) * PS.size;
    q.writeBuffer(this.buffers.pedStates, state + PS.speed, new Float32Array([speed]));
    q.writeBuffer(this.buffers.pedStates, state + PS.pathStart, new Uint32Array([0, route.length]));
  }

  unload(slot: number): void {
    this.check(slot);
    this.info[slot] = null;
  }

  /**
   * Advances every loaded slot whose `robots[slot]` is given by `dt` s (see
   * {@link PedestrianBatch.step}); resolves once the new state is read back.
   *
   * @throws Error when called while a previous step is still in flight, or after destroy().
   */
  async step(dt: number, robots: readonly (Readonly<RobotState> | null)[]): Promise<void> {
    if (this.destroyed) throw new Error('GpuPedestrianBatch.step: called after destroy()');
    if (this.stepping) throw new Error('GpuPedestrianBatch.step: the previous step has not finished (await it)');
    const f = new Float32Array(this.slotData);
    const u = new Uint32Array(this.slotData);
    let any = false;
    this.info.forEach((info, slot) => {
      const robot = robots[slot];
      const o = (slot * SS.size) / 4;
      const active = !!(info && robot);
      u[o + SS.running / 4] = active ? 1 : 0;
      if (!info || !robot) return;
      any = true;
      info.time += dt;
      f.set([robot.x - info.origin[0], robot.y - info.origin[1], robot.v * Math.cos(robot.yaw), robot.v * Math.sin(robot.yaw), robot.v, info.time, dt], o);
      u.set([info.count, 1, ...info.obstacleRange, slot * this.routePointsPerSlot], o + SS.pedCount / 4);
    });
    if (!any) return;
    this.stepping = true;
    try {
      this.device.queue.writeBuffer(this.buffers.slots, 0, this.slotData);
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.step` });
      const pass = beginComputePass(this.device, encoder, { label: `${this.label}.step` });
      pass.setBindGroup(0, this.bindGroup);
      pass.setPipeline(this.pipelines.behaviours);
      pass.dispatchWorkgroups(...this.groups.slots);
      pass.setPipeline(this.pipelines.velocities);
      pass.dispatchWorkgroups(...this.groups.peds);
      pass.setPipeline(this.pipelines.integrate);
      pass.dispatchWorkgroups(...this.groups.peds);
      pass.end();
      encoder.copyBufferToBuffer(this.buffers.kinematics, 0, this.buffers.staging, 0, this.mirror.byteLength);
      submit(this.device, encoder);
      await mapForReading(this.device, this.buffers.staging, 0, this.mirror.byteLength);
      new Uint8Array(this.mirror).set(new Uint8Array(this.buffers.staging.getMappedRange(0, this.mirror.byteLength)));
      this.buffers.staging.unmap();
      for (const [slot, initial] of this.loadedInFlight) new Uint8Array(this.mirror, slot * this.maxPedestriansPerSlot * K.size, initial.byteLength).set(initial);
    } finally {
      this.stepping = false;
      this.loadedInFlight.clear();
    }
  }

  /**
   * The pedestrians of `slot` as of the last step (world frame: the slot origin is added back in
   * float64). A live view: it reads the host mirror on every call.
   *
   * @throws RangeError when `slot` is out of range or has no episode loaded.
   */
  view(slot: number): PedestrianSlotView {
    this.check(slot);
    const info = this.info[slot];
    if (!info) throw new RangeError(`GpuPedestrianBatch: slot ${slot} has no episode loaded`);
    const f = this.mirrorF32;
    const u = this.mirrorU32;
    const at = (i: number) => ((slot * this.maxPedestriansPerSlot + i) * K.size) / 4;
    const each = <T>(fn: (o: number) => T): T[] => Array.from({ length: info.count }, (_, i) => fn(at(i)));
    const gesture = (o: number) => PED_GESTURES[(u[o + K.flags / 4] >> 1) & 3];
    return {
      discs: (): PedestrianDisc[] => each((o) => ({ x: info.origin[0] + f[o], y: info.origin[1] + f[o + 1], radius: PEDESTRIAN_RADIUS })),
      velocities: (): Vec2[] => each((o) => [f[o + 2], f[o + 3]]),
      gestures: () => each(gesture),
      animation: (): AnimationState[] =>
        each((o) => {
          // The length of a float32 velocity at the 2 m/s limit can round just above it (2.0000000362):
          // the gait model refuses speeds over MAX_WALK_SPEED, so clamp what is rounding.
          const speed = Math.min(MAX_WALK_SPEED, Math.hypot(f[o + 2], f[o + 3]));
          return { walkSpeed: speed, heading: f[o + K.heading / 4], gesture: gesture(o), idle: speed < 0.05 };
        }),
      triggered: (i: number) => (u[at(i) + K.flags / 4] & PED_FLAG_TRIGGERED) !== 0,
      walking: (i: number) => (u[at(i) + K.flags / 4] & PED_FLAG_WALKING) !== 0,
    };
  }

  /** Frees the GPU buffers; later steps throw. */
  destroy(): void {
    for (const b of Object.values(this.buffers)) b.destroy();
    this.info.fill(null);
    this.destroyed = true;
  }

  private check(slot: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.slots) throw new RangeError(`GpuPedestrianBatch: slot ${slot} is outside 0..${this.slots - 1}`);
  }
}
