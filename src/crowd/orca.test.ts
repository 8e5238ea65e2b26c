import { describe, expect, it } from 'vitest';
import { createRng } from '../core/random';
import { buildObstacleVertices, OBSTACLE_GRID_CELL, ObstacleEdgeGrid, obstacleNeighbors, obstacleNeighborsInGrid } from './obstacles';
import { agentLine, computeNewVelocity, type OrcaAgent } from './orca';
import { type Vec2, vec2 } from './vec2';

const agent = (o: Partial<OrcaAgent>): OrcaAgent => ({
  position: vec2(0, 0), velocity: vec2(0, 0), prefVelocity: vec2(0, 0), radius: 0.5, maxSpeed: 10,
  timeHorizon: 2, timeHorizonObst: 2, responsibility: 0.5, ...o,
});
const close = (got: Vec2, want: Vec2) => {
  expect(got.x).toBeCloseTo(want.x, 12);
  expect(got.y).toBeCloseTo(want.y, 12);
};

describe('agent ORCA half-planes (van den Berg et al. 2011 §5.1, RVO2 Agent.cc)', () => {
  // Other agent at rest 10 m ahead; combined radius 1; τ = 2; relative velocity (4, 0):
  // w = (4, 0) − (10, 0)/2 = (−1, 0) → cut-off circle, u = (1/2 − 1)·(−1, 0) = (0.5, 0).
  const a = agent({ velocity: vec2(4, 0), prefVelocity: vec2(5, 0) });
  const b = { position: vec2(10, 0), velocity: vec2(0, 0), radius: 0.5 };
  it.each([[0.5, 4.25], [0, 4], [1, 4.5]])('cut-off circle, responsibility %f → vx = %f', (responsibility, vx) => {
    const l = agentLine({ ...a, responsibility }, b, 0.25);
    close(l.direction, vec2(0, 1));
    close(computeNewVelocity({ ...a, responsibility }, [b], [], [], 0.25).velocity, vec2(vx, 0));
  });
  // relPos (5, 0), combined radius 3 → leg 4: left leg (0.8, 0.6), right leg −(0.8, −0.6).
  const c = { position: vec2(5, 0), velocity: vec2(0, 0), radius: 1.5 };
  const big = { radius: 1.5, timeHorizon: 100 };
  it('left leg: u = (−0.12, 0.16), new velocity v + u/2 = (0.94, 0.58)', () => {
    const me = agent({ ...big, velocity: vec2(1, 0.5), prefVelocity: vec2(1, 0.5) });
    close(agentLine(me, c, 0.25).direction, vec2(0.8, 0.6));
    close(computeNewVelocity(me, [c], [], [], 0.25).velocity, vec2(0.94, 0.58));
  });
  it('right leg: mirror image (0.94, −0.58)', () => {
    const me = agent({ ...big, velocity: vec2(1, -0.5), prefVelocity: vec2(1, -0.5) });
    close(agentLine(me, c, 0.25).direction, vec2(-0.8, 0.6));
    close(computeNewVelocity(me, [c], [], [], 0.25).velocity, vec2(0.94, -0.58));
  });
  it('collision: cut-off circle of one time step pushes apart at (R − d)/dt / 2 each', () => {
    // Overlapping by 1 m (d = 1, R = 2), dt 0.25: w = −4·(1, 0), u = (8 − 4)·(−1, 0); half of it.
    const me = agent({ radius: 1, maxSpeed: 3 });
    close(computeNewVelocity(me, [{ position: vec2(1, 0), velocity: vec2(0, 0), radius: 1 }], [], [], 0.25).velocity, vec2(-2, 0));
  });
});

