/**
 * UrbanGround's HTTP control API (`docs/CONTROLS_AND_API.md` of `UrbanGround/UrbanGround`) served
 * over a {@link ControlSession}, so that agents and the evaluation harness written for UrbanGround
 * drive Curbside unchanged (`npm run arena:serve`). Node only.
 *
 * Endpoints: `GET /` and `/health`, `/state`, `/profile`, `/screenshot` (`width`, `height` clamped to
 * 16–4096, `format` jpeg|png, `quality` 1–100, `include_ui`), `/task`, `/tileset_source`; `POST
 * /action` (`?image=1` adds a JPEG data URL `image`; `?interval=S&max_frames=N` adds `images` sampled
 * while a move runs), `/task/enter` `{id}`, `/task/exit`, `/stats/reset`; `OPTIONS` for CORS.
 *
 * A server people can leave running: it binds to 127.0.0.1 unless told otherwise; with a token,
 * every request needs `Authorization: Bearer TOKEN` (401, constant-time check); one driver at a time:
 * the first client whose POST succeeds holds the avatar (identified by an `X-Curbside-Driver` header,
 * else its address and user agent) until it exits its task or sends nothing for `driverTimeoutMs`
 * (its reads count), and a
 * second gets 409 naming the holder; a driver that vanishes mid-task leaves the task recorded as
 * aborted. A malformed body, an unknown action or a value out of range gets 400 naming the field
 * and what is allowed; a body over `maxBodyBytes` 413; an unknown path 404; requests are served one
 * at a time in arrival order; no request can throw the server down (an unexpected error is a 500
 * with its message, and the next request is served).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseUrbanGroundAction } from './actions';
import type { ControlSession, ControlState, ControlStep } from './session';

/** What a screenshot is asked for: size, pixels; encoding and JPEG quality (1–100); whether screen-space UI is wanted. */
export interface ScreenshotRequest {
  width: number;
  height: number;
  format: 'jpeg' | 'png';
  quality: number;
  includeUi: boolean;
}

/** Where screenshots come from: the avatar's first-person view, or the map while the map is open. */
export interface ControlImages {
  screenshot(session: ControlSession, request: ScreenshotRequest): Promise<Uint8Array>;
}

/** How a task attempt ended. */
export type ControlTaskEnd = 'exited' | 'replaced' | 'aborted' | 'server_closed';

/** The record of one task attempt, handed to {@link ControlServerOptions.onTaskEnd}. */
export interface ControlTaskRecord {
  task: string;
  type: number | null;
  status: ControlTaskEnd;
  /** Who drove it (the `X-Curbside-Driver` header, else address and user agent). */
  driver: string;
  steps: readonly ControlStep[];
  /** `/state` when it ended. */
  state: ControlState;
}

/** Options of {@link ControlServer.start}. */
export interface ControlServerOptions {
  session: ControlSession;
  images: ControlImages;
  host?: string;
  /** Port (0: any free one); default 8081, UrbanGround's. */
  port?: number;
  /** Bearer token every request must carry, or none. */
  token?: string;
  /** Screenshot size when a request names none (UrbanGround's "game window"), pixels. */
  width?: number;
  height?: number;
  /** Largest request body, bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Largest screenshot, pixels (default 4096 × 2304, a little over 4K UHD): a larger one is refused with 400 rather than risking the renderer's memory. */
  maxPixels?: number;
  /** A driver silent this long (no request at all) gives up the avatar (its task recorded as aborted), ms (default 900 000: longer than UrbanGround's harness waits between requests). */
  driverTimeoutMs?: number;
  /** Called with each task attempt when it ends. */
  onTaskEnd?: (record: ControlTaskRecord) => void;
}

/** A request refused with a status and a message naming what is wrong. */
class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const ENDPOINTS = ['GET /', 'GET /health', 'GET /state', 'GET /profile', 'GET /screenshot', 'GET /task', 'GET /tileset_source', 'POST /action', 'POST /task/enter', 'POST /task/exit', 'POST /stats/reset'];

/** The avatar's profile (`/profile`): Curbside has no resident simulation, so a fixed pedestrian. */
const PROFILE = { ok: true, name: 'Curbside pedestrian', gender: 'unspecified', age: 30, occupation: 'pedestrian', hunger: 0, fatigue: 0, activity: 'walking', balance: 0, income_today: 0, total_income: 0, hourly_wage: 0 };

