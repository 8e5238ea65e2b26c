/**
 * What a dropped (or opened) file is: an episode recording, scenarios, or a splat capture.
 * Parsing only; errors name the file (`file: field: problem`). No DOM.
 */
import { parseScenarios, type Scenario } from '../bench/scenario';
import { loadSplatFile, sniffSplatFormat } from '../splats/formats';
import type { SplatCloud } from '../splats/splat-cloud';
import { isEpisodeJson, parseEpisodeFile, type EpisodeFile } from './episode-file';

/** A parsed dropped file. */
export type DroppedFile =
  | { kind: 'episode'; name: string; episode: EpisodeFile }
  | { kind: 'scenarios'; name: string; scenarios: Scenario[] }
  | { kind: 'splats'; name: string; cloud: SplatCloud };

/**
 * Parses a dropped file's bytes by its name and content.
 *
 * @throws Error naming the file: unknown type, malformed JSON, a scenario or episode that does not
 *   validate, a splat file that does not load, or an ONNX model (not wired into the demo yet).
 */
export function parseDroppedFile(name: string, bytes: Uint8Array): DroppedFile {
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) {
    const text = new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`${name}: not valid JSON (${(e as Error).message})`);
    }
    if (isEpisodeJson(json)) return { kind: 'episode', name, episode: parseEpisodeFile(name, text) };
    return { kind: 'scenarios', name, scenarios: parseScenarios(name, text) };
  }
  if (lower.endsWith('.onnx')) throw new Error(`${name}: ONNX policies are not wired into the demo yet (use the expert or teleop)`);
  if (sniffSplatFormat(name, bytes) || /\.(ply|splat|spz)$/.test(lower)) return { kind: 'splats', name, cloud: loadSplatFile(name, bytes) };
  throw new Error(`${name}: unknown file type (drop a scenario/episode .json or a splat .ply/.splat/.spz)`);
}
