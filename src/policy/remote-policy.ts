/**
 * A policy served by another process over WebSocket (issue 6: "frames and state out, waypoints or
 * (v, ω) back"), through the relay in remote-server.ts; protocol in REMOTE-PROTOCOL.md.
 *
 * The remote model declares its contract by sending a `spec`: the same manifest as an ONNX model
 * (image size, context, normalisation, goal, output kind, rate; `inputs`/`output.name` are
 * informational). Curbside then prepares the observation exactly as for an ONNX model (the GPU
 * observation pass, [B, T, 3, H, W] float32) and — the one place frames leave the GPU — reads it
 * back to send it.
 */
import { mapForReading, submit } from '../gpu/gpu-stats';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { mapDims, parsePolicyManifest, requireMaps, type PolicyManifest } from './manifest';
import { ObservationPass } from './observation-pass';
import { observationConfig } from './observation-reference';
import type { CameraMount, Policy, PolicyAction, PolicyObservation } from './policy';
import { decodePolicyOutput } from './policy-output';
import { encodeObservation, flattenAction, REMOTE_PROTOCOL, type ObservationHeader } from './remote-protocol';

/** The part of the standard WebSocket API the link uses (browser `WebSocket`, or `ws` in Node). */
export interface WebSocketLike {
  binaryType: string;
  readyState: number;
  send(data: string | ArrayBuffer): void;
  close(): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  addEventListener(type: 'close' | 'error', listener: (ev: unknown) => void): void;
}

/**
 * The simulator's end of the protocol, without GPU work: waits for the policy's spec, sends
 * resets and observations, and matches actions to steps. Every wait fails after `timeoutMs`.
 */
export class RemotePolicyLink {
  private readonly queue: unknown[] = [];
  private waiter: ((msg: unknown) => void) | undefined;
  private closedReason: string | undefined;

  constructor(private readonly ws: WebSocketLike, readonly timeoutMs = 60_000) {
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('message', (ev) => {
      let msg: unknown;
      try {
        msg = typeof ev.data === 'string' ? JSON.parse(ev.data) : { type: 'binary' };
      } catch {
        msg = { type: 'error', message: `unparsable message: ${String(ev.data).slice(0, 80)}` };
      }
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(msg);
      } else this.queue.push(msg);
    });
    const onClose = () => {
      this.closedReason ??= 'the relay closed the connection';
      this.waiter?.({ type: 'closed' });
    };
    ws.addEventListener('close', onClose);
    ws.addEventListener('error', onClose);
  }

  /**
   * Opens a link to the relay at `url` (e.g. `ws://127.0.0.1:40123`) as the simulator.
   *
   * @throws Error when the connection is refused (wrong token: the relay answers HTTP 401).
   */
  static async connect(url: string, token: string, timeoutMs?: number, create: (u: string) => WebSocketLike = (u) => new WebSocket(u)): Promise<RemotePolicyLink> {
    const ws = create(`${url}/simulator?token=${encodeURIComponent(token)}`);
    const link = new RemotePolicyLink(ws, timeoutMs);
    const hello = (await link.next('hello')) as { protocol?: string };
    if (hello.protocol !== REMOTE_PROTOCOL) throw new Error(`remote policy: relay speaks ${hello.protocol}, expected ${REMOTE_PROTOCOL}`);
    return link;
  }

  /**
   * Next message of `type` (hello and peer notices are skipped).
   *
   * @throws Error on timeout, close, an `error` message or the policy process disconnecting.
   */
  async next(type: string): Promise<Record<string, unknown>> {
    for (;;) {
      const msg = (this.queue.shift() ?? (await this.wait())) as Record<string, unknown>;
      if (msg.type === type) return msg;
      if (msg.type === 'closed') throw new Error(`remote policy: ${this.closedReason} while waiting for '${type}'`);
      if (msg.type === 'error') throw new Error(`remote policy: the policy reported: ${String(msg.message)}`);
      // The relay announces a policy that went away; waiting on would only end in the timeout.
      if (msg.type === 'peer' && msg.role === 'policy' && msg.connected === false) throw new Error(`remote policy: the policy process disconnected while Curbside waited for '${type}'`);
      if (msg.type !== 'peer' && msg.type !== 'hello') throw new Error(`remote policy: expected '${type}', got '${String(msg.type)}'`);
    }
  }

  private wait(): Promise<unknown> {
    if (this.closedReason) return Promise.resolve({ type: 'closed' });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`remote policy: no message within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiter = (msg) => {
        clearTimeout(timer);
        resolve(msg);
      };
    });
  }

  /** Waits for the policy's `spec` and validates it as a manifest. @throws ManifestError naming the field. */
  async spec(): Promise<PolicyManifest> {
    const msg = await this.next('spec');
    return parsePolicyManifest(msg.manifest, 'remote policy spec');
  }

  /** Sends a JSON message. */
  sendJson(msg: object): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Sends one observation and returns the action for its step, flattened (see `flattenAction`). */
  async exchange(header: Omit<ObservationHeader, 'tensors'>, tensors: { name: string; shape: number[]; data: Float32Array }[], m: PolicyManifest, batch: number): Promise<Float32Array> {
    this.ws.send(encodeObservation(header, tensors));
    return flattenAction(await this.next('action'), header.step, batch, m.output);
  }

  /** Closes the connection. */
  close(): void {
    this.ws.close();
  }
}

/** How to build a {@link RemotePolicy}. */
export interface RemotePolicyOptions {
  /** Relay base URL, e.g. `ws://127.0.0.1:40123` (RemotePolicyServer.url). */
  url: string;
  /** The relay's session token. */
  token: string;
  /** B (default 1). */
  batch?: number;
  /** Speed limits for the PD controller (default SidewalkBench's robot). */
  robot?: RobotSpec;
  /** Longest wait for the policy, ms (default 60 000). */
  timeoutMs?: number;
  /** Opens the socket (default: the browser's `WebSocket`); tests pass an in-page stand-in. */
  createSocket?: (url: string) => WebSocketLike;
}

