/** SKINNING_PARAMS_LAYOUT against `SkinningParams` in shaders/humans/skinning-types.wgsl (wgsl_reflect). */
import { makeShaderDataDefinitions } from 'webgpu-utils';
import { describe, expect, it } from 'vitest';
import typesWgsl from '../../shaders/humans/skinning-types.wgsl?raw';
import { SKINNING_PARAMS_LAYOUT } from './skinning-layout';

describe('humans WGSL struct layouts', () => {
  it('SkinningParams matches SKINNING_PARAMS_LAYOUT', () => {
    const defs = makeShaderDataDefinitions(typesWgsl).structs.SkinningParams;
    expect(defs).toBeDefined();
    expect(defs.size).toBe(SKINNING_PARAMS_LAYOUT.size);
    for (const [field, offset] of Object.entries(SKINNING_PARAMS_LAYOUT)) {
      if (field !== 'size') expect(defs.fields[field]?.offset, field).toBe(offset);
    }
  });
});
