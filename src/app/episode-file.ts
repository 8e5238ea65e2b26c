/**
 * The recorded-episode format: scenario (inline, so a file replays without the suites), seed,
 * policy name, control rate, the action log and the embodiment (legged robots only). Saved as JSON (`*.episode.json`) or in the URL hash
 * (`#episode=` + base64url of the deflated JSON). Validated with zod; errors name the field.
 *
 * Actions are stored as full doubles (JSON numbers round-trip exactly), so replaying feeds the very
 * same (v, ω) to the same deterministic loop and reproduces the episode bit for bit.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { z } from 'zod';
import { ScenarioSchema, type Scenario } from '../sim/scenario';
import type { VelocityCommand } from '../robot/unicycle';
import { UserError } from '../core/user-error';
import { ROBOT_NAMES } from '../robot/embodiments';
import type { RobotName } from '../robot/robot-spec';

/** Format tag and version of an episode file. */
export const EPISODE_FORMAT = 'curbside-episode';
export const EPISODE_VERSION = 1;

export const EpisodeSchema = z.object({
  format: z.literal(EPISODE_FORMAT),
  version: z.literal(EPISODE_VERSION),
  scenario: ScenarioSchema,
  seed: z.number().int().nonnegative(),
  policy: z.string(),
  rateHz: z.number().positive(),
  /** (v, ω) per control step. */
  actions: z.array(z.tuple([z.number(), z.number()])),
  /** The embodiment that drove (`?robot=`); absent for the wheeled delivery robot (and every file written before embodiments). */
  robot: z.enum(ROBOT_NAMES as [RobotName, ...RobotName[]]).optional(),
});

/** A recorded episode. */
export interface EpisodeFile {
  format: typeof EPISODE_FORMAT;
  version: typeof EPISODE_VERSION;
  scenario: Scenario;
  seed: number;
  policy: string;
  rateHz: number;
  actions: [number, number][];
  /** The embodiment (absent: wheeled). */
  robot?: RobotName;
}

/** Thrown for an episode file or URL that does not parse: `source: field: problem`. */
export class EpisodeFileError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'EpisodeFileError';
  }
}

/** Builds an episode record from what was run (`robot` written only for a legged embodiment, so wheeled files stay as they were). */
export function makeEpisodeFile(scenario: Scenario, seed: number, policy: string, rateHz: number, actions: readonly VelocityCommand[], robot: RobotName = 'wheeled'): EpisodeFile {
  return { format: EPISODE_FORMAT, version: EPISODE_VERSION, scenario, seed, policy, rateHz, actions: actions.map((a) => [a.v, a.w]), ...(robot === 'wheeled' ? {} : { robot }) };
}

/** The logged actions as commands. */
export function episodeActions(e: EpisodeFile): VelocityCommand[] {
  return e.actions.map(([v, w]) => ({ v, w }));
}

/**
 * Parses an episode file's text.
 *
 * @throws EpisodeFileError naming `source` and the first failing field.
 */
export function parseEpisodeFile(source: string, text: string): EpisodeFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new EpisodeFileError(`${source}: not valid JSON (${(e as Error).message})`);
  }
  const r = EpisodeSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new EpisodeFileError(`${source}: ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  }
  return r.data as EpisodeFile;
}

/** True when parsed JSON looks like an episode file (has the format tag). */
export function isEpisodeJson(json: unknown): boolean {
  return !!json && typeof json === 'object' && (json as { format?: unknown }).format === EPISODE_FORMAT;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/** The URL hash (without `#`) that carries an episode: `episode=<base64url(deflate(JSON))>`. */
export function episodeToHash(e: EpisodeFile): string {
  return `episode=${toBase64Url(deflateSync(strToU8(JSON.stringify(e)), { level: 9 }))}`;
}

/**
 * The episode in a URL hash, or null when the hash carries none.
 *
 * @throws EpisodeFileError when the hash has an `episode=` that does not decode.
 */
export function episodeFromHash(hash: string): EpisodeFile | null {
  const m = /(?:^#?|&)episode=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return null;
  let text: string;
  try {
    text = strFromU8(inflateSync(fromBase64Url(m[1])));
  } catch (e) {
    throw new EpisodeFileError(`URL hash: episode does not decode (${(e as Error).message})`);
  }
  return parseEpisodeFile('URL hash', text);
}
