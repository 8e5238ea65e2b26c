/** PEDESTRIAN_*_LAYOUT against the structs in shaders/humans/pedestrian-types.wgsl (wgsl_reflect). */
import { makeShaderDataDefinitions } from 'webgpu-utils';
import { describe, expect, it } from 'vitest';
import typesWgsl from '../../shaders/humans/pedestrian-types.wgsl?raw';
import { PEDESTRIAN_INSTANCE_LAYOUT, PEDESTRIAN_LIGHTING_LAYOUT } from './pedestrian-appearance';

describe('pedestrian pass WGSL struct layouts', () => {
  for (const [name, layout] of [['PedestrianInstance', PEDESTRIAN_INSTANCE_LAYOUT], ['PedestrianLighting', PEDESTRIAN_LIGHTING_LAYOUT]] as const) {
    it(`${name} matches the host layout`, () => {
      const defs = makeShaderDataDefinitions(typesWgsl).structs[name];
      expect(defs).toBeDefined();
      expect(defs.size).toBe(layout.size);
      for (const [field, offset] of Object.entries(layout)) {
        if (field !== 'size') expect(defs.fields[field]?.offset, field).toBe(offset);
      }
      expect(Object.keys(defs.fields).length).toBe(Object.keys(layout).length - 1);
    });
  }
});
