/**
 * A stub OpenAI-compatible chat-completions server on 127.0.0.1 for tests (no network): answers
 * `POST /v1/chat/completions` from a queue of replies (then a fallback) and records every request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reply the stub sends: status, headers and a JSON body. */
export interface StubReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** The part of a chat-completions request the tests read. */
export interface ChatRequest {
  model: string;
  temperature?: number;
  messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
}

/** A recorded request. */
export interface Seen {
  url: string;
  authorization: string | undefined;
  body: ChatRequest;
}

/** A chat completion whose message is `content`, using `tokens` tokens. */
export function completion(content: string, tokens = 100): StubReply {
  return {
    body: {
      id: 'chatcmpl-stub', object: 'chat.completion', created: 0, model: 'stub',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens },
    },
  };
}

/** A stub server answering /v1/chat/completions from a queue (then with `fallback`), recording requests. */
export class Stub {
  readonly seen: Seen[] = [];
  readonly queue: StubReply[] = [];
  fallback: StubReply;
  private server: Server | null = null;
  port = 0;

  /** @param fallback the reply once the queue is empty. */
  constructor(fallback = completion('{"thought": "done", "action": "ANSWER", "memory": "", "answer": "x:0 y:0"}')) {
    this.fallback = fallback;
  }


  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
          return;
        }
        this.seen.push({ url: req.url, authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest });
        const r = this.queue.shift() ?? this.fallback;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...(r.headers ?? {}) }).end(JSON.stringify(r.body));
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  get apiBase(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    s.closeAllConnections();
    await new Promise<void>((ok) => s.close(() => ok()));
  }
}

/** A port with nothing listening: a server's, closed. */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

