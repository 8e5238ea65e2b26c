/**
 * The control session on a real generated world: `/state` carries every field of UrbanGround's list
 * with its type; its lat/lon convert back to the avatar's position; look, move and the clock act as
 * UrbanGround's harness expects (look +yaw turns the compass heading right, a 0.8 s move walks
 * 1.12 m along the heading and advances the clock 0.8 s × the time scale); rain exposure accrues and
 * resets; teleport lands on a sidewalk and refuses a building; map actions need the map open and
 * select, route and describe; tasks are entered at their start and heading; the same actions give
 * the same state; a sampled move ends where the plain move does. With pedestrians on: `/state`
 * reports the real count (the default 40, a task's own, 0 when off), walkers move only while time
 * passes (moves), the same actions give the same states and walkers, running into a walker counts
 * a pedestrian collision, and walkers keep to walkable ground.
 */
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../world/world';
import { worldInventory } from '../../world/inventory';
import { DEFAULT_GEOREFERENCE, geodeticToWorld, headingToYaw, worldToGeodetic, yawToHeading } from '../../world/georef';
import { groundHeight, isWalkable, lineClearOfObstacles, zoneAt } from '../../world/queries';
import type { Vec2 } from '../../world/geometry';
import { BODY_RADIUS, SPRINT_SPEED } from '../free-walker';
import { WALK_SPEED } from '../walker';
import { URBANGROUND_WEATHERS, type UrbanGroundAction } from './actions';
import { DEFAULT_PEDESTRIAN_COUNT, SPAWN_CLEARANCE } from './crowd';
import { ControlSession, type ControlTask } from './session';
import { hasOverheadShelter } from './surface';
import { controlTaskFromUrbanGround, parseUrbanGroundTask } from './tasks';

const world = generateWorld({ seed: 1, size: 400 });
const inventory = worldInventory(world);
const G = DEFAULT_GEOREFERENCE;

/** A sidewalk node with open, unsheltered ground from `behind` metres behind it to `ahead` metres ahead along its first edge (and its heading). */
function openSidewalk(ahead: number, behind: number, skip = 0): { position: Vec2; yaw: number } {
  const b = world.bounds;
  let found = 0;
  for (const e of world.nav.edges) {
    const p = world.nav.nodes[e.a];
    const q = world.nav.nodes[e.b];
    if (zoneAt(world, p[0], p[1]) !== 'sidewalk') continue;
    const yaw = Math.atan2(q[1] - p[1], q[0] - p[0]);
    const at = (d: number): Vec2 => [p[0] + Math.cos(yaw) * d, p[1] + Math.sin(yaw) * d];
    const [back, end] = [at(-behind), at(ahead)];
    const inside = (c: Vec2) => c[0] > b[0] + 2 && c[0] < b[2] - 2 && c[1] > b[1] + 2 && c[1] < b[3] - 2;
    if (!inside(back) || !inside(end)) continue;
    if (!lineClearOfObstacles(world, [back, end], BODY_RADIUS + 0.1)) continue;
    let sheltered = false;
    for (let d = -behind; d <= ahead; d += 0.1) sheltered ||= hasOverheadShelter(world, at(d));
    if (sheltered) continue;
    if (found++ === skip) return { position: [p[0], p[1]], yaw };
  }
  throw new Error('no open sidewalk in the test world');
}

/** The avatar's default start: 5 m of open sidewalk ahead, 2 m behind. */
const spot = openSidewalk(5, 2);
/** Another sidewalk spot, 20–80 m from the first (on the first's map). */
const other = (() => {
  for (let k = 1; ; k++) {
    const s = openSidewalk(1, 0, k);
    const d = Math.hypot(s.position[0] - spot.position[0], s.position[1] - spot.position[1]);
    if (d > 20 && d < 80) return s;
  }
})();

/** A building's facade point `d` metres out, and the heading facing the facade. */
function frontOf(b: (typeof world.obstacles)[number], d: number): { position: Vec2; yaw: number } {
  const reach = Math.max(...b.footprint.map(([x, y]) => (x - b.centre[0]) * b.front[0] + (y - b.centre[1]) * b.front[1]));
  return { position: [b.centre[0] + b.front[0] * (reach + d), b.centre[1] + b.front[1] * (reach + d)], yaw: Math.atan2(-b.front[1], -b.front[0]) };
}
/** A building with open ground on the 3 m in front of its facade. */
const building = world.obstacles.find((o) => {
  if (o.kind !== 'building') return false;
  const [p, q] = [frontOf(o, 3).position, frontOf(o, 0.5).position];
  const b = world.bounds;
  return p[0] > b[0] + 1 && p[0] < b[2] - 1 && p[1] > b[1] + 1 && p[1] < b[3] - 1 && lineClearOfObstacles(world, [p, q], 0.3);
})!;

