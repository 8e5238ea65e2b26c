/**
 * The HTTP control API end to end over a real socket, a real control session on a generated world
 * and real images (the world map around the avatar, rendered on the CPU and encoded as JPEG or PNG):
 * every endpoint's shape, screenshots of the size and format asked for, actions with their sampled
 * images, each refusal with its status and the field it names (400, 401, 404, 405, 409, 413), the
 * driver lease (a second driver waits, a silent one loses its task as aborted), the task records
 * (exited, replaced, aborted, server_closed), and 2,000 seeded random requests that never get a 500
 * and leave the server answering.
 */
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { createRng, type Rng } from '../../core/random';
import { generateWorld } from '../../world/world';
import { worldInventory } from '../../world/inventory';
import { DEFAULT_GEOREFERENCE } from '../../world/georef';
import { renderWorldMap } from '../../world/map-render';
import { URBANGROUND_ACTIONS } from './actions';
import { type ControlImages, ControlServer, type ControlServerOptions, type ControlTaskRecord, type ScreenshotRequest } from './http';
import { ControlSession, type ControlTask } from './session';

const world = generateWorld({ seed: 1, size: 400 });
const inventory = worldInventory(world);
const nodes = world.nav.nodes;

/** Two tasks at the first navigation nodes, each facing its next node; the second with a goal. */
const TASKS: ControlTask[] = [0, 40].map((n, k) => ({
  id: k === 0 ? 'walk-a' : 'walk-b',
  type: k === 0 ? null : 0,
  typeName: k === 0 ? 'vln' : 'ShortNav',
  start: { position: [nodes[n][0], nodes[n][1]], yaw: Math.atan2(nodes[n + 1][1] - nodes[n][1], nodes[n + 1][0] - nodes[n][0]) },
  endPoints: k === 0 ? [] : [{ label: 'Goal', position: [nodes[n + 10][0], nodes[n + 10][1]] }],
  closures: k === 0 ? [] : [{ label: 'closed sidewalk', line: [[nodes[n + 5][0], nodes[n + 5][1]], [nodes[n + 5][0] + 3, nodes[n + 5][1]]] }],
  restrictedZones: k,
  conditions: null,
  document: { id: k === 0 ? 'walk-a' : 'walk-b', note: 'test task' },
}));

const newSession = () => new ControlSession(world, inventory, DEFAULT_GEOREFERENCE, new Map(TASKS.map((t) => [t.id, t])));

/** Encodes RGBA pixels as the request asks. */
function encode(width: number, height: number, data: Uint8ClampedArray, r: ScreenshotRequest): Uint8Array {
  if (r.format === 'png') {
    const png = new PNG({ width, height });
    png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return new Uint8Array(PNG.sync.write(png));
  }
  return new Uint8Array(jpeg.encode({ width, height, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) }, r.quality).data);
}

/** The map around the avatar (the map view's focus and span while it is open), as asked. */
const mapImages: ControlImages = {
  async screenshot(session, r) {
    const { view, route } = session.mapView;
    const [cx, cy] = view.open ? view.centre : session.position;
    const half = view.open ? view.halfSpan : 40;
    const img = renderWorldMap(session.world, { widthPx: r.width, heightPx: r.height, bounds: [cx - half, cy - half, cx + half, cy + half], agents: [{ position: session.position, yaw: session.cameraPose(1.6).yaw, radius: 3 }], ...(route ? { route } : {}) });
    return encode(img.width, img.height, img.data, r);
  },
};

const W = 64;
const H = 48;

async function startServer(extra: Partial<ControlServerOptions> = {}): Promise<{ server: ControlServer; session: ControlSession; records: ControlTaskRecord[] }> {
  const session = newSession();
  const records: ControlTaskRecord[] = [];
  const server = await ControlServer.start({ session, images: mapImages, port: 0, width: W, height: H, onTaskEnd: (r) => records.push(JSON.parse(JSON.stringify(r))), ...extra });
  return { server, session, records };
}

/** fetch, with the JSON body read (or the bytes for an image). */
async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string; json: Record<string, unknown>; bytes: Buffer }> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'X-Curbside-Driver': 'tester', ...headers }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, json: type === 'application/json' ? JSON.parse(bytes.toString('utf8')) : {}, bytes };
}

const decodeJpeg = (b: Buffer) => jpeg.decode(b, { useTArray: true });
const dataUrlJpeg = (url: unknown) => {
  expect(url).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/);
  return decodeJpeg(Buffer.from((url as string).slice('data:image/jpeg;base64,'.length), 'base64'));
};
/** Standard deviation of luma: a real map is not one flat colour. */
function lumaStd(d: Uint8Array, n: number): number {
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const y = 0.299 * d[i * 4] + 0.587 * d[i * 4 + 1] + 0.114 * d[i * 4 + 2];
    s += y;
    s2 += y * y;
  }
  return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
}

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

