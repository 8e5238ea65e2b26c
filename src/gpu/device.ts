/**
 * WebGPU device acquisition with failures explained in one sentence.
 *
 * Every failure is a {@link GpuUnavailableError} whose message names what is missing and the
 * flag or setting that fixes it, so the CLI, the tests and the demo page can show it as it is.
 */
import { UserError } from '../core/user-error';

/** Thrown when no usable WebGPU device can be had; `reason` says which step failed. */
export class GpuUnavailableError extends UserError {
  constructor(
    readonly reason: 'no-webgpu' | 'no-adapter' | 'missing-feature' | 'limit-too-low' | 'device-failed',
    message: string,
  ) {
    super(message);
    this.name = 'GpuUnavailableError';
  }
}

/** What a caller needs from the adapter beyond WebGPU's defaults. */
export interface DeviceRequirements {
  /** Features that must be present; acquisition fails with a named error otherwise. */
  requiredFeatures?: GPUFeatureName[];
  /** Features enabled when the adapter has them (e.g. `timestamp-query` for the profiler). */
  optionalFeatures?: GPUFeatureName[];
  /** Minimum values for numeric limits, checked against the adapter before requesting. */
  minimumLimits?: Partial<Record<keyof GPUSupportedLimits, number>>;
  /** Power preference passed to `requestAdapter`. */
  powerPreference?: GPUPowerPreference;
}

/** A device with the adapter's description and a promise that settles if the device is lost. */
export interface AcquiredDevice {
  device: GPUDevice;
  adapterInfo: GPUAdapterInfo;
  /** True when the adapter is a software rasteriser (SwiftShader, llvmpipe, WARP). */
  isSoftware: boolean;
  /** Features enabled on the device (required plus available optional ones). */
  features: ReadonlySet<string>;
  /** Resolves with a one-line description if the device is lost; never rejects. */
  lost: Promise<string>;
}

const SOFTWARE_ADAPTERS = /swiftshader|llvmpipe|lavapipe|warp|software/i;

/**
 * Requests a WebGPU adapter and a device with the adapter's real limits (not WebGPU's defaults),
 * so large splat scenes can use the whole `maxStorageBufferBindingSize` the hardware allows.
 *
 * @throws GpuUnavailableError when `navigator.gpu` is absent, no adapter is returned, a required
 *   feature or limit is missing, or `requestDevice` fails. The message names the fix.
 */
export async function acquireDevice(req: DeviceRequirements = {}): Promise<AcquiredDevice> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) {
    throw new GpuUnavailableError(
      'no-webgpu',
      'WebGPU is not available in this browser: use Chrome/Chromium 113+ over https or localhost, ' +
        'or start Chromium with --enable-unsafe-webgpu (Linux: also --enable-features=Vulkan).',
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: req.powerPreference ?? 'high-performance' });
  if (!adapter) {
    throw new GpuUnavailableError(
      'no-adapter',
      'WebGPU returned no adapter: enable hardware acceleration in chrome://settings/system, or on a ' +
        'machine without a GPU start Chromium with --use-webgpu-adapter=swiftshader --use-angle=swiftshader ' +
        '--enable-unsafe-swiftshader.',
    );
  }
  for (const f of req.requiredFeatures ?? []) {
    if (!adapter.features.has(f)) {
      throw new GpuUnavailableError(
        'missing-feature',
        `The WebGPU adapter lacks the required feature '${f}': try another adapter or a newer browser ` +
          `(chrome://gpu lists what this one supports).`,
      );
    }
  }
  const limits: Record<string, number> = {};
  for (const key in adapter.limits) {
    const value = (adapter.limits as unknown as Record<string, number>)[key];
    if (typeof value === 'number') limits[key] = value;
  }
  for (const [key, min] of Object.entries(req.minimumLimits ?? {})) {
    const have = limits[key];
    if (have === undefined || have < (min as number)) {
      throw new GpuUnavailableError(
        'limit-too-low',
        `The WebGPU adapter's ${key} is ${have ?? 'unknown'} but ${min} is needed: use a GPU with more ` +
          `memory, or a smaller scene.`,
      );
    }
  }
  const features = [
    ...(req.requiredFeatures ?? []),
    ...(req.optionalFeatures ?? []).filter((f) => adapter.features.has(f)),
  ];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredFeatures: features, requiredLimits: limits });
  } catch (e) {
    throw new GpuUnavailableError('device-failed', `requestDevice failed: ${(e as Error).message}`);
  }
  const info = adapter.info;
  const description = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  // Validation errors outside an error scope would otherwise only reach the console silently.
  device.addEventListener('uncapturederror', (ev) => {
    console.error(`WebGPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`);
  });
  const lost = device.lost.then((l) => `WebGPU device lost (${l.reason}): ${l.message || 'no message'}`);
  return {
    device,
    adapterInfo: info,
    isSoftware: SOFTWARE_ADAPTERS.test(description),
    features: new Set(features),
    lost,
  };
}

/** One line naming the adapter, e.g. `google swiftshader (software)`, for logs and reports. */
export function describeAdapter(acquired: AcquiredDevice): string {
  const i = acquired.adapterInfo;
  const parts = [i.vendor, i.architecture, i.device, i.description].filter((s) => s && s.length > 0);
  return `${parts.join(' ') || 'unknown adapter'}${acquired.isSoftware ? ' (software rendering)' : ''}`;
}

/**
 * Runs `work` and rejects with the device-loss message if the device is lost first, so a lost
 * device never leaves a caller waiting on `onSubmittedWorkDone` or `mapAsync` forever.
 */
export function raceDeviceLoss<T>(acquired: AcquiredDevice, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    acquired.lost.then((msg) => {
      throw new Error(msg);
    }),
  ]);
}

/**
 * Acquires a device, runs `work` with it raced against device loss ({@link raceDeviceLoss}), and
 * destroys the device afterwards whether `work` resolved or threw: the acquire / race / destroy
 * sequence of the headless page functions, in one place.
 *
 * @throws GpuUnavailableError from {@link acquireDevice}; the device-loss message; whatever `work` throws.
 */
export async function withAcquiredDevice<T>(req: DeviceRequirements, work: (acquired: AcquiredDevice) => Promise<T>): Promise<T> {
  const acquired = await acquireDevice(req);
  try {
    return await raceDeviceLoss(acquired, work(acquired));
  } finally {
    acquired.device.destroy();
  }
}
