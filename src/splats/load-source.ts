/**
 * Loads a splat capture the page can fetch, in any supported layout: one file (INRIA / compressed
 * PLY, .spz, .splat, glTF `.glb` / self-contained `.gltf`; a bundled SOG `.sog` zip), an unbundled SOG `meta.json` with its images, or a
 * folder of several SOG datasets rendered as one scene (e.g. the ten tiles of a city capture).
 * Browser-side (fetch, WebP decoding on the GPU).
 */
import { unzipSync } from 'fflate';
import { fetchBytes } from '../core/bytes';
import { loadSplatFile } from './formats';
import { loadSog, parseSogMeta, type SogFileReader } from './formats/sog';
import { webpDecoder } from './formats/webp-decode';
import { concatSplatClouds, SplatFormatError, type SplatCloud } from './splat-cloud';

/** Where a capture is: a URL and its file name, and for a folder the `meta.json` files in it. */
export interface SplatSource {
  /** URL of the file, or of the folder (ending in `/`) when `sogParts` is given. */
  url: string;
  /** File or folder name (format detection and error messages). */
  name: string;
  /** For a folder: paths of the SOG `meta.json` files inside it, relative to `url`. */
  sogParts?: string[];
}

/** Reader for files next to `metaUrl` (an unbundled SOG). */
function siblingReader(metaUrl: string, label: string): SogFileReader {
  const base = metaUrl.slice(0, metaUrl.lastIndexOf('/') + 1);
  return (file) => fetchBytes(base + file.split('/').map(encodeURIComponent).join('/'), `${label}: ${file}`);
}

/** A file's name and bytes (e.g. dropped on the demo). */
export interface NamedSplatFile {
  name: string;
  bytes: Uint8Array;
}

/** Whether a set of files is a SOG capture: a bundled `.sog`, or a `meta.json` with its images. */
export function isSogFileSet(files: readonly NamedSplatFile[]): boolean {
  return files.some((f) => /\.sog$/i.test(f.name)) || (files.some((f) => f.name === 'meta.json') && files.some((f) => /\.webp$/i.test(f.name)));
}

/**
 * Loads a SOG capture from files in memory: a bundled `.sog`, or `meta.json` with the images it
 * names (all the files of an unbundled folder, dropped together).
 *
 * @throws SplatFormatError naming the file that is missing or wrong.
 */
export async function loadSogFiles(files: readonly NamedSplatFile[], device: GPUDevice): Promise<SplatCloud> {
  const bundled = files.find((f) => /\.sog$/i.test(f.name));
  if (bundled) return loadBundledSog(bundled.name, bundled.bytes, device);
  const meta = files.find((f) => f.name === 'meta.json');
  if (!meta) throw new SplatFormatError('dropped files', 'a SOG capture needs its meta.json (or one bundled .sog)');
  const read: SogFileReader = async (name) => {
    const f = files.find((x) => x.name === name);
    if (!f) throw new SplatFormatError('meta.json', `names ${name}, which was not dropped with it (drop every file of the SOG folder together)`);
    return f.bytes;
  };
  return loadSog('meta.json', parseSogMeta('meta.json', new TextDecoder().decode(meta.bytes)), read, webpDecoder(device));
}

/** A bundled SOG (zip of meta.json and its images). */
async function loadBundledSog(name: string, bytes: Uint8Array, device: GPUDevice): Promise<SplatCloud> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (e) {
    throw new SplatFormatError(name, `not a zip archive (${(e as Error).message})`);
  }
  const metaName = Object.keys(entries).find((k) => /(^|\/)meta\.json$/.test(k));
  if (!metaName) throw new SplatFormatError(name, `no meta.json in the archive (entries: ${Object.keys(entries).slice(0, 8).join(', ') || 'none'})`);
  const dir = metaName.slice(0, metaName.lastIndexOf('/') + 1);
  const read: SogFileReader = async (file) => {
    const data = entries[dir + file];
    if (!data) throw new SplatFormatError(name, `meta.json names ${file}, which is not in the archive`);
    return data;
  };
  return loadSog(name, parseSogMeta(`${name}: meta.json`, new TextDecoder().decode(entries[metaName])), read, webpDecoder(device));
}

/**
 * Loads `source` into one cloud (frame as stored in the capture).
 *
 * @param device GPU device used to decode SOG images (any device; nothing stays on it).
 * @throws SplatFormatError naming the file and the problem (unknown format, missing image, bad meta.json, …).
 */
export async function loadSplatSource(source: SplatSource, device: GPUDevice): Promise<SplatCloud> {
  const decode = webpDecoder(device);
  if (source.sogParts) {
    if (source.sogParts.length === 0) throw new SplatFormatError(source.name, 'folder has no SOG meta.json (in it or in its sub-folders)');
    const clouds: SplatCloud[] = [];
    for (const part of source.sogParts) {
      const label = `${source.name}/${part}`;
      const metaUrl = source.url + part.split('/').map(encodeURIComponent).join('/');
      const meta = parseSogMeta(label, new TextDecoder().decode(await fetchBytes(metaUrl, label)));
      clouds.push(await loadSog(label, meta, siblingReader(metaUrl, label), decode));
    }
    return concatSplatClouds(clouds);
  }
  const bytes = await fetchBytes(source.url, source.name);
  if (/(^|\/)meta\.json$/i.test(source.name)) {
    return loadSog(source.name, parseSogMeta(source.name, new TextDecoder().decode(bytes)), siblingReader(source.url, source.name), decode);
  }
  if (/\.sog$/i.test(source.name)) return loadBundledSog(source.name, bytes, device);
  return loadSplatFile(source.name, bytes);
}
