/**
 * End to end, as a user runs it: `npm run arena` on two families of the checked-in suite writes a
 * record per episode, a summary and a report; a rerun resumes (nothing to run, same records); a
 * record cut off mid-write (kill -9) is dropped and its episode run again with the same result;
 * `arena:tasks --stats --json` writes the per-family counts beside the paper's statistics. A seeing
 * agent (`openai:MODEL` against a local stub endpoint) gets a rendered first-person PNG, the
 * current-location map and the task's reference image, and its failure's last view lands in frames/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-arena-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(tool: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli', tool), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
}

describe('npm run arena', () => {
  const out = join(dir, 'run');
  const args = ['--suite', 'cityarena', '--agent', 'oracle', 'random', '--family', 'map-navigation', 'relational', '--out', out];

  it('writes records, summary and report, and resumes', { timeout: 300_000 }, () => {
    const r = run('arena.ts', args);
    expect(r.status, r.stderr).toBe(0);
    const log = join(out, 'episodes.jsonl');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(100);
    const recs = lines.map((l) => JSON.parse(l));
    for (const rec of recs) {
      expect(Object.keys(rec)).toEqual(expect.arrayContaining(['task', 'family', 'difficulty', 'agent', 'status', 'score', 'actions', 'answer', 'run']));
      expect(rec.score).toBeGreaterThanOrEqual(0);
      expect(rec.score).toBeLessThanOrEqual(1);
    }
    expect(recs.filter((x) => x.agent === 'oracle').every((x) => x.score === 1 && x.status === 'answered')).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.rows.map((x: { agent: string }) => x.agent)).toEqual(['oracle', 'random']);
    expect(summary.rows[0].families['map-navigation']).toBe(100);
    expect(summary.suiteHash).toMatch(/^[0-9a-f]{16}$/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Table 2');
    expect(html).toContain('<svg');
    expect(existsSync(join(out, 'map.png'))).toBe(true);
    // Only the families run get columns.
    expect(r.stdout).toMatch(/agent\s+Map Nav\s+Rel Reason\s+overall\s+easy\s+medium\s+hard/);
    expect(r.stdout).toMatch(/oracle\s+100\.0\s+100\.0\s+100\.0/);

    const again = run('arena.ts', args);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/, 0 to run,/);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(lines);

    // kill -9 mid-write: the last record is cut off; the rerun drops it and runs that episode again.
    writeFileSync(log, `${lines.slice(0, 99).join('\n')}\n`);
    appendFileSync(log, lines[99].slice(0, 40));
    const resumed = run('arena.ts', args);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/, 1 to run,/);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(lines);
  });

  it('refuses to resume another suite\'s records in the same folder', { timeout: 120_000 }, () => {
    const suite = JSON.parse(readFileSync(join(ROOT, 'scenes/arena/cityarena.json'), 'utf8'));
    const [a, b] = [join(dir, 'two.json'), join(dir, 'three.json')];
    writeFileSync(a, JSON.stringify({ ...suite, tasks: suite.tasks.slice(0, 2) }));
    writeFileSync(b, JSON.stringify({ ...suite, tasks: suite.tasks.slice(0, 3) }));
    const out3 = join(dir, 'mixed');
    expect(run('arena.ts', ['--suite', a, '--out', out3]).status).toBe(0);
    const r = run('arena.ts', ['--suite', b, '--out', out3]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^error: --out .*mixed: holds records of another suite \(cityarena, world 1 \(600 m\), hash [0-9a-f]{16}; this is cityarena, world 1 \(600 m\), hash [0-9a-f]{16}\); use --fresh or another --out$/);
    expect(run('arena.ts', ['--suite', b, '--out', out3, '--fresh']).status).toBe(0);
  });

  it('--conditions gives one row per agent and condition, records carrying the condition', { timeout: 120_000 }, () => {
    const out2 = join(dir, 'conditions');
    const r = run('arena.ts', ['--agent', 'oracle', '--family', 'count', '--conditions', 'day,night', '--out', out2]);
    expect(r.status, r.stderr).toBe(0);
    const recs = readFileSync(join(out2, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(recs).toHaveLength(50);
    expect(new Set(recs.map((x) => x.condition))).toEqual(new Set(['day', 'night']));
    const summary = JSON.parse(readFileSync(join(out2, 'summary.json'), 'utf8'));
    expect(summary.rows.map((x: { agent: string }) => x.agent)).toEqual(['oracle@day', 'oracle@night']);
    expect(summary.conditions).toBe('day, night');
  });

  it('arena:tasks --stats --json writes counts and statistics beside the paper\'s', { timeout: 120_000 }, () => {
    const json = join(dir, 'stats.json');
    const r = run('arena-tasks.ts', ['--stats', '--json', json]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/map-navigation: path length, m\s+\d+\.\d \/ 124\.0/);
    const s = JSON.parse(readFileSync(json, 'utf8'));
    expect(s.counts.vln).toEqual({ easy: 9, medium: 8, hard: 8 });
    expect(s.statistics.find((x: { family: string; measure: string }) => x.family === 'count' && x.measure === 'true count').paper).toEqual({ easy: 3.5, medium: 4.6, hard: 9 });
  });
});

describe('npm run arena with a seeing agent', () => {
  it('sends the rendered view, the location map and the reference image to an OpenAI-compatible endpoint', { timeout: 300_000 }, async () => {
    const suite = JSON.parse(readFileSync(join(ROOT, 'scenes/arena/cityarena.json'), 'utf8'));
    suite.tasks = [suite.tasks.find((t: { family: string }) => t.family === 'landmark-image')];
    const suitePath = join(dir, 'one-task.json');
    writeFileSync(suitePath, JSON.stringify(suite));
    const bodies: { messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[] }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        const reply = bodies.length === 1 ? { action: 'D', answer: 'SMALL', thought: 'look right', memory: '' } : { action: 'ANSWER', answer: 'here', thought: 'done', memory: '' };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'stub', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(reply) } }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const out = join(dir, 'seeing');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/arena.ts'), '--suite', suitePath, '--agent', 'openai:stub', '--api-base', `http://127.0.0.1:${port}/v1`, '--width', '160', '--height', '120', '--frames', '--out', out], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    server.close();
    expect(code, stderr).toBe(0);
    expect(bodies).toHaveLength(2);
    const parts = bodies[0].messages.at(-1)!.content as { type: string; text?: string; image_url?: { url: string } }[];
    const images = parts.filter((p) => p.type === 'image_url').map((p) => PNG.sync.read(Buffer.from(p.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64')));
    expect(images.map((i) => [i.width, i.height])).toEqual([[160, 120], [640, 640], [160, 120]]);
    const distinct = new Set<number>();
    for (let i = 0; i < images[0].data.length; i += 4) distinct.add((images[0].data[i] << 16) | (images[0].data[i + 1] << 8) | images[0].data[i + 2]);
    expect(distinct.size).toBeGreaterThan(50);
    const rec = JSON.parse(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim());
    expect([rec.agent, rec.status, rec.tokens, rec.actions.map((a: { action: string }) => a.action)]).toEqual(['openai:stub', 'answered', 30, ['D SMALL', 'ANSWER here']]);
    if (rec.score < 1) expect(existsSync(join(out, 'frames', `openai_stub__${rec.task}__0.png`))).toBe(true);
    const steps = join(out, 'frames', `openai_stub__${rec.task}__0`);
    expect(['step-000.png', 'step-001.png'].map((f) => PNG.sync.read(readFileSync(join(steps, f))).width)).toEqual([160, 160]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.promptHash).toMatch(/^[0-9a-f]{16}$/);
  });
});
