/**
 * Episode results as JSON Lines: one line per finished episode, appended and flushed as soon as the
 * episode ends, so an interrupted run loses at most the episode in flight and a rerun resumes by
 * skipping the keys already present. Node-side only.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EpisodeRecord } from './episode-record';

import { episodeKey } from './episode-record';
import { UserError } from '../core/user-error';

export { episodeKey, policyName, type EpisodeRecord } from './episode-record';

/**
 * Reads a JSONL results file (missing file → empty). A truncated last line (a run killed while
 * writing) is ignored; any other malformed line is an error naming the file and line.
 *
 * @throws Error for a malformed line other than the last.
 */
export function readResults<T = EpisodeRecord>(path: string): T[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const out: T[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim())) throw new Error(`${path}:${i + 1}: malformed result line`);
    }
  });
  return out;
}

/** Appends one record as a line (creating directories), synchronously, so it is on disk at return. */
export function appendResult<T = EpisodeRecord>(path: string, record: T): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${JSON.stringify(record)}\n`);
}

/**
 * The shard of a scheduler's array job, for `--shard auto`: a Slurm job array
 * (`SLURM_ARRAY_TASK_ID`, counted from `SLURM_ARRAY_TASK_MIN`, default 0, and `SLURM_ARRAY_TASK_COUNT`)
 * or a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, 0-based; the count from `--shards N`, which
 * Kubernetes does not export). Returns 1-based i of n.
 *
 * @throws UserError when neither scheduler's variables are set, or they are malformed.
 */
export function shardFromEnvironment(env: Record<string, string | undefined>, shards?: number): { index: number; count: number } {
  const int = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || v.trim() === '' || !Number.isInteger(n) || n < 0) throw new UserError(`--shard auto: ${name}=${v ?? ''} is not a non-negative integer`);
    return n;
  };
  if (env.SLURM_ARRAY_TASK_ID !== undefined) {
    const id = int('SLURM_ARRAY_TASK_ID', env.SLURM_ARRAY_TASK_ID);
    const min = env.SLURM_ARRAY_TASK_MIN === undefined ? 0 : int('SLURM_ARRAY_TASK_MIN', env.SLURM_ARRAY_TASK_MIN);
    const count = shards ?? int('SLURM_ARRAY_TASK_COUNT', env.SLURM_ARRAY_TASK_COUNT);
    if (id < min || id - min >= count) {
      throw new UserError(`--shard auto: SLURM_ARRAY_TASK_ID=${id} is outside the ${count} tasks from SLURM_ARRAY_TASK_MIN=${min}${shards === undefined ? '' : ` (--shards ${shards})`}`);
    }
    return { index: id - min + 1, count };
  }
  if (env.JOB_COMPLETION_INDEX !== undefined) {
    if (shards === undefined) throw new UserError('--shard auto: a Kubernetes Indexed Job gives JOB_COMPLETION_INDEX but not the count: add --shards N (the Job\'s completions)');
    const index = int('JOB_COMPLETION_INDEX', env.JOB_COMPLETION_INDEX);
    if (index >= shards) throw new UserError(`--shard auto: JOB_COMPLETION_INDEX=${index} is not below --shards ${shards}`);
    return { index: index + 1, count: shards };
  }
  throw new UserError('--shard auto: no scheduler array index found (SLURM_ARRAY_TASK_ID for a Slurm job array, JOB_COMPLETION_INDEX for a Kubernetes Indexed Job)');
}

/** Parses `--shard i/n` (1-based i). @throws UserError for a malformed shard. */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && index >= 1 && index <= count)) throw new UserError(`--shard ${text}: expected i/n with 1 <= i <= n, e.g. 2/4`);
  return { index, count };
}

/** Merges result sets, keeping the first record of each episode key; returns them sorted by key. */
export function mergeResults(sets: EpisodeRecord[][]): EpisodeRecord[] {
  const byKey = new Map<string, EpisodeRecord>();
  for (const set of sets) for (const r of set) if (!byKey.has(episodeKey(r))) byKey.set(episodeKey(r), r);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
