/**
 * Byte helpers shared by every layer's page-side code: fetching a URL's bytes (files the CLI harness
 * serves, captures the demo opens) and returning binary data as base64 (headless-page results).
 */

/**
 * Fetches the bytes at `url` (e.g. a file the CLI harness serves, see browser-harness.ts `serveFile`).
 *
 * @throws Error `name: cannot read file (status)` when the fetch fails.
 */
export async function fetchBytes(url: string, name: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${name}: cannot read file (${res.status} ${res.statusText})`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Base64 of a byte array (chunked, so large images do not overflow the argument limit). */
export function toBase64(bytes: Uint8ClampedArray | Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
