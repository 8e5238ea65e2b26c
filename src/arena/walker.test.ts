/**
 * The walker on hand-made networks: forward walks along edges at walking speed, carries on through
 * plain waypoints, stops at branches and dead ends, turns round when the camera faces back, and
 * takes the branch of each token; the episode rules (stagnation, step limit, no answer scores 0,
 * refused branch tokens are not steps); reply parsing.
 */
import { describe, expect, it } from 'vitest';
import type { NavGraph } from '../world/navgraph';
import { applyAction, parseAgentReply } from './actions';
import { NetworkWalker, WALK_SPEED } from './walker';
import { ArenaEpisode, STAGNATION_LIMIT } from './episode';
import type { ArenaTask } from './task';
import type { World } from '../world/world';

/**
 * A plus-shaped network: a line along +x from (0,0) through (10,0) to (20,0) with waypoints every
 * 2 m, a branch at (10,0) going up to (10,10) and down to (10,-10).
 */
function plus(): NavGraph {
  const nodes: [number, number][] = [];
  const edges: NavGraph['edges'] = [];
  const line = (pts: [number, number][]) => {
    const ids = pts.map((p) => {
      const i = nodes.findIndex((q) => q[0] === p[0] && q[1] === p[1]);
      if (i >= 0) return i;
      nodes.push(p);
      return nodes.length - 1;
    });
    for (let k = 1; k < ids.length; k++) edges.push({ a: ids[k - 1], b: ids[k], length: Math.hypot(pts[k][0] - pts[k - 1][0], pts[k][1] - pts[k - 1][1]), kind: 'sidewalk' });
  };
  line(Array.from({ length: 11 }, (_, i) => [2 * i, 0]));
  line(Array.from({ length: 6 }, (_, i) => [10, 2 * i]));
  line(Array.from({ length: 6 }, (_, i) => [10, -2 * i]));
  return { nodes, edges };
}

const at = (nav: NavGraph, x: number, y: number) => nav.nodes.findIndex((p) => p[0] === x && p[1] === y);

describe('network walker', () => {
  it('walks at walking speed and carries on through plain waypoints', () => {
    const nav = plus();
    const w = NetworkWalker.atNode(nav, at(nav, 0, 0), at(nav, 2, 0));
    const r = w.forward(3);
    expect(r.distance).toBeCloseTo(3 * WALK_SPEED, 9);
    expect(r.stop).toBeNull();
    expect(w.position[0]).toBeCloseTo(4.2, 9);
    expect(w.position[1]).toBe(0);
  });

  it('stops at a branch and lists LEFT, UP and RIGHT there', () => {
    const nav = plus();
    const w = NetworkWalker.atNode(nav, at(nav, 0, 0), at(nav, 2, 0));
    expect(w.forward(5).stop).toBeNull();
    const r = w.forward(5);
    expect(r.stop).toBe('branch');
    expect(w.position).toEqual([10, 0]);
    expect(r.distance).toBeCloseTo(10 - 5 * WALK_SPEED, 9);
    const opts = w.branchOptions();
    expect(opts.map((o) => [o.token, nav.nodes[o.to]])).toEqual([['LEFT', [10, 2]], ['UP', [12, 0]], ['RIGHT', [10, -2]]]);
    // Walking on with the camera straight ahead continues along +x.
    w.forward(1);
    expect(w.position[0]).toBeCloseTo(10 + WALK_SPEED, 9);
  });

  it('takes a branch by its token and walks it', () => {
    const nav = plus();
    const w = NetworkWalker.atNode(nav, at(nav, 0, 0), at(nav, 2, 0));
    w.forward(5);
    w.forward(5);
    expect(w.takeBranch('LEFT')).toBe(true);
    expect(w.position).toEqual([10, 0]);
    w.forward(3);
    expect(w.position[0]).toBeCloseTo(10, 9);
    expect(w.position[1]).toBeCloseTo(4.2, 9);
    expect(w.takeBranch('RIGHT')).toBe(false);
  });

  it('at a branch, walks the edge the camera faces; facing back turns round', () => {
    const nav = plus();
    const w = NetworkWalker.atNode(nav, at(nav, 0, 0), at(nav, 2, 0));
    w.forward(5);
    w.forward(5);
    w.rotate(-Math.PI / 2);
    w.forward(1);
    expect(w.position[1]).toBeCloseTo(-WALK_SPEED, 9);
    w.rotate(Math.PI);
    w.forward(1);
    expect(w.position).toEqual([10, 0]);
  });

  it('stops at a dead end', () => {
    const nav = plus();
    const w = NetworkWalker.atNode(nav, at(nav, 10, 8), at(nav, 10, 10));
    const r = w.forward(5);
    expect(r.stop).toBe('dead-end');
    expect(w.position).toEqual([10, 10]);
    expect(r.distance).toBeCloseTo(2, 9);
  });
});

