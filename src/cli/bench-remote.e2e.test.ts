/**
 * End to end: `npm run bench -- --policy ws://127.0.0.1:PORT` starts the relay, prints its URL and
 * token, waits for the model process (here the drive-straight example client,
 * src/policy/examples/remote-example-client.ts, in this process), runs one short smoke scenario in
 * headless Chromium (SwiftShader) with the robot camera feeding the remote model, and writes the
 * episode under the policy's name; a rerun with the same --out resumes (nothing to run, no relay).
 * The scenario's time limit is cut to 2 s (8 control steps) to keep the test short.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStraightClient, type ClientStats } from '../policy/examples/remote-example-client';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-bench-remote-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Runs `npm run bench -- …args`; `onLine` sees stdout lines as they come. */
function bench(args: string[], onLine: (line: string) => void = () => undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((res) => {
    const child = spawn('npm', ['run', '--silent', 'bench', '--', ...args], { cwd: ROOT, env: { ...process.env, CURBSIDE_REMOTE_TOKEN: '' } });
    let output = '';
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      lines.forEach(onLine);
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => res({ code, output }));
  });
}

describe('npm run bench with a remote policy', () => {
  it('runs smoke/straight/000 through the relay with the example client and records it under the ws:// name', async () => {
    const smoke = JSON.parse(readFileSync(join(ROOT, 'scenes/suites/smoke.json'), 'utf8')) as unknown;
    const scenarios = (Array.isArray(smoke) ? smoke : (smoke as { scenarios: unknown[] }).scenarios) as { id: string; timeLimit: number; robot: { start: number[] } }[];
    const scenario = scenarios.find((s) => s.id === 'smoke/straight/000')!;
    const suite = join(dir, 'suite.json');
    writeFileSync(suite, JSON.stringify([{ ...scenario, timeLimit: 2 }]));
    const policy = `ws://127.0.0.1:${await freePort()}`;
    const out = join(dir, 'out');
    const args = ['--suite', suite, '--policy', policy, '--seeds', '1', '--out', out, '--remote-wait', '60'];

    let client: Promise<ClientStats> | undefined;
    const run = await bench([...args, '--fresh'], (line) => {
      const m = /remote-example-client\.ts --url (\S+) --token (\S+)/.exec(line);
      if (m && !client) client = runStraightClient({ url: m[1], token: m[2], speed: 0.8 });
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`remote policy ${policy}: relay at ${policy}, token `);
    expect(run.output).toMatch(/model 'drive-straight' connected \(4 Hz, 16×12, 1 frame\(s\), goal none, output cmd\)/);
    expect(client, 'the runner printed the client command').toBeDefined();
    const stats = await client!;
    expect(stats.resets).toBe(1);
    expect(stats.observations).toBe(8); // 2 s at 4 Hz
    expect(stats.end).toEqual({ type: 'done', episodes: 1 }); // then a close frame: the client exits 0

    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { policy: string; scenarioId: string; end: string; distance: number; trajectory: number[][] });
    expect(records).toHaveLength(1);
    const [r] = records;
    expect(r.policy).toBe(policy);
    expect(r.scenarioId).toBe('smoke/straight/000');
    expect(r.end).toBe('timeout');
    expect(r.distance).toBeGreaterThan(0.5);
    // Drove straight: the start heading is −π/2, so x never changes.
    for (const [, x] of r.trajectory) expect(x).toBeCloseTo(scenario.robot.start[0], 3);

    // Resume: the same --out has the episode under the same key, so nothing runs and no relay starts.
    const again = await bench(args);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('0 to run');
    expect(again.output).not.toContain('relay at');
  }, 120_000);
});
