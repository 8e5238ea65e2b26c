import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KERNEL_PRELUDES, kernelParts, WGSL_SOURCES, type KernelPath } from './shader-manifest';
import { locateWgslLine } from './shader-loader';

const SHADERS = resolve(import.meta.dirname, '../../shaders');
const onDisk = readdirSync(SHADERS).flatMap((dir) => readdirSync(join(SHADERS, dir)).filter((f) => f.endsWith('.wgsl')).map((f) => `${dir}/${f}`));

describe('shader manifest', () => {
  it('holds every WGSL file of shaders/, as on disk', () => {
    expect(Object.keys(WGSL_SOURCES).sort()).toEqual(onDisk.sort());
    for (const path of onDisk) expect(WGSL_SOURCES[path], path).toBe(readFileSync(join(SHADERS, path), 'utf8'));
  });

  it('lists each kernel’s preludes as its own "Prepended:" comment says, and every file is a kernel or a prelude', () => {
    const preludes = new Set<string>(Object.values(KERNEL_PRELUDES).flat());
    for (const path of onDisk) expect(path in KERNEL_PRELUDES || preludes.has(path), `${path} is compiled by no kernel`).toBe(true);
    for (const kernel of Object.keys(KERNEL_PRELUDES) as KernelPath[]) {
      const said = /Prepended:\s*([^.]*(?:\.wgsl[^.]*)*)\./.exec(WGSL_SOURCES[kernel].replace(/\n\/\/\s*/g, ' '))?.[1];
      if (said === undefined) continue; // kernels without a header line say nothing to check
      const listed = said.match(/[a-z-]+\/[a-z-]+\.wgsl/g) ?? [];
      expect(listed, kernel).toEqual([...KERNEL_PRELUDES[kernel]]);
    }
  });

  it('kernelParts puts the preludes first, in order, then the kernel', () => {
    expect(kernelParts('splats/corners.wgsl').map((p) => p.path)).toEqual(['common/camera.wgsl', 'splats/splat-types.wgsl', 'splats/corners.wgsl']);
  });
});

describe('locateWgslLine', () => {
  const parts = [
    { path: 'a.wgsl', code: 'line 1\nline 2' },
    { path: 'b.wgsl', code: 'line 1\nline 2\nline 3' },
  ];
  it('maps a line of the joined source back to its file and line', () => {
    expect(locateWgslLine(parts, 1)).toEqual({ path: 'a.wgsl', line: 1 });
    expect(locateWgslLine(parts, 2)).toEqual({ path: 'a.wgsl', line: 2 });
    expect(locateWgslLine(parts, 3)).toEqual({ path: 'b.wgsl', line: 1 });
    expect(locateWgslLine(parts, 5)).toEqual({ path: 'b.wgsl', line: 3 });
    expect(locateWgslLine(parts, 7)).toEqual({ path: 'b.wgsl', line: 5 });
  });
});
