/**
 * The OpenAI-compatible agent against a stub chat-completions server on 127.0.0.1 (no network): the
 * request it sends (model, system prompt with the task, step text, images as data URLs), parsing,
 * corrective retries, 429 with Retry-After, errors naming the endpoint, and whole episodes through
 * runArenaEpisode (answered; agent_error with the server gone). Also the prompt texts and hash.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { completion, deadPort, Stub, type ChatRequest } from '../../../test/chat-stub';
import type { World } from '../../world/world';
import type { ObservationImages, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';
import { taskWorld } from '../generate/context';
import { runArenaEpisode } from '../run-episode';
import { parseTaskFile, type ArenaTask, taskFileWorld } from '../task';
import { BACKOFF_BASE_MS, OpenAiAgent, pngDataUrl, RETRY_AFTER_CAP_MS, retryDelayMs } from './openai';
import { fnv1a64, promptHash, SYSTEM_PROMPT, userTurnText } from './prompts';

const VIEW = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
const MAP = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 9, 9]);
const IMAGES: ObservationImages = { view: VIEW, map: null, reference: null };
const OBS: ArenaObservation = {
  taskId: 't1', instruction: 'Your task is to go to the bakery.', step: 0, stepsLeft: 50, notices: [],
  branches: [{ token: 'LEFT', kind: 'crosswalk', angleDeg: 90 }, { token: 'UP', kind: 'sidewalk', angleDeg: 0 }], viewYawDeg: 0, pitchDeg: 0,
};
/** Never read by the agent: a getter that fails the test if it is. */
const PRIVILEGED = new Proxy({} as PrivilegedView, { get: () => { throw new Error('the model agent read the privileged view'); } });

const textOf = (r: ChatRequest, i: number): string => {
  const c = r.messages[i].content;
  return typeof c === 'string' ? c : c.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
};

