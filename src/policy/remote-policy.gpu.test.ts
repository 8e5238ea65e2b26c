/**
 * RemotePolicy's page side on real WebGPU: the observation it sends (GPU pass, read back) equals
 * the CPU reference of the same frames, and the action it gets back becomes commands. The relay and
 * the remote process are replaced by an in-page socket stand-in (the relay is tested in Node,
 * remote-server.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { parsePolicyManifest } from './manifest';
import { ObservationRingReference, observationConfig } from './observation-reference';
import { RemotePolicy, type WebSocketLike } from './remote-policy';
import { decodeObservation, REMOTE_PROTOCOL } from './remote-protocol';
import { makeTestImage, uploadRgba16f } from './test-frames';

const SPEC = {
  format: 'curbside-policy/1', name: 'fake-python', rateHz: 4, image: { width: 12, height: 9 }, context: { frames: 2, spacing: 0.25 },
  normalization: { mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25], appliedBy: 'curbside' }, inputs: { observation: 'obs' },
  output: { kind: 'cmd', name: 'cmd' },
};

/** A socket whose far end is a fake policy: sends hello + spec, answers each observation with cmd = (mean of obs, step). */
class FakePolicySocket implements WebSocketLike {
  binaryType = 'blob';
  readyState = 1;
  readonly received: ArrayBuffer[] = [];
  private listeners: Record<string, ((ev: { data: unknown }) => void)[]> = {};
  constructor() {
    queueMicrotask(() => {
      this.emit({ type: 'hello', protocol: REMOTE_PROTOCOL, role: 'simulator' });
      this.emit({ type: 'spec', manifest: SPEC });
    });
  }
  private emit(msg: object) {
    for (const l of this.listeners.message ?? []) l({ data: JSON.stringify(msg) });
  }
  addEventListener(type: string, listener: (ev: { data: unknown }) => void): void {
    (this.listeners[type] ??= []).push(listener);
  }
  send(data: string | ArrayBuffer): void {
    if (typeof data === 'string') return;
    this.received.push(data);
    const { header, tensors } = decodeObservation(data);
    const obs = tensors.observation;
    const mean = obs.reduce((a, b) => a + b, 0) / obs.length;
    setTimeout(() => this.emit({ type: 'action', step: header.step, cmd: [[Math.abs(mean), 0.01 * header.step]] }), 1);
  }
  close(): void {
    this.readyState = 3;
  }
}

describe('RemotePolicy (page side)', () => {
  it('sends the GPU-prepared observation (equal to the CPU reference) and returns the commands', () =>
    withDevice(async (device) => {
      const socket = new FakePolicySocket();
      const policy = await RemotePolicy.create(device, { url: 'ws://127.0.0.1:1', token: 't'.repeat(16), createSocket: () => socket, timeoutMs: 10_000 });
      const ref = new ObservationRingReference(observationConfig(parsePolicyManifest(SPEC, 'spec')), 1);
      try {
        await policy.reset(3);
        for (let step = 0; step < 3; step++) {
          const img = makeTestImage(30, 20, step);
          const tex = uploadRgba16f(device, img);
          const action = await policy.act({ frames: [tex], states: [{ x: 0, y: 0, yaw: 0, v: 0, w: 0 }], time: step / 4 });
          tex.destroy();
          const want = ref.push([img]);
          const got = decodeObservation(socket.received[step]).tensors.observation;
          // Same bound as observation-pass.gpu.test.ts: 2·2^-22·30 px + blend error, over std 0.25.
          const worst = got.reduce((m, v, i) => Math.max(m, Math.abs(v - want[i])), 0);
          expect(worst).toBeLessThan(1e-4);
          expect(action.commands[0].w).toBeCloseTo(0.01 * step, 6);
        }
      } finally {
        policy.destroy();
      }
    }));
});
