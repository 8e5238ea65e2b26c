/**
 * The LLM judge against a local stub endpoint: a valid verdict is read from `is_correct`; prose that
 * says "not incorrect" is no verdict (asked again, then recorded as an error); a malformed reply
 * corrected on the second request counts; an endpoint that is down leaves no verdict and an error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenAiAgent } from './agents/openai';
import { judgeAnswer } from './judge';

let replies: string[] = [];
const seen: string[] = [];
const server: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    seen.push(body);
    const content = replies.shift() ?? '{"is_correct": false}';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'j', object: 'chat.completion', created: 0, model: 'judge', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));
  });
});
const ready = new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = async () => {
  await ready;
  return new OpenAiAgent({ model: 'judge', apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, maxRetries: 0 });
};
const truth = { name: 'Rossi Bakery', aliases: ['12 Oak Street'] };

describe('LLM judge', () => {
  it('reads the verdict from is_correct, fenced or not', async () => {
    replies = ['```json\n{"is_correct": true}\n```'];
    expect(await judgeAnswer(await client(), "Rossi's", truth)).toEqual({ model: 'judge', isCorrect: true, error: null, tokens: 5 });
    expect(seen.at(-1)).toContain('Expected answer: Rossi Bakery (also: 12 Oak Street)');
  });

  it('takes no verdict from prose ("not incorrect") and records the error', async () => {
    replies = ['The answer is not incorrect.', 'It is correct.'];
    expect(await judgeAnswer(await client(), 'Rossi', truth)).toMatchObject({ isCorrect: null, error: expect.stringMatching(/^judge reply did not parse/), tokens: 10 });
  });

  it('counts a reply corrected on the second request', async () => {
    replies = ['{"is_correct": "yes"}', '{"is_correct": false}'];
    expect(await judgeAnswer(await client(), 'Patel Cafe', truth)).toMatchObject({ isCorrect: false, error: null });
  });

  it('leaves no verdict when the endpoint is down', async () => {
    const down = new OpenAiAgent({ model: 'judge', apiBase: 'http://127.0.0.1:9/v1', maxRetries: 0 });
    expect(await judgeAnswer(down, 'Rossi', truth)).toMatchObject({ isCorrect: null, error: expect.stringMatching(/127\.0\.0\.1:9/) });
  });
});
