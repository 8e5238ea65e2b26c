/**
 * The documentation's references cannot drift: every option of every `npm run` tool is in
 * docs/reference/cli.md and every option documented there exists; both generated pages equal what
 * `test/docs-reference.ts` makes from the code now (rerun `npx tsx test/docs-reference.ts` after
 * changing a tool's options or a file format).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, FORMATS_DOC, cliReference, documentedFlags, formatsReference, loadProgram, programFlags, tools } from './docs-reference';

const REGENERATE = 'run `npx tsx test/docs-reference.ts` to regenerate';

// Importing every tool's module (and what it imports) takes seconds on a loaded 2-core machine.
describe('CLI reference (docs/reference/cli.md)', { timeout: 60_000 }, () => {
  const page = readFileSync(CLI_DOC, 'utf8');
  const documented = documentedFlags(page);

  it('finds the tools and parses the page', () => {
    // Guards the parsers: a change that made them see nothing would pass everything below.
    const scripts = tools().map((t) => t.script);
    expect(scripts).toEqual(expect.arrayContaining(['bench', 'render', 'arena', 'arena:serve', 'bench:peers', 'profile']));
    expect(documented.get('bench')).toEqual(expect.arrayContaining(['--suite', '--policy', '--envs', '--shard', '--stats']));
    expect(documented.get('render')).toEqual(expect.arrayContaining(['--scene', '--world', '--out', '--pedestrian-at']));
  });

  it('documents every tool, and only tools that exist', () => {
    expect([...documented.keys()].sort(), REGENERATE).toEqual(tools().map((t) => t.script).sort());
  });

  it('documents every option of every tool, and no option that no longer exists', async () => {
    const problems: string[] = [];
    for (const tool of tools()) {
      const program = await loadProgram(tool);
      if (!program) continue;
      const actual = programFlags(program);
      const doc = documented.get(tool.script) ?? [];
      for (const f of actual) if (!doc.includes(f)) problems.push(`npm run ${tool.script}: option ${f} is not documented`);
      for (const f of doc) if (!actual.includes(f)) problems.push(`npm run ${tool.script}: documented option ${f} does not exist`);
    }
    expect(problems, REGENERATE).toEqual([]);
  });

  it('every tool that runs a commander program exports it', async () => {
    const missing: string[] = [];
    for (const tool of tools()) if (!(await loadProgram(tool)) && tool.script !== 'policies:examples') missing.push(`${tool.file} (npm run ${tool.script})`);
    expect(missing).toEqual([]);
  });

  it('is exactly what the generator makes from the tools now', async () => {
    expect(page === (await cliReference()), REGENERATE).toBe(true);
  });
});

describe('format reference (docs/reference/formats.md)', () => {
  it('is exactly what the generator makes from the schemas now', () => {
    const page = readFileSync(FORMATS_DOC, 'utf8');
    const fresh = formatsReference();
    expect(fresh).toContain('| `robot.route` | [number, number][] | yes |  | ≥ 2 items |');
    expect(fresh).toContain('## Policy manifest');
    expect(page === fresh, REGENERATE).toBe(true);
  });
});
