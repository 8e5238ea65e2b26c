/**
 * The remote agent: any external agent (a Python LLM harness, a human tool) plays arena episodes over
 * a WebSocket, the arena's extension of the remote bridge (`src/policy/REMOTE-PROTOCOL.md`; protocol
 * `curbside-arena-agent/1`, docs/guide/arena.md). Node only (`ws`).
 *
 * The arena CLI hosts the server (the arena runs in Node, so no relay is needed): it binds to
 * 127.0.0.1 unless told otherwise, checks the session token at the handshake (`Authorization: Bearer
 * …` or `?token=…`, constant-time; 401 otherwise), serves one agent at `/agent` (404 elsewhere, 409
 * for a second). Messages are JSON text:
 *
 * - arena → agent `{"type": "hello", "protocol": "curbside-arena-agent/1"}` on connect;
 * - `{"type": "task", "taskId", "family", "instruction"}` at each episode's start;
 * - `{"type": "observation", "observation": {…}, "images": {"view": PNG base64, "map": … | null,
 *   "reference": … | null}}` each step; the agent answers
 * - agent → arena `{"type": "action", "action": "W", "answer": "LARGE", "thought": "…", "memory": "…"}`
 *   (360CityArena's reply fields); a reply that does not parse gets `{"type": "invalid", "error": …}`
 *   and may be corrected twice before the episode ends as agent_error;
 * - `{"type": "end", "taskId", "status", "score"}` when the episode ends.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseAgentReply } from '../actions';
import type { AgentTurn, ArenaAgent, ObservationImages } from '../agent';
import type { ArenaObservation, EpisodeOutcome } from '../episode';

export const ARENA_AGENT_PROTOCOL = 'curbside-arena-agent/1';
/** Corrective retries of a reply that does not parse. */
export const REMOTE_RETRIES = 2;

/** Options of {@link RemoteArenaServer.start}. */
export interface RemoteArenaServerOptions {
  host?: string;
  port?: number;
  /** Session token (default 32 random bytes, hex); at least 16 characters. */
  token?: string;
  /** How long to wait for each reply, ms (default 300 000). */
  replyTimeoutMs?: number;
}

const b64 = (png: Uint8Array | null) => (png ? Buffer.from(png).toString('base64') : null);

/** The server an external agent connects to, and the {@link ArenaAgent} that plays through it. */
export class RemoteArenaServer implements ArenaAgent {
  readonly name = 'remote';
  readonly needsImages = true;
  private client: WebSocket | null = null;
  private inbox: string[] = [];
  private waiter: ((msg: string | null) => void) | null = null;
  private clientWaiters: (() => void)[] = [];

  private constructor(private readonly wss: WebSocketServer, readonly token: string, readonly url: string, private readonly replyTimeoutMs: number) {
    wss.on('connection', (ws) => this.accept(ws));
  }

  /**
   * Starts the server.
   *
   * @throws Error when the token is shorter than 16 characters or the port cannot be bound.
   */
  static async start(o: RemoteArenaServerOptions = {}): Promise<RemoteArenaServer> {
    const token = o.token ?? randomBytes(32).toString('hex');
    if (token.length < 16) throw new Error('remote agent: the session token must have at least 16 characters');
    const expected = Buffer.from(token);
    let server: RemoteArenaServer | undefined;
    const wss = new WebSocketServer({
      host: o.host ?? '127.0.0.1',
      port: o.port ?? 0,
      maxPayload: 1024 * 1024,
      verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
        const url = new URL(info.req.url ?? '/', 'ws://localhost');
        if (url.pathname !== '/agent') return done(false, 404, 'connect to /agent');
        const auth = info.req.headers.authorization;
        const got = Buffer.from(auth?.startsWith('Bearer ') ? auth.slice(7).trim() : (url.searchParams.get('token') ?? ''));
        if (got.length !== expected.length || !timingSafeEqual(got, expected)) return done(false, 401, 'wrong or missing session token');
        if (server?.client) return done(false, 409, 'an agent is already connected');
        done(true);
      },
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    const { port, address } = wss.address() as AddressInfo;
    server = new RemoteArenaServer(wss, token, `ws://${address.includes(':') ? `[${address}]` : address}:${port}/agent`, o.replyTimeoutMs ?? 300_000);
    return server;
  }

  private accept(ws: WebSocket): void {
    this.client = ws;
    ws.send(JSON.stringify({ type: 'hello', protocol: ARENA_AGENT_PROTOCOL }));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(text);
      } else this.inbox.push(text);
    });
    ws.on('close', () => {
      if (this.client === ws) this.client = null;
      this.inbox = [];
      this.waiter?.(null);
      this.waiter = null;
    });
    ws.on('error', () => ws.terminate());
    for (const w of this.clientWaiters.splice(0)) w();
  }

  /**
   * Waits until an agent is connected.
   *
   * @throws Error after `timeoutMs` without one.
   */
  async waitForAgent(timeoutMs: number): Promise<void> {
    if (this.client) return;
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no remote agent connected to ${this.url} within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      this.clientWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private send(msg: unknown): void {
    if (!this.client) throw new Error('remote agent: not connected');
    this.client.send(JSON.stringify(msg));
  }

  /** The next text message from the agent; null when it disconnects. */
  private next(): Promise<string | null> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (!this.client) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`remote agent: no reply within ${Math.round(this.replyTimeoutMs / 1000)} s`));
      }, this.replyTimeoutMs);
      this.waiter = (m) => {
        clearTimeout(t);
        resolve(m);
      };
    });
  }

  begin(brief: { taskId: string; family: string; instruction: string }): void {
    this.inbox = [];
    this.send({ type: 'task', ...brief });
  }

  async act(obs: ArenaObservation, images: ObservationImages | null): Promise<AgentTurn> {
    const t0 = performance.now();
    this.send({ type: 'observation', observation: obs, images: images && { view: b64(images.view), map: b64(images.map), reference: b64(images.reference) } });
    let parseErrors = 0;
    for (;;) {
      const text = await this.next();
      if (text === null) throw new Error('remote agent disconnected');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const msg = body as { type?: unknown } | null;
      const parsed = msg && msg.type === 'action' ? parseAgentReply(text) : { ok: false as const, error: 'expected a message {"type": "action", "action": …}' };
      if (parsed.ok) return { action: parsed.action, thought: parsed.thought, latencyMs: performance.now() - t0, parseErrors };
      parseErrors++;
      if (parseErrors > REMOTE_RETRIES) throw new Error(`remote agent: ${parsed.error} (after ${REMOTE_RETRIES} corrections)`);
      this.send({ type: 'invalid', error: parsed.error });
    }
  }

  /** Tells the agent how the episode ended. */
  end(taskId: string, outcome: EpisodeOutcome): void {
    if (this.client) this.send({ type: 'end', taskId, status: outcome.status, score: outcome.score });
  }

  async close(): Promise<void> {
    this.client?.close();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