describe('OpenAiAgent', () => {
  let stub: Stub;
  let sleeps: number[];
  const agent = (extra: Partial<ConstructorParameters<typeof OpenAiAgent>[0]> = {}) => {
    const a = new OpenAiAgent({ model: 'test-model', apiBase: stub.apiBase, apiKey: 'sk-test', timeoutMs: 10_000, sleep: async (ms) => { sleeps.push(ms); }, ...extra });
    a.begin({ taskId: 't1', family: 'landmark-language', instruction: OBS.instruction }, PRIVILEGED);
    return a;
  };

  afterEach(async () => {
    await stub?.close();
  });

  async function started(): Promise<Stub> {
    stub = new Stub();
    sleeps = [];
    await stub.start();
    return stub;
  }

  it('sends the model, the task, the step text and the images as data URLs, and returns the parsed action with its tokens', async () => {
    const s = await started();
    s.queue.push(completion('{"thought": "street ahead", "action": "W", "memory": "goal: bakery", "answer": "LARGE"}', 123));
    s.queue.push(completion('```json\n{"thought": "junction", "action": "LEFT", "memory": "", "answer": ""}\n```', 77));
    const a = agent({ temperature: 0.5 });
    expect(a.name).toBe('openai:test-model');
    expect(a.needsImages).toBe(true);
    const t = await a.act(OBS, IMAGES);
    expect(t.action).toEqual({ kind: 'forward', seconds: 5 });
    expect(t.thought).toBe('street ahead');
    expect(t.tokens).toBe(123);
    expect(t.parseErrors).toBe(0);
    expect(t.latencyMs).toBeGreaterThanOrEqual(0);
    const r = s.seen[0];
    expect(r.url).toBe('/v1/chat/completions');
    expect(r.authorization).toBe('Bearer sk-test');
    expect(r.body.model).toBe('test-model');
    expect(r.body.temperature).toBe(0.5);
    expect(r.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(textOf(r.body, 0)).toContain(SYSTEM_PROMPT);
    expect(textOf(r.body, 0)).toContain(OBS.instruction);
    const parts = r.body.messages[1].content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[1].image_url!.url).toBe(`data:image/png;base64,${Buffer.from(VIEW).toString('base64')}`);
    expect(parts[0].text).toContain('LEFT: crosswalk at 90°');
    expect(parts[0].text).toContain('50 steps left');

    // The next step carries the memory and the last action; map and reference images follow the view.
    const t2 = await a.act({ ...OBS, step: 1, stepsLeft: 49, notices: ['You reached a junction.'] }, { view: VIEW, map: MAP, reference: VIEW });
    expect(t2.action).toEqual({ kind: 'branch', token: 'LEFT' });
    const parts2 = s.seen[1].body.messages[1].content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts2.map((p) => p.text ?? p.type)).toEqual([parts2[0].text, 'image_url', 'Current map:', 'image_url', 'Task reference image:', 'image_url']);
    expect(parts2[3].image_url!.url).toBe(pngDataUrl(MAP));
    expect(parts2[0].text).toContain('goal: bakery');
    expect(parts2[0].text).toContain('step 1: W LARGE (thought: street ahead)');
    expect(parts2[0].text).toContain('Notice: You reached a junction.');
    // An empty memory keeps the old one.
    s.queue.push(completion('{"thought": "", "action": "S", "memory": "", "answer": ""}'));
    await a.act({ ...OBS, step: 2, stepsLeft: 48 }, IMAGES);
    expect(textOf(s.seen[2].body, 1)).toContain('goal: bakery');
    expect(sleeps).toEqual([]);
  });

  it('omits the temperature when none is given and keeps only the last historyTurns turns', async () => {
    const s = await started();
    const a = agent({ historyTurns: 2 });
    for (let i = 0; i < 4; i++) {
      s.queue.push(completion(`{"thought": "t${i}", "action": "A", "memory": "", "answer": "SMALL"}`));
      await a.act({ ...OBS, step: i, stepsLeft: 50 - i }, IMAGES);
    }
    expect('temperature' in s.seen[0].body).toBe(false);
    const last = textOf(s.seen[3].body, 1);
    expect(last).not.toContain('t0');
    expect(last).toContain('step 2: A SMALL (thought: t1)');
    expect(last).toContain('step 3: A SMALL (thought: t2)');
  });

  it('sends a corrective retry after a malformed reply and counts the parse error', async () => {
    const s = await started();
    s.queue.push(completion('I think I should walk forward.', 50));
    s.queue.push(completion('{"thought": "ok", "action": "D", "memory": "", "answer": "MEDIUM"}', 60));
    const t = await agent().act(OBS, IMAGES);
    expect(t.action).toEqual({ kind: 'rotate', deg: -60 });
    expect(t.parseErrors).toBe(1);
    expect(t.tokens).toBe(110);
    const retry = s.seen[1].body.messages;
    expect(retry.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[2].content).toBe('I think I should walk forward.');
    expect(retry[3].content).toContain('no JSON object in the reply');
    expect(retry[3].content).toContain('"action"');
  });

  it('throws naming the parse error after three malformed replies', async () => {
    const s = await started();
    for (let i = 0; i < 3; i++) s.queue.push(completion('{"thought": "x", "action": "JUMP", "memory": "", "answer": ""}'));
    await expect(agent().act(OBS, IMAGES)).rejects.toThrow(/did not parse after 2 corrective retries: field "action": 'JUMP' is not one of/);
    expect(s.seen).toHaveLength(3);
  });

  it('waits what Retry-After asks after a 429, then succeeds', async () => {
    const s = await started();
    s.queue.push({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'rate limited', type: 'rate_limit' } } });
    s.queue.push(completion('{"thought": "", "action": "Q", "memory": "", "answer": "SMALL"}'));
    const t = await agent().act(OBS, IMAGES);
    expect(t.action).toEqual({ kind: 'tilt', deg: 30 });
    expect(sleeps).toEqual([1000]);
    expect(s.seen).toHaveLength(2);
  });

  it('backs off exponentially on 5xx and gives up after maxRetries, naming the status', async () => {
    const s = await started();
    s.fallback = { status: 503, body: { error: { message: 'overloaded' } } };
    await expect(agent({ maxRetries: 3 }).act(OBS, IMAGES)).rejects.toThrow(new RegExp(`POST ${s.apiBase}/chat/completions → HTTP 503 after 4 attempts`));
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(s.seen).toHaveLength(4);
  });

  it('does not retry another 4xx', async () => {
    const s = await started();
    s.fallback = { status: 401, body: { error: { message: 'bad key' } } };
    await expect(agent({ apiKey: undefined }).act(OBS, IMAGES)).rejects.toThrow(/→ HTTP 401: .*bad key.*set OPENAI_API_KEY/);
    expect(sleeps).toEqual([]);
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0].authorization).toBe('Bearer no-key');
  });

  it('rejects naming the URL when the endpoint is down', async () => {
    stub = new Stub();
    sleeps = [];
    const url = `http://127.0.0.1:${await deadPort()}/v1`;
    const a = new OpenAiAgent({ model: 'm', apiBase: url, apiKey: 'k', sleep: async (ms) => { sleeps.push(ms); } });
    a.begin({ taskId: 't1', family: 'vln', instruction: 'x' }, PRIVILEGED);
    await expect(a.act(OBS, IMAGES)).rejects.toThrow(`POST ${url}/chat/completions failed: no connection`);
    expect(sleeps).toEqual([]);
  });

  it('needs images', async () => {
    await started();
    await expect(agent().act(OBS, null)).rejects.toThrow(/no images/);
  });
});

