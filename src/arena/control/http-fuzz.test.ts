/**
 * The HTTP control API under 2,000 seeded random requests (any method, path, query and body, sent
 * as they are with node:http): never a 500, the server keeps answering, and every task record it
 * writes is valid.
 */
import { request as httpRequest, Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../core/random';
import { DEFAULT_GEOREFERENCE } from '../../world/georef';
import { call, flatImage, startServer, TASKS } from '../../../test/control-server';
import { URBANGROUND_ACTIONS } from './actions';
import type { ControlImages, ControlTaskRecord, ScreenshotRequest } from './http';
import type { ControlTask } from './session';

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
    // Images that check what the server asks for and cost little (the map's size is covered in http.test.ts).
    const images: ControlImages = {
      async screenshot(_s, r) {
        seen.push(r);
        return flatImage(r);
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
