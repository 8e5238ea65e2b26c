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
import { REMOTE_PROTOCOL, type HelloMessage } from './remote-protocol';

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
            if ((JSON.parse(text) as { type?: string }).type === 'spec') this.lastSpec = text;
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

  /** Stops listening and closes both connections. */
  async close(): Promise<void> {
    for (const ws of Object.values(this.clients)) ws?.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