describe('retryDelayMs', () => {
  it('reads seconds, milliseconds and HTTP dates, caps them, and doubles from 1 s otherwise', () => {
    expect(retryDelayMs(0, '1')).toBe(1000);
    expect(retryDelayMs(2, '2.5')).toBe(2500);
    expect(retryDelayMs(0, '7', '250')).toBe(250);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryDelayMs(0, 'Wed, 21 Oct 2015 07:28:30 GMT', null, now)).toBe(30_000);
    expect(retryDelayMs(0, 'Wed, 21 Oct 2015 07:27:00 GMT', null, now)).toBe(0);
    expect(retryDelayMs(0, '3600')).toBe(RETRY_AFTER_CAP_MS);
    expect([0, 1, 2, 3].map((i) => retryDelayMs(i, null))).toEqual([1, 2, 4, 8].map((k) => k * BACKOFF_BASE_MS));
    expect(retryDelayMs(1, 'soon')).toBe(2 * BACKOFF_BASE_MS);
    expect(retryDelayMs(20, null)).toBe(RETRY_AFTER_CAP_MS);
  });
});

describe('prompts', () => {
  it('has a stable 16-hex-digit hash that FNV-1a 64 gives for known inputs', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(promptHash()).toMatch(/^[0-9a-f]{16}$/);
    expect(promptHash()).toBe(promptHash());
  });

  it('names the tokens and magnitudes in the system prompt and the step state in the step text', () => {
    for (const s of ['W:', 'LEFT, UP, RIGHT', 'ANSWER', '1 s', '5 s', '30°', '90°', '1.4 m/s', '"thought"', '"memory"']) expect(SYSTEM_PROMPT).toContain(s);
    const text = userTurnText({ ...OBS, step: 4, stepsLeft: 46, branches: [{ token: null, kind: 'sidewalk', angleDeg: -140 }], viewYawDeg: -30, pitchDeg: 30 }, '', []);
    expect(text).toContain('step 5 of 50; 46 steps left');
    expect(text).toContain('(no name: turn the camera towards it and walk with W): sidewalk at -140°');
    expect(text).toContain('turned -30° left');
    expect(text).toContain('tilted 30° up');
    expect(text).toContain('(empty)');
    expect(userTurnText({ ...OBS, branches: [] }, 'm', [])).toContain('No branches here');
  });
});

describe('OpenAiAgent in an episode', () => {
  let world: World;
  let task: ArenaTask;
  let names: string[];
  beforeAll(() => {
    const path = resolve(import.meta.dirname, '../../../scenes/arena/cityarena.json');
    const file = parseTaskFile(path, readFileSync(path, 'utf8'));
    world = taskFileWorld(file.world);
    task = file.tasks.find((t) => t.family === 'localization')!;
    names = taskWorld(world).names;
  }, 120_000);

  const render = async (): Promise<ObservationImages> => ({ view: VIEW, map: MAP, reference: null });

  it('answers through runArenaEpisode, and ends as agent_error with the server gone', async () => {
    const s = new Stub();
    await s.start();
    s.fallback = completion('{"action":"ANSWER","answer":"x:0 y:0"}', 42);
    const agent = new OpenAiAgent({ model: 'stub', apiBase: s.apiBase, apiKey: 'k', sleep: async () => {} });
    const rec = await runArenaEpisode(world, task, agent, names, 0, render);
    expect(rec.status).toBe('answered');
    expect(rec.answer).toBe('x:0 y:0');
    expect(rec.agent).toBe('openai:stub');
    expect(rec.tokens).toBe(42);
    expect(rec.steps).toBe(1);
    expect(s.seen).toHaveLength(1);
    await s.close();
    const down = await runArenaEpisode(world, task, agent, names, 0, render);
    expect(down.status).toBe('agent_error');
    expect(down.error).toContain(`${s.apiBase}/chat/completions`);
    expect(down.score).toBe(0);
  });
});
