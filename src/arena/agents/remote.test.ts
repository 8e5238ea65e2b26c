/**
 * The remote agent end to end on loopback: the handshake refuses a wrong token (401), a wrong path
 * (404) and a second agent (409); a client that plays an episode gets the task, observations with
 * PNG images, corrections for replies that do not parse, and the end; a client that sends nonsense
 * three times or disconnects ends its episode as agent_error and the next episode still runs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { taskWorld } from '../generate/context';
import { runArenaEpisode } from '../run-episode';
import { parseTaskFile, taskFileWorld } from '../task';
import { RemoteArenaServer } from './remote';

const PATH = resolve(import.meta.dirname, '../../../scenes/arena/cityarena.json');
const file = parseTaskFile(PATH, readFileSync(PATH, 'utf8'));
const w = taskWorld(taskFileWorld(file.world));
const task = file.tasks.find((t) => t.family === 'localization')!;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const render = async () => ({ view: PNG, map: PNG, reference: null });

const servers: RemoteArenaServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** Opens a client; resolves with the socket and a queue of received JSON messages. */
async function connect(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(url, { headers });
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    const wt = waiters.shift();
    if (wt) wt(m);
    else queue.push(m);
  });
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('unexpected-response', (_req, r) => rej(new Error(`HTTP ${r.statusCode}`)));
    ws.once('error', rej);
  });
  return { ws, next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((r) => waiters.push(r))) };
}

describe('remote arena agent', () => {
  it('checks the token, the path and one agent at a time', async () => {
    const s = await RemoteArenaServer.start({ token: 'a-token-of-16-chars' });
    servers.push(s);
    await expect(connect(s.url, { authorization: 'Bearer wrong-token-xxxxxx' })).rejects.toThrow('HTTP 401');
    await expect(connect(s.url.replace('/agent', '/other'), { authorization: 'Bearer a-token-of-16-chars' })).rejects.toThrow('HTTP 404');
    const a = await connect(`${s.url}?token=a-token-of-16-chars`, {});
    await expect(connect(s.url, { authorization: 'Bearer a-token-of-16-chars' })).rejects.toThrow('HTTP 409');
    a.ws.close();
  });

  it('plays an episode with a correction, then survives nonsense and a disconnect', { timeout: 60_000 }, async () => {
    const s = await RemoteArenaServer.start({ token: 'another-token-16chars' });
    servers.push(s);
    const c = await connect(s.url, { authorization: 'Bearer another-token-16chars' });
    expect(await c.next()).toEqual({ type: 'hello', protocol: 'curbside-arena-agent/1' });
    const truth = task.truth.scoring === 'exact_match' ? `x:${task.truth.cell.x} y:${task.truth.cell.y}` : '';
    const play = (async () => {
      expect(await c.next()).toMatchObject({ type: 'task', taskId: task.id, family: 'localization', instruction: task.instruction });
      const obs = await c.next();
      expect(obs).toMatchObject({ type: 'observation', observation: { taskId: task.id, step: 0 }, images: { view: Buffer.from(PNG).toString('base64'), reference: null } });
      expect(Object.keys(obs.observation as object).sort()).toEqual(['branches', 'instruction', 'notices', 'pitchDeg', 'step', 'stepsLeft', 'taskId', 'viewYawDeg']);
      c.ws.send(JSON.stringify({ type: 'action', action: 'D', answer: 'HUGE' }));
      expect(await c.next()).toMatchObject({ type: 'invalid', error: expect.stringMatching(/not SMALL, MEDIUM or LARGE/) });
      c.ws.send(JSON.stringify({ type: 'action', action: 'D', answer: 'SMALL', thought: 'look right' }));
      expect(await c.next()).toMatchObject({ type: 'observation', observation: { step: 1, viewYawDeg: -30 } });
      c.ws.send(JSON.stringify({ type: 'action', action: 'ANSWER', answer: truth }));
      expect(await c.next()).toEqual({ type: 'end', taskId: task.id, status: 'answered', score: 1 });
    })();
    const rec = await runArenaEpisode(w.world, task, s, w.names, 0, render);
    await play;
    expect([rec.status, rec.score, rec.parseErrors, rec.actions.map((a) => a.action)]).toEqual(['answered', 1, 1, ['D SMALL', `ANSWER ${truth}`]]);

    const nonsense = (async () => {
      await c.next(); // task
      await c.next(); // observation
      for (let k = 0; k < 3; k++) {
        c.ws.send('not json');
        if (k < 2) expect(await c.next()).toMatchObject({ type: 'invalid' });
      }
    })();
    const bad = await runArenaEpisode(w.world, task, s, w.names, 0, render);
    await nonsense;
    expect(bad.status).toBe('agent_error');
    expect(bad.error).toMatch(/after 2 corrections/);
    await c.next(); // the end of that episode

    const gone = (async () => {
      await c.next();
      await c.next();
      c.ws.close();
    })();
    const lost = await runArenaEpisode(w.world, task, s, w.names, 0, render);
    await gone;
    expect([lost.status, lost.error]).toEqual(['agent_error', 'remote agent disconnected']);
  });
});
