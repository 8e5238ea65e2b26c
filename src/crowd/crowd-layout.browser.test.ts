/**
 * Host-side crowd buffer layouts (gpu-layout.ts) against the WGSL structs of
 * shaders/crowd/crowd-types.wgsl, reflected with webgpu-utils (browser project: it needs
 * Float16Array), and the host constants mirrored by WGSL consts.
 */
import { makeShaderDataDefinitions } from 'webgpu-utils';
import { describe, expect, it } from 'vitest';
import crowdTypesWgsl from '../../shaders/crowd/crowd-types.wgsl?raw';
import linearProgramWgsl from '../../shaders/crowd/linear-program.wgsl?raw';
import { ORCA_LINE_CAPACITY, MAX_NEIGHBORS, MAX_OBSTACLE_NEIGHBORS } from './gpu-crowd';
import { AGENT_PARAMS_LAYOUT, AGENT_STATE_LAYOUT, CROWD_PARAMS_LAYOUT, OBSTACLE_VERTEX_LAYOUT, STATE_METRICS_LAYOUT } from './gpu-layout';

function expectLayout(struct: string, layout: Record<string, number>) {
  const defs = makeShaderDataDefinitions(crowdTypesWgsl).structs[struct];
  expect(defs, `struct ${struct} not found`).toBeDefined();
  expect(defs.size, `${struct} size`).toBe(layout.size);
  for (const [field, offset] of Object.entries(layout)) {
    if (field !== 'size') expect(defs.fields[field]?.offset, `${struct}.${field} offset`).toBe(offset);
  }
  const wgslFields = Object.keys(defs.fields).filter((f) => !f.startsWith('pad'));
  expect(wgslFields.sort(), `${struct} fields`).toEqual(Object.keys(layout).filter((f) => f !== 'size').sort());
}

describe('crowd WGSL struct layouts', () => {
  it('AgentParams', () => expectLayout('AgentParams', AGENT_PARAMS_LAYOUT));
  it('AgentState', () => expectLayout('AgentState', AGENT_STATE_LAYOUT));
  it('ObstacleVertex', () => expectLayout('ObstacleVertex', OBSTACLE_VERTEX_LAYOUT));
  it('CrowdParams', () => expectLayout('CrowdParams', CROWD_PARAMS_LAYOUT));
  it('StateMetrics', () => expectLayout('StateMetrics', STATE_METRICS_LAYOUT));
  it('ORCA_LINE_CAPACITY matches linear-program.wgsl and holds all lines', () => {
    expect(/const ORCA_LINE_CAPACITY: u32 = (\d+)u;/.exec(linearProgramWgsl)?.[1]).toBe(String(ORCA_LINE_CAPACITY));
    expect(MAX_NEIGHBORS + MAX_OBSTACLE_NEIGHBORS).toBeLessThanOrEqual(ORCA_LINE_CAPACITY);
  });
});
