/**
 * The remote-policy relay and the simulator's link, in Node with `ws` clients standing in for the
 * page and for a Python policy process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { decodePolicyOutput } from './policy-output';
import { RemotePolicyLink, type WebSocketLike } from './remote-policy';
import { decodeObservation, encodeObservation } from './remote-protocol';
import { parseRelayPolicy, RemotePolicyServer } from './remote-server';

const SPEC = {
  format: 'curbside-policy/1', name: 'python-model', rateHz: 4, image: { width: 4, height: 3 }, context: { frames: 2, spacing: 0.25 },
  normalization: { mean: [0, 0, 0], std: [1, 1, 1], appliedBy: 'graph' }, inputs: { observation: 'obs' },
  goal: { type: 'point', input: 'goal' },
  output: { kind: 'waypoints', name: 'waypoints', count: 3, dims: 2, waypointIndex: 1 },
};

let server: RemotePolicyServer | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await server?.close();
  server = undefined;
});

/** Connects and resolves with the handshake's HTTP status (101 when accepted). */
function handshakeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    sockets.push(ws);
    ws.on('open', () => resolve(101));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', (e) => reject(e));
  });
}

/** A policy client: connects with the Authorization header, collects messages. */
async function policyClient(url: string, token: string) {
  const ws = new WebSocket(`${url}/policy`, { headers: { Authorization: `Bearer ${token}` } });
  sockets.push(ws);
  const messages: { data: Buffer; binary: boolean }[] = [];
  let notify: (() => void) | undefined;
  ws.on('message', (data, binary) => {
    messages.push({ data: data as Buffer, binary });
    notify?.();
  });
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const next = async (pred: (m: { data: Buffer; binary: boolean }) => boolean) => {
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0];
      await new Promise<void>((r) => (notify = r));
    }
  };
  return { ws, next };
}

