/**
 * An example remote policy process, in Node, speaking the remote protocol
 * (src/policy/REMOTE-PROTOCOL.md) the way a Python model would: it connects to the relay that
 * `npm run bench -- --policy remote` (or `ws://127.0.0.1:PORT`) starts, sends its spec, and answers
 * every observation with "drive straight" (v = --speed m/s, ω = 0). It decodes each observation
 * and checks its shape against its spec, so it also serves as a protocol smoke test.
 *
 * ```sh
 * npx tsx src/policy/examples/remote-example-client.ts --url ws://127.0.0.1:40123 --token <token>
 * ```
 *
 * The token may also come from CURBSIDE_REMOTE_TOKEN. The client retries the connection for
 * `--wait` seconds (the relay may not be up yet) and exits 0 when the relay closes the connection
 * (the benchmark finished), 1 on a protocol error.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { WebSocket, type RawData } from 'ws';
import { decodeObservation, type RelayFinalMessage } from '../remote-protocol';

/** The example's contract: a small single frame, no goal, (v, ω) output at 4 Hz. */
export const STRAIGHT_SPEC = {
  format: 'curbside-policy/1',
  name: 'drive-straight',
  rateHz: 4,
  image: { width: 16, height: 12 },
  context: { frames: 1, spacing: 0.25 },
  normalization: { mean: [0, 0, 0], std: [1, 1, 1], appliedBy: 'curbside' },
  inputs: { observation: 'obs' },
  goal: { type: 'none' },
  output: { kind: 'cmd', name: 'cmd' },
} as const;

/** What {@link runStraightClient} saw, for tests and the exit message. */
export interface ClientStats {
  resets: number;
  observations: number;
  /** The relay's last word before its close frame: `done` (with the episode count) or `error`. */
  end?: RelayFinalMessage;
}

/** An open connection and the messages that arrived before the caller listened (the relay's `hello` can come with the handshake). */
interface Connection {
  ws: WebSocket;
  /** Takes over from the early-message buffer: replays what arrived, then forwards every message to `handler`. */
  listen(handler: (data: RawData, isBinary: boolean) => void): void;
}

/** Opens the policy connection, retrying refused connections until `waitMs` has passed. */
async function connect(url: string, token: string, waitMs: number): Promise<Connection> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const ws = new WebSocket(`${url.replace(/\/+$/, '')}/policy`, { headers: { Authorization: `Bearer ${token}` } });
    const early: [RawData, boolean][] = [];
    const buffer = (data: RawData, isBinary: boolean) => early.push([data, isBinary]);
    ws.on('message', buffer);
    const listen = (handler: (data: RawData, isBinary: boolean) => void) => {
      ws.off('message', buffer);
      ws.on('message', handler);
      for (const [data, isBinary] of early.splice(0)) handler(data, isBinary);
    };
    const result = await new Promise<Connection | Error>((resolve) => {
      ws.once('open', () => resolve({ ws, listen }));
      ws.once('unexpected-response', (_req, res) => resolve(new Error(`the relay refused the connection: HTTP ${res.statusCode}${res.statusCode === 401 ? ' (wrong token)' : ''}`)));
      ws.once('error', (e) => resolve(e));
    });
    if (!(result instanceof Error)) return result;
    const refused = (result as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    if (!refused || Date.now() > deadline) throw result;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Serves the drive-straight policy until the relay closes the connection.
 *
 * @throws Error when the connection is refused or an observation does not match the spec.
 */
export async function runStraightClient(options: { url: string; token: string; speed?: number; waitMs?: number; log?: (line: string) => void }): Promise<ClientStats> {
  const speed = options.speed ?? 0.8;
  const log = options.log ?? (() => undefined);
  const { ws, listen } = await connect(options.url, options.token, options.waitMs ?? 30_000);
  const stats: ClientStats = { resets: 0, observations: 0 };
  const { width, height } = STRAIGHT_SPEC.image;
  const want = [1, STRAIGHT_SPEC.context.frames, 3, height, width];
  return new Promise<ClientStats>((resolve, reject) => {
    const fail = (message: string) => {
      ws.send(JSON.stringify({ type: 'error', message }));
      ws.close();
      reject(new Error(message));
    };
    listen((data, isBinary) => {
      if (!isBinary) {
        const msg = JSON.parse(data.toString()) as { type: string; protocol?: string; seed?: number; batch?: number; episodes?: number; message?: string };
        if (msg.type === 'hello') {
          log(`connected to ${options.url} (${msg.protocol}); sending spec '${STRAIGHT_SPEC.name}'`);
          ws.send(JSON.stringify({ type: 'spec', manifest: STRAIGHT_SPEC }));
        } else if (msg.type === 'reset') {
          stats.resets++;
          log(`reset: seed ${msg.seed}, batch ${msg.batch}`);
        } else if (msg.type === 'done' || msg.type === 'error') {
          stats.end = msg.type === 'done' ? { type: 'done', episodes: msg.episodes } : { type: 'error', message: msg.message ?? '' };
          log(msg.type === 'done' ? `the run finished (${msg.episodes} episodes)` : `the run failed: ${msg.message}`);
        }
        return;
      }
      const buf = data as Buffer;
      const { header, tensors } = decodeObservation(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
      const obs = tensors.observation;
      const shape = header.tensors.find((t) => t.name === 'observation')?.shape ?? [];
      const batch = header.states.length;
      if (shape.length !== 5 || shape.slice(1).join() !== want.slice(1).join() || shape[0] !== batch || !obs.every(Number.isFinite)) {
        return fail(`drive-straight: observation of shape [${shape.join(', ')}], expected [${batch}, ${want.slice(1).join(', ')}] of finite values`);
      }
      stats.observations++;
      ws.send(JSON.stringify({ type: 'action', step: header.step, cmd: Array.from({ length: batch }, () => [speed, 0]) }));
    });
    ws.on('close', () => (stats.end?.type === 'error' ? reject(new Error(`the run failed: ${stats.end.message}`)) : resolve(stats)));
    ws.on('error', (e) => reject(e));
  });
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const program = new Command('remote-example-client')
    .description('Example remote policy: drives straight ahead. Connects to the relay of npm run bench -- --policy remote.')
    .requiredOption('--url <ws://host:port>', 'relay URL printed by npm run bench')
    .option('--token <token>', 'session token printed by npm run bench (default: $CURBSIDE_REMOTE_TOKEN)')
    .option('--speed <m/s>', 'forward speed', '0.8')
    .option('--wait <s>', 'keep retrying a refused connection this long', '30');
  program.parse();
  const o = program.opts<{ url: string; token?: string; speed: string; wait: string }>();
  const token = o.token ?? process.env.CURBSIDE_REMOTE_TOKEN;
  if (!token) {
    console.error('error: no token: pass --token or set CURBSIDE_REMOTE_TOKEN');
    process.exit(1);
  }
  runStraightClient({ url: o.url, token, speed: Number(o.speed), waitMs: Number(o.wait) * 1000, log: (l) => console.log(`remote-example-client: ${l}`) }).then(
    (s) => {
      console.log(`remote-example-client: relay closed after ${s.resets} episodes, ${s.observations} observations${s.end ? '' : ' (without saying why)'}`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(`remote-example-client: error: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
