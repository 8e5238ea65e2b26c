/**
 * End to end: a user's mistake on the command line (a suite file that does not validate, a bad
 * --shard, a file that is not a splat capture) ends in exactly one `error: …` line on stderr and
 * exit status 1, never a stack trace. The tools run as a user runs them (`npx tsx src/cli/…`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-user-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(tool: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli', tool), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
}

describe('user errors on the command line', () => {
  const bad = join(dir, 'bad-suite.json');
  writeFileSync(bad, JSON.stringify({ version: 1, scenarios: [{ id: 3 }] }));
  const cases: [string, string, string[], RegExp][] = [
    ['a suite file that does not validate', 'bench.ts', ['--suite', bad], /^error: .*bad-suite\.json: 0\.id: .*expected string/],
    ['a malformed --shard', 'bench.ts', ['--shard', '3/2'], /^error: --shard 3\/2: expected i\/n with 1 <= i <= n/],
    ['a file that is not a splat capture', 'render.ts', ['--scene', bad, '--out', join(dir, 'x.png')], /^error: bad-suite\.json: unknown splat format/],
  ];
  for (const [what, tool, args, message] of cases) {
    it(`${what}: one error line, exit 1, no stack`, { timeout: 300_000 }, () => {
      const r = run(tool, args);
      const lines = r.stderr.trim().split('\n');
      expect(r.status, r.stderr).toBe(1);
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});
