/**
 * Messages of the remote policy protocol (src/policy/REMOTE-PROTOCOL.md), shared by the page, the
 * Node relay and the tests. Text messages are JSON; observations are one binary message each:
 *
 * | bytes                 | contents                                                        |
 * |-----------------------|-----------------------------------------------------------------|
 * | 0–3                   | u32 little-endian: byte length L of the JSON header             |
 * | 4 … 4+L               | UTF-8 JSON {@link ObservationHeader}                            |
 * | pad to a multiple of 4 | zero bytes                                                     |
 * | then                  | the tensors, float32 little-endian, at the header's offsets     |
 *
 * Tensor offsets are relative to the start of the tensor section.
 */
import { z } from 'zod';

/** Protocol identifier, sent in `hello` and checked by both ends. */
/** What the relay tells the policy before its close frame: the run ended (`done`, with this policy's episode count), or why it failed (`error`). */
export type RelayFinalMessage = { type: 'done'; episodes?: number } | { type: 'error'; message: string };

export const REMOTE_PROTOCOL = 'curbside-remote-policy/1';

/** One tensor in an observation message. */
export interface TensorEntry {
  name: string;
  /** Dims, row-major; elements are float32 little-endian. */
  shape: number[];
  /** Byte offset within the tensor section (a multiple of 4). */
  offset: number;
}

/** JSON header of a binary observation message. */
export interface ObservationHeader {
  type: 'observation';
  /** Control step index since the last reset, counting from 0. */
  step: number;
  /** Simulation time, s. */
  time: number;
  /** Tensors: `observation` [B, T, 3, H, W] (always), `goal_image` [B, 3, H, W] (image-goal specs). */
  tensors: TensorEntry[];
  /** Goal of each environment in its robot frame (x forward, y left), metres; point-goal specs only. */
  goalRobot?: [number, number][];
  /** Robot states, world frame (x, y metres; yaw rad; v m/s; w rad/s). */
  states: { x: number; y: number; yaw: number; v: number; w: number }[];
  /**
   * Closure notices, per environment (null: none), only in the observation of the step a notice
   * arrives: its text and the closed segments [[x0, y0], [x1, y1]] in that environment's robot
   * frame (x forward, y left), metres. Absent on every other step.
   */
  notices?: ({ text: string; segments: [[number, number], [number, number]][] } | null)[];
}

/** Sent by the relay to each client once the handshake succeeds. */
export interface HelloMessage {
  type: 'hello';
  protocol: typeof REMOTE_PROTOCOL;
  role: 'simulator' | 'policy';
}

/** Sent by the simulator to the policy when episodes start. */
export interface ResetMessage {
  type: 'reset';
  seed: number;
  /** Environments that start an episode. */
  envs: number[];
  /** B. */
  batch: number;
}

const finite = z.number().finite();

/** The policy's answer to the observation of `step`: waypoints [B][K][D] or cmd [B][2]. */
export const actionMessageSchema = z
  .object({
    type: z.literal('action'),
    step: z.number().int().nonnegative(),
    waypoints: z.array(z.array(z.array(finite).min(2).max(4))).optional(),
    cmd: z.array(z.tuple([finite, finite])).optional(),
  })
  .strict()
  .refine((a) => (a.waypoints === undefined) !== (a.cmd === undefined), { message: 'exactly one of waypoints and cmd is required' });

/** A validated action message. */
export type ActionMessage = z.output<typeof actionMessageSchema>;

/** The policy client's first message: its manifest (model-free fields of the ONNX manifest). */
export const specMessageSchema = z.object({ type: z.literal('spec'), manifest: z.unknown() }).strict();

/** Any message a policy client may send. */
export type PolicyClientMessage = ActionMessage | { type: 'spec'; manifest: unknown } | { type: 'error'; message: string };

/**
 * Encodes an observation as one binary message (layout in the module doc).
 *
 * @param tensors Data for each header tensor, same order; each must hold prod(shape) floats.
 * @throws Error when a tensor's length does not match its shape.
 */
