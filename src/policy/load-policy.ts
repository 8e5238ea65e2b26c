/**
 * Loads a policy from its two files (`model.onnx` + `model.json` beside it) over HTTP(S) in the
 * page: the Vite dev server for `assets/policies/…`, or a URL the CLI harness serves.
 */
import { parsePolicyManifest, type PolicyManifest } from './manifest';

/** The manifest URL beside a model URL: `…/name.onnx` → `…/name.json`. */
export function manifestUrlFor(modelUrl: string): string {
  const u = new URL(modelUrl, globalThis.location?.href ?? 'http://localhost/');
  if (!u.pathname.endsWith('.onnx')) throw new Error(`${modelUrl}: a policy model file must end in .onnx`);
  u.pathname = `${u.pathname.slice(0, -'.onnx'.length)}.json`;
  return u.href;
}

/** Model bytes and validated manifest, with the names errors use. */
export interface PolicyFiles {
  model: Uint8Array;
  manifest: PolicyManifest;
  modelFile: string;
  manifestFile: string;
}

async function fetchOk(url: string, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`${url}: cannot fetch the ${what}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new Error(`${url}: cannot fetch the ${what}: HTTP ${res.status}`);
  return res;
}

/**
 * Fetches a model and the manifest beside it and validates the manifest.
 *
 * @param manifestUrl Overrides the manifest location (default: {@link manifestUrlFor}).
 * @throws Error naming the URL when either file cannot be fetched; ManifestError
 *   (`<manifest>: field: problem`) when the manifest is invalid.
 */
export async function fetchPolicyFiles(modelUrl: string, manifestUrl = manifestUrlFor(modelUrl)): Promise<PolicyFiles> {
  const [modelRes, manifestRes] = await Promise.all([fetchOk(modelUrl, 'policy model'), fetchOk(manifestUrl, 'policy manifest')]);
  const manifest = parsePolicyManifest(await manifestRes.text(), manifestUrl);
  return { model: new Uint8Array(await modelRes.arrayBuffer()), manifest, modelFile: modelUrl, manifestFile: manifestUrl };
}
