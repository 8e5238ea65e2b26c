/**
 * The HTTP control API end to end over a real socket, a real control session on a generated world
 * and real images (test/control-server.ts): every endpoint's shape, screenshots of the size and
 * format asked for, actions with their sampled images, each refusal with its status and the field it
 * names (400, 401, 404, 405, 409, 413), the driver lease (a second driver waits, a silent one loses
 * its task as aborted), and the task records (exited, replaced, aborted, server_closed). The random
 * requests are in http-fuzz.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { DEFAULT_GEOREFERENCE } from '../../world/georef';
import { call, dataUrlJpeg, decodeJpeg, H, mapImages, newSession, startServer, W } from '../../../test/control-server';
import { lumaStd } from '../../../test/image-stats';
import { URBANGROUND_ACTIONS } from './actions';
import { ControlServer, type ControlTaskRecord } from './http';
import type { ControlSession } from './session';

describe('ControlServer endpoints', () => {
  let server: ControlServer;
  let session: ControlSession;
  let records: ControlTaskRecord[];
  let base = '';
  beforeAll(async () => {
    ({ server, session, records } = await startServer());
    base = server.url;
  });
  afterAll(async () => {
    await server.close();
  });

  it('listens on a free port of 127.0.0.1', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(base.split(':')[2])).toBeGreaterThan(0);
  });

  it('GET /health, /, /state, /profile, /tileset_source', async () => {
    const h = await call(base, 'GET', '/health');
    expect(h.status).toBe(200);
    expect(h.json).toMatchObject({ ok: true, service: 'curbside arena:serve', status: 'ready', tasks: 2, world: { seed: 1, size: 400 }, georeference: DEFAULT_GEOREFERENCE, driver: null });
    expect(h.json.endpoints).toEqual(expect.arrayContaining(['GET /state', 'GET /screenshot', 'POST /action', 'POST /task/enter', 'POST /task/exit', 'POST /stats/reset']));
    expect((await call(base, 'GET', '/')).json).toEqual(h.json);
    const s = await call(base, 'GET', '/state');
    expect(s.status).toBe(200);
    expect(s.json).toEqual(JSON.parse(JSON.stringify(session.state())));
    expect(s.json).not.toHaveProperty('ok');
    expect(typeof s.json.lat).toBe('number');
    expect(s.json.time).toMatch(/^\d\d:\d\d:\d\d$/);
    const p = await call(base, 'GET', '/profile');
    expect(Object.keys(p.json).sort()).toEqual(['activity', 'age', 'balance', 'fatigue', 'gender', 'hourly_wage', 'hunger', 'income_today', 'name', 'occupation', 'ok', 'total_income']);
    expect(p.json.ok).toBe(true);
    const t = await call(base, 'GET', '/tileset_source');
    expect(Object.keys(t.json).sort()).toEqual(['config_file', 'config_status', 'internal_base_url', 'internal_reachable', 'ok', 'probe_completed', 'probe_latency_ms', 'source', 'tilesets']);
    expect(t.json.tilesets).toEqual({ f2: null, building: null, infrastructure: null });
    // CORS: every answer allows any origin; a preflight is answered.
    const res = await fetch(`${base}/state`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect((await fetch(`${base}/state`)).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('GET /task: inactive, then the entered task with its end points in WGS84', async () => {
    expect((await call(base, 'GET', '/task')).json).toEqual({ active: false });
    const e = await call(base, 'POST', '/task/enter', { id: 'walk-b' });
    expect(e.status).toBe(200);
    expect(e.json).toEqual({ ok: true, action: 'enter_task: walk-b', task: { id: 'walk-b', note: 'test task' } });
    const t = await call(base, 'GET', '/task');
    expect(t.json).toMatchObject({ active: true, id: 'walk-b', type: 0, type_name: 'ShortNav', restricted_zones: 1 });
    const ends = t.json.end_points as { label: string; lat: number; lon: number }[];
    expect(ends).toHaveLength(1);
    expect(ends[0].label).toBe('Goal');
    expect(Math.abs(ends[0].lat - DEFAULT_GEOREFERENCE.lat)).toBeLessThan(0.003);
    const x = await call(base, 'POST', '/task/exit');
    expect(x.json).toEqual({ ok: true, action: 'exit_task: walk-b' });
    expect(records.at(-1)).toMatchObject({ task: 'walk-b', type: 0, status: 'exited', driver: 'tester', steps: [] });
    expect((await call(base, 'GET', '/task')).json).toEqual({ active: false });
    expect((await call(base, 'POST', '/task/exit')).json).toEqual({ ok: true, action: 'exit_task: no task was active' });
  });

  it('GET /screenshot: a JPEG of the default size; format, size (clamped) and quality as asked', async () => {
    const d = await call(base, 'GET', '/screenshot');
    expect([d.status, d.type]).toEqual([200, 'image/jpeg']);
    const j = decodeJpeg(d.bytes);
    expect([j.width, j.height]).toEqual([W, H]);
    expect(lumaStd(j.data, W * H)).toBeGreaterThan(5);
    const p = await call(base, 'GET', '/screenshot?format=png&width=100&height=50');
    expect([p.status, p.type]).toEqual([200, 'image/png']);
    const png = PNG.sync.read(p.bytes);
    expect([png.width, png.height]).toEqual([100, 50]);
    const small = PNG.sync.read((await call(base, 'GET', '/screenshot?format=PNG&width=5')).bytes);
    expect([small.width, small.height]).toEqual([16, H]);
    const big = await call(base, 'GET', '/screenshot?width=20&height=99999&quality=10');
    expect(decodeJpeg(big.bytes).height).toBe(4096);
    // Past the pixel limit (a 4096² frame would be 64 MB of pixels to render and read back): refused, naming both.
    const huge = await call(base, 'GET', '/screenshot?width=4096&height=4096');
    expect(huge.status).toBe(400);
    expect(huge.json.error).toMatch(/^width, height: 4096×4096 is over this server's 9,437,184-pixel limit/);
    // Lower quality, fewer bytes for the same view.
    const q90 = (await call(base, 'GET', '/screenshot?width=200&height=150&quality=90')).bytes.length;
    const q10 = (await call(base, 'GET', '/screenshot?width=200&height=150&quality=10')).bytes.length;
    expect(q10).toBeLessThan(q90);
    for (const [query, field] of [['quality=0', 'quality'], ['quality=101', 'quality'], ['format=gif', 'format'], ['width=abc', 'width'], ['include_ui=yes', 'include_ui']]) {
      const r = await call(base, 'GET', `/screenshot?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.ok).toBe(false);
      expect(r.json.error, query).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('POST /action: a move with its label and state; ?image=1; ?interval=0.3&max_frames=60', async () => {
    const before = await call(base, 'GET', '/state');
    const m = await call(base, 'POST', '/action', { action: 'move', dir: 'forward', seconds: 0.8 });
    expect(m.status).toBe(200);
    expect(Object.keys(m.json).sort()).toEqual(['action', 'ok', 'state']);
    expect(m.json.ok).toBe(true);
    expect(m.json.action).toBe('move: forward for 0.8s');
    const st = m.json.state as Record<string, number>;
    expect(st).toEqual(JSON.parse(JSON.stringify(session.state())));
    expect(st.stats_tracked_seconds).toBeCloseTo((before.json.stats_tracked_seconds as number) + 0.8, 6);
    expect(st.lat !== before.json.lat || st.lon !== before.json.lon).toBe(true);

    const i = await call(base, 'POST', '/action?image=1', { action: 'look', yaw: 15 });
    expect(i.json.action).toBe('look: yaw 15°, pitch 0°');
    const img = dataUrlJpeg(i.json.image);
    expect([img.width, img.height]).toEqual([W, H]);

    const v = await call(base, 'POST', '/action?interval=0.3&max_frames=60', { action: 'move', dir: 'backward', seconds: 2 });
    expect(v.status).toBe(200);
    expect(v.json.action).toBe('move: backward for 2s');
    const frames = v.json.images as string[];
    expect(frames).toHaveLength(6);
    for (const f of frames) expect([dataUrlJpeg(f).width, dataUrlJpeg(f).height]).toEqual([W, H]);
    expect(v.json).not.toHaveProperty('image');
    const v2 = await call(base, 'POST', '/action?interval=0.5&max_frames=2&image=1', { action: 'move', dir: 'forward', seconds: 2 });
    expect((v2.json.images as string[]).length).toBe(2);
    expect(v2.json.image).toBe((v2.json.images as string[])[1]);
    // A map action is sampled once, after it runs; the map image is what the screenshot shows then.
    const o = await call(base, 'POST', '/action?interval=0.3', { action: 'open_map' });
    expect([o.json.action, (o.json.state as { mode: string }).mode, (o.json.images as string[]).length]).toEqual(['open_map', 'map', 1]);
    expect((await call(base, 'POST', '/action', { action: 'close_map' })).json.action).toBe('close_map');
    const r = await call(base, 'POST', '/stats/reset');
    expect([r.status, r.json]).toEqual([200, { ok: true }]);
    expect(session.state().stats_tracked_seconds).toBe(0);
  });

  it('refuses bad actions and bodies with 400 naming the field, big bodies with 413', async () => {
    const unknown = await call(base, 'POST', '/action', { action: 'fly' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.ok).toBe(false);
    expect(unknown.json.error).toMatch(/^action: unknown action "fly" \(expected one of move, sprint, look, /);
    for (const a of URBANGROUND_ACTIONS.filter((x) => x !== 'terminate')) expect(unknown.json.error).toContain(a);
    // terminate is the agent runner's, never sent to the API.
    const term = await call(base, 'POST', '/action', { action: 'terminate', answer: 'x' });
    expect([term.status, term.json.error]).toEqual([400, expect.stringMatching(/^action: terminate /)]);
    expect((await call(base, 'POST', '/action', {})).json.error).toMatch(/^action: missing/);
    const secs = await call(base, 'POST', '/action', { action: 'move', dir: 'forward', seconds: 3 });
    expect([secs.status, secs.json.error]).toEqual([400, expect.stringMatching(/^seconds: .*2/)]);
    expect((await call(base, 'POST', '/action', { action: 'move', dir: 'up', seconds: 1 })).json.error).toMatch(/^dir: /);
    expect((await call(base, 'POST', '/action', { action: 'set_weather', weather: 'hail' })).json.error).toMatch(/^weather: /);
    expect((await call(base, 'POST', '/action', { action: 'map_pan', east: 1 })).json).toEqual({ ok: false, error: 'map_pan: the map is not open (open_map first)' });
    const bad = await call(base, 'POST', '/action', '{"action": "move",');
    expect([bad.status, bad.json.error]).toEqual([400, expect.stringMatching(/^body: not JSON/)]);
    expect((await call(base, 'POST', '/action', '[1,2]')).json.error).toMatch(/^body: expected a JSON object/);
    expect((await call(base, 'POST', '/action?interval=0', { action: 'jump' })).json.error).toMatch(/^interval: /);
    expect((await call(base, 'POST', '/action?image=2', { action: 'jump' })).json.error).toMatch(/^image: /);
    expect((await call(base, 'POST', '/task/enter', { id: 7 })).json.error).toMatch(/^id: /);
    for (const body of ['null', '[]', '"walk-a"', '{}', '']) {
      const r = await call(base, 'POST', '/task/enter', body);
      expect([r.status, r.json.error], body).toEqual([400, expect.stringMatching(/^id: expected the task id/)]);
    }
    const missing = await call(base, 'POST', '/task/enter', { id: 'nope' });
    expect([missing.status, missing.json.error]).toEqual([404, expect.stringMatching(/^id: no task "nope"/)]);
    const huge = await call(base, 'POST', '/action', JSON.stringify({ action: 'jump', pad: 'x'.repeat(100 * 1024) }));
    expect(huge.status).toBe(413);
    expect(huge.json.error).toMatch(/^body: .*65536-byte limit/);
    // The server goes on.
    expect((await call(base, 'GET', '/health')).status).toBe(200);
  });

  it('answers an unknown path 404 and a wrong method 405', async () => {
    const n = await call(base, 'GET', '/nope');
    expect([n.status, n.json.ok, n.json.error]).toEqual([404, false, expect.stringMatching(/^GET \/nope: no such endpoint/)]);
    const w = await call(base, 'GET', '/action');
    expect([w.status, w.json.error]).toEqual([405, expect.stringMatching(/^GET \/action: wrong method/)]);
    expect((await call(base, 'POST', '/state', {})).status).toBe(405);
    expect((await call(base, 'DELETE', '/task')).status).toBe(405);
    // A trailing slash is the same endpoint.
    expect((await call(base, 'GET', '/state/')).status).toBe(200);
  });
});

describe('ControlServer access', () => {
  it('needs the bearer token when given one', async () => {
    const token = 'correct-horse-battery';
    await expect(ControlServer.start({ session: newSession(), images: mapImages, port: 0, token: 'short' })).rejects.toThrow(/at least 8 characters/);
    const { server } = await startServer({ token });
    try {
      const none = await call(server.url, 'GET', '/state');
      expect([none.status, none.json.error]).toEqual([401, expect.stringMatching(/^Authorization: /)]);
      expect((await call(server.url, 'GET', '/state', undefined, { Authorization: 'Bearer wrong-horse-battery' })).status).toBe(401);
      expect((await call(server.url, 'GET', '/state', undefined, { Authorization: `Basic ${token}` })).status).toBe(401);
      expect((await call(server.url, 'POST', '/action', { action: 'jump' }, { Authorization: `Bearer ${token}x` })).status).toBe(401);
      expect((await call(server.url, 'GET', '/state', undefined, { Authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await call(server.url, 'POST', '/action', { action: 'jump' }, { Authorization: `Bearer ${token}` })).json).toMatchObject({ ok: true, action: 'jump' });
    } finally {
      await server.close();
    }
  });

  it('lets one driver at a time hold the avatar (409 naming the holder) until it exits', async () => {
    const { server, records } = await startServer();
    try {
      const a = { 'X-Curbside-Driver': 'alice' };
      const b = { 'X-Curbside-Driver': 'bob' };
      expect((await call(server.url, 'POST', '/task/enter', { id: 'walk-a' }, a)).status).toBe(200);
      expect((await call(server.url, 'POST', '/action', { action: 'move', dir: 'forward', seconds: 0.5 }, a)).status).toBe(200);
      const refused = await call(server.url, 'POST', '/action', { action: 'jump' }, b);
      expect(refused.status).toBe(409);
      expect(refused.json.error).toMatch(/^the avatar is held by alice \(last request \d+ s ago; .* silent for \d+ s\)$/);
      expect((await call(server.url, 'POST', '/task/exit', undefined, b)).status).toBe(409);
      // Reading is open to all.
      expect((await call(server.url, 'GET', '/state', undefined, b)).status).toBe(200);
      expect((await call(server.url, 'GET', '/health')).json.driver).toBe('alice');
      expect(server.holder).toBe('alice');
      expect((await call(server.url, 'POST', '/task/exit', undefined, a)).json).toEqual({ ok: true, action: 'exit_task: walk-a' });
      expect(records).toEqual([expect.objectContaining({ task: 'walk-a', status: 'exited', driver: 'alice', steps: [expect.objectContaining({ action: 'move: forward for 0.5s', t: 0.5 })] })]);
      expect(server.holder).toBeNull();
      // A refused request does not take the avatar; the first that succeeds does.
      expect((await call(server.url, 'POST', '/action', { action: 'fly' }, { 'X-Curbside-Driver': 'carol' })).status).toBe(400);
      expect(server.holder).toBeNull();
      expect((await call(server.url, 'POST', '/action', { action: 'jump' }, b)).status).toBe(200);
      expect(server.holder).toBe('bob');
      expect((await call(server.url, 'POST', '/action', { action: 'jump' }, a)).status).toBe(409);
    } finally {
      await server.close();
    }
  });

  it('aborts the task of a driver silent for driverTimeoutMs and frees the avatar', async () => {
    // 1 s: long enough that a loaded machine serves the next requests inside the lease.
    const { server, records } = await startServer({ driverTimeoutMs: 1000 });
    try {
      const a = { 'X-Curbside-Driver': 'alice' };
      expect((await call(server.url, 'POST', '/task/enter', { id: 'walk-b' }, a)).status).toBe(200);
      await call(server.url, 'POST', '/action', { action: 'move', dir: 'forward', seconds: 1 }, a);
      const bob = await call(server.url, 'POST', '/action', { action: 'jump' }, { 'X-Curbside-Driver': 'bob' });
      expect(bob.json.error).toMatch(/^the avatar is held by alice .* silent for 1 s\)$/);
      // The driver's reads keep its hold: 1.5 s of polling every 0.3 s.
      for (let k = 0; k < 5; k++) {
        await new Promise((r) => setTimeout(r, 300));
        expect((await call(server.url, 'GET', '/state', undefined, a)).status).toBe(200);
      }
      const last = Date.now();
      expect(records).toEqual([]);
      expect(server.holder).toBe('alice');
      while (records.length === 0 && Date.now() - last < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(Date.now() - last).toBeGreaterThanOrEqual(950);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ task: 'walk-b', type: 0, status: 'aborted', driver: 'alice' });
      expect(records[0].steps.map((s) => s.action)).toEqual(['move: forward for 1s']);
      expect(records[0].state.stats_tracked_seconds).toBe(1);
      expect(server.holder).toBeNull();
      expect((await call(server.url, 'GET', '/task')).json).toEqual({ active: false });
      expect((await call(server.url, 'POST', '/task/enter', { id: 'walk-a' }, { 'X-Curbside-Driver': 'bob' })).status).toBe(200);
      expect(server.holder).toBe('bob');
    } finally {
      await server.close();
    }
  });

  it('records a task replaced by another, and the active one when the server closes', async () => {
    const { server, records } = await startServer();
    await call(server.url, 'POST', '/task/enter', { id: 'walk-a' });
    await call(server.url, 'POST', '/action', { action: 'look', yaw: 90 });
    expect((await call(server.url, 'POST', '/task/enter', { id: 'walk-b' })).status).toBe(200);
    expect(records).toEqual([expect.objectContaining({ task: 'walk-a', type: null, status: 'replaced', steps: [expect.objectContaining({ action: 'look: yaw 90°, pitch 0°', t: 0 })] })]);
    // enter_task through /action replaces too.
    expect((await call(server.url, 'POST', '/action', { action: 'enter_task', id: 'walk-a' })).json.action).toBe('enter_task: walk-a');
    expect(records.map((r) => [r.task, r.status])).toEqual([['walk-a', 'replaced'], ['walk-b', 'replaced']]);
    await server.close();
    expect(records.map((r) => [r.task, r.status])).toEqual([['walk-a', 'replaced'], ['walk-b', 'replaced'], ['walk-a', 'server_closed']]);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});
