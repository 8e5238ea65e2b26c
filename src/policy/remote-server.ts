/**
 * The remote-policy relay (Node, `ws`): a WebSocket server that the simulator page and one policy
 * process (e.g. a Python model) both connect to; it checks the session token and forwards messages
 * between them unchanged (protocol: src/policy/REMOTE-PROTOCOL.md).
 *
 * Why a relay: the simulator runs in a browser page, which can open WebSockets but not accept
 * them; the Node process that drives the page (the CLI harness) hosts this server instead, so the
 * Python side is a plain client.
 *
 * Security: binds to 127.0.0.1 unless told otherwise; every connection must present the session
 * token (`Authorization: Bearer <token>` or `?token=<token>`; browsers can only use the query),
 * compared in constant time; wrong or missing tokens are refused at the handshake with HTTP 401,
 * before any message is exchanged. One client per role; a second gets HTTP 409.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { REMOTE_PROTOCOL, type HelloMessage, type RelayFinalMessage } from './remote-protocol';

/** Options of {@link RemotePolicyServer.start}. */
export interface RemotePolicyServerOptions {
  /** Interface to bind (default 127.0.0.1; anything else exposes the relay to the network). */
  host?: string;
  /** TCP port (default 0: any free port). */
  port?: number;
  /** Session token (default: 32 random bytes, hex). At least 16 characters. */
  token?: string;
  /** Largest message accepted, bytes (default 64 MiB: B·T·3·H·W float32 observations). */
  maxPayloadBytes?: number;
}

type Role = 'simulator' | 'policy';

/** Reads the token from `Authorization: Bearer …` or the `token` query parameter. */
function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  return new URL(req.url ?? '/', 'ws://localhost').searchParams.get('token') ?? undefined;
}

function roleOf(req: IncomingMessage): Role | undefined {
  const path = new URL(req.url ?? '/', 'ws://localhost').pathname;
  return path === '/simulator' ? 'simulator' : path === '/policy' ? 'policy' : undefined;
}

/** A running relay; `close()` stops it and disconnects both clients. */
export class RemotePolicyServer {
  private readonly clients: Partial<Record<Role, WebSocket>> = {};
  /** Last `spec` text the policy sent, replayed to a simulator that connects later. */
  private lastSpec: string | undefined;
  /** Callers of {@link waitForSpec} waiting for the policy's spec. */
  private specWaiters: ((manifest: unknown) => void)[] = [];

  private constructor(
    private readonly wss: WebSocketServer,
    /** The session token clients must present. */
    readonly token: string,
    /** Base URL, e.g. `ws://127.0.0.1:40123`; clients connect to `${url}/simulator` or `${url}/policy`. */
    readonly url: string,
  ) {
    wss.on('connection', (ws, req) => this.accept(ws, roleOf(req)!));
  }