describe('obstacle ORCA half-planes (§6, RVO2 Agent.cc)', () => {
  const square = [vec2(-2, 0), vec2(2, 0), vec2(2, 2), vec2(-2, 2)];
  const solve = (polys: Vec2[][], me: OrcaAgent) => {
    const { vertices, envRanges } = buildObstacleVertices(polys.map((v) => ({ env: 0, vertices: v })), 1);
    const nb = obstacleNeighbors(vertices, envRanges[0], me.position, (me.timeHorizonObst * me.maxSpeed + me.radius) ** 2);
    return { nb, ...computeNewVelocity(me, [], nb, vertices, 0.25) };
  };
  it('collision with a segment: the velocity into the wall is removed', () => {
    const r = solve([square], agent({ position: vec2(0, -0.5), radius: 1, prefVelocity: vec2(0.3, 1) }));
    expect(r.nb).toEqual([0]);
    close(r.velocity, vec2(0.3, 0));
  });
  it('collision with a convex left vertex (the neighbouring edge skips its right vertex)', () => {
    const r = solve([square], agent({ position: vec2(-2.3, -0.3), prefVelocity: vec2(1, 0.5) }));
    expect(r.nb).toEqual([0, 3]);
    expect(r.lines).toHaveLength(1);
    close(r.velocity, vec2(0.25, -0.25));
  });
  it('cut-off line when approaching a wall head-on: vy ≤ (3 − r)/τ', () => {
    const r = solve([square], agent({ position: vec2(0, -3), velocity: vec2(0, 1), prefVelocity: vec2(0, 2), maxSpeed: 2 }));
    close(r.velocity, vec2(0, 1.25));
  });
  it('already covered: a collinear second edge adds no line', () => {
    const split = [vec2(-2, 0), vec2(0, 0), vec2(2, 0), vec2(2, 2), vec2(-2, 2)];
    const r = solve([split], agent({ position: vec2(0, -3), velocity: vec2(0, 1), prefVelocity: vec2(0, 2), maxSpeed: 2 }));
    expect(r.nb.slice(0, 2)).toEqual([0, 1]);
    expect(r.lines).toHaveLength(1);
    close(r.velocity, vec2(0, 1.25));
  });
  it('non-convex vertex: flagged, and a collision with it is ignored (RVO2: the adjacent edges handle it)', () => {
    const ell = [vec2(0, 0), vec2(2, 0), vec2(2, 1), vec2(1, 1), vec2(1, 2), vec2(0, 2)];
    const { vertices } = buildObstacleVertices([{ env: 0, vertices: ell }], 1);
    expect(vertices.map((v) => v.isConvex)).toEqual([true, true, true, false, true, true]);
    const r = solve([ell], agent({ position: vec2(1.2, 0.9), prefVelocity: vec2(-0.5, 0.5) }));
    expect(r.nb).toEqual([3]);
    expect(r.lines).toHaveLength(0);
    close(r.velocity, vec2(-0.5, 0.5));
    // From the notch, both edges at the reflex vertex constrain: vx ≥ 0 and vy ≥ 0.
    close(solve([ell], agent({ position: vec2(1.2, 1.2), prefVelocity: vec2(-1, 0.5) })).velocity, vec2(0, 0.5));
  });
  it('rejects clockwise polygons, naming the obstacle', () => {
    expect(() => buildObstacleVertices([{ env: 0, vertices: [...square].reverse() }], 1)).toThrow(/obstacles\[0\]\.vertices: polygon is clockwise/);
  });
});

describe('obstacle neighbours over a grid (ObstacleEdgeGrid)', () => {
  it('finds exactly the brute-force neighbours, in the same order, across cells and ranges', () => {
    // A city-like field: 400 CCW boxes of 1–12 m and 60 two-sided segments, on cells of 8 m (and of 1.5 m: edges spanning many cells).
    const rng = createRng(11);
    const polygons = [
      ...Array.from({ length: 400 }, () => {
        const [x, y, w, h] = [rng.range(-150, 150), rng.range(-150, 150), rng.range(1, 12), rng.range(1, 12)];
        return { env: 0, vertices: [vec2(x, y), vec2(x + w, y), vec2(x + w, y + h), vec2(x, y + h)] };
      }),
      ...Array.from({ length: 60 }, () => ({ env: 0, vertices: [vec2(rng.range(-150, 150), rng.range(-150, 150)), vec2(rng.range(-150, 150), rng.range(-150, 150))] })),
    ];
    const { vertices, envRanges } = buildObstacleVertices(polygons, 1);
    for (const cell of [OBSTACLE_GRID_CELL, 1.5]) {
      const grid = new ObstacleEdgeGrid(vertices, envRanges[0], cell);
      let nonEmpty = 0;
      for (let k = 0; k < 2000; k++) {
        const p = vec2(rng.range(-160, 160), rng.range(-160, 160));
        const rangeSq = rng.range(0.5, 30) ** 2;
        const want = obstacleNeighbors(vertices, envRanges[0], p, rangeSq);
        expect(obstacleNeighborsInGrid(grid, p, rangeSq)).toEqual(want);
        expect(obstacleNeighborsInGrid(grid, p, rangeSq, 3)).toEqual(want.slice(0, 3));
        if (want.length > 0) nonEmpty++;
      }
      expect(nonEmpty).toBeGreaterThan(500);
    }
    expect(() => new ObstacleEdgeGrid(vertices, envRanges[0], 0)).toThrow(RangeError);
  });
});
