/**
 * Headless-page functions of the policy module (collected into `window.curbsideHeadless` by
 * src/tools/headless-entry.ts): plain JSON in, plain JSON out. onnxruntime-web is imported lazily so
 * other commands' pages do not load it.
 */
import { describeAdapter, withAcquiredDevice } from '../gpu/device';

/** A smoke run of an ONNX policy on synthetic frames. */
export interface PolicySmokeRequest {
  /** URL of `model.onnx` (as served by the harness). */
  modelUrl: string;
  /** URL of its manifest (default: beside the model). */
  manifestUrl?: string;
  /** Control steps to run (default 3). */
  steps?: number;
  /** Environments per step (default 1). */
  batch?: number;
  /** Episode seed (default 1). */
  seed?: number;
}

/** Commands per step ([step][env]) and the adapter the session ran on. */
export interface PolicySmokeResult {
  adapter: string;
  name: string;
  commands: { v: number; w: number }[][];
}

/**
 * Loads the policy on a fresh device, feeds it seeded synthetic rgba16float frames (80×60) for
 * `steps` control steps (with a goal 5 m ahead for point-goal policies and a synthetic goal image
 * for image-goal ones), and returns the commands.
 *
 * @throws Error naming the file on a bad model or manifest, as OnnxPolicy.create does.
 */
export async function policySmoke(req: PolicySmokeRequest): Promise<PolicySmokeResult> {
  const [{ fetchPolicyFiles }, { OnnxPolicy }, { makeTestImage, uploadRgba16f }] = await Promise.all([
    import('./load-policy'),
    import('./onnx-policy'),
    import('./test-frames'),
  ]);
  const files = await fetchPolicyFiles(req.modelUrl, req.manifestUrl);
  return withAcquiredDevice({}, async (acquired) => {
    const device = acquired.device;
    const batch = req.batch ?? 1;
    const policy = await OnnxPolicy.create(device, { ...files, batch });
    const commands: { v: number; w: number }[][] = [];
    try {
      await policy.reset(req.seed ?? 1);
      for (let step = 0; step < (req.steps ?? 3); step++) {
        const frames = Array.from({ length: batch }, (_, b) => uploadRgba16f(device, makeTestImage(80, 60, 1000 * step + b), `policySmoke.frame${b}`));
        const goalFrames = policy.goal === 'image' ? frames.map((_, b) => uploadRgba16f(device, makeTestImage(80, 60, 999_000 + b), `policySmoke.goal${b}`)) : undefined;
        const action = await policy.act({
          frames,
          goalRobot: frames.map(() => [5, 0] as const),
          goalFrames,
          states: frames.map(() => ({ x: 0, y: 0, yaw: 0, v: 0, w: 0 })),
          time: step / policy.rateHz,
        });
        commands.push(action.commands);
        for (const f of [...frames, ...(goalFrames ?? [])]) f.destroy();
      }
    } finally {
      policy.destroy();
    }
    const adapter = describeAdapter(acquired);
    return { adapter, name: policy.name, commands };
  });
}
