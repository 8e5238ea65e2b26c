/**
 * bench/RESULTS.md opens with the current figures, one table per measure, each dated by calendar date
 * and naming its machine; superseded measurements live in bench/RESULTS-history.md, dated too. No entry
 * dates itself by a period of work.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const results = readFileSync(resolve(ROOT, 'bench/RESULTS.md'), 'utf8');
const history = readFileSync(resolve(ROOT, 'bench/RESULTS-history.md'), 'utf8');
const DATE = /20\d\d-\d\d-\d\d/;
const MACHINE = /machine [A-D]\b|2 × (AMD EPYC|Intel Xeon)|Machine: /;

/** The `## ` sections between the first `# Current figures` and the next `# ` heading. */
function currentSections(): string[] {
  const part = results.split(/^# Current figures$/m)[1]?.split(/^# /m)[0];
  if (!part) throw new Error('bench/RESULTS.md: no "# Current figures" part');
  return part.split(/^## /m).slice(1);
}

describe('bench/RESULTS.md', () => {
  it('opens with the current figures, before any measurement section', () => {
    const firstHeadings = results.split('\n').filter((l) => /^#{1,2} /.test(l)).slice(0, 3);
    expect(firstHeadings[0]).toBe('# Benchmark results');
    expect(firstHeadings[1]).toBe('# Current figures');
  });

  it('has one table per measure, each with its date, machine and command', () => {
    const sections = currentSections();
    expect(sections.length).toBeGreaterThanOrEqual(10);
    for (const s of sections) {
      const title = s.split('\n')[0];
      expect(s, title).toMatch(/^\|.*\|\n\|---/m);
      expect(s, title).toMatch(DATE);
      expect(s, title).toMatch(MACHINE);
      expect(s, title).toMatch(/`npm (ci|run) [^`]*`/);
    }
  });

  it('keeps the sections the bench scripts rewrite', () => {
    for (const name of ['splats', 'pedestrians', 'crowd', 'peers', 'peers-cull', 'peers-lod', 'world-scale', 'arena-images']) {
      expect(results).toContain(`<!-- bench:${name} -->`);
      expect(results).toContain(`<!-- /bench:${name} -->`);
    }
  });

  it('dates every history entry', () => {
    const headings = history.split('\n').filter((l) => l.startsWith('## '));
    expect(headings.length).toBeGreaterThanOrEqual(4);
    for (const h of headings) expect(h).toMatch(DATE);
  });

  it('never dates an entry by a period of work', () => {
    for (const text of [results, history]) {
      expect(text).not.toMatch(/this session|last session|sprint|the team\b|today|yesterday|this week|issue \d+|the issue's/i);
    }
  });
});
