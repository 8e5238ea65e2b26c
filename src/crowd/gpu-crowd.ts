/**
 * The GPU crowd: ORCA for every agent of every environment, one thread per agent
 * (`shaders/crowd/orca.wgsl`; its half-planes live in `orca-core.wgsl`, shared with the pedestrian
 * batch), with a uniform-grid neighbour search rebuilt on the GPU each step
 * (`shaders/crowd/neighbor-grid.wgsl` + {@link PrefixScan}). Same semantics as
 * {@link ReferenceCrowd} (float32 instead of float64). State stays on the GPU between steps; the
 * only readbacks are {@link GpuCrowd.readState} and {@link GpuCrowd.readMetrics}, on request.
 *
 * Per step (one compute pass after a clearBuffer of the cell counts):
 * countAgents → PrefixScan(cellCounts, cellCount + 1) → scatterAgents → computeVelocities
 * (reads state A, writes state B; the next step reads B). Each step's `CrowdParams` live in their
 * own 256-byte slot of one uniform buffer, selected by a dynamic offset; they differ only in
 * `stateIndex`, the metrics slot of the state the step reads.
 */
import { dispatchSize1d } from '../gpu/dispatch';
import { PrefixScan } from '../gpu/prefix-scan';
import { beginComputePass } from '../gpu/gpu-stats';
import { createComputePipeline, deviceCached } from '../gpu/pipeline-cache';
import { readBuffer } from '../gpu/readback';
import { createKernelModule } from '../gpu/shader-loader';
import { OVERLAP_TOLERANCE, type StateMetrics } from './crowd-metrics';
import { type CrowdSpec, validateCrowdSpec } from './crowd-spec';
import { CROWD_PARAMS_LAYOUT as P, crowdOrigin, gridFor, packAgentParams, packAgentStates, packObstacleVertices, translateCrowdSpec, type CrowdGrid } from './gpu-layout';
import type { Vec2 } from './vec2';
import { buildObstacleVertices } from './obstacles';

/** Invocations per workgroup of every crowd kernel (WGSL override `CROWD_WORKGROUP_SIZE`). */
export const CROWD_WORKGROUP_SIZE = 64;
/** Capacity of an agent's neighbour list (WGSL override); agents' maxNeighbors must not exceed it. */
export const MAX_NEIGHBORS = 16;
/** Obstacle edges considered per agent, nearest first (WGSL override). */
export const MAX_OBSTACLE_NEIGHBORS = 16;
/** `ORCA_LINE_CAPACITY` in linear-program.wgsl: private line-array length. */
export const ORCA_LINE_CAPACITY = 32;
/** Steps one `encode` call may record (uniform slots, plus one for the final measurement). */
export const STEP_SLOTS = 128;

/** Options of {@link GpuCrowd.create}. */
export interface GpuCrowdOptions {
  /** Metrics slots: states 0..maxSteps can be measured (default 10,000 steps). */
  maxSteps?: number;
  label?: string;
  /** Grid override (tests), in the crowd's local frame (world minus {@link GpuCrowd.origin}); default {@link gridFor}. */
  grid?: CrowdGrid;
}

const STORAGE = GPUBufferUsage.STORAGE;

/**
 * The crowd kernels (countAgents, scatterAgents, computeVelocities, measureState) and their bind
 * group layouts (binding 0: a step's CrowdParams slot, by dynamic offset): compiled once per device
 * and shared by every crowd on it.
 */