/** A request made with node:http, so that any path, method and body can be sent as they are. */
function raw(base: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | null): Promise<{ status: number; type: string; text: string } | { error: string }> {
  return new Promise((resolveReq) => {
    const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers: { ...headers, ...(body !== null ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolveReq({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => resolveReq({ error: e.message }));
    });
    req.on('error', (e) => resolveReq({ error: e.message }));
    if (body !== null) req.write(body);
    req.end();
  });
}

/** A random JSON-ish value: numbers at the edges, strings that look like numbers, nesting. */
function junkValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, 11)) {
    case 0: return rng.pick([0, -0, 1, -1, 0.05, 2, 2.0000001, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 359.999, -720, 721, 23, 59, 1000, 1001]);
    case 1: return rng.range(-1e4, 1e4);
    case 2: return rng.pick(['NaN', 'Infinity', '-Infinity', '1e999', '0x10', '', ' ', '1', 'forward', 'rainy', 'walk-a', '💥', '\u0000', 'a'.repeat(300)]);
    case 3: return rng.pick([true, false, null]);
    case 4: return depth > 3 ? [] : Array.from({ length: rng.int(0, 4) }, () => junkValue(rng, depth + 1));
    case 5: return depth > 3 ? {} : Object.fromEntries(Array.from({ length: rng.int(0, 4) }, () => [rng.pick(['action', 'dir', 'seconds', 'yaw', 'x', '__proto__', 'constructor', 'id']), junkValue(rng, depth + 1)]));
    case 6: return rng.pick(URBANGROUND_ACTIONS);
    default: return rng.int(-3, 3) * rng.pick([0.5, 1, 10, 100]);
  }
}

const FIELDS: Record<string, string[]> = {
  move: ['dir', 'seconds', 'yaw_rate', 'pitch_rate', 'jump', 'jump_at'], sprint: ['dir', 'seconds', 'yaw_rate', 'pitch_rate', 'jump', 'jump_at'],
  look: ['yaw', 'pitch'], map_orbit: ['yaw', 'pitch'], map_pan: ['east', 'north'], map_zoom: ['factor'], map_select: ['x', 'y'],
  teleport: ['lat', 'lon', 'height', 'alt'], set_weather: ['weather'], set_time: ['hour', 'minute'], set_time_scale: ['factor'], enter_task: ['id'], terminate: ['answer'],
};

/** A sensible action, sometimes with one field of the wrong type or out of range. */
function fuzzAction(rng: Rng, base: ControlTask[]): Record<string, unknown> {
  const action = rng.pick(URBANGROUND_ACTIONS);
  const good: Record<string, unknown> = { action };
  const r = (lo: number, hi: number) => lo + (hi - lo) * rng.next();
  switch (action) {
    case 'move': case 'sprint':
      Object.assign(good, { dir: rng.pick(['forward', 'backward', 'left', 'right']), seconds: r(0.05, 2) });
      if (rng.next() < 0.3) Object.assign(good, { yaw_rate: r(-180, 180), pitch_rate: r(-30, 30) });
      break;
    case 'look': case 'map_orbit': Object.assign(good, { yaw: r(-180, 180), pitch: r(-90, 90) }); break;
    case 'map_pan': Object.assign(good, { east: r(-300, 300), north: r(-300, 300) }); break;
    case 'map_zoom': Object.assign(good, { factor: r(0.25, 4) }); break;
    case 'map_select': Object.assign(good, { x: rng.next(), y: rng.next() }); break;
    case 'teleport': Object.assign(good, { lat: DEFAULT_GEOREFERENCE.lat + r(-0.003, 0.003), lon: DEFAULT_GEOREFERENCE.lon + r(-0.004, 0.004), height: 408 }); break;
    case 'set_weather': good.weather = rng.pick(['sunny', 'rainy', 'thunderstorm', 'cloudy']); break;
    case 'set_time': Object.assign(good, { hour: rng.int(0, 23), minute: rng.int(0, 59) }); break;
    case 'set_time_scale': good.factor = r(0, 100); break;
    case 'enter_task': good.id = rng.pick([...base.map((t) => t.id), 'nope']); break;
  }
  if (rng.next() < 0.5) {
    const fields = FIELDS[action] ?? ['extra'];
    good[rng.pick(fields)] = junkValue(rng);
  }
  return good;
}

const PATHS = ['/', '/health', '/state', '/profile', '/screenshot', '/task', '/tileset_source', '/action', '/task/enter', '/task/exit', '/stats/reset'];
const JUNK_PATHS = ['/nope', '//', '//[', '/%', '/%zz', '/..', '/action/../state', '/state?', '/a'.repeat(200), '/task/enter/x', '/?x=%E0%A4%A', '/screenshot#frag', '/*', '/\u00e9'.replace('\u00e9', '%C3%A9')];
const POST_PATHS = ['/action', '/task/enter', '/task/exit', '/stats/reset'];
const ODD_BODIES = ['{', '{"action":', 'null', '[]', '"move"', '', ' ', 'NaN', '0', 'true', '{"action":"move","seconds":NaN}', '\u0000\u0001', '{"id":null}', '{"id":{"toString":1}}', '{"action":null}', '{"action":{"action":"move"}}', '{"__proto__":{"action":"jump"}}'];
const QUERY_KEYS = ['width', 'height', 'format', 'quality', 'include_ui', 'image', 'interval', 'max_frames', 'x'];
const QUERY_VALUES = ['', '0', '1', '-1', '5', '64', '99999', '1e9', 'NaN', 'png', 'jpeg', 'jpg', 'gif', 'true', '0.3', '0.05', '240', '241', '1.5', '%', 'abc'];

