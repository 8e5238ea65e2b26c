/**
 * Writes one benchmark's section of `bench/RESULTS.md`, between `<!-- bench:NAME -->` markers,
 * replacing that section's previous figures and leaving the other benchmarks' sections alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export const RESULTS_PATH = new URL('../../bench/RESULTS.md', import.meta.url);

/** One line naming the host machine and the WebGPU adapter the figures came from. */
export function machineLine(adapter: string, software: boolean): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const mem = (totalmem() / 2 ** 30).toFixed(0);
  return (
    `Machine: ${cpus().length} × ${cpu}, ${mem} GiB; WebGPU adapter: ${adapter}.` +
    (software ? ' **Software rendering (no GPU): these are not GPU figures; compare ratios only.**' : '')
  );
}

/** Replaces (or appends) the section for `name` with `body`. */
export function writeResultsSection(name: string, body: string): void {
  const begin = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  let text = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '# Benchmark results\n\nWritten by the `npm run bench:*` scripts; each section is replaced when its benchmark reruns.\n';
  const section = `${begin}\n${body.trim()}\n${end}`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + section + text.slice(j + end.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS_PATH, text);
}

/** A Markdown table from a header and rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
