/**
 * The one strict check of a host-side buffer layout against the WGSL struct it mirrors, for the
 * layout tests of every subsystem: reflected from the shader source with webgpu-utils
 * (wgsl_reflect; browser test project, since it needs Float16Array, which Node 20 lacks).
 */
import { makeShaderDataDefinitions } from 'webgpu-utils';
import { expect } from 'vitest';

/**
 * Asserts that `struct` in `wgsl` has `layout.size` bytes, that every other key of `layout` is a
 * field at that byte offset, and that both name the same fields apart from `pad*` ones (a field
 * added in WGSL without its TS twin fails too).
 *
 * @param layout `{ size, field: byteOffset, … }` as the `*_LAYOUT` tables declare them.
 */
export function expectWgslLayout(wgsl: string, struct: string, layout: Readonly<Record<string, number>>): void {
  const defs = makeShaderDataDefinitions(wgsl).structs[struct];
  expect(defs, `struct ${struct} not found`).toBeDefined();
  expect(defs.size, `${struct} size`).toBe(layout.size);
  for (const [field, offset] of Object.entries(layout)) {
    if (field !== 'size') expect(defs.fields[field]?.offset, `${struct}.${field} offset`).toBe(offset);
  }
  const named = (fields: string[]) => fields.filter((f) => f !== 'size' && !f.startsWith('pad')).sort();
  expect(named(Object.keys(defs.fields)), `${struct} fields`).toEqual(named(Object.keys(layout)));
}