describe('ControlServer under 2,000 random requests', () => {
  it('never answers 500, keeps answering, and records valid task ends', { timeout: 90_000 }, async () => {
    const rng = createRng(20_260_101);
    const seen: ScreenshotRequest[] = [];
    // Images that check what the server asks for and cost little (the map's size is covered above).
    const images: ControlImages = {
      async screenshot(_s, r) {
        seen.push(r);
        return encode(16, 16, new Uint8ClampedArray(16 * 16 * 4).fill(200), { ...r, width: 16, height: 16 });
      },
    };
    const { server, records } = await startServer({ images, driverTimeoutMs: 60_000 });
    const base = new URL(server.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    try {
      // First every odd body to every POST endpoint, then random requests.
      const plan = POST_PATHS.flatMap((p) => ODD_BODIES.map((b) => ({ method: 'POST', path: p, body: b as string | null })));
      for (let k = 0; k < 2000; k++) {
        let path = rng.next() < 0.85 ? rng.pick(PATHS) : rng.pick(JUNK_PATHS);
        let method = rng.next() < 0.8 ? (POST_PATHS.includes(path) ? 'POST' : 'GET') : rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
        if (path === '/action' && rng.next() < 0.3) path += rng.pick(['?image=1', '?interval=0.3&max_frames=60', '?interval=0.5&max_frames=3&image=1']);
        if (rng.next() < 0.3) path += `${path.includes('?') ? '&' : '?'}${Array.from({ length: rng.int(1, 3) }, () => `${rng.pick(QUERY_KEYS)}=${rng.pick(QUERY_VALUES)}`).join('&')}`;
        let body: string | null = null;
        if (method !== 'GET' && method !== 'HEAD' && rng.next() < 0.9) {
          switch (rng.int(0, 7)) {
            case 0: body = JSON.stringify(junkValue(rng)); break;
            case 1: body = rng.pick(ODD_BODIES); break;
            case 2: { const d = rng.int(100, 30_000); body = `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`; break; }
            case 3: { const d = rng.int(100, 30_000); body = `${'['.repeat(d)}${']'.repeat(d)}`; break; }
            case 4: body = JSON.stringify({ id: rng.pick(['walk-a', 'walk-b', 'x', '']) }); break;
            default: body = JSON.stringify(fuzzAction(rng, TASKS));
          }
        }
        const headers: Record<string, string> = { 'X-Curbside-Driver': rng.next() < 0.95 ? 'fuzzer' : `other-${rng.int(0, 3)}`, 'Content-Type': rng.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) };
        const planned = plan[k];
        if (planned) ({ method, path, body } = planned);
        const r = await raw(base, agent, method, path, headers, body);
        if ('error' in r) {
          failures.push(`${method} ${path}: no answer (${r.error})`);
          continue;
        }
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status >= 500) failures.push(`${method} ${path} ${body?.slice(0, 120) ?? ''}: ${r.status} ${r.text.slice(0, 200)}`);
        else if (r.status === 204) expect(r.text).toBe('');
        else if (r.type.startsWith('image/')) expect([r.status, path.startsWith('/screenshot')]).toEqual([200, true]);
        else {
          // Every other answer is JSON; errors are {ok: false, error} naming something.
          expect(r.type, `${method} ${path}`).toBe('application/json');
          if (method !== 'HEAD') {
            const j = JSON.parse(r.text);
            if (r.status >= 400) expect(j, `${method} ${path}`).toEqual({ ok: false, error: expect.stringMatching(/^\S.*/) });
          }
        }
      }
      expect(failures).toEqual([]);
      expect(statuses.get(500) ?? 0).toBe(0);
      // The mix reached every kind of answer.
      for (const s of [200, 204, 400, 404, 405, 409, 413]) expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
      expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
      const h = await call(server.url, 'GET', '/health');
      expect([h.status, h.json.ok]).toEqual([200, true]);
      expect((await call(server.url, 'GET', '/state')).status).toBe(200);
      for (const r of seen) {
        expect(Number.isInteger(r.width) && r.width >= 16 && r.width <= 4096).toBe(true);
        expect(Number.isInteger(r.height) && r.height >= 16 && r.height <= 4096).toBe(true);
        expect(['jpeg', 'png']).toContain(r.format);
        expect(Number.isInteger(r.quality) && r.quality >= 1 && r.quality <= 100).toBe(true);
      }
    } finally {
      agent.destroy();
      await server.close();
    }
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      const back = JSON.parse(JSON.stringify(r)) as ControlTaskRecord;
      expect(['exited', 'replaced', 'aborted', 'server_closed']).toContain(back.status);
      expect(['walk-a', 'walk-b']).toContain(back.task);
      expect(typeof back.state.lat).toBe('number');
      expect(Array.isArray(back.steps)).toBe(true);
    }
  });
});
