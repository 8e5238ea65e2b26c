/**
 * The ladder's model agent against a stub chat-completions server on 127.0.0.1 (no network): reply
 * shapes UrbanGround's agents use, a short navigation and one task of every other navigation family
 * replayed from the oracle's actions to success (the schedule and the closure notice in the step text),
 * a landmark question answered in its answer turn, a malformed reply corrected, the operator's
 * actions refused, and an endpoint that is down ending the episode as agent_error.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completion, deadPort, Stub } from '../../../test/chat-stub';
import { DEFAULT_GEOREFERENCE } from '../../world/georef';
import { taskWorld } from '../generate/context';
import { parseTaskFile, taskFileWorld } from '../task';
import { LadderOracle } from './agent';
import { LadderEpisode } from './episode';
import { LadderOpenAiAgent, parseLadderReply } from './openai';
import { runLadderEpisode } from './run';

const PATH = resolve(import.meta.dirname, '../../../scenes/arena/urbanground.json');
const file = parseTaskFile(PATH, readFileSync(PATH, 'utf8'));
const world = taskFileWorld(file.world);
const w = taskWorld(world);
const g = DEFAULT_GEOREFERENCE;
const VIEW = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 7, 7]);
const render = async () => ({ view: VIEW, map: null, reference: null });
const reply = (action: unknown, extra: Record<string, unknown> = {}) => completion(JSON.stringify({ observation: 'a street', reason: 'scripted', action, ...extra }));

describe('ladder replies', () => {
  it('read UrbanGround\'s action shapes and refuse what the agent may not do', () => {
    expect(parseLadderReply('```json\n{"observation":"x","reason":"go","action":{"action":"move","dir":"forward","seconds":1.5}}\n```', false)).toEqual({ ok: true, action: { action: 'move', dir: 'forward', seconds: 1.5 }, reason: 'go' });
    expect(parseLadderReply('{"action":{"type":"look","yaw":30}}', false)).toMatchObject({ ok: true, action: { action: 'look', yaw: 30, pitch: 0 } });
    expect(parseLadderReply('{"action":{"sprint":{"dir":"left","seconds":2}}}', false)).toMatchObject({ ok: true, action: { action: 'sprint', dir: 'left', seconds: 2 } });
    expect(parseLadderReply('{"action":"terminate"}', false)).toMatchObject({ ok: true, action: { action: 'terminate' } });
    expect(parseLadderReply('{"action":{"action":"teleport","lat":1,"lon":2}}', false)).toMatchObject({ ok: false, error: expect.stringContaining('"action" must be one of move') });
    expect(parseLadderReply('{"action":{"action":"move","dir":"up","seconds":1}}', false)).toMatchObject({ ok: false, error: expect.stringMatching(/^dir: /) });
    expect(parseLadderReply('I will walk forward', false)).toEqual({ ok: false, error: 'no JSON object in the reply' });
    expect(parseLadderReply('{"answer":"B","reason":"the sign"}', true)).toEqual({ ok: true, action: { action: 'answer', answer: 'B' }, reason: 'the sign' });
    expect(parseLadderReply('{"action":{"action":"look","yaw":10}}', true)).toMatchObject({ ok: false });
  });
});

describe('the ladder model agent', () => {
  let stub: Stub;
  beforeEach(async () => {
    stub = new Stub(reply({ action: 'terminate' }));
    await stub.start();
  });
  afterEach(async () => {
    await stub.close();
  });
  const agent = (apiBase = stub.apiBase) => new LadderOpenAiAgent({ model: 'stub-model', apiBase, apiKey: 'sk-test', timeoutMs: 10_000, sleep: async () => {} });

  it('walks a short navigation to arrival with the oracle\'s actions as replies, sending the view each step', async () => {
    const task = file.tasks.find((t) => t.family === 'short-navigation')!;
    // Script the stub with what the oracle does on this task.
    const ep = new LadderEpisode(world, w.inventory, g, task);
    const oracle = new LadderOracle();
    oracle.begin({ taskId: task.id, family: task.family, instruction: task.instruction }, { world, task, session: ep.session });
    for (let out = null; !out; ) {
      const a = (await oracle.act(ep.observation())).action;
      stub.queue.push(reply(a));
      out = ep.act(a);
    }
    stub.queue.splice(1, 0, completion('walk ahead'));
    const r = await runLadderEpisode(world, w.inventory, g, task, agent(), 0, render);
    expect(r).toMatchObject({ agent: 'openai:stub-model', score: 1, parseErrors: 1 });
    expect(['arrived', 'terminated']).toContain(r.status);
    const first = stub.seen[0].body;
    expect(first.model).toBe('stub-model');
    const sys = first.messages[0].content as string;
    expect(sys).toContain(task.instruction);
    expect(sys).toContain('"sprint" with the same fields runs (3 m/s)');
    const user = first.messages[1].content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(user[0].text).toMatch(/Your position: 47\.\d{6}, 8\.\d{6}\. Goal "/);
    expect(user[1].image_url?.url).toBe(`data:image/png;base64,${Buffer.from(VIEW).toString('base64')}`);
    // The corrective follow-up names the problem.
    const corrected = stub.seen[2].body.messages;
    expect(corrected.at(-1)?.content).toMatch(/could not be used: no JSON object/);
  });

  it('plays every navigation family of the ladder to success on the oracle\'s actions, with the schedule and the closure notice in the step text', { timeout: 60_000 }, async () => {
    const families = ['long-navigation', 'instruction-navigation', 'constrained-navigation', 'place-search', 'implicit-intent', 'schedule', 'multi-stop', 'dynamic-closure', 'pedestrian-navigation'];
    for (const family of families) {
      const task = file.tasks.find((t) => t.family === family)!;
      const ep = new LadderEpisode(world, w.inventory, g, task);
      const oracle = new LadderOracle();
      oracle.begin(null, { world, task, session: ep.session });
      stub.queue.length = 0;
      stub.seen.length = 0;
      for (let out = null; !out; ) {
        const a = (await oracle.act(ep.observation())).action;
        stub.queue.push(reply(a));
        out = ep.act(a);
      }
      const r = await runLadderEpisode(world, w.inventory, g, task, agent(), 0, render);
      expect({ family, score: r.score }).toEqual({ family, score: 1 });
      const texts = stub.seen.map((s) => ((s.body.messages[1].content as { text?: string }[])[0].text ?? ''));
      expect(texts[0]).toMatch(/Your position: 47\.\d{6}, 8\.\d{6}\./);
      if (family === 'schedule') expect(texts[0]).toMatch(/It is \d\d:\d\d\. Appointments:\n1\. .*: next/);
      if (family === 'multi-stop') expect(texts[0]).toMatch(/Route progress: 0\/\d destinations visited\./);
      if (family === 'dynamic-closure') expect(texts.filter((t) => t.includes('NOTICE:'))).toHaveLength(1);
    }
  });

  it('answers a landmark question in its answer turn', async () => {
    const task = file.tasks.find((t) => t.family === 'landmark-qa')!;
    if (task.truth.scoring !== 'choice') throw new Error('not a choice task');
    stub.queue.push(reply({ action: 'look', yaw: 90, pitch: 0 }), reply({ action: 'terminate' }), completion(JSON.stringify({ answer: 'ABCD'[task.truth.answer], reason: 'read the sign' })));
    const r = await runLadderEpisode(world, w.inventory, g, task, agent(), 0, render);
    expect(r).toMatchObject({ status: 'answered', score: 1, steps: 1, answer: 'ABCD'[task.truth.answer] });
    const last = stub.seen[2].body.messages[1].content as { type: string; text?: string }[];
    expect(last[0].text).toContain('Exploration is over. Answer the question with one letter:');
    expect(last[0].text).toContain(`A. ${task.truth.options[0]}`);
  });

  it('ends the episode as agent_error when the endpoint is down, without throwing', async () => {
    const task = file.tasks.find((t) => t.family === 'short-navigation')!;
    const r = await runLadderEpisode(world, w.inventory, g, task, agent(`http://127.0.0.1:${await deadPort()}/v1`), 0, render);
    expect(r.status).toBe('agent_error');
    expect(r.error).toMatch(/openai:stub-model: POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed: no connection/);
    expect(r.score).toBe(0);
  });
});
