import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { RouteTracker } from '../robot/route-tracker';
import { clearOfPedestrians, keepsOnWalkable, planLateral } from './expert-lateral';

/** A straight sidewalk along +x from −2 to 40 m, `width` metres wide, centred on y = 0, with its boundary edges. */
function sidewalk(width: number) {
  const h = width / 2;
  const corners: Vec2[] = [[-2, -h], [40, -h], [40, h], [-2, h]];
  const walkableEdges = corners.map((a, i) => [a, corners[(i + 1) % 4]] as [Vec2, Vec2]);
  return { isWalkable: (x: number, y: number) => x >= -2 && x <= 40 && Math.abs(y) <= h, obstacles: [], walkableEdges };
}

describe('planLateral', () => {
  const edges = sidewalk(3).walkableEdges;
  const obs = (pedestrians: { x: number; y: number; v?: Vec2 }[]) => ({
    state: { x: 0, y: 0, yaw: 0, v: 1, w: 0 },
    route: new RouteTracker([[0, 0], [18, 0]]),
    pedestrians: pedestrians.map((p) => ({ x: p.x, y: p.y, radius: 0.3 })),
    pedestrianVelocities: pedestrians.map((p) => p.v ?? ([0, 0] as Vec2)),
  });

  it('plans nothing on a clear sidewalk', () => {
    const p = planLateral(obs([]), DELIVERY_ROBOT, edges, null);
    expect(p.bodies).toEqual([]);
    expect(p.target).toBe(0);
  });

  it('steps to the wider side of a pedestrian coming head-on, inside the sidewalk', () => {
    const p = planLateral(obs([{ x: 8, y: 0.3, v: [-1.4, 0] }]), DELIVERY_ROBOT, edges, null);
    expect(p.bodies).toHaveLength(1);
    expect(p.bodies[0].oncoming).toBe(true);
    expect(p.target).toBeLessThan(0.3 - 0.3 - DELIVERY_ROBOT.width / 2);
    expect(p.target).toBeGreaterThan(-1.5 + DELIVERY_ROBOT.width / 2);
    expect(p.blockedAt).toBeNull();
  });

  it('treats a standing queue as one body and reports a sidewalk it blocks', () => {
    const side = planLateral(obs([{ x: 5, y: 0.6 }, { x: 5.9, y: 0.6 }, { x: 6.8, y: 0.6 }]), DELIVERY_ROBOT, edges, null);
    expect(side.bodies).toHaveLength(1);
    expect(side.bodies[0].members).toEqual([0, 1, 2]);
    expect(side.target).toBeLessThan(0);
    const across = planLateral(obs([{ x: 5, y: -1.1 }, { x: 5, y: -0.4 }, { x: 5, y: 0.3 }, { x: 5, y: 1.0 }]), DELIVERY_ROBOT, edges, null);
    expect(across.blockedAt).toBeCloseTo(4.7, 5);
  });
});

describe('command filters', () => {
  const edges = sidewalk(3).walkableEdges;
  it('a turn in place next to the kerb would swing a corner over it; driving straight does not', () => {
    const state = { x: 5, y: 1.5 - DELIVERY_ROBOT.width / 2 - 0.05, yaw: 0, v: 0, w: 0 };
    expect(keepsOnWalkable(state, { v: 0, w: 0.65 }, DELIVERY_ROBOT, edges, 0.5)).toBe(false);
    expect(keepsOnWalkable(state, { v: 0.5, w: 0 }, DELIVERY_ROBOT, edges, 0.5)).toBe(true);
  });

  it('a turn in place beside a passing pedestrian would sweep a corner into it', () => {
    const state = { x: 5, y: 0, yaw: 0, v: 0, w: 0 };
    const obs = { pedestrians: [{ x: 5.35, y: 0.7, radius: 0.3 }], pedestrianVelocities: [[-0.1, 0] as Vec2] };
    expect(clearOfPedestrians(state, { v: 0, w: 0.65 }, DELIVERY_ROBOT, obs, 0.5, 0.05)).toBe(false);
    expect(clearOfPedestrians(state, { v: 0, w: 0 }, DELIVERY_ROBOT, obs, 0.5, 0.05)).toBe(true);
  });
});