  /**
   * Starts the relay.
   *
   * @throws Error when the token is shorter than 16 characters or the port cannot be bound.
   */
  static async start(options: RemotePolicyServerOptions = {}): Promise<RemotePolicyServer> {
    const token = options.token ?? randomBytes(32).toString('hex');
    if (token.length < 16) throw new Error('RemotePolicyServer.start: the session token must have at least 16 characters');
    const host = options.host ?? '127.0.0.1';
    const expected = Buffer.from(token);
    let server: RemotePolicyServer | undefined;
    const wss = new WebSocketServer({
      host,
      port: options.port ?? 0,
      maxPayload: options.maxPayloadBytes ?? 64 * 1024 * 1024,
      verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
        const role = roleOf(info.req);
        if (!role) return done(false, 404, 'connect to /simulator or /policy');
        const got = Buffer.from(presentedToken(info.req) ?? '');
        if (got.length !== expected.length || !timingSafeEqual(got, expected)) return done(false, 401, 'wrong or missing session token');
        if (server?.clients[role]) return done(false, 409, `a ${role} is already connected`);
        done(true);
      },
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    const { port } = wss.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    server = new RemotePolicyServer(wss, token, `ws://${shownHost}:${port}`);
    return server;
  }

  private accept(ws: WebSocket, role: Role): void {
    this.clients[role] = ws;
    const hello: HelloMessage = { type: 'hello', protocol: REMOTE_PROTOCOL, role };
    ws.send(JSON.stringify(hello));
    const other: Role = role === 'simulator' ? 'policy' : 'simulator';
    this.clients[other]?.send(JSON.stringify({ type: 'peer', role, connected: true }));
    if (role === 'simulator' && this.lastSpec) ws.send(this.lastSpec);
    ws.on('message', (data, isBinary) => {
      if (role === 'policy' && !isBinary) {
        const text = data.toString();
        if (text.includes('"spec"')) {
          try {
            const msg = JSON.parse(text) as { type?: string; manifest?: unknown };
            if (msg.type === 'spec') {
              this.lastSpec = text;
              for (const w of this.specWaiters.splice(0)) w(msg.manifest);
            }
          } catch {
            // Not JSON: forwarded as is; the simulator reports it.
          }
        }
      }
      this.clients[other]?.send(data, { binary: isBinary });
    });
    ws.on('close', () => {
      if (this.clients[role] === ws) delete this.clients[role];
      if (role === 'policy') this.lastSpec = undefined;
      this.clients[other]?.send(JSON.stringify({ type: 'peer', role, connected: false }));
    });
  }

  /** Whether a policy process is connected now. */
  get policyConnected(): boolean {
    return this.clients.policy !== undefined;
  }

  /**
   * Resolves with the manifest of the connected policy's `spec` (at once if it has sent one), so a
   * harness can wait for the model process before starting the simulator. The manifest is not
   * validated here (see `parsePolicyManifest`).
   *
   * @throws Error `no policy connected and sent its spec within … s` after `timeoutMs`.
   */
  waitForSpec(timeoutMs: number): Promise<unknown> {
    if (this.lastSpec) return Promise.resolve((JSON.parse(this.lastSpec) as { manifest?: unknown }).manifest);
    return new Promise((resolve, reject) => {
      const waiter = (manifest: unknown) => {
        clearTimeout(timer);
        resolve(manifest);
      };
      const timer = setTimeout(() => {
        this.specWaiters = this.specWaiters.filter((w) => w !== waiter);
        const what = this.policyConnected ? 'a policy connected but sent no spec' : 'no policy connected';
        reject(new Error(`${what} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`));
      }, timeoutMs);
      this.specWaiters.push(waiter);
    });
  }

  /**
   * Stops listening and closes both connections. The policy first gets `final` (default
   * `{"type": "done"}`; `{"type": "error", "message": …}` when the run failed, e.g. the simulator
   * refused its spec) and then a close frame (code 1000), so a client can print why and exit 0
   * instead of dying on a dropped socket; a client that does not answer the close within
   * `graceMs` is cut off.
   */
  async close(final: RelayFinalMessage = { type: 'done' }, graceMs = 2000): Promise<void> {
    const policy = this.clients.policy;
    const closing: Promise<void>[] = [];
    if (policy && policy.readyState === policy.OPEN) {
      closing.push(new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          policy.terminate();
          resolve();
        }, graceMs);
        policy.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        policy.send(JSON.stringify(final), () => policy.close(1000, final.type === 'error' ? 'run failed' : 'run finished'));
      }));
    } else policy?.terminate();
    this.clients.simulator?.terminate();
    await Promise.all(closing);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** Loopback host names the relay may bind for a `--policy ws://…` value. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Reads a benchmark `--policy` value that asks for a relay: `remote` (127.0.0.1, any free port) or
 * `ws://HOST:PORT` with HOST a loopback name. Returns `undefined` for any other value (expert,
 * onnx:…), and the value in its canonical form (`ws://127.0.0.1:40123`, no trailing slash), which
 * is what results are recorded under.
 *
 * @throws Error naming the problem for `wss://`, a non-loopback host, a missing port, a path or a query.
 */
export function parseRelayPolicy(value: string): { policy: string; host: string; port: number } | undefined {
  if (value === 'remote') return { policy: value, host: '127.0.0.1', port: 0 };
  if (!/^wss?:\/\//i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`'${value}' is not a URL; expected ws://127.0.0.1:PORT`);
  }
  if (url.protocol !== 'ws:') throw new Error(`'${value}': the relay serves plain ws:// on this machine (no TLS); expected ws://127.0.0.1:PORT`);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`'${value}': the relay only listens on loopback (127.0.0.1, localhost, [::1]); forward a remote model's port (ssh -L) instead`);
  if (!url.port) throw new Error(`'${value}': give the port, e.g. ws://127.0.0.1:40123 (or --policy remote for any free port)`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.username || url.password) throw new Error(`'${value}': expected ws://HOST:PORT without a path, query or credentials (the token is printed by the runner)`);
  return { policy: `ws://${url.host}`, host: url.hostname === '[::1]' ? '::1' : url.hostname, port: Number(url.port) };
}
