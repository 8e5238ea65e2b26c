/**
 * Host-side buffer layouts against the WGSL structs they mirror, reflected from the shader source
 * with webgpu-utils (wgsl_reflect; runs in the browser project because it needs Float16Array,
 * which Node 20 lacks). A field moved in WGSL without its TS twin fails here.
 */
import { makeShaderDataDefinitions } from 'webgpu-utils';
import { describe, expect, it } from 'vitest';
import { CAMERA_LAYOUT } from './camera';
import { PROJECTED_SPLAT_LAYOUT, SPLAT_FRAME_LAYOUT, SPLAT_LAYOUT } from '../splats/gpu-layout';

import cameraWgsl from '../../shaders/common/camera.wgsl?raw';
import splatTypesWgsl from '../../shaders/splats/splat-types.wgsl?raw';

function expectLayout(wgsl: string, struct: string, layout: Record<string, number>) {
  const defs = makeShaderDataDefinitions(wgsl).structs[struct];
  expect(defs, `struct ${struct} not found`).toBeDefined();
  expect(defs.size, `${struct} size`).toBe(layout.size);
  for (const [field, offset] of Object.entries(layout)) {
    if (field === 'size') continue;
    expect(defs.fields[field]?.offset, `${struct}.${field} offset`).toBe(offset);
  }
}

describe('WGSL struct layouts', () => {
  it('Camera matches CAMERA_LAYOUT', () => expectLayout(cameraWgsl, 'Camera', CAMERA_LAYOUT));
  it('Splat, ProjectedSplat and SplatFrame match gpu-layout.ts', () => {
    const wgsl = splatTypesWgsl;
    expectLayout(wgsl, 'Splat', SPLAT_LAYOUT);
    expectLayout(wgsl, 'ProjectedSplat', PROJECTED_SPLAT_LAYOUT);
    expectLayout(wgsl, 'SplatFrame', SPLAT_FRAME_LAYOUT);
  });
});
