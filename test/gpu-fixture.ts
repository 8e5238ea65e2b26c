/**
 * Device fixture for GPU tests (browser project only): acquires a real WebGPU device (SwiftShader
 * on machines without a GPU), runs the test inside a validation error scope, and fails the test on
 * any validation or out-of-memory error. Never skips: SwiftShader is always present in CI.
 */
import { commands } from 'vitest/browser';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device';

declare module 'vitest/browser' {
  interface BrowserCommands {
    readSharedData(relPath: string): Promise<string>;
    sharedDataUrl(relPath: string): Promise<string>;
  }
}

let shared: AcquiredDevice | undefined;

/** One device per test file, with `timestamp-query` when available. */
export async function getTestDevice(): Promise<AcquiredDevice> {
  shared ??= await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  return shared;
}

/** Runs `body` with the device inside validation and out-of-memory error scopes. */
export async function withDevice<T>(body: (device: GPUDevice, acquired: AcquiredDevice) => Promise<T>): Promise<T> {
  const acquired = await getTestDevice();
  const device = acquired.device;
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  // The scopes are popped whether or not the body throws; a GPU error outranks the body's result.
  const outcome = await body(device, acquired).then((value) => ({ value }), (error: unknown) => ({ error }));
  const oom = await device.popErrorScope();
  const validation = await device.popErrorScope();
  if (oom) throw new Error(`GPU out-of-memory error: ${oom.message}`);
  if (validation) throw new Error(`GPU validation error: ${validation.message}`);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** Reads `../shared/data/<relPath>` through the test server. */
export async function readSharedData(relPath: string): Promise<Uint8Array> {
  const b64 = await commands.readSharedData(relPath);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