/** A {@link Policy} whose model runs in another process. */
export class RemotePolicy implements Policy {
  readonly name: string;
  readonly rateHz: number;
  readonly camera: CameraMount;
  readonly goal: 'none' | 'point' | 'image';
  private step = 0;
  private readonly staging: GPUBuffer;

  private constructor(
    readonly device: GPUDevice,
    readonly manifest: PolicyManifest,
    readonly batch: number,
    private readonly link: RemotePolicyLink,
    private readonly observation: ObservationPass,
    private readonly robot: RobotSpec,
  ) {
    this.name = `remote: ${manifest.name}`;
    this.rateHz = manifest.rateHz;
    this.camera = manifest.camera;
    this.goal = manifest.goal.type;
    this.staging = device.createBuffer({ label: 'RemotePolicy.staging', size: observation.input.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /**
   * Connects to the relay, waits for the policy's spec and builds the observation pass.
   *
   * @throws Error on a refused connection or timeout; ManifestError for an invalid spec; Error for
   *   an image-goal spec (not supported remotely yet).
   */
  static async create(device: GPUDevice, options: RemotePolicyOptions): Promise<RemotePolicy> {
    const link = await RemotePolicyLink.connect(options.url, options.token, options.timeoutMs, options.createSocket);
    const m = await link.spec();
    if (m.goal.type === 'image') throw new Error('remote policy spec: goal.type image is not supported by the remote protocol yet');
    const batch = options.batch ?? 1;
    const observation = await ObservationPass.create(device, observationConfig(m), batch, 'RemotePolicy.observation');
    return new RemotePolicy(device, m, batch, link, observation, options.robot ?? DELIVERY_ROBOT);
  }

  /** Forgets frame history of `envs` and tells the policy (`reset` message). */
  async reset(seed: number, envs?: readonly number[]): Promise<void> {
    this.observation.reset(envs);
    this.step = 0;
    this.link.sendJson({ type: 'reset', seed, envs: envs ? [...envs] : [...Array(this.batch).keys()], batch: this.batch });
  }

  /** Prepares the observation on the GPU, reads it back, sends it and awaits the action. */
  async act(obs: PolicyObservation): Promise<PolicyAction> {
    const m = this.manifest;
    if (m.goal.type === 'point' && obs.goalRobot?.length !== this.batch) throw new Error(`${this.name}: point-goal policy needs goalRobot for ${this.batch} environments`);
    const encoder = this.device.createCommandEncoder({ label: 'RemotePolicy.observation' });
    this.observation.encode(encoder, obs.frames);
    encoder.copyBufferToBuffer(this.observation.input, 0, this.staging, 0, this.staging.size);
    submit(this.device, encoder);
    await mapForReading(this.device, this.staging);
    const data = new Float32Array(this.staging.getMappedRange().slice(0));
    this.staging.unmap();
    const header = {
      type: 'observation' as const,
      step: this.step++,
      time: obs.time,
      states: obs.states.map((s) => ({ x: s.x, y: s.y, yaw: s.yaw, v: s.v, w: s.w })),
      ...(m.goal.type === 'point' ? { goalRobot: obs.goalRobot!.map((g) => [g[0], g[1]] as [number, number]) } : {}),
      ...(obs.notices ? { notices: [...obs.notices] } : {}),
    };
    const shape = [this.batch, m.context.frames, 3, m.image.height, m.image.width];
    const tensors: { name: string; shape: number[]; data: Float32Array }[] = [{ name: 'observation', shape, data }];
    const map = mapDims(m);
    if (map) tensors.push({ name: 'map', shape: [this.batch, ...map], data: requireMaps(m, obs.maps, this.batch) });
    const flat = await this.link.exchange(header, tensors, m, this.batch);
    return decodePolicyOutput(m, flat, this.batch, this.robot);
  }

  /** Closes the link and frees GPU buffers. */
  destroy(): void {
    this.link.close();
    this.observation.destroy();
    this.staging.destroy();
  }
}