describe('arena episode rules', () => {
  const nav = plus();
  const world = { nav } as unknown as World;
  const task = (over: Partial<ArenaTask> = {}): ArenaTask => ({
    id: 't', family: 'map-navigation', difficulty: 'easy', instruction: 'go', start: { node: at(nav, 0, 0), towards: at(nav, 2, 0) }, grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'coordinate_match', goal: [10, 8], epsilon: 20 }, stepLimit: 50, source: { landmark: null, detail: null, pathLength: null, decisionPoints: null, instructionSteps: null }, ...over,
  });

  it('an episode that ends without an answer scores 0 even at the goal', () => {
    const ep = new ArenaEpisode(world, task({ stepLimit: 3 }), []);
    ep.act({ kind: 'forward', seconds: 1 });
    ep.act({ kind: 'forward', seconds: 1 });
    const out = ep.act({ kind: 'forward', seconds: 1 });
    expect(out?.status).toBe('step_limit');
    expect(out?.distanceToGoal).toBeLessThan(20);
    expect(out?.score).toBe(0);
  });

  it('answering inside the radius scores 1, outside 0', () => {
    const near = new ArenaEpisode(world, task(), []);
    expect(near.act({ kind: 'answer', text: 'here' })?.score).toBe(1);
    const far = new ArenaEpisode(world, task({ truth: { scoring: 'coordinate_match', goal: [10, 8], epsilon: 5 } }), []);
    expect(far.act({ kind: 'answer', text: 'here' })?.score).toBe(0);
  });

  it(`${STAGNATION_LIMIT} repeats of one action without moving end the episode; a refused branch is not a step`, () => {
    const ep = new ArenaEpisode(world, task(), []);
    expect(ep.act({ kind: 'branch', token: 'LEFT' })).toBeNull();
    expect(ep.observation().step).toBe(0);
    expect(ep.observation().notices).toEqual(['There is no LEFT branch here.']);
    let out = null;
    let k = 0;
    while (!out) {
      out = ep.act({ kind: 'tilt', deg: 30 });
      k++;
    }
    expect(out.status).toBe('stagnation');
    expect(k).toBe(STAGNATION_LIMIT + 1);
  });

  it('the observation lists branches by token and never a coordinate', () => {
    const ep = new ArenaEpisode(world, task(), []);
    ep.act({ kind: 'forward', seconds: 5 });
    ep.act({ kind: 'forward', seconds: 5 });
    const obs = ep.observation();
    expect(obs.notices).toEqual(['You reached a junction.']);
    expect(obs.branches).toEqual([{ token: 'LEFT', kind: 'sidewalk', angleDeg: 90 }, { token: 'UP', kind: 'sidewalk', angleDeg: 0 }, { token: 'RIGHT', kind: 'sidewalk', angleDeg: -90 }]);
    expect(JSON.stringify(obs)).not.toMatch(/position|goal|\[10,/);
  });
});

describe('agent replies', () => {
  it('parses tokens with their magnitudes, fenced or not', () => {
    expect(parseAgentReply('{"thought":"go","action":"W","memory":"","answer":"LARGE"}')).toEqual({ ok: true, action: { kind: 'forward', seconds: 5 }, thought: 'go', memory: '' });
    expect(parseAgentReply('```json\n{"action":"d","answer":"small"}\n```')).toMatchObject({ ok: true, action: { kind: 'rotate', deg: -30 } });
    expect(parseAgentReply('{"action":"ANSWER","answer":"x:1 y:2"}')).toMatchObject({ ok: true, action: { kind: 'answer', text: 'x:1 y:2' } });
    expect(parseAgentReply('{"action":"UP"}')).toMatchObject({ ok: true, action: { kind: 'branch', token: 'UP' } });
  });

  it('names what is wrong with a bad reply', () => {
    expect(parseAgentReply('go forward')).toEqual({ ok: false, error: 'no JSON object in the reply' });
    expect(parseAgentReply('{"action": "JUMP"}')).toMatchObject({ ok: false, error: expect.stringMatching(/^field "action": 'JUMP' is not one of W, A/) });
    expect(parseAgentReply('{"action": "W", "answer": "HUGE"}')).toMatchObject({ ok: false, error: expect.stringMatching(/not SMALL, MEDIUM or LARGE/) });
    expect(parseAgentReply('{"action": W}')).toMatchObject({ ok: false, error: expect.stringMatching(/^reply is not valid JSON/) });
  });

  it('applyAction refuses an answer (the episode handles it)', () => {
    const nav = plus();
    expect(() => applyAction(NetworkWalker.atNode(nav, 0, 1), { kind: 'answer', text: 'x' })).toThrow(RangeError);
  });
});