function crowdKernels(device: GPUDevice) {
  return deviceCached(device, 'GpuCrowd', async () => {
    const [gridModule, orcaModule] = await Promise.all([
      createKernelModule(device, 'crowd/neighbor-grid.wgsl'),
      createKernelModule(device, 'crowd/orca.wgsl'),
    ]);
    const entry = (binding: number, type: GPUBufferBindingType, hasDynamicOffset = false): GPUBindGroupLayoutEntry => ({
      binding, visibility: GPUShaderStage.COMPUTE, buffer: { type, hasDynamicOffset, minBindingSize: binding === 0 ? P.size : 0 },
    });
    const gridLayout = device.createBindGroupLayout({
      label: 'GpuCrowd.gridBindGroupLayout',
      entries: [entry(0, 'uniform', true), entry(1, 'read-only-storage'), entry(2, 'read-only-storage'), entry(3, 'storage'), entry(4, 'storage'), entry(5, 'storage'), entry(6, 'storage')],
    });
    const orcaLayout = device.createBindGroupLayout({
      label: 'GpuCrowd.orcaBindGroupLayout',
      entries: [
        entry(0, 'uniform', true), entry(1, 'read-only-storage'), entry(2, 'read-only-storage'), entry(3, 'storage'),
        entry(4, 'read-only-storage'), entry(5, 'read-only-storage'), entry(6, 'read-only-storage'), entry(7, 'read-only-storage'), entry(8, 'storage'),
      ],
    });
    const pipeline = (module: GPUShaderModule, layout: GPUBindGroupLayout, entryPoint: string, constants: Record<string, number>) =>
      createComputePipeline(device, {
        label: `GpuCrowd.${entryPoint}Pipeline`,
        layout: device.createPipelineLayout({ label: `GpuCrowd.${entryPoint}Layout`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint, constants },
      });
    const orcaConstants = { CROWD_WORKGROUP_SIZE, MAX_NEIGHBORS, MAX_OBSTACLE_NEIGHBORS };
    const [count, scatter, orca, measure] = await Promise.all([
      pipeline(gridModule, gridLayout, 'countAgents', { CROWD_WORKGROUP_SIZE }),
      pipeline(gridModule, gridLayout, 'scatterAgents', { CROWD_WORKGROUP_SIZE }),
      pipeline(orcaModule, orcaLayout, 'computeVelocities', orcaConstants),
      pipeline(orcaModule, orcaLayout, 'measureState', orcaConstants),
    ]);
    return { gridLayout, orcaLayout, count, scatter, orca, measure };
  });
}

/** ORCA crowd on the GPU (see the module comment). */
export class GpuCrowd {
  /** Steps recorded so far; the current state is state `stepCount`. */
  stepCount = 0;
  private measured = 0;
  private parity = 0;
  private destroyed = false;
  private readonly buffers: GPUBuffer[] = [];

  private constructor(
    readonly device: GPUDevice,
    readonly spec: CrowdSpec,
    /** World position of the crowd's local frame (its first agent's start), m, float64: the GPU holds positions relative to it. */
    readonly origin: Vec2,
    readonly grid: CrowdGrid,
    readonly maxSteps: number,
    private readonly label: string,
    private readonly pipelines: Record<'count' | 'scatter' | 'orca' | 'measure', GPUComputePipeline>,
    private readonly scan: PrefixScan,
    private readonly params: GPUBuffer,
    private readonly paramsStride: number,
    private readonly cellCounts: GPUBuffer,
    private readonly states: [GPUBuffer, GPUBuffer],
    private readonly metrics: GPUBuffer,
    /** [parity]: grid and ORCA bind groups reading states[parity]. */
    private readonly gridBindGroups: GPUBindGroup[],
    private readonly orcaBindGroups: GPUBindGroup[],
  ) {}

  /** Agents. */
  get agentCount(): number {
    return this.spec.agents.length;
  }

  /** Cells over all environments. */
  get cellCount(): number {
    return this.spec.envCount * this.grid.width * this.grid.height;
  }

  /**
   * Uploads the crowd (the kernels are compiled once per device).
   *
   * @throws Error naming the agent when its maxNeighbors exceeds {@link MAX_NEIGHBORS}, from
   *   validateCrowdSpec / buildObstacleVertices on bad input, and on an empty crowd.
   */
  static async create(device: GPUDevice, spec: CrowdSpec, options: GpuCrowdOptions = {}): Promise<GpuCrowd> {
    validateCrowdSpec(spec);
    const label = options.label ?? 'GpuCrowd';
    const n = spec.agents.length;
    if (n === 0) throw new Error('GpuCrowd.create: the crowd has no agents');
    if (MAX_NEIGHBORS + MAX_OBSTACLE_NEIGHBORS > ORCA_LINE_CAPACITY) throw new Error('GpuCrowd.create: line capacity too small');
    const bad = spec.agents.findIndex((a) => a.maxNeighbors > MAX_NEIGHBORS);
    if (bad >= 0) throw new Error(`GpuCrowd.create: agents[${bad}].maxNeighbors ${spec.agents[bad].maxNeighbors} exceeds MAX_NEIGHBORS ${MAX_NEIGHBORS}`);
    // Simulated around the first agent's start, so float32 precision does not depend on where the scene sits.
    const origin = crowdOrigin(spec);
    const local = translateCrowdSpec(spec, origin);
    const grid = options.grid ?? gridFor(local);
    const maxSteps = options.maxSteps ?? 10_000;
    const { vertices, envRanges } = buildObstacleVertices(local.obstacles, local.envCount);
    const cellCount = spec.envCount * grid.width * grid.height;

    const [{ gridLayout, orcaLayout, count, scatter, orca, measure }, scan] = await Promise.all([
      crowdKernels(device),
      PrefixScan.create(device, cellCount + 1, `${label}.cellScan`),
    ]);

    const buffers: GPUBuffer[] = [];
    const make = (field: string, size: number, usage: number, data?: ArrayBuffer | ArrayBufferView<ArrayBuffer>) => {
      const buffer = device.createBuffer({ label: `${label}.${field}`, size: Math.max(16, Math.ceil(size / 4) * 4), usage, mappedAtCreation: !!data });
      if (data) {
        const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        new Uint8Array(buffer.getMappedRange()).set(bytes);
        buffer.unmap();
      }
      buffers.push(buffer);
      return buffer;
    };
    const paramsStride = Math.max(256, device.limits.minUniformBufferOffsetAlignment);
    const params = make('params', paramsStride * (STEP_SLOTS + 1), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    const agents = make('agents', n * 48, STORAGE, packAgentParams(local));
    const initial = packAgentStates(local);
    const states: [GPUBuffer, GPUBuffer] = [
      make('stateA', initial.byteLength, STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST, initial),
      make('stateB', initial.byteLength, STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
    ];
    const cellCounts = make('cellCounts', (cellCount + 1) * 4, STORAGE | GPUBufferUsage.COPY_DST);
    const agentCell = make('agentCell', n * 4, STORAGE);
    const agentRank = make('agentRank', n * 4, STORAGE);
    const cellAgents = make('cellAgents', n * 4, STORAGE);
    const obstacleVertices = make('obstacleVertices', Math.max(1, vertices.length) * 32, STORAGE, packObstacleVertices(vertices));
    const envObstacleRanges = make('envObstacleRanges', spec.envCount * 8, STORAGE, Uint32Array.from(envRanges.flat()));
    const metricsInit = new Uint32Array((maxSteps + 1) * 4);
    for (let k = 0; k < metricsInit.length; k += 4) metricsInit[k] = 0x7f800000; // +Inf bits
    const metrics = make('metrics', metricsInit.byteLength, STORAGE | GPUBufferUsage.COPY_SRC, metricsInit);

    const bind = (layout: GPUBindGroupLayout, name: string, list: GPUBuffer[]) =>
      device.createBindGroup({
        label: `${label}.${name}`,
        layout,
        entries: list.map((buffer, binding) => ({ binding, resource: binding === 0 ? { buffer, size: P.size } : { buffer } })),
      });
    const gridBindGroups = [0, 1].map((p) => bind(gridLayout, `gridBindGroup${p}`, [params, agents, states[p], cellCounts, agentCell, agentRank, cellAgents]));
    const orcaBindGroups = [0, 1].map((p) =>
      bind(orcaLayout, `orcaBindGroup${p}`, [params, agents, states[p], states[1 - p], cellCounts, cellAgents, obstacleVertices, envObstacleRanges, metrics]),
    );
    const crowd = new GpuCrowd(device, spec, origin, grid, maxSteps, label, { count, scatter, orca, measure }, scan, params, paramsStride, cellCounts, states, metrics, gridBindGroups, orcaBindGroups);
    crowd.buffers.push(...buffers);
    return crowd;
  }

  /**
   * Records `steps` simulation steps, and with `measureFinal` a measurement of the state they end
   * in. Writes this call's uniform slots with `queue.writeBuffer` now, so the caller must submit
   * `encoder` before the next `encode`.
   *
   * @throws Error when `steps` is not an integer in [0, STEP_SLOTS], when the metrics capacity
   *   (maxSteps) would be exceeded, or after destroy().
   */
  encode(encoder: GPUCommandEncoder, steps: number, measureFinal = false): void {
    if (this.destroyed) throw new Error('GpuCrowd.encode: called after destroy()');
    if (!Number.isInteger(steps) || steps < 0 || steps > STEP_SLOTS) throw new Error(`GpuCrowd.encode: steps ${steps} is not an integer in [0, ${STEP_SLOTS}]`);
    if (this.stepCount + steps > this.maxSteps) throw new Error(`GpuCrowd.encode: ${this.stepCount + steps} steps exceed maxSteps ${this.maxSteps}`);
    if (this.measured > this.stepCount) throw new Error('GpuCrowd.encode: the final state was already measured');
    this.writeSlots(steps + 1);
    const groups = dispatchSize1d(this.agentCount, CROWD_WORKGROUP_SIZE, this.device.limits.maxComputeWorkgroupsPerDimension);
    const run = (slot: number, last: GPUComputePipeline) => {
      const offset = [slot * this.paramsStride];
      encoder.clearBuffer(this.cellCounts, 0, (this.cellCount + 1) * 4);
      const pass = beginComputePass(this.device, encoder, { label: `${this.label}.step` });
      pass.setPipeline(this.pipelines.count);
      pass.setBindGroup(0, this.gridBindGroups[this.parity], offset);
      pass.dispatchWorkgroups(...groups);
      this.scan.encodePass(pass, this.cellCounts, this.cellCount + 1);
      pass.setPipeline(this.pipelines.scatter);
      pass.setBindGroup(0, this.gridBindGroups[this.parity], offset);
      pass.dispatchWorkgroups(...groups);
      pass.setPipeline(last);
      pass.setBindGroup(0, this.orcaBindGroups[this.parity], offset);
      pass.dispatchWorkgroups(...groups);
      pass.end();
    };
    for (let s = 0; s < steps; s++) {
      run(s, this.pipelines.orca);
      this.parity ^= 1;
      this.stepCount++;
    }
    this.measured = this.stepCount;
    if (measureFinal) {
      run(steps, this.pipelines.measure);
      this.measured = this.stepCount + 1;
    }
  }

  /**
   * Reads the current state back: interleaved world positions (m; the GPU's local float32 positions
   * plus {@link origin} in float64) and velocities (m/s, float32).
   */
  async readState(): Promise<{ positions: Float64Array; velocities: Float32Array }> {
    const raw = new Float32Array(await this.read(this.states[this.parity], this.agentCount * 16));
    const positions = new Float64Array(2 * this.agentCount);
    const velocities = new Float32Array(2 * this.agentCount);
    for (let i = 0; i < this.agentCount; i++) {
      positions[2 * i] = this.origin.x + raw[4 * i];
      positions[2 * i + 1] = this.origin.y + raw[4 * i + 1];
      velocities.set(raw.subarray(4 * i + 2, 4 * i + 4), 2 * i);
    }
    return { positions, velocities };
  }

  /** Reads the metrics of every measured state (0 .. stepCount − 1, and stepCount after a final measurement). */
  async readMetrics(): Promise<StateMetrics[]> {
    if (this.measured === 0) return [];
    const bytes = await this.read(this.metrics, this.measured * 16);
    const u = new Uint32Array(bytes);
    const f = new Float32Array(bytes);
    return Array.from({ length: this.measured }, (_, k) => ({
      minPairDistance: f[4 * k],
      overlapAgents: u[4 * k + 1],
      reachedAgents: u[4 * k + 2],
      speedSum: u[4 * k + 3] / 1000,
    }));
  }

  /** Frees every GPU object this crowd made; later calls throw. */
  destroy(): void {
    for (const b of this.buffers) b.destroy();
    this.scan.destroy();
    this.destroyed = true;
  }

  private writeSlots(slots: number): void {
    const data = new ArrayBuffer(this.paramsStride * slots);
    const view = new DataView(data);
    const g = this.grid;
    for (let s = 0; s < slots; s++) {
      const o = s * this.paramsStride;
      view.setUint32(o + P.agentCount, this.agentCount, true);
      view.setUint32(o + P.stateIndex, this.stepCount + s, true);
      view.setFloat32(o + P.timeStep, this.spec.timeStep, true);
      view.setFloat32(o + P.cellSize, g.cellSize, true);
      view.setFloat32(o + P.gridOrigin, g.origin[0], true);
      view.setFloat32(o + P.gridOrigin + 4, g.origin[1], true);
      view.setUint32(o + P.gridWidth, g.width, true);
      view.setUint32(o + P.gridHeight, g.height, true);
      view.setUint32(o + P.cellCount, this.cellCount, true);
      view.setUint32(o + P.envCount, this.spec.envCount, true);
      view.setFloat32(o + P.overlapTolerance, OVERLAP_TOLERANCE, true);
    }
    this.device.queue.writeBuffer(this.params, 0, data);
  }

  private read(buffer: GPUBuffer, size: number): Promise<ArrayBuffer> {
    return readBuffer(this.device, buffer, 0, size, `${this.label}.readback`);
  }
}
