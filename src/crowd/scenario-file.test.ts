import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ReferenceCrowd } from './reference-crowd';
import { parseScenarioFile } from './scenario-file';

const example = readFileSync(new URL('../../scenes/crowd/corridor-swap.json', import.meta.url), 'utf8');

describe('parseScenarioFile', () => {
  it('reads the example, applying defaults and per-agent overrides', () => {
    const spec = parseScenarioFile('corridor-swap.json', example, 3);
    expect(spec.agents).toHaveLength(5);
    expect(spec.agents[0].radius).toBe(0.3);
    expect(spec.agents[4].responsibility).toBe(0);
    expect(spec.agents[0].timeHorizonObst).toBe(2);
    expect(spec.obstacles).toHaveLength(2);
  });
  it('the example runs: the four walkers pass the standing pedestrian and arrive', () => {
    const sim = new ReferenceCrowd(parseScenarioFile('corridor-swap.json', example, 3));
    for (let s = 0; s < 400 && sim.measure().reachedAgents < 5; s++) sim.step();
    expect(sim.measure().reachedAgents).toBe(5);
  });
  it.each([
    ['{"timeStep": 0.1, "agents": [{"position": [0, 0], "goal": [1, 0], "radius": -1}]}', /^f\.json: agents\.0\.radius: /],
    ['{"timeStep": 0.1, "agents": []}', /^f\.json: agents: /],
    ['{"agents": [{"position": [0, 0], "goal": [1, 0]}]}', /^f\.json: timeStep: /],
    ['{"timeStep": 0.1, "agents": [{"position": [0], "goal": [1, 0]}]}', /^f\.json: agents\.0\.position/],
    ['{"timeStep": 0.1, "agents": [{"position": [0, 0], "goal": [1, 0], "speed": 2}]}', /^f\.json: agents\.0: /],
    ['{"timeStep": 0.1, "agents": [{"position": [0, 0], "goal": [1, 0], "env": 1}]}', /^f\.json: agents\.1?\.?0?\.?env/],
    ['{"timeStep": 0.1, "agents": [{"position": [0, 0], "goal": [1, 0]}], "obstacles": [{"vertices": [[0,0],[0,1],[1,1]]}]}', /^f\.json: obstacles\.0\.vertices: polygon is clockwise/],
    ['{"timeStep": 0.1,', /^f\.json: invalid JSON/],
  ])('rejects %s naming the field', (text, message) => {
    expect(() => parseScenarioFile('f.json', text)).toThrow(message);
  });
});