function intParam(q: URLSearchParams, name: string, lo: number, hi: number, fallback: number, clamp: boolean): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v)) throw new HttpError(400, `${name}: expected a number${clamp ? ` (clamped to ${lo}–${hi})` : ` in ${lo}–${hi}`}, got ${JSON.stringify(raw.slice(0, 40))}`);
  if (clamp) return Math.round(Math.min(hi, Math.max(lo, v)));
  if (v < lo || v > hi) throw new HttpError(400, `${name}: expected ${lo}–${hi}, got ${raw.slice(0, 40)}`);
  return Math.round(v);
}

function numberParam(q: URLSearchParams, name: string, lo: number, hi: number): number | null {
  const raw = q.get(name);
  if (raw === null || raw === '') return null;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < lo || v > hi) throw new HttpError(400, `${name}: expected a number in ${lo}–${hi}, got ${JSON.stringify(raw.slice(0, 40))}`);
  return v;
}

function flagParam(q: URLSearchParams, name: string): boolean {
  const raw = q.get(name);
  if (raw === null || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new HttpError(400, `${name}: expected 1 or 0, got ${JSON.stringify(raw.slice(0, 40))}`);
}

/** The HTTP server (see the module comment). */
export class ControlServer {
  private queue: Promise<unknown> = Promise.resolve();
  private driver: { id: string; since: number; last: number } | null = null;
  private driverTimer: NodeJS.Timeout | null = null;
  private readonly expected: Buffer | null;
  /** Requests served, and refused with each status (for logs and tests). */
  readonly counts = new Map<number, number>();

  private constructor(private readonly server: Server, private readonly o: ControlServerOptions & { width: number; height: number; maxBodyBytes: number; maxPixels: number; driverTimeoutMs: number }, readonly url: string) {
    this.expected = o.token ? Buffer.from(o.token) : null;
  }

  /**
   * Starts listening.
   *
   * @throws Error when the port cannot be bound (its message names the address), or a token shorter than 8 characters.
   */
  static async start(options: ControlServerOptions): Promise<ControlServer> {
    if (options.token !== undefined && options.token.length < 8) throw new Error('arena:serve: the token must have at least 8 characters');
    const o = { width: 640, height: 480, maxBodyBytes: 64 * 1024, maxPixels: 4096 * 2304, driverTimeoutMs: 900_000, ...options };
    let self: ControlServer | null = null;
    const server = createServer((req, res) => {
      if (self) self.handle(req, res);
    });
    server.headersTimeout = 20_000;
    server.requestTimeout = 60_000;
    const host = o.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', (e) => reject(new Error(`arena:serve: cannot listen on ${host}:${o.port ?? 8081}: ${(e as Error).message}`)));
      server.listen(o.port ?? 8081, host, () => resolveListen());
    });
    const a = server.address() as AddressInfo;
    self = new ControlServer(server, o, `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`);
    return self;
  }

  /** Who holds the avatar, or null. */
  get holder(): string | null {
    return this.driver?.id ?? null;
  }

  /** Stops listening; an active task is recorded as ended by the server's closing. */
  async close(): Promise<void> {
    if (this.driverTimer) clearTimeout(this.driverTimer);
    await this.queue.catch(() => {});
    this.endTask('server_closed');
    await new Promise<void>((r) => {
      this.server.close(() => r());
      this.server.closeAllConnections();
    });
  }

  private endTask(status: ControlTaskEnd): void {
    const s = this.o.session;
    const task = s.task;
    if (!task) return;
    const record: ControlTaskRecord = { task: task.id, type: task.type, status, driver: this.driver?.id ?? 'nobody', steps: [...s.steps], state: s.state() };
    s.exitTask();
    this.o.onTaskEnd?.(record);
  }

  /** Keeps the driver's lease alive; a lease that runs out aborts its task and frees the avatar. */
  private touchDriver(id: string): void {
    const now = Date.now();
    if (!this.driver || this.driver.id !== id) this.driver = { id, since: now, last: now };
    else this.driver.last = now;
    if (this.driverTimer) clearTimeout(this.driverTimer);
    this.driverTimer = setTimeout(() => {
      this.queue = this.queue.then(() => {
        this.endTask('aborted');
        this.driver = null;
      });
    }, this.o.driverTimeoutMs);
    this.driverTimer.unref();
  }

  private driverOf(req: IncomingMessage): string {
    const named = req.headers['x-curbside-driver'];
    if (typeof named === 'string' && named.trim() !== '') return named.trim().slice(0, 100);
    return `${req.socket.remoteAddress ?? '?'} ${String(req.headers['user-agent'] ?? 'no user agent').slice(0, 80)}`;
  }

  private send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    if (res.headersSent || res.destroyed) return;
    const bytes = type === 'application/json' ? Buffer.from(`${JSON.stringify(body)}\n`) : Buffer.from(body as Uint8Array);
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.length, 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end(bytes);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    req.on('error', () => {});
    res.on('error', () => {});
    const work = async () => {
      try {
        await this.route(req, res);
      } catch (e) {
        const status = e instanceof HttpError ? e.status : 500;
        if (status === 413) res.setHeader('Connection', 'close');
        this.send(res, status, { ok: false, error: e instanceof Error ? e.message : String(e) });
        if (status === 413) req.destroy();
      }
    };
    // One request at a time, in arrival order: the avatar is never read halfway through an action.
    this.queue = this.queue.then(work, work);
  }

  private async body(req: IncomingMessage): Promise<unknown> {
    const limit = this.o.maxBodyBytes;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) throw new HttpError(413, `body: ${declared} bytes, over the ${limit}-byte limit`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new HttpError(413, `body: over the ${limit}-byte limit`);
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (text === '') return {};
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new HttpError(400, `body: not JSON (${(e as Error).message.slice(0, 120)})`);
    }
  }

  private authorised(req: IncomingMessage): boolean {
    if (!this.expected) return true;
    const auth = req.headers.authorization ?? '';
    const got = Buffer.from(auth.startsWith('Bearer ') ? auth.slice(7).trim() : '');
    return got.length === this.expected.length && timingSafeEqual(got, this.expected);
  }

  private screenshotRequest(q: URLSearchParams): ScreenshotRequest {
    const format = (q.get('format') ?? 'jpeg').toLowerCase();
    if (format !== 'jpeg' && format !== 'jpg' && format !== 'png') throw new HttpError(400, `format: expected jpeg or png, got ${JSON.stringify(format.slice(0, 40))}`);
    const width = intParam(q, 'width', 16, 4096, this.o.width, true);
    const height = intParam(q, 'height', 16, 4096, this.o.height, true);
    if (width * height > this.o.maxPixels) throw new HttpError(400, `width, height: ${width}×${height} is over this server's ${this.o.maxPixels.toLocaleString('en')}-pixel limit (e.g. 4096×2304)`);
    return {
      width,
      height,
      format: format === 'png' ? 'png' : 'jpeg',
      quality: intParam(q, 'quality', 1, 100, 90, false),
      includeUi: flagParam(q, 'include_ui'),
    };
  }

  private async dataUrl(): Promise<string> {
    const jpeg = await this.o.images.screenshot(this.o.session, { width: this.o.width, height: this.o.height, format: 'jpeg', quality: 90, includeUi: false });
    return `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(`http://localhost/${(req.url ?? '/').replace(/^\/+/, '')}`);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Curbside-Driver' });
      res.end();
      return;
    }
    if (!this.authorised(req)) throw new HttpError(401, 'Authorization: missing or wrong bearer token (send Authorization: Bearer TOKEN)');
    const s = this.o.session;
    const key = `${method} ${path}`;
    if (method === 'GET') {
      // The driver reading (polling screenshots while its model thinks) keeps its hold.
      if (this.driver && this.driver.id === this.driverOf(req)) this.touchDriver(this.driver.id);
      switch (path) {
        case '/':
        case '/health':
          return this.send(res, 200, {
            ok: true, service: 'curbside arena:serve', status: 'ready', endpoints: ENDPOINTS, tasks: s.taskIds().length,
            world: { seed: s.world.seed, size: s.world.size, ...(s.world.osm ? { osm: { file: s.world.osm.source.file, md5: s.world.osm.source.md5, selection: s.world.osm.source.selection, attribution: s.world.osm.source.attribution } } : {}) }, georeference: s.georef, driver: this.holder,
          });
        case '/state':
          return this.send(res, 200, s.state());
        case '/profile':
          return this.send(res, 200, PROFILE);
        case '/task':
          return this.send(res, 200, s.taskInfo());
        case '/tileset_source':
          return this.send(res, 200, {
            ok: true, probe_completed: true, internal_reachable: true, source: 'curbside', probe_latency_ms: 0, internal_base_url: null, config_file: null,
            config_status: 'generated world: no 3D Tiles', tilesets: { f2: null, building: null, infrastructure: null },
          });
        case '/screenshot': {
          const r = this.screenshotRequest(url.searchParams);
          const bytes = await this.o.images.screenshot(s, r);
          return this.send(res, 200, bytes, r.format === 'png' ? 'image/png' : 'image/jpeg');
        }
      }
    }
    if (method === 'POST' && ['/action', '/task/enter', '/task/exit', '/stats/reset'].includes(path)) {
      const who = this.driverOf(req);
      if (this.driver && this.driver.id !== who) {
        const idle = Math.round((Date.now() - this.driver.last) / 1000);
        throw new HttpError(409, `the avatar is held by ${this.driver.id} (last request ${idle} s ago; it is freed when that driver exits its task or is silent for ${Math.round(this.o.driverTimeoutMs / 1000)} s)`);
      }
      const body = await this.body(req);
      // A refused request neither takes nor renews the hold (the error is thrown before this).
      const done = (payload: unknown) => {
        const exiting = path === '/task/exit' || (path === '/action' && (body as { action?: unknown }).action === 'exit_task');
        if (!exiting) this.touchDriver(who);
        this.send(res, 200, payload);
      };
      if (path === '/action') return done(await this.action(body, url.searchParams));
      if (path === '/task/enter') {
        const id = (body as { id?: unknown } | null)?.id;
        if (typeof id !== 'string' || id === '') throw new HttpError(400, 'id: expected the task id as a string, e.g. {"id":"SN-20260101-000000"}');
        if (s.task) this.endTask('replaced');
        const r = s.enterTask(id);
        if (!r.ok) throw new HttpError(r.status, r.error);
        return done({ ok: true, action: `enter_task: ${id}`, task: r.task.document });
      }
      if (path === '/task/exit') {
        const id = s.task?.id ?? null;
        this.endTask('exited');
        this.release();
        return this.send(res, 200, { ok: true, action: id ? `exit_task: ${id}` : 'exit_task: no task was active' });
      }
      s.resetStats();
      return done({ ok: true });
    }
    const known = ENDPOINTS.some((e) => e.endsWith(` ${path}`));
    throw new HttpError(known ? 405 : 404, known ? `${key}: wrong method (endpoints: ${ENDPOINTS.join(', ')})` : `${key}: no such endpoint (endpoints: ${ENDPOINTS.join(', ')})`);
  }

  private release(): void {
    this.driver = null;
    if (this.driverTimer) clearTimeout(this.driverTimer);
    this.driverTimer = null;
  }

  private async action(body: unknown, q: URLSearchParams): Promise<Record<string, unknown>> {
    const parsed = parseUrbanGroundAction(body, { runner: false });
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const a = parsed.action;
    const s = this.o.session;
    const image = flagParam(q, 'image');
    const interval = numberParam(q, 'interval', 0.05, 10);
    const maxFrames = numberParam(q, 'max_frames', 1, 240);
    if (a.action === 'enter_task' && s.task) this.endTask('replaced');
    if (a.action === 'exit_task') {
      const id = s.task?.id ?? null;
      this.endTask('exited');
      this.release();
      return { ok: true, action: id ? `exit_task: ${id}` : 'exit_task: no task was active', state: s.state() };
    }
    if (interval !== null) {
      const { result, frames } = await s.actSampled(a, interval, Math.floor(maxFrames ?? 60), () => this.dataUrl());
      if (!result.ok) throw new HttpError(result.status, result.error);
      return { ok: true, action: result.action, state: s.state(), images: frames, ...(image ? { image: frames[frames.length - 1] ?? (await this.dataUrl()) } : {}) };
    }
    const result = s.act(a);
    if (!result.ok) throw new HttpError(result.status, result.error);
    return { ok: true, action: result.action, state: s.state(), ...(image ? { image: await this.dataUrl() } : {}) };
  }
}