const session = (tasks: ReadonlyMap<string, ControlTask> = new Map(), start = spot) => new ControlSession(world, inventory, G, tasks, start);

function ok(s: ControlSession, a: UrbanGroundAction): string {
  const r = s.act(a);
  if (!r.ok) throw new Error(`${a.action}: ${r.error}`);
  return r.action;
}

const move = (seconds: number, dir: 'forward' | 'backward' | 'left' | 'right' = 'forward'): UrbanGroundAction => ({ action: 'move', dir, seconds });
const geoOf = (p: Vec2) => worldToGeodetic(G, [p[0], p[1], groundHeight(world, p[0], p[1])]);

describe('ControlSession /state', () => {
  it('has every field of UrbanGround\'s list with its type', () => {
    const st = session().state();
    const fields = ['mode', 'lat', 'lon', 'alt', 'yaw', 'pitch', 'surface', 'on_sidewalk', 'time', 'weather', 'weather_label', 'pedestrians_active', 'pedestrian_count', 'is_raining', 'rain_intensity', 'being_rained_on', 'has_overhead_shelter', 'rain_hits', 'rain_exposure_seconds', 'pedestrian_collisions', 'building_collisions', 'stats_tracked_seconds', 'tiles_progress', 'tiles_settled', 'idle'];
    expect(Object.keys(st).sort()).toEqual([...fields].sort());
    expect(st.mode).toBe('first_person');
    for (const k of ['lat', 'lon', 'alt', 'yaw', 'pitch', 'rain_intensity', 'rain_exposure_seconds', 'stats_tracked_seconds', 'tiles_progress'] as const) expect(Number.isFinite(st[k]), k).toBe(true);
    for (const k of ['pedestrian_count', 'rain_hits', 'pedestrian_collisions', 'building_collisions'] as const) expect(Number.isInteger(st[k]) && st[k] >= 0, k).toBe(true);
    for (const k of ['on_sidewalk', 'pedestrians_active', 'is_raining', 'being_rained_on', 'has_overhead_shelter', 'tiles_settled', 'idle'] as const) expect(typeof st[k], k).toBe('boolean');
    // The avatar stands within the 400 m world around Zürich's origin.
    expect(Math.abs(st.lat - G.lat)).toBeLessThan(0.003);
    expect(Math.abs(st.lon - G.lon)).toBeLessThan(0.004);
    expect(Math.abs(st.alt - G.height)).toBeLessThan(5);
    expect(st.yaw).toBeGreaterThanOrEqual(0);
    expect(st.yaw).toBeLessThan(360);
    expect(st.yaw).toBeCloseTo(yawToHeading(spot.yaw), 3);
    expect(st.pitch).toBe(0);
    expect(st.surface).toMatch(/^Footway - \S/);
    expect(st.on_sidewalk).toBe(true);
    expect(st.time).toBe('13:00:00');
    expect(st.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    expect([st.weather, st.weather_label]).toEqual(['sunny', 'Sunny']);
    expect(URBANGROUND_WEATHERS).toContain(st.weather);
    expect([st.pedestrians_active, st.pedestrian_count]).toEqual([false, 0]);
    expect([st.is_raining, st.rain_intensity, st.being_rained_on, st.has_overhead_shelter]).toEqual([false, 0, false, false]);
    expect([st.rain_hits, st.rain_exposure_seconds, st.pedestrian_collisions, st.building_collisions, st.stats_tracked_seconds]).toEqual([0, 0, 0, 0, 0]);
    expect([st.tiles_progress, st.tiles_settled, st.idle]).toEqual([100, true, true]);
  });

  it('gives lat/lon that convert back to the avatar within 1 mm', () => {
    const s = session();
    for (const a of [null, move(1.5), { action: 'look', yaw: 70, pitch: 0 } as const, move(1, 'left')]) {
      if (a) ok(s, a);
      const st = s.state();
      const back = geodeticToWorld(G, { lat: st.lat, lon: st.lon, height: st.alt });
      const p = s.position;
      expect(Math.hypot(back[0] - p[0], back[1] - p[1])).toBeLessThan(1e-3);
      expect(back[2]).toBeCloseTo(groundHeight(world, p[0], p[1]), 2);
    }
  });
});

describe('ControlSession actions', () => {
  it('look +yaw turns the compass heading right by that much; pitch looks up', () => {
    const s = session();
    const h0 = s.state().yaw;
    expect(ok(s, { action: 'look', yaw: 30, pitch: 0 })).toBe('look: yaw 30°, pitch 0°');
    const turn = (a: number, b: number) => (((b - a) % 360) + 360) % 360;
    expect(turn(h0, s.state().yaw)).toBeCloseTo(30, 2);
    ok(s, { action: 'look', yaw: -100, pitch: 12 });
    expect(turn(h0, s.state().yaw)).toBeCloseTo(290, 2);
    expect(s.state().pitch).toBeCloseTo(12, 3);
    ok(s, { action: 'look', yaw: 350, pitch: 0 });
    expect(turn(h0, s.state().yaw)).toBeCloseTo(280, 2);
  });

  it('moves 1.12 m along the heading in 0.8 s and advances the clock by 0.8 s × the time scale', () => {
    const s = session();
    const p0 = s.position;
    const heading = (s.state().yaw * Math.PI) / 180;
    expect(ok(s, move(0.8))).toBe('move: forward for 0.8s');
    const p1 = s.position;
    expect(Math.hypot(p1[0] - p0[0], p1[1] - p0[1])).toBeCloseTo(0.8 * WALK_SPEED, 6);
    expect(0.8 * WALK_SPEED).toBeCloseTo(1.12, 9);
    // Compass heading: east = sin, north = cos.
    expect((p1[0] - p0[0]) / 1.12).toBeCloseTo(Math.sin(heading), 4);
    expect((p1[1] - p0[1]) / 1.12).toBeCloseTo(Math.cos(heading), 4);
    let st = s.state();
    expect([st.time, st.stats_tracked_seconds]).toEqual(['13:00:00', 0.8]);
    ok(s, move(0.8, 'backward'));
    st = s.state();
    expect([st.time, st.stats_tracked_seconds]).toEqual(['13:00:01', 1.6]);
    expect(Math.hypot(s.position[0] - p0[0], s.position[1] - p0[1])).toBeLessThan(1e-9);
    expect(ok(s, { action: 'set_time_scale', factor: 10 })).toBe('set_time_scale: 10');
    ok(s, move(0.8));
    st = s.state();
    // 46 801.6 s + 8 s; the tracked seconds are action seconds, not scaled.
    expect([st.time, st.stats_tracked_seconds]).toEqual(['13:00:09', 2.4]);
    // Sprint: 3 m/s; the clock wraps past midnight.
    expect(ok(s, { action: 'set_time', hour: 23, minute: 59 })).toBe('set_time: 23:59');
    expect(s.state().time).toBe('23:59:00');
    ok(s, { action: 'set_time_scale', factor: 60 });
    const p2 = s.position;
    ok(s, { action: 'sprint', dir: 'forward', seconds: 1 });
    expect(Math.hypot(s.position[0] - p2[0], s.position[1] - p2[1])).toBeCloseTo(SPRINT_SPEED, 6);
    expect(s.state().time).toBe('00:00:00');
    ok(s, { action: 'sprint', dir: 'backward', seconds: 1.5 });
    expect(s.state().time).toBe('00:01:30');
  });

  it('accrues rain exposure while raining, and /stats/reset zeroes the counters', () => {
    const s = session();
    expect(ok(s, { action: 'set_weather', weather: 'rainy' })).toBe('set_weather: rainy');
    let st = s.state();
    expect([st.weather, st.weather_label, st.is_raining, st.rain_intensity, st.being_rained_on, st.has_overhead_shelter]).toEqual(['rainy', 'Rainy', true, 0.5, true, false]);
    expect(s.conditions().weather).toBe('rain');
    ok(s, move(0.8));
    ok(s, move(1.2, 'backward'));
    st = s.state();
    expect([st.rain_hits, st.rain_exposure_seconds, st.stats_tracked_seconds]).toEqual([2, 2, 2]);
    // Looking takes no time and gets no rain.
    ok(s, { action: 'look', yaw: 10, pitch: 0 });
    expect(s.state().rain_exposure_seconds).toBe(2);
    ok(s, { action: 'set_weather', weather: 'thunderstorm' });
    expect([s.state().rain_intensity, s.state().weather_label]).toEqual([1, 'Thunderstorm']);
    s.resetStats();
    st = s.state();
    expect([st.rain_hits, st.rain_exposure_seconds, st.stats_tracked_seconds, st.building_collisions, st.pedestrian_collisions]).toEqual([0, 0, 0, 0, 0]);
    expect(st.is_raining).toBe(true);
    ok(s, { action: 'set_weather', weather: 'sunny' });
    ok(s, move(1));
    st = s.state();
    expect([st.is_raining, st.rain_hits, st.rain_exposure_seconds, st.stats_tracked_seconds]).toEqual([false, 0, 0, 1]);
  });

  it('counts a walk into a building once, and /stats/reset zeroes that counter', () => {
    // 3 m in front of the building's facade, facing it.
    const s = session(new Map(), frontOf(building, 3));
    const labels = [ok(s, move(2)), ok(s, move(2)), ok(s, move(2))];
    expect(labels.some((l) => /\(stopped by a (building|prop) after \d+\.\d\d m\)$/.test(l))).toBe(true);
    expect(s.state().building_collisions).toBe(1);
    s.resetStats();
    expect(s.state().building_collisions).toBe(0);
    ok(s, move(1, 'backward'));
    ok(s, move(2));
    expect(s.state().building_collisions).toBe(1);
  });

  it('teleports to the lat/lon of a sidewalk point, and refuses one inside a building', () => {
    const s = session();
    const g = geoOf(other.position);
    expect(ok(s, { action: 'teleport', lat: g.lat, lon: g.lon, height: g.height })).toBe(`teleport: ${g.lat.toFixed(6)}, ${g.lon.toFixed(6)}`);
    expect(Math.hypot(s.position[0] - other.position[0], s.position[1] - other.position[1])).toBeLessThan(1e-3);
    const st = s.state();
    expect(st.on_sidewalk).toBe(true);
    expect(Math.abs(st.lat - g.lat)).toBeLessThan(1e-8);
    expect(Math.abs(st.lon - g.lon)).toBeLessThan(1e-8);
    // Without a height (alt alias, or none): same ground spot.
    ok(s, { action: 'teleport', lat: geoOf(spot.position).lat, lon: geoOf(spot.position).lon });
    expect(Math.hypot(s.position[0] - spot.position[0], s.position[1] - spot.position[1])).toBeLessThan(1e-3);

    const before = s.position;
    const inside = geoOf(building.centre);
    const r = s.act({ action: 'teleport', lat: inside.lat, lon: inside.lon, alt: inside.height });
    expect(r).toMatchObject({ ok: false, status: 400 });
    expect(!r.ok && r.error).toMatch(/^lat, lon: 47\.\d+, 8\.\d+ is inside a building$/);
    expect(s.position).toEqual(before);
    // Outside the world.
    const far = s.act({ action: 'teleport', lat: G.lat + 0.1, lon: G.lon });
    expect(!far.ok && far.error).toMatch(/^lat, lon: .* is outside the world$/);
  });

  it('map actions need open_map; select, navigate, identify and map_teleport work on the selection', () => {
    const s = session();
    for (const a of [{ action: 'map_pan', east: 10, north: 0 }, { action: 'map_zoom', factor: 2 }, { action: 'map_select', x: 0.5, y: 0.5 }, { action: 'map_orbit', yaw: 10, pitch: 0 }] as UrbanGroundAction[]) {
      const r = s.act(a);
      expect(r).toMatchObject({ ok: false, status: 400 });
      expect(!r.ok && r.error).toMatch(new RegExp(`^${a.action}: the map is not open \\(open_map first\\)$`));
    }
    for (const a of ['navigate', 'identify_location', 'map_teleport'] as const) {
      const r = s.act({ action: a });
      expect(!r.ok && r.error).toBe(`${a}: select a point first (open_map, then map_select)`);
    }
    expect(s.state().mode).toBe('first_person');
    expect(ok(s, { action: 'open_map' })).toBe('open_map');
    expect(s.state().mode).toBe('map');
    expect(s.mapView.view.centre).toEqual(spot.position);
    // First-person moves are refused while the map is open.
    expect(s.act(move(1))).toEqual({ ok: false, status: 400, error: 'move: the map is open (close_map first)' });

    // Select the other sidewalk spot: normalised screen coordinates, y = 0 at the top.
    const half = s.mapView.view.halfSpan;
    const c = s.mapView.view.centre;
    const sel = (p: Vec2) => ({ action: 'map_select' as const, x: (p[0] - c[0]) / (2 * half) + 0.5, y: 0.5 - (p[1] - c[1]) / (2 * half) });
    const target = sel(other.position);
    expect(target.x >= 0 && target.x <= 1 && target.y >= 0 && target.y <= 1, 'the other spot is on the map').toBe(true);
    const g = geoOf(other.position);
    expect(ok(s, target)).toBe(`map_select: ${g.lat.toFixed(6)}, ${g.lon.toFixed(6)}`);
    const label = ok(s, { action: 'navigate' });
    const m = /^navigate: route of (\d+) m to the selected point$/.exec(label);
    expect(m, label).not.toBeNull();
    const straight = Math.hypot(other.position[0] - spot.position[0], other.position[1] - spot.position[1]);
    expect(Number(m![1])).toBeGreaterThanOrEqual(Math.floor(straight));
    const route = s.mapView.route!;
    expect(route[0]).toEqual(spot.position);
    expect(Math.hypot(route.at(-1)![0] - other.position[0], route.at(-1)![1] - other.position[1])).toBeLessThan(1e-6);
    expect(route.length).toBeGreaterThan(2);
    let length = 0;
    for (let i = 1; i < route.length; i++) length += Math.hypot(route[i][0] - route[i - 1][0], route[i][1] - route[i - 1][1]);
    expect(Math.round(length)).toBe(Number(m![1]));
    expect(ok(s, { action: 'clear_route' })).toBe('clear_route');
    expect(s.mapView.route).toBeNull();

    // identify_location at a landmark's entrance names it.
    const lm = inventory.landmarks.find((l) => Math.abs(l.entrance[0] - c[0]) < half * 0.9 && Math.abs(l.entrance[1] - c[1]) < half * 0.9)!;
    expect(lm).toBeDefined();
    ok(s, sel(lm.entrance));
    const id = ok(s, { action: 'identify_location' });
    expect(id).toMatch(/^identify_location: [A-Z][^;]*; nearest place: /);
    expect(id).toContain(`nearest place: ${lm.name} (${lm.kind}, ${lm.address ?? lm.street}), 0 m away`);

    // Pan and zoom move the view; map_teleport moves the avatar and closes the map.
    ok(s, { action: 'map_pan', east: 10, north: -5 });
    expect(s.mapView.view.centre).toEqual([c[0] + 10, c[1] - 5]);
    ok(s, { action: 'map_zoom', factor: 0.5 });
    expect(s.mapView.view.halfSpan).toBe(half / 2);
    ok(s, { action: 'map_zoom', factor: 2 });
    ok(s, { action: 'map_pan', east: -10, north: 5 });
    ok(s, sel(other.position));
    expect(ok(s, { action: 'map_teleport' })).toBe('map_teleport: moved to the selected point');
    expect(Math.hypot(s.position[0] - other.position[0], s.position[1] - other.position[1])).toBeLessThan(1e-6);
    expect(s.state().mode).toBe('first_person');
  });

  it('network overlay, where_am_i, pedestrians and terminate', () => {
    const s = session();
    expect(ok(s, { action: 'toggle_network' })).toBe('toggle_network: network shown');
    expect(s.mapView.network).toBe(true);
    expect(ok(s, { action: 'hide_network' })).toBe('hide_network: network hidden');
    expect(ok(s, { action: 'where_am_i' })).toBe(`where_am_i: ${s.state().surface}`);
    ok(s, { action: 'enable_pedestrians' });
    expect(s.state().pedestrians_active).toBe(true);
    ok(s, { action: 'disable_pedestrians' });
    expect(s.state().pedestrians_active).toBe(false);
    expect(s.act({ action: 'terminate' })).toMatchObject({ ok: false, status: 400, error: expect.stringMatching(/^terminate: /) });
  });
});

describe('ControlSession tasks', () => {
  const start = { position: other.position, yaw: 0.7 };
  const arenaLike: ControlTask = { id: 'night-rain', type: null, typeName: 'vln', start, endPoints: [{ label: 'Goal', position: spot.position }], closures: [], restrictedZones: 0, conditions: { time: '21:30', weather: 'rain' }, document: { id: 'night-rain' } };
  const g = geoOf(other.position);
  const doc = parseUrbanGroundTask('SN-1.json', JSON.stringify({ task: { id: 'SN-20260101-000001', type: 0, startPoint: { lat: g.lat, lon: g.lon, height: g.height, yaw: 135, label: 'Start' }, endPoint: { ...geoOf(spot.position), label: 'Cafe' }, restrictedZones: [{ vertices: [{ lat: 1, lon: 2 }, { lat: 1, lon: 3 }] }] } }));
  const ug = controlTaskFromUrbanGround(world, G, doc, 'SN-1.json');
  const tasks = new Map([[arenaLike.id, arenaLike], [ug.id, ug]]);

  it('enter_task of an unknown id is a 404 naming the id', () => {
    const s = session(tasks);
    const r = s.act({ action: 'enter_task', id: 'no-such-task' });
    expect(r).toMatchObject({ ok: false, status: 404 });
    expect(!r.ok && r.error).toMatch(/^id: no task "no-such-task" \(2 tasks, e\.g\. night-rain, SN-20260101-000001\)$/);
    expect(s.enterTask('x')).toMatchObject({ ok: false, status: 404, error: expect.stringContaining('"x"') });
    expect(s.task).toBeNull();
    expect(s.taskInfo()).toEqual({ active: false });
  });

  it('enterTask puts the avatar at the task start facing its start yaw, under its conditions', () => {
    const s = session(tasks);
    ok(s, move(1));
    ok(s, { action: 'set_weather', weather: 'sunny' });
    ok(s, { action: 'open_map' });
    expect(ok(s, { action: 'enter_task', id: 'night-rain' })).toBe('enter_task: night-rain');
    expect(s.task?.id).toBe('night-rain');
    expect(s.position).toEqual(other.position);
    let st = s.state();
    expect(st.yaw).toBeCloseTo(90 - (0.7 * 180) / Math.PI, 3);
    expect([st.mode, st.time, st.weather, st.is_raining, st.stats_tracked_seconds]).toEqual(['first_person', '21:30:00', 'rainy', true, 0]);
    const info = s.taskInfo();
    expect(info).toMatchObject({ active: true, id: 'night-rain', type: null, type_name: 'vln', restricted_zones: 0 });
    const end = (info.end_points as { label: string; lat: number; lon: number }[])[0];
    expect(end.label).toBe('Goal');
    expect(Math.abs(end.lat - geoOf(spot.position).lat)).toBeLessThan(1e-8);
    ok(s, move(0.5));
    expect(s.steps.at(-1)).toMatchObject({ t: 0.5, action: 'move: forward for 0.5s' });

    // An UrbanGround task: its startPoint's lat/lon and compass yaw.
    const r = s.enterTask(ug.id);
    expect(r.ok).toBe(true);
    st = s.state();
    expect(st.yaw).toBeCloseTo(135, 6);
    expect(Math.abs(st.lat - g.lat)).toBeLessThan(1e-8);
    expect(Math.abs(st.lon - g.lon)).toBeLessThan(1e-8);
    expect(s.steps).toHaveLength(0);
    expect(s.taskInfo()).toMatchObject({ active: true, id: 'SN-20260101-000001', type: 0, type_name: 'ShortNav', restricted_zones: 1, end_points: [{ label: 'Cafe' }] });
    expect(ok(s, { action: 'exit_task' })).toBe('exit_task: SN-20260101-000001');
    expect(s.task).toBeNull();
    expect(ok(s, { action: 'exit_task' })).toBe('exit_task: no task was active');
    expect(headingToYaw(135)).toBeCloseTo(ug.start.yaw, 12);
  });

  it('gives identical state JSON for the same actions on two sessions', () => {
    const actions: UrbanGroundAction[] = [
      { action: 'enter_task', id: 'night-rain' },
      { action: 'move', dir: 'forward', seconds: 1.3, yaw_rate: 40 },
      { action: 'look', yaw: -35, pitch: 8 },
      { action: 'sprint', dir: 'left', seconds: 0.7 },
      { action: 'set_time_scale', factor: 7.5 },
      { action: 'move', dir: 'backward', seconds: 2, pitch_rate: -5 },
      { action: 'set_weather', weather: 'thunderstorm' },
      { action: 'move', dir: 'right', seconds: 0.35 },
      { action: 'open_map' },
      { action: 'map_select', x: 0.3, y: 0.8 },
      { action: 'close_map' },
      { action: 'move', dir: 'forward', seconds: 1.9 },
    ];
    const [a, b] = [session(tasks), session(tasks)];
    const initial = JSON.stringify(a.state());
    for (const act of actions) {
      const ra = a.act(act);
      const rb = b.act(act);
      expect(ra).toEqual(rb);
    }
    expect(JSON.stringify(a.state())).toBe(JSON.stringify(b.state()));
    expect(JSON.stringify(a.state())).not.toBe(initial);
    expect(a.steps).toEqual(b.steps);
    expect(a.steps.length).toBeGreaterThanOrEqual(actions.length - 1);
    expect(a.steps.at(-1)?.action).toBe('move: forward for 1.9s');
  });

  it('actSampled splits a 2 s move into floor(2/0.3) = 6 frames and ends where act() does', async () => {
    const [a, b] = [session(), session()];
    const seen: Vec2[] = [];
    const { result, frames } = await a.actSampled(move(2), 0.3, 60, async () => {
      seen.push(a.position);
      return a.state().time;
    });
    expect(result).toEqual({ ok: true, action: 'move: forward for 2s' });
    expect(frames).toHaveLength(6);
    expect(frames).toEqual(['13:00:00', '13:00:00', '13:00:00', '13:00:01', '13:00:01', '13:00:02']);
    const dist = seen.map((p) => Math.hypot(p[0] - spot.position[0], p[1] - spot.position[1]));
    for (const [k, d] of dist.entries()) expect(d).toBeCloseTo(WALK_SPEED * (k < 5 ? 0.3 * (k + 1) : 2), 6);
    expect(ok(b, move(2))).toBe('move: forward for 2s');
    expect(JSON.stringify(a.state())).toBe(JSON.stringify(b.state()));
    expect(Math.hypot(a.position[0] - b.position[0], a.position[1] - b.position[1])).toBeLessThan(1e-9);

    // max_frames caps the parts (the last takes the rest); other actions are captured once after they run.
    const c = session();
    let n = 0;
    const capped = await c.actSampled(move(2), 0.3, 4, async () => ++n);
    expect(capped.frames).toEqual([1, 2, 3, 4]);
    expect(Math.hypot(c.position[0] - b.position[0], c.position[1] - b.position[1])).toBeLessThan(1e-9);
    const look = await c.actSampled({ action: 'look', yaw: 5, pitch: 0 }, 0.3, 60, async () => c.state().yaw);
    expect(look.frames).toHaveLength(1);
    expect(look.frames[0]).toBeCloseTo((b.state().yaw + 5) % 360, 2);
    // A refused action captures nothing.
    const refused = await c.actSampled({ action: 'map_zoom', factor: 2 }, 0.3, 60, async () => 1);
    expect(refused).toEqual({ result: { ok: false, status: 400, error: 'map_zoom: the map is not open (open_map first)' }, frames: [] });
  });
});

describe('ControlSession pedestrians', () => {
  const look = (yawDeg: number): UrbanGroundAction => ({ action: 'look', yaw: yawDeg, pitch: 0 });
  /** The `look` yaw (degrees, + right) that turns the avatar of `s` to face `p`. */
  const lookAt = (s: ControlSession, p: Vec2): UrbanGroundAction => {
    const turn = yawToHeading(Math.atan2(p[1] - s.position[1], p[0] - s.position[0])) - s.state().yaw;
    return look((((turn % 360) + 540) % 360) - 180);
  };
  const nearest = (s: ControlSession) => s.pedestrians.map((w) => ({ w, d: Math.hypot(w.position[0] - s.position[0], w.position[1] - s.position[1]) })).sort((a, b) => a.d - b.d)[0];
  const withPeds: ControlTask = { id: 'crowded', type: null, typeName: 'short-navigation', start: spot, endPoints: [], closures: [], restrictedZones: 0, conditions: null, document: {}, pedestrians: { count: 12, seed: 7 } };
  const plain: ControlTask = { ...withPeds, id: 'plain', pedestrians: undefined };
  const tasks = new Map([[withPeds.id, withPeds], [plain.id, plain]]);

  it('reports the real pedestrian count: the default when enabled, the task\'s when it declares them, 0 when off', () => {
    const s = session(tasks);
    expect(s.pedestrians).toEqual([]);
    expect(ok(s, { action: 'enable_pedestrians' })).toBe(`enable_pedestrians: ${DEFAULT_PEDESTRIAN_COUNT} walkers`);
    expect(DEFAULT_PEDESTRIAN_COUNT).toBe(40);
    expect([s.state().pedestrians_active, s.state().pedestrian_count, s.pedestrians.length]).toEqual([true, 40, 40]);
    expect(ok(s, { action: 'enable_pedestrians' })).toBe('enable_pedestrians: 40 walkers (already on)');
    // Nobody spawns on the avatar; everybody spawns on walkable ground.
    for (const w of s.pedestrians) {
      expect(Math.hypot(w.position[0] - spot.position[0], w.position[1] - spot.position[1])).toBeGreaterThanOrEqual(SPAWN_CLEARANCE - 0.01);
      expect(isWalkable(world, w.position[0], w.position[1])).toBe(true);
    }
    expect(ok(s, { action: 'disable_pedestrians' })).toBe('disable_pedestrians');
    expect([s.state().pedestrians_active, s.state().pedestrian_count, s.pedestrians.length]).toEqual([false, 0, 0]);
    // A task that declares pedestrians starts among them; one that does not keeps them off …
    ok(s, { action: 'enter_task', id: 'crowded' });
    expect([s.state().pedestrians_active, s.state().pedestrian_count, s.pedestrians.length]).toEqual([true, 12, 12]);
    ok(s, { action: 'disable_pedestrians' });
    ok(s, { action: 'enter_task', id: 'plain' });
    expect([s.state().pedestrians_active, s.state().pedestrian_count]).toEqual([false, 0]);
    // … or, when they were on, starts a fresh default crowd; enabling in a task uses the task's.
    ok(s, { action: 'enable_pedestrians' });
    ok(s, { action: 'enter_task', id: 'plain' });
    expect(s.state().pedestrian_count).toBe(40);
    ok(s, { action: 'disable_pedestrians' });
    ok(s, { action: 'enter_task', id: 'crowded' });
    ok(s, { action: 'disable_pedestrians' });
    expect(ok(s, { action: 'enable_pedestrians' })).toBe('enable_pedestrians: 12 walkers');
  });

  it('moves the walkers with the clock: moves and sprints advance them, looks and map actions do not', () => {
    const s = session();
    ok(s, { action: 'enable_pedestrians' });
    const t0 = s.pedestrians;
    ok(s, look(30));
    ok(s, { action: 'open_map' });
    ok(s, { action: 'close_map' });
    expect(s.pedestrians).toEqual(t0);
    ok(s, move(1));
    const moved = s.pedestrians.map((w, i) => Math.hypot(w.position[0] - t0[i].position[0], w.position[1] - t0[i].position[1]));
    // Walkers walk at 1.1–1.65 m/s (a group waits for its members; pausers stand).
    expect(Math.max(...moved)).toBeGreaterThan(1);
    expect(Math.max(...moved)).toBeLessThan(2.01);
    expect(moved.filter((d) => d > 0.5).length).toBeGreaterThan(20);
  });

  it('gives identical states and walkers for the same actions on two sessions', async () => {
    const actions: UrbanGroundAction[] = [
      { action: 'enter_task', id: 'crowded' },
      { action: 'move', dir: 'forward', seconds: 1.3, yaw_rate: 40 },
      look(-35),
      { action: 'sprint', dir: 'left', seconds: 0.75 },
      { action: 'disable_pedestrians' },
      { action: 'enable_pedestrians' },
      { action: 'move', dir: 'backward', seconds: 2, pitch_rate: -5 },
      { action: 'exit_task' },
      { action: 'move', dir: 'right', seconds: 0.35 },
      { action: 'sprint', dir: 'forward', seconds: 1.95 },
    ];
    const [a, b] = [session(tasks), session(tasks)];
    for (const act of actions) expect(a.act(act)).toEqual(b.act(act));
    expect(JSON.stringify(a.state())).toBe(JSON.stringify(b.state()));
    expect(a.pedestrians).toEqual(b.pedestrians);
    expect(a.pedestrians).toHaveLength(12);
    // A sampled move executes the same parts as a plain one: the same avatar, walkers and clock.
    const frames = await a.actSampled(move(1.7), 0.4, 60, async () => a.pedestrians.length);
    ok(b, move(1.7));
    expect(frames.frames).toEqual([12, 12, 12, 12]);
    expect(a.position).toEqual(b.position);
    expect(a.pedestrians).toEqual(b.pedestrians);
    expect(a.state().time).toBe(b.state().time);
  });

  it('counts a pedestrian collision when the avatar runs into a walker', () => {
    const s = session();
    ok(s, { action: 'enable_pedestrians' });
    // Chase the nearest walker: face it, sprint half a second (3 m/s; walkers yield at most 2 m/s), again.
    let label = '';
    for (let k = 0; k < 20 && s.state().pedestrian_collisions === 0; k++) {
      ok(s, lookAt(s, nearest(s).w.position));
      label = ok(s, { action: 'sprint', dir: 'forward', seconds: 0.5 });
    }
    expect(s.state().pedestrian_collisions).toBeGreaterThanOrEqual(1);
    expect(label).toMatch(/^sprint: forward for 0\.5s \(stopped by a pedestrian after \d\.\d\d m\)$/);
    // It stands just clear of the avatar's body: the contact, then at most one crowd step apart (≤ 2 m/s × 0.1 s).
    expect(nearest(s).d).toBeGreaterThan(0.25 + 0.3 - 1e-9);
    expect(nearest(s).d).toBeLessThan(0.25 + 0.3 + (SPRINT_SPEED + 2) * 0.1);
    // Without pedestrians the same start and script (looking the same ways) touches nobody.
    const alone = session();
    for (const a of s.steps) expect(alone.act(a.action.startsWith('look') ? look(Number(/yaw (\S+)°/.exec(a.action)?.[1])) : { action: 'sprint', dir: 'forward', seconds: 0.5 }).ok).toBe(true);
    expect(alone.state().pedestrian_collisions).toBe(0);
  });

  it('keeps the walkers on walkable ground (sidewalks and crosswalks) while the avatar walks among them', () => {
    const s = session();
    ok(s, { action: 'enable_pedestrians' });
    let [on, all, farthest] = [0, 0, 0];
    /** Distance from (x, y) to walkable ground, probed on rings every 5 cm. */
    const offBy = (x: number, y: number) => {
      for (let r = 0.05; r < 5; r += 0.05) for (let a = 0; a < 32; a++) if (isWalkable(world, x + r * Math.cos((a * Math.PI) / 16), y + r * Math.sin((a * Math.PI) / 16))) return r;
      return Infinity;
    };
    for (let k = 0; k < 60; k++) {
      ok(s, k % 5 === 4 ? look(60) : { action: k % 2 ? 'sprint' : 'move', dir: 'forward', seconds: 2 });
      for (const w of s.pedestrians) {
        all++;
        if (isWalkable(world, w.position[0], w.position[1])) on++;
        else farthest = Math.max(farthest, offBy(w.position[0], w.position[1]));
      }
    }
    expect(all).toBe(60 * 40);
    // ORCA may press a walker off the kerb for a moment when others or the avatar crowd it.
    expect(on / all).toBeGreaterThan(0.99);
    expect(farthest).toBeLessThan(3);
  }, 30_000);
});