describe('RemotePolicyServer', () => {
  it('binds to 127.0.0.1 by default and generates a long token', async () => {
    server = await RemotePolicyServer.start();
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
    await expect(RemotePolicyServer.start({ token: 'short' })).rejects.toThrow(/at least 16 characters/);
  });

  it('refuses a wrong or missing token (401), an unknown path (404) and a second policy (409)', async () => {
    server = await RemotePolicyServer.start({ token: 'correct-horse-battery-staple' });
    expect(await handshakeStatus(`${server.url}/policy?token=wrong-horse-battery-staple`)).toBe(401);
    expect(await handshakeStatus(`${server.url}/policy`, { Authorization: 'Bearer nope' })).toBe(401);
    expect(await handshakeStatus(`${server.url}/policy`)).toBe(401);
    expect(await handshakeStatus(`${server.url}/simulator?token=correct-horse-battery-stapl`)).toBe(401);
    expect(await handshakeStatus(`${server.url}/other?token=correct-horse-battery-staple`)).toBe(404);
    expect(await handshakeStatus(`${server.url}/policy?token=correct-horse-battery-staple`)).toBe(101);
    expect(await handshakeStatus(`${server.url}/policy?token=correct-horse-battery-staple`)).toBe(409);
  });

  it('relays spec, reset, observation and action between simulator and policy', async () => {
    server = await RemotePolicyServer.start();
    const policy = await policyClient(server.url, server.token);
    await policy.next((m) => !m.binary && JSON.parse(m.data.toString()).type === 'hello');
    policy.ws.send(JSON.stringify({ type: 'spec', manifest: SPEC }));
    const link = await RemotePolicyLink.connect(server.url, server.token, 5000, (u) => new WebSocket(u) as unknown as WebSocketLike);
    const m = await link.spec();
    expect(m.name).toBe('python-model');

    link.sendJson({ type: 'reset', seed: 9, envs: [0, 1], batch: 2 });
    const reset = JSON.parse((await policy.next((x) => !x.binary && x.data.toString().includes('"reset"'))).data.toString());
    expect(reset).toEqual({ type: 'reset', seed: 9, envs: [0, 1], batch: 2 });

    const data = Float32Array.from({ length: 2 * 2 * 3 * 3 * 4 }, (_, i) => i / 10);
    const states = [{ x: 1, y: 2, yaw: 0.5, v: 0, w: 0 }, { x: 0, y: 0, yaw: 0, v: 1, w: 0 }];
    const reply = (async () => {
      const obs = decodeObservation(new Uint8Array((await policy.next((x) => x.binary)).data));
      expect(obs.header.step).toBe(0);
      expect(obs.header.goalRobot).toEqual([[5, 1], [5, -1]]);
      expect(obs.header.states).toEqual(states);
      expect(Array.from(obs.tensors.observation)).toEqual(Array.from(data));
      policy.ws.send(JSON.stringify({ type: 'action', step: 0, waypoints: [[[0.1, 0], [0.2, 0.02], [0.3, 0]], [[0.1, 0], [0.2, -0.02], [0.3, 0]]] }));
    })();
    const flat = await link.exchange({ type: 'observation', step: 0, time: 0, states, goalRobot: [[5, 1], [5, -1]] }, [{ name: 'observation', shape: [2, 2, 3, 3, 4], data }], m, 2);
    await reply;
    const action = decodePolicyOutput(m, flat, 2, DELIVERY_ROBOT);
    expect(action.commands[0].v).toBeCloseTo(0.8, 6);
    expect(action.commands[0].w).toBeCloseTo(Math.atan(0.1) * 4, 6);
    expect(action.commands[1].w).toBeCloseTo(-Math.atan(0.1) * 4, 6);
    link.close();
  });

  it('an action for the wrong step, shape or kind is refused with the field named', async () => {
    server = await RemotePolicyServer.start();
    const policy = await policyClient(server.url, server.token);
    policy.ws.send(JSON.stringify({ type: 'spec', manifest: SPEC }));
    const link = await RemotePolicyLink.connect(server.url, server.token, 5000, (u) => new WebSocket(u) as unknown as WebSocketLike);
    const m = await link.spec();
    const obs = { name: 'observation', shape: [1, 2, 3, 3, 4], data: new Float32Array(72) };
    const header = { type: 'observation' as const, step: 3, time: 0.75, states: [{ x: 0, y: 0, yaw: 0, v: 0, w: 0 }], goalRobot: [[1, 0]] as [number, number][] };
    const answer = (msg: object) => policy.next((x) => x.binary).then(() => policy.ws.send(JSON.stringify(msg)));
    void answer({ type: 'action', step: 2, waypoints: [[[0.1, 0], [0.2, 0], [0.3, 0]]] });
    await expect(link.exchange(header, [obs], m, 1)).rejects.toThrow(/action for step 2, expected step 3/);
    void answer({ type: 'action', step: 3, waypoints: [[[0.1, 0], [0.2, 0]]] });
    await expect(link.exchange(header, [obs], m, 1)).rejects.toThrow(/waypoints\[0\] must be 3 × 2/);
    void answer({ type: 'action', step: 3, cmd: [[0.5, 0]] });
    await expect(link.exchange(header, [obs], m, 1)).rejects.toThrow(/declares waypoints output but the action has cmd/);
    void answer({ type: 'error', message: 'CUDA out of memory' });
    await expect(link.exchange(header, [obs], m, 1)).rejects.toThrow(/the policy reported: CUDA out of memory/);
    link.close();
  });

  it('waitForSpec resolves with the policy\'s manifest, or times out naming what is missing', async () => {
    server = await RemotePolicyServer.start();
    await expect(server.waitForSpec(50)).rejects.toThrow(/no policy connected within 50 ms/);
    const waiting = server.waitForSpec(5000);
    const policy = await policyClient(server.url, server.token);
    expect(server.policyConnected).toBe(true);
    policy.ws.send(JSON.stringify({ type: 'spec', manifest: SPEC }));
    expect(await waiting).toEqual(SPEC);
    expect(await server.waitForSpec(10)).toEqual(SPEC);
  });

  it('a policy process that disconnects fails the simulator\'s wait at once', async () => {
    server = await RemotePolicyServer.start();
    const policy = await policyClient(server.url, server.token);
    policy.ws.send(JSON.stringify({ type: 'spec', manifest: SPEC }));
    const link = await RemotePolicyLink.connect(server.url, server.token, 30_000, (u) => new WebSocket(u) as unknown as WebSocketLike);
    const m = await link.spec();
    const obs = { name: 'observation', shape: [1, 2, 3, 3, 4], data: new Float32Array(72) };
    void policy.next((x) => x.binary).then(() => policy.ws.close());
    const started = Date.now();
    await expect(link.exchange({ type: 'observation', step: 0, time: 0, states: [{ x: 0, y: 0, yaw: 0, v: 0, w: 0 }], goalRobot: [[1, 0]] }, [obs], m, 1)).rejects.toThrow(/policy process disconnected while Curbside waited for 'action'/);
    expect(Date.now() - started).toBeLessThan(5000);
    link.close();
  });

  it('at the end tells the policy done (or why the run failed) and closes with a close frame, code 1000', async () => {
    for (const final of [{ type: 'done' as const, episodes: 3 }, { type: 'error' as const, message: 'remote policy spec: image.width: Too small' }]) {
      const relay = await RemotePolicyServer.start();
      const p = await policyClient(relay.url, relay.token);
      await p.next((m) => !m.binary && JSON.parse(m.data.toString()).type === 'hello');
      const closed = new Promise<{ code: number; reason: string }>((resolve) => p.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      await relay.close(final);
      const last = await p.next((m) => !m.binary && ['done', 'error'].includes(JSON.parse(m.data.toString()).type));
      expect(JSON.parse(last.data.toString())).toEqual(final);
      expect(await closed).toEqual({ code: 1000, reason: final.type === 'done' ? 'run finished' : 'run failed' });
    }
  });

  it('parseRelayPolicy accepts remote and loopback ws://HOST:PORT, canonically, and refuses the rest', () => {
    expect(parseRelayPolicy('expert')).toBeUndefined();
    expect(parseRelayPolicy('onnx:m.onnx')).toBeUndefined();
    expect(parseRelayPolicy('remote')).toEqual({ policy: 'remote', host: '127.0.0.1', port: 0 });
    expect(parseRelayPolicy('ws://127.0.0.1:40123/')).toEqual({ policy: 'ws://127.0.0.1:40123', host: '127.0.0.1', port: 40123 });
    expect(parseRelayPolicy('ws://localhost:40123')).toEqual({ policy: 'ws://localhost:40123', host: 'localhost', port: 40123 });
    expect(parseRelayPolicy('ws://[::1]:40123')).toEqual({ policy: 'ws://[::1]:40123', host: '::1', port: 40123 });
    expect(() => parseRelayPolicy('wss://127.0.0.1:40123')).toThrow(/plain ws:\/\//);
    expect(() => parseRelayPolicy('ws://0.0.0.0:40123')).toThrow(/only listens on loopback/);
    expect(() => parseRelayPolicy('ws://10.0.0.2:40123')).toThrow(/only listens on loopback/);
    expect(() => parseRelayPolicy('ws://127.0.0.1')).toThrow(/give the port/);
    expect(() => parseRelayPolicy('ws://127.0.0.1:40123/policy')).toThrow(/without a path/);
    expect(() => parseRelayPolicy('ws://127.0.0.1:40123?token=x')).toThrow(/without a path, query/);
  });

  it('the binary observation codec round-trips and checks bounds', () => {
    const a = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const b = Float32Array.from([-1.5, 2.25]);
    const bytes = encodeObservation({ type: 'observation', step: 1, time: 0.5, states: [] }, [{ name: 'observation', shape: [1, 2, 3], data: a }, { name: 'extra', shape: [2], data: b }]);
    const { header, tensors } = decodeObservation(bytes);
    expect(header.step).toBe(1);
    expect(Array.from(tensors.observation)).toEqual(Array.from(a));
    expect(Array.from(tensors.extra)).toEqual(Array.from(b));
    expect(() => decodeObservation(new Uint8Array(bytes).subarray(0, bytes.byteLength - 4))).toThrow(/tensor 'extra' exceeds the message/);
    expect(() => encodeObservation({ type: 'observation', step: 0, time: 0, states: [] }, [{ name: 'x', shape: [3], data: a }])).toThrow(/6 values for shape \[3\]/);
  });
});
