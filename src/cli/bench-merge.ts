/**
 * `npm run bench:merge -- --out DIR DIR1 DIR2 …`: combines the `episodes.jsonl` of several runs
 * (e.g. the shards of `npm run bench -- --shard i/n`) into DIR, keeping one record per episode,
 * and writes the summary table, `summary.json` and `report.html` for the whole. The runs must be of
 * one embodiment (`--robot`); directories of different robots are refused.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { conditionsTable, summarise, summaryTable } from '../bench/aggregate';
import { buildReport } from '../bench/report-html';
import { copyStrips, readStrip } from '../bench/strip-files';
import { mergeResults, readResults } from '../bench/results-log';
import { CliError } from '../core/user-error';
import { isEntryPoint, runCli } from './run-cli';

export const program = new Command('bench:merge')
  .description('Merge benchmark result directories (shards) into one, with summary and report.')
  .requiredOption('--out <dir>', 'output directory')
  .argument('<dirs...>', 'result directories, each with an episodes.jsonl');

if (isEntryPoint(import.meta.url)) runCli(async () => {
  program.parse();
  const out = resolve(program.opts<{ out: string }>().out);
  const sets = program.args.map((dir) => {
    const log = join(resolve(dir), 'episodes.jsonl');
    if (!existsSync(log)) throw new CliError(`${dir}: no episodes.jsonl (is it a bench --out directory?)`);
    return readResults(log);
  });
  // One embodiment per merge: a wheeled shard beside a dog's would average two different robots.
  const robotsOf = sets.map((set) => new Set(set.map((r) => r.robot ?? 'wheeled')));
  const robots = new Set(robotsOf.flatMap((r) => [...r]));
  if (robots.size > 1) {
    const which = program.args.map((dir, k) => `${dir}: ${[...robotsOf[k]].join(' and ') || 'no episodes'}`).join('; ');
    throw new CliError(`the directories hold episodes of different robots (${which}); merge the runs of one --robot at a time`);
  }
  const robot = [...robots][0] ?? 'wheeled';
  // What each run says about itself (summary.json, written when a run finishes): its shard and setup.
  type RunSummary = { suite?: string; policies?: string[]; seeds?: number; crowd?: string; adapter?: string; shard?: { index: number; count: number } };
  const summaries = program.args.map((dir): RunSummary | null => {
    try {
      return JSON.parse(readFileSync(join(resolve(dir), 'summary.json'), 'utf8')) as RunSummary;
    } catch {
      return null;
    }
  });
  const shards = summaries.map((m) => m?.shard).filter((x): x is { index: number; count: number } => !!x && x.count > 1);
  const counts = new Set(shards.map((x) => x.count));
  if (counts.size > 1) console.warn(`bench:merge: warning: the directories are shards of different splits (${[...counts].map((n) => `of ${n}`).join(', ')})`);
  else if (counts.size === 1) {
    const n = [...counts][0];
    const have = new Set(shards.map((x) => x.index));
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length > 0) console.warn(`bench:merge: warning: shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${n}`).join(', ')} not among the inputs: the summary covers part of the suite`);
  }
  const same = <K extends keyof RunSummary>(key: K): RunSummary[K] | undefined => {
    const values = new Set(summaries.map((m) => JSON.stringify(m?.[key])));
    return values.size === 1 && summaries[0]?.[key] !== undefined ? summaries[0][key] : undefined;
  };
  const records = mergeResults(sets);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'episodes.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  const rows = summarise(records);
  console.log(`${records.length} episodes from ${sets.length} directories\n\n${summaryTable(rows)}\n`);
  const comparison = conditionsTable(rows);
  if (comparison) console.log(`Conditions side by side (same scenarios, same seeds):\n${comparison}\n`);
  const setup = { suite: same('suite'), policies: same('policies'), seeds: same('seeds'), crowd: same('crowd'), adapter: same('adapter'), shards: shards.length ? shards : undefined };
  writeFileSync(join(out, 'summary.json'), JSON.stringify({ merged: program.args, ...setup, robot, rows }, null, 2));
  copyStrips(program.args, out);
  writeFileSync(join(out, 'report.html'), buildReport({ title: `Curbside benchmark (merged${robot === 'wheeled' ? '' : `, ${robot}`})`, meta: [`merged from: ${program.args.join(', ')}`, `robot: ${robot}`, `generated ${new Date().toISOString()}`], records, strip: (r) => readStrip(out, r) }));
  console.log(`wrote ${join(out, 'episodes.jsonl')}, summary.json and report.html`);
});
