/**
 * `npm run bench:merge -- --out DIR DIR1 DIR2 …`: combines the `episodes.jsonl` of several runs
 * (e.g. the shards of `npm run bench -- --shard i/n`) into DIR, keeping one record per episode,
 * and writes the summary table, `summary.json` and `report.html` for the whole.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { summarise, summaryTable } from '../bench/aggregate';
import { buildReport } from '../bench/report-html';
import { mergeResults, readResults } from '../bench/results-log';
import { CliError, runCli } from './browser-harness';

const program = new Command('bench:merge')
  .description('Merge benchmark result directories (shards) into one, with summary and report.')
  .requiredOption('--out <dir>', 'output directory')
  .argument('<dirs...>', 'result directories, each with an episodes.jsonl')
  .showHelpAfterError();

runCli(async () => {
  program.parse();
  const out = resolve(program.opts<{ out: string }>().out);
  const sets = program.args.map((dir) => {
    const log = join(resolve(dir), 'episodes.jsonl');
    if (!existsSync(log)) throw new CliError(`${dir}: no episodes.jsonl (is it a bench --out directory?)`);
    return readResults(log);
  });
  const records = mergeResults(sets);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'episodes.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  const rows = summarise(records);
  console.log(`${records.length} episodes from ${sets.length} directories\n\n${summaryTable(rows)}\n`);
  writeFileSync(join(out, 'summary.json'), JSON.stringify({ merged: program.args, rows }, null, 2));
  writeFileSync(join(out, 'report.html'), buildReport({ title: 'Curbside benchmark (merged)', meta: [`merged from: ${program.args.join(', ')}`, `generated ${new Date().toISOString()}`], records }));
  console.log(`wrote ${join(out, 'episodes.jsonl')}, summary.json and report.html`);
});
