/**
 * The camera strips of failed episodes in a results directory (Node side): `DIR/frames/NAME.jpg`
 * (the frames side by side) and `DIR/frames/NAME.json` (`{ "times": [s, …] }`, each frame's episode
 * time), NAME from `stripFileName`. Written before the episode's record is appended, so a resumed run
 * never has a record whose strip is missing for a reason other than the episode having none.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripFileName, type EpisodeRecord } from './episode-record';
import type { EpisodeStrip } from './headless-api';
import type { ReportStrip } from './report-html';

/** The strips folder of a results directory. */
export const stripDir = (dir: string) => join(dir, 'frames');

/** Writes `strip` (base64 JPEG and frame times) as `record`'s strip in `dir`. */
export function writeStrip(dir: string, record: EpisodeRecord, strip: EpisodeStrip): void {
  mkdirSync(stripDir(dir), { recursive: true });
  const name = stripFileName(record);
  writeFileSync(join(stripDir(dir), name), Buffer.from(strip.jpeg, 'base64'));
  writeFileSync(join(stripDir(dir), name.replace(/\.jpg$/, '.json')), `${JSON.stringify({ times: strip.times.map((t) => Math.round(t * 1000) / 1000) })}\n`);
}

/** `record`'s strip in `dir` as the report links it (path relative to `dir`), or undefined when there is none. */
export function readStrip(dir: string, record: EpisodeRecord): ReportStrip | undefined {
  const name = stripFileName(record);
  const jpg = join(stripDir(dir), name);
  if (!existsSync(jpg)) return undefined;
  let times: number[] = [];
  try {
    times = (JSON.parse(readFileSync(jpg.replace(/\.jpg$/, '.json'), 'utf8')) as { times: number[] }).times;
  } catch {
    // A strip without its times still shows.
  }
  return { src: `frames/${name}`, times };
}

/** Copies the strips of every directory in `from` into `to`'s (bench:merge). */
export function copyStrips(from: readonly string[], to: string): void {
  for (const dir of from) if (existsSync(stripDir(dir)) && stripDir(dir) !== stripDir(to)) cpSync(stripDir(dir), stripDir(to), { recursive: true });
}

/** Removes a results directory's strips (`--fresh`). */
export function removeStrips(dir: string): void {
  rmSync(stripDir(dir), { recursive: true, force: true });
}
