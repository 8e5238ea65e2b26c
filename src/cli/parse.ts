/**
 * Option parsers shared by the command-line tools (used as commander argument parsers); each throws
 * commander's InvalidArgumentError with a message naming the expected form.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { CliError } from '../core/user-error';
import type { Vec3 } from '../gpu/camera';

/** Parses `x,y,z` into three finite numbers. */
export function parseVec3(value: string): Vec3 {
  const parts = value.split(',').map((s) => Number(s.trim()));
  if (parts.length !== 3 || parts.some((v) => !Number.isFinite(v))) {
    throw new InvalidArgumentError(`expected three comma-separated numbers x,y,z, got '${value}'`);
  }
  return parts as Vec3;
}

/** Parses `x,y` into two finite numbers (metres); an empty part is an error. */
export function parseVec2(value: string): [number, number] {
  const parts = value.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
  if (parts.length !== 2 || parts.some((v) => !Number.isFinite(v))) throw new InvalidArgumentError(`expected two comma-separated numbers x,y (metres), got '${value}'`);
  return parts as [number, number];
}

/** Parses `minX,minY,maxX,maxY` (metres) with max > min on both axes. */
export function parseBox(value: string): [number, number, number, number] {
  const parts = value.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
  if (parts.length !== 4 || parts.some((v) => !Number.isFinite(v)) || !(parts[2] > parts[0] && parts[3] > parts[1])) {
    throw new InvalidArgumentError(`expected minX,minY,maxX,maxY (metres, max > min), got '${value}'`);
  }
  return parts as [number, number, number, number];
}

/** Parses an integer in 0..`max` written in decimal digits (seeds). */
export function nonNegativeInt(max: number): (value: string) => number {
  return (value: string) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n <= max)) throw new InvalidArgumentError(`expected an integer in 0..${max}, got '${value}'`);
    return n;
  };
}

/** Parses a positive integer no larger than `max`. */
export function positiveInt(max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`expected an integer in 1..${max}, got '${value}'`);
    return n;
  };
}

/** Parses a number strictly between `lo` and `hi`. */
export function numberBetween(lo: number, hi: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!(n > lo && n < hi)) throw new InvalidArgumentError(`expected a number in (${lo}, ${hi}), got '${value}'`);
    return n;
  };
}

/** Parses a finite number (any sign). */
export function finiteNumber(value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`expected a finite number, got '${value}'`);
  return n;
}

/** Parses a finite number ≥ 0. */
export function nonNegative(value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!(n >= 0 && Number.isFinite(n))) throw new InvalidArgumentError(`expected a finite number ≥ 0, got '${value}'`);
  return n;
}

/**
 * Makes a folder and its missing parents, one level at a time (Node 20's recursive mkdir never returns
 * under /proc), and checks it can hold files.
 *
 * @param option the option that named it, for the message (`--out`).
 * @throws CliError `OPTION DIR: cannot create it (reason)`.
 */
export function ensureFolder(dir: string, option: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  try {
    if (!statSync(at).isDirectory()) throw Object.assign(new Error('not a folder'), { code: `${at} is not a folder` });
    for (const m of missing) mkdirSync(m);
    accessSync(resolve(dir), constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${option} ${dir}: cannot create it (${code ?? (e as Error).message})`);
  }
}

/**
 * Writes a tool's output file, making its folder first.
 *
 * @param option the option that named the file, for the message (default `--out`).
 * @throws CliError `OPTION FILE: cannot write it (reason)` instead of Node's stack, e.g. for a folder path.
 */
export function writeOutput(file: string, text: string, option = '--out'): void {
  try {
    ensureFolder(dirname(file), option);
    writeFileSync(file, text);
  } catch (e) {
    if (e instanceof CliError) throw new CliError(e.message.replace(`${option} ${dirname(file)}: cannot create it`, `${option} ${file}: cannot write it`));
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${option} ${file}: cannot write it (${code === 'EISDIR' ? 'it is a folder; give a file name' : code ?? (e as Error).message})`);
  }
}

/** Parses a world side length, metres, in [150, 2000] (generateWorld's range). */
export function worldSize(value: string): number {
  const n = Number(value);
  if (!(n >= 150 && n <= 2000)) throw new InvalidArgumentError(`expected metres in [150, 2000], got '${value}'`);
  return n;
}
