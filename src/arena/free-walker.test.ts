/**
 * UrbanGround's vocabulary on a real world: the free avatar walks and sprints at its speeds in the
 * four directions, turns right for positive yaw, stops at a building and at a pedestrian counting
 * each contact once, measures its time on the pedestrian network; actions parse with their field
 * named when wrong; the map view pans, zooms within its limits and selects north-up.
 */
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../world/world';
import { isWalkable, lineClearOfObstacles } from '../world/queries';
import { FreeWalker, SPRINT_SPEED } from './free-walker';
import { applyFirstPersonAction, applyMapAction, initialMapView, parseUrbanGroundAction } from './control/actions';
import { WALK_SPEED } from './walker';

const world = generateWorld({ seed: 1, size: 400 });

/** Start 6 m in front of a building's facade, facing it, and the point 0.5 m from the facade. */
function frontOf(b: (typeof world.obstacles)[number]): { position: [number, number]; yaw: number; near: [number, number] } {
  const reach = Math.max(...b.footprint.map(([x, y]) => (x - b.centre[0]) * b.front[0] + (y - b.centre[1]) * b.front[1]));
  const at = (d: number): [number, number] => [b.centre[0] + b.front[0] * (reach + d), b.centre[1] + b.front[1] * (reach + d)];
  return { position: at(6), yaw: Math.atan2(-b.front[1], -b.front[0]), near: at(0.5) };
}

/** A building with nothing but open ground on the 6 m in front of its facade (the first in id order). */
const building = world.obstacles.find((o) => {
  if (o.kind !== 'building') return false;
  const f = frontOf(o);
  const b = world.bounds;
  return f.position[0] > b[0] + 1 && f.position[0] < b[2] - 1 && f.position[1] > b[1] + 1 && f.position[1] < b[3] - 1 && lineClearOfObstacles(world, [f.position, f.near], 0.3);
})!;

function facingBuilding(): { position: [number, number]; yaw: number } {
  const { position, yaw } = frontOf(building);
  return { position, yaw };
}

describe('free walker', () => {
  it('walks and sprints at its speeds in the direction asked', () => {
    const s = facingBuilding();
    const w = new FreeWalker(world, { ...s, yaw: s.yaw + Math.PI });
    w.move('forward', 1);
    const p1 = w.state.position;
    expect(Math.hypot(p1[0] - s.position[0], p1[1] - s.position[1])).toBeCloseTo(WALK_SPEED, 6);
    w.move('backward', 0.5, true);
    const p2 = w.state.position;
    expect(Math.hypot(p2[0] - p1[0], p2[1] - p1[1])).toBeCloseTo(SPRINT_SPEED * 0.5, 6);
    const yaw = w.state.yaw;
    w.look(90, 10);
    expect(Math.cos(w.state.yaw - (yaw - Math.PI / 2))).toBeCloseTo(1, 9);
    expect(w.state.pitch).toBeCloseTo((10 * Math.PI) / 180, 9);
  });

  it('stops at a building and counts the contact once', () => {
    const w = new FreeWalker(world, facingBuilding());
    const r1 = w.move('forward', 2);
    const r2 = w.move('forward', 2);
    const r3 = w.move('forward', 2);
    const r4 = w.move('forward', 2);
    expect([r1.blockedBy, r2.blockedBy, r3.blockedBy, r4.blockedBy]).toContain('building');
    expect([r1.blockedBy, r2.blockedBy, r3.blockedBy, r4.blockedBy].filter((b) => b && b !== 'building')).toEqual([]);
    expect(w.state.buildingCollisions).toBe(1);
    expect(r1.distance + r2.distance + r3.distance + r4.distance).toBeLessThan(6);
    w.move('backward', 1);
    w.move('forward', 2);
    expect(w.state.buildingCollisions).toBe(2);
  });

  it('stops at a pedestrian and counts the contact once', () => {
    const s = facingBuilding();
    const ped = { x: s.position[0] + Math.cos(s.yaw) * 2, y: s.position[1] + Math.sin(s.yaw) * 2, radius: 0.3 };
    const w = new FreeWalker(world, s);
    const r = w.move('forward', 2, false, [ped]);
    expect(r.blockedBy).toBe('pedestrian');
    expect(r.distance).toBeLessThan(2 - 0.5);
    w.move('forward', 1, false, [ped]);
    expect(w.state.pedestrianCollisions).toBe(1);
  });

  it('measures the share of moving time on the pedestrian network', () => {
    const n = world.nav.nodes[0];
    const w = new FreeWalker(world, { position: n, yaw: 0 });
    expect(w.networkAdherence()).toBeNull();
    w.move('forward', 0.5);
    expect(w.networkAdherence()).toBe(isWalkable(world, n[0], n[1]) ? 1 : 0);
  });

  it('refuses a start inside a building', () => {
    expect(() => new FreeWalker(world, { position: building.centre, yaw: 0 })).toThrow(/inside a building/);
  });
});

describe('UrbanGround actions', () => {
  it('parse, naming the field that is wrong', () => {
    expect(parseUrbanGroundAction({ action: 'move', dir: 'forward', seconds: 0.8 })).toEqual({ ok: true, action: { action: 'move', dir: 'forward', seconds: 0.8 } });
    expect(parseUrbanGroundAction({ action: 'look', yaw: 25 })).toEqual({ ok: true, action: { action: 'look', yaw: 25, pitch: 0 } });
    expect(parseUrbanGroundAction({ action: 'move', dir: 'forward', seconds: 3 })).toMatchObject({ ok: false, error: expect.stringMatching(/^seconds: /) });
    expect(parseUrbanGroundAction({ action: 'move', dir: 'up', seconds: 1 })).toMatchObject({ ok: false, error: expect.stringMatching(/^dir: /) });
    expect(parseUrbanGroundAction({ action: 'fly' })).toMatchObject({ ok: false, error: expect.stringMatching(/^action: /) });
    expect(parseUrbanGroundAction('move')).toMatchObject({ ok: false });
  });

  it('drive the avatar and the map view', () => {
    const s = facingBuilding();
    const w = new FreeWalker(world, { ...s, yaw: s.yaw + Math.PI });
    expect(applyFirstPersonAction(w, { action: 'move', dir: 'forward', seconds: 0.8 })).toBe('move: forward for 0.8s');
    expect(() => applyFirstPersonAction(w, { action: 'open_map' })).toThrow(/not a first-person action/);
    let view = initialMapView([0, 0]);
    expect(applyMapAction(view, { action: 'map_pan', east: 10, north: 0 }, [5, 5])).toEqual({ ok: false, error: 'map_pan: the map is not open (open_map first)' });
    const step = (a: Parameters<typeof applyMapAction>[1]) => {
      const r = applyMapAction(view, a, [5, 5]);
      if (!r.ok) throw new Error(r.error);
      view = r.view;
    };
    step({ action: 'open_map' });
    expect(view.centre).toEqual([5, 5]);
    step({ action: 'map_pan', east: 10, north: -20 });
    step({ action: 'map_zoom', factor: 0.5 });
    expect(view.halfSpan).toBe(50);
    step({ action: 'map_zoom', factor: 0.01 });
    expect(view.halfSpan).toBe(25);
    step({ action: 'map_select', x: 1, y: 0 });
    expect(view.selected).toEqual([15 + 25, -15 + 25]);
  });
});
