/**
 * Host-side crowd buffer layouts (gpu-layout.ts) against the WGSL structs of
 * shaders/crowd/crowd-types.wgsl, reflected with webgpu-utils (browser project: it needs
 * Float16Array), and the host constants mirrored by WGSL consts.
 */
import { expectWgslLayout } from '../gpu/wgsl-layout-check';
import { describe, expect, it } from 'vitest';
import crowdTypesWgsl from '../../shaders/crowd/crowd-types.wgsl?raw';
import linearProgramWgsl from '../../shaders/crowd/linear-program.wgsl?raw';
import pedestrianTypesWgsl from '../../shaders/crowd/pedestrian-types.wgsl?raw';
import { ORCA_LINE_CAPACITY, MAX_NEIGHBORS, MAX_OBSTACLE_NEIGHBORS } from './gpu-crowd';
import { BEHAVIOUR_CONSTANTS } from './scenario-pedestrians';
import {
  AGENT_PARAMS_LAYOUT, AGENT_STATE_LAYOUT, CROWD_PARAMS_LAYOUT, OBSTACLE_VERTEX_LAYOUT, PED_FLAG_TRIGGERED, PED_GESTURES, PED_INTERACT_PHASES, PED_KINEMATICS_LAYOUT, PED_NEVER,
  PED_PARAMS_LAYOUT, PED_STATE_LAYOUT, PEDESTRIAN_KINDS, SLOT_STEP_LAYOUT, STATE_METRICS_LAYOUT,
} from './gpu-layout';
import behavioursWgsl from '../../shaders/crowd/behaviours.wgsl?raw';

const expectLayout = (struct: string, layout: Readonly<Record<string, number>>, wgsl = crowdTypesWgsl) => expectWgslLayout(wgsl, struct, layout);

describe('crowd WGSL struct layouts', () => {
  it('AgentParams', () => expectLayout('AgentParams', AGENT_PARAMS_LAYOUT));
  it('AgentState', () => expectLayout('AgentState', AGENT_STATE_LAYOUT));
  it('ObstacleVertex', () => expectLayout('ObstacleVertex', OBSTACLE_VERTEX_LAYOUT));
  it('CrowdParams', () => expectLayout('CrowdParams', CROWD_PARAMS_LAYOUT));
  it('StateMetrics', () => expectLayout('StateMetrics', STATE_METRICS_LAYOUT));
  it('PedParams', () => expectLayout('PedParams', PED_PARAMS_LAYOUT, pedestrianTypesWgsl));
  it('PedState', () => expectLayout('PedState', PED_STATE_LAYOUT, pedestrianTypesWgsl));
  it('PedKinematics', () => expectLayout('PedKinematics', PED_KINEMATICS_LAYOUT, pedestrianTypesWgsl));
  it('SlotStep', () => expectLayout('SlotStep', SLOT_STEP_LAYOUT, pedestrianTypesWgsl));
  it('pedestrian kinds, flags and NEVER match the WGSL consts', () => {
    const konst = (name: string, src = pedestrianTypesWgsl) => new RegExp(`const ${name}: [uf]32 = ([0-9.e]+)u?;`).exec(src)?.[1];
    const names = ['OBSTRUCTING', 'CONVERSING', 'QUEUING', 'FRONTAL', 'LATERAL', 'OVERTAKING', 'PED_CROSSING', 'GESTURING', 'INTERACT'];
    names.forEach((n) => expect(konst(`KIND_${n}`), n).toBe(String(PEDESTRIAN_KINDS.indexOf(n.toLowerCase().replace('_', '-') as (typeof PEDESTRIAN_KINDS)[number]))));
    PED_INTERACT_PHASES.forEach((phase, k) => expect(konst(`INTERACT_${phase.toUpperCase()}`), phase).toBe(String(k)));
    expect(konst('FLAG_TRIGGERED')).toBe(String(PED_FLAG_TRIGGERED));
    expect(konst('GESTURE_STOP')).toBe(String(PED_GESTURES.indexOf('stop')));
    expect(Number(konst('NEVER', behavioursWgsl))).toBe(PED_NEVER);
    // The behaviour constants have no WGSL values of their own: they are the overrides without
    // defaults, exactly the keys of BEHAVIOUR_CONSTANTS (set from it by the batch).
    const unset = [...behavioursWgsl.matchAll(/^override (\w+): f32;/gm)].map((m) => m[1]);
    expect(unset.sort()).toEqual(Object.keys(BEHAVIOUR_CONSTANTS).sort());
  });
  it('ORCA_LINE_CAPACITY matches linear-program.wgsl and holds all lines', () => {
    expect(/const ORCA_LINE_CAPACITY: u32 = (\d+)u;/.exec(linearProgramWgsl)?.[1]).toBe(String(ORCA_LINE_CAPACITY));
    expect(MAX_NEIGHBORS + MAX_OBSTACLE_NEIGHBORS).toBeLessThanOrEqual(ORCA_LINE_CAPACITY);
  });
});