export function encodeObservation(header: Omit<ObservationHeader, 'tensors'>, tensors: { name: string; shape: number[]; data: Float32Array }[]): ArrayBuffer {
  let offset = 0;
  const entries: TensorEntry[] = tensors.map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`encodeObservation: tensor '${t.name}' has ${t.data.length} values for shape [${t.shape.join(', ')}]`);
    const e = { name: t.name, shape: t.shape, offset };
    offset += count * 4;
    return e;
  });
  const json = new TextEncoder().encode(JSON.stringify({ ...header, tensors: entries }));
  const start = Math.ceil((4 + json.length) / 4) * 4;
  const out = new ArrayBuffer(start + offset);
  new DataView(out).setUint32(0, json.length, true);
  new Uint8Array(out, 4, json.length).set(json);
  tensors.forEach((t, i) => {
    const dst = new DataView(out, start + entries[i].offset, t.data.length * 4);
    for (let k = 0; k < t.data.length; k++) dst.setFloat32(k * 4, t.data[k], true);
  });
  return out;
}

/**
 * Decodes a binary observation message.
 *
 * @throws Error when the header length or a tensor lies outside the message.
 */
export function decodeObservation(bytes: ArrayBuffer | Uint8Array): { header: ObservationHeader; tensors: Record<string, Float32Array> } {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  if (u8.byteLength < 4) throw new Error('decodeObservation: message shorter than its length prefix');
  const length = view.getUint32(0, true);
  if (4 + length > u8.byteLength) throw new Error(`decodeObservation: header of ${length} bytes exceeds the ${u8.byteLength}-byte message`);
  const header = JSON.parse(new TextDecoder().decode(u8.subarray(4, 4 + length))) as ObservationHeader;
  const start = Math.ceil((4 + length) / 4) * 4;
  const tensors: Record<string, Float32Array> = {};
  for (const t of header.tensors) {
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (start + t.offset + count * 4 > u8.byteLength) throw new Error(`decodeObservation: tensor '${t.name}' exceeds the message`);
    const data = new Float32Array(count);
    for (let k = 0; k < count; k++) data[k] = view.getFloat32(start + t.offset + k * 4, true);
    tensors[t.name] = data;
  }
  return { header, tensors };
}

/**
 * Validates an action against the batch and the spec's output kind and flattens it to the ONNX
 * output layout ([B, K, D] or [B, 2], row-major) for `decodePolicyOutput`.
 *
 * @throws Error `remote policy: …` naming the step, field and environment on any mismatch.
 */
export function flattenAction(msg: unknown, step: number, batch: number, output: { kind: 'cmd' } | { kind: 'waypoints'; count: number; dims: number }): Float32Array {
  const parsed = actionMessageSchema.safeParse(msg);
  if (!parsed.success) {
    throw new Error(`remote policy: invalid action: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  const a = parsed.data;
  if (a.step !== step) throw new Error(`remote policy: action for step ${a.step}, expected step ${step}`);
  if (output.kind === 'cmd') {
    if (!a.cmd) throw new Error('remote policy: the spec declares cmd output but the action has waypoints');
    if (a.cmd.length !== batch) throw new Error(`remote policy: cmd has ${a.cmd.length} environments, expected ${batch}`);
    return Float32Array.from(a.cmd.flat());
  }
  if (!a.waypoints) throw new Error('remote policy: the spec declares waypoints output but the action has cmd');
  if (a.waypoints.length !== batch) throw new Error(`remote policy: waypoints has ${a.waypoints.length} environments, expected ${batch}`);
  a.waypoints.forEach((env, b) => {
    if (env.length !== output.count || env.some((w) => w.length !== output.dims)) {
      throw new Error(`remote policy: waypoints[${b}] must be ${output.count} × ${output.dims}`);
    }
  });
  return Float32Array.from(a.waypoints.flat(2));
}
