/**
 * README.md is the front page: at most 12 KB, and its two set-up commands are the ones CI (`.ci/run`)
 * and package.json run: `npm ci && npm run bench` for the benchmark, `npm test` (through `.ci/run`)
 * for the tests, with the test command quoted as package.json defines it. Its relative links name
 * files that exist.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const ci = readFileSync(resolve(ROOT, '.ci/run'), 'utf8');

/** The shell block under "## The two commands", without comments and blank lines. */
function twoCommands(): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('The two commands'));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ```sh block under "## The two commands"');
  return block[1].split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));
}

describe('README.md', () => {
  it('is at most 12 KB', () => {
    expect(statSync(resolve(ROOT, 'README.md')).size).toBeLessThanOrEqual(12 * 1024);
  });

  it('gives the two commands: set up and run the bench, set up and pass the tests', () => {
    expect(twoCommands()).toEqual(['apt-get update && apt-get install -y chromium && npm ci && npm run bench', 'bash .ci/run']);
  });

  it("its commands are the ones .ci/run and package.json run", () => {
    expect(pkg.scripts.bench).toBe('tsx src/cli/bench.ts');
    // .ci/run installs with npm ci and then runs exactly `npm test`.
    const steps = ci.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(steps).toContain('npm ci --no-audit --no-fund');
    expect(steps.at(-1)).toBe('npm test');
    // The README quotes the test command as package.json defines it.
    expect(readme).toContain(`\`npm test\` (\`${pkg.scripts.test}\`) is the test command`);
    expect(pkg.scripts.test).toContain('npm run docs:build');
  });

  it('has the five-minute tour and the results headline', () => {
    expect(readme).toMatch(/^## A five-minute tour$/m);
    for (const command of ['npm run bench', 'npm run dev', 'npm run arena -- --agent', 'npm run render -- --scene']) expect(readme).toContain(command);
    expect(readme).toMatch(/^## Results$/m);
    // Every results row names its date.
    const rows = readme.split(/^## Results$/m)[1].split(/^## /m)[0].split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| measure'));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row).toMatch(/20\d\d-\d\d-\d\d/);
  });

  it('links only to files that exist', () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !existsSync(resolve(dirname(resolve(ROOT, 'README.md')), l)))).toEqual([]);
  });
});
