import { describe, expect, it } from 'vitest';
import { acquireDevice, GpuUnavailableError } from './device';

describe('acquireDevice without WebGPU', () => {
  it('explains in one sentence how to get WebGPU (Node has no navigator.gpu)', async () => {
    const err = await acquireDevice().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuUnavailableError);
    expect((err as GpuUnavailableError).reason).toBe('no-webgpu');
    expect((err as Error).message).toMatch(/--enable-unsafe-webgpu/);
    expect((err as Error).message.split('\n')).toHaveLength(1);
  });
});
