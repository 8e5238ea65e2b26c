/**
 * `npm run bench:gpu`'s plan cannot drift from the tools it runs: every step's arguments parse
 * with that tool's own commander program (an option renamed or removed there fails here), and the
 * tables a step prints are what the RESULTS section collects.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadProgram, tools } from '../test/docs-reference';
import { gpuSteps, printedFigures, printedTables } from './gpu';

describe('bench:gpu steps', () => {
  const steps = gpuSteps('/tmp/curbside-gpu');
  it('cover the measures the RESULTS section needs, each with --gpu', () => {
    expect(steps.map((s) => s.name)).toEqual(['peers', 'profile', 'pedestrians', 'crowd', 'smoke-envs1', 'smoke-envs8', 'arena', 'arena-images']);
    for (const s of steps) expect(s.args, s.name).toContain('--gpu');
    expect(steps.find((s) => s.name === 'profile')?.args).toContain('--full');
    expect(steps.find((s) => s.name === 'smoke-envs8')?.args.join(' ')).toMatch(/--suite smoke --envs 8 --stats/);
  });
  for (const s of steps) {
    it(`${s.name}: its arguments parse with ${s.file}'s own options`, async () => {
      const tool = tools().find((t) => t.file === s.file);
      expect(tool, `${s.file} is an npm run tool`).toBeDefined();
      const program = (await loadProgram(tool!)) as Command;
      const errors: string[] = [];
      program.exitOverride().configureOutput({ writeErr: (e) => errors.push(e), writeOut: () => {} });
      expect(() => program.parse(s.args, { from: 'user' })).not.toThrow();
      expect(errors).toEqual([]);
      expect(program.opts().gpu).toBe(true);
    });
  }
  it('a tool whose option is gone fails the parse (the check above can fail)', async () => {
    const program = (await loadProgram(tools().find((t) => t.file === 'bench/crowd.ts')!)) as Command;
    program.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    expect(() => program.parse(['--gpu', '--full'], { from: 'user' })).toThrow(/unknown option '--full'/);
  });
});

describe('printedTables', () => {
  it('keeps the Markdown tables a step printed, one blank line apart, and drops the rest', () => {
    const out = ['bench: 10 episodes', '| a | b |', '| --- | --- |', '| 1 | 2 |', 'progress 3/10', '| x |', '', '| c |', '| --- |', '| 3 |', '| 4 |', 'done'].join('\n');
    expect(printedTables(out)).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| c |\n| --- |\n| 3 |\n| 4 |');
    expect(printedTables('no tables here\n')).toBe('');
  });
});

describe('printedFigures', () => {
  it('is the tables when there are any, else the closing lines without progress as a text block', () => {
    expect(printedFigures('x\n| a |\n| --- |\n| 1 |\n')).toBe('| a |\n| --- |\n| 1 |');
    const arena = ['5/22 episodes · 0s · ETA 0s · success 100.0%', 'agent  overall', 'oracle  100.0', '', '22 episodes in out/x'].join('\n');
    expect(printedFigures(arena)).toBe('```text\nagent  overall\noracle  100.0\n22 episodes in out/x\n```');
    expect(printedFigures(arena, 2)).toBe('```text\noracle  100.0\n22 episodes in out/x\n```');
    expect(printedFigures('')).toBe('');
  });
});
