/**
 * What a dropped (or opened) file is: an episode recording, scenarios, a splat capture, or an ONNX
 * policy (a `.onnx` model with its `curbside-policy/1` manifest `.json`, dropped together, or the
 * manifest first and the model later). Parsing only; errors name the file (`file: field: problem`).
 * No DOM, no GPU (the model itself is loaded and checked against its manifest by the app shell).
 */
import { parseScenarios, type Scenario } from '../sim/scenario';
import { parsePolicyManifest, type PolicyManifest } from '../policy/manifest';
import { loadGltfSplats, loadSplatFile, sniffSplatFormat } from '../splats/formats';
import type { SplatCloud } from '../splats/splat-cloud';
import { isEpisodeJson, parseEpisodeFile, type EpisodeFile } from './episode-file';

/** A parsed dropped file. */
export type DroppedFile =
  | { kind: 'episode'; name: string; episode: EpisodeFile }
  | { kind: 'scenarios'; name: string; scenarios: Scenario[] }
  | { kind: 'splats'; name: string; cloud: SplatCloud }
  /** A policy manifest dropped alone: kept until its model is dropped. */
  | { kind: 'policy-manifest'; name: string; manifest: PolicyManifest }
  /** A model dropped alone (pair it with a manifest dropped before). */
  | { kind: 'policy-model'; name: string; model: Uint8Array }
  /** A model with its manifest. */
  | { kind: 'policy'; name: string; model: Uint8Array; manifestFile: string; manifest: PolicyManifest };

/** A file's name and bytes. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** Whether parsed JSON claims to be a policy manifest (its `format` starts with `curbside-policy`). */
export function isPolicyManifestJson(json: unknown): boolean {
  const f = (json as { format?: unknown } | null)?.format;
  return typeof json === 'object' && json !== null && typeof f === 'string' && f.startsWith('curbside-policy');
}

const stem = (name: string) => name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').toLowerCase();

/**
 * Parses a dropped file's bytes by its name and content.
 *
 * @throws Error naming the file: unknown type, malformed JSON, a scenario or episode that does not
 *   validate, a policy manifest that does not validate (ManifestError), or a splat file that does not load.
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
    if (isPolicyManifestJson(json)) return { kind: 'policy-manifest', name, manifest: parsePolicyManifest(json, name) };
    if (isEpisodeJson(json)) return { kind: 'episode', name, episode: parseEpisodeFile(name, text) };
    return { kind: 'scenarios', name, scenarios: parseScenarios(name, text) };
  }
  if (lower.endsWith('.onnx')) return { kind: 'policy-model', name, model: bytes };
  if (sniffSplatFormat(name, bytes) || /\.(ply|splat|spz)$/.test(lower)) return { kind: 'splats', name, cloud: loadSplatFile(name, bytes) };
  throw new Error(`${name}: unknown file type (drop a scenario/episode .json, a splat .ply/.splat/.spz/.glb/.gltf, or a policy .onnx with its .json manifest)`);
}

/**
 * Parses one drop of several files. With an `.onnx` among them, the result is that model paired
 * with its manifest: the `.json` of the same name, else the only `.json`, else `pending` (a
 * manifest dropped earlier); the `.json` is validated as a manifest whatever else it contains.
 * Without a model, a `.gltf` among them is loaded with the other files as its external buffers
 * (matched by file name, the buffer `uri`'s last path segment); otherwise the first file is
 * parsed by {@link parseDroppedFile}.
 *
 * @throws Error naming the files: more than one model, no manifest for the model, several `.json`
 *   none of which has the model's name; ManifestError (`manifest: field: problem`); and whatever
 *   {@link parseDroppedFile} throws.
 */
export function parseDroppedFiles(files: readonly NamedBytes[], pending?: { name: string; manifest: PolicyManifest } | null): DroppedFile {
  if (files.length === 0) throw new Error('nothing was dropped');
  const models = files.filter((f) => f.name.toLowerCase().endsWith('.onnx'));
  const gltf = files.find((f) => f.name.toLowerCase().endsWith('.gltf'));
  if (models.length === 0 && gltf) {
    const sibling = (uri: string) => files.find((f) => f !== gltf && f.name === uri.replace(/^.*[\\/]/, ''))?.bytes;
    return { kind: 'splats', name: gltf.name, cloud: loadGltfSplats(gltf.name, gltf.bytes, sibling) };
  }
  if (models.length === 0) return parseDroppedFile(files[0].name, files[0].bytes);
  if (models.length > 1) throw new Error(`${models.map((m) => m.name).join(', ')}: drop one ONNX model at a time (with its .json manifest)`);
  const model = models[0];
  const jsons = files.filter((f) => f.name.toLowerCase().endsWith('.json'));
  const json = jsons.find((j) => stem(j.name) === stem(model.name)) ?? (jsons.length === 1 ? jsons[0] : undefined);
  if (!json && jsons.length > 1) throw new Error(`${model.name}: which manifest? none of ${jsons.map((j) => j.name).join(', ')} has the model's name`);
  if (json) {
    const manifest = parsePolicyManifest(new TextDecoder().decode(json.bytes), json.name);
    return { kind: 'policy', name: model.name, model: model.bytes, manifestFile: json.name, manifest };
  }
  if (pending) return { kind: 'policy', name: model.name, model: model.bytes, manifestFile: pending.name, manifest: pending.manifest };
  throw new Error(`${model.name}: an ONNX model needs its manifest: drop its .json (format curbside-policy/1) with it, or before it`);
}
