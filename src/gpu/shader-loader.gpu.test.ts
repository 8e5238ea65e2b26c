import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { compileWgsl, createKernelModule } from './shader-loader';
import { KERNEL_PRELUDES, type KernelPath } from './shader-manifest';

describe('shader loader', () => {
  it('compiles every kernel of the manifest with its preludes', async () => {
    await withDevice(async (device) => {
      // createKernelModule rejects on any compile error; the fixture fails on any validation error.
      // (A second getCompilationInfo() on the same module never resolved on this Chromium, so none here.)
      const labels: string[] = [];
      for (const kernel of Object.keys(KERNEL_PRELUDES) as KernelPath[]) labels.push((await createKernelModule(device, kernel)).label);
      expect(labels).toEqual(Object.keys(KERNEL_PRELUDES));
    });
  });

  it('reports a compile error at the file and line it is in, not the line of the joined source', async () => {
    await withDevice(async (device) => {
      // The bad modules' validation errors go to this scope, not the fixture's.
      const failure = async (parts: { path: string; code: string }[]) => {
        device.pushErrorScope('validation');
        const message = await compileWgsl(device, 'test/kernel.wgsl', parts).then(() => 'compiled', (e: Error) => e.message);
        await device.popErrorScope();
        return message;
      };
      const types = { path: 'test/types.wgsl', code: 'struct S {\n  a: f32,\n}' };
      const kernel = { path: 'test/kernel.wgsl', code: '@compute @workgroup_size(1)\nfn main() {}' };
      // A syntax error on line 5 of the prelude.
      const badPrelude = { path: 'test/types.wgsl', code: `${types.code}\nfn f() -> f32 {\n  return 1.0 +;\n}` };
      expect(await failure([badPrelude, kernel])).toMatch(/^WGSL compilation of test\/kernel\.wgsl failed:\nshaders\/test\/types\.wgsl:5:\d+: /);
      // A type error on line 3 of the kernel, after a 3-line prelude (line 6 of the joined source).
      const badKernel = { path: 'test/kernel.wgsl', code: '@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = 1.5;\n}' };
      expect(await failure([types, badKernel])).toMatch(/\nshaders\/test\/kernel\.wgsl:3:\d+: /);
      expect(await failure([types, kernel])).toBe('compiled');
    });
  });
});
