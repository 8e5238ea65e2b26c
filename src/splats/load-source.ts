/**
 * Loads a splat capture the page can fetch, in any supported layout: one file (INRIA / compressed
 * PLY, .spz, .splat; a bundled SOG `.sog` zip), an unbundled SOG `meta.json` with its images, or a
 * folder of several SOG datasets rendered as one scene (e.g. the ten tiles of a city capture).
 * Browser-side (fetch, WebP decoding on the GPU).
 */
import { unzipSync } from 'fflate';
import { loadSplatFile } from './formats';
import { concatSplatClouds, loadSog, parseSogMeta, type SogFileReader } from './formats/sog';
import { webpDecoder } from './formats/webp-decode';
import { SplatFormatError, type SplatCloud } from './splat-cloud';

/** Where a capture is: a URL and its file name, and for a folder the `meta.json` files in it. */
export interface SplatSource {
  /** URL of the file, or of the folder (ending in `/`) when `sogParts` is given. */
  url: string;
  /** File or folder name (format detection and error messages). */
  name: string;
  /** For a folder: paths of the SOG `meta.json` files inside it, relative to `url`. */
  sogParts?: string[];
}

async function fetchBytes(url: string, name: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new SplatFormatError(name, `cannot read file (${res.status} ${res.statusText})`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Reader for files next to `metaUrl` (an unbundled SOG). */
function siblingReader(metaUrl: string, label: string): SogFileReader {
  const base = metaUrl.slice(0, metaUrl.lastIndexOf('/') + 1);
  return (file) => fetchBytes(base + file.split('/').map(encodeURIComponent).join('/'), `${label}: ${file}`);
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
  if (/\.sog$/i.test(source.name)) {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes);
    } catch (e) {
      throw new SplatFormatError(source.name, `not a zip archive (${(e as Error).message})`);
    }
    const metaName = Object.keys(entries).find((k) => /(^|\/)meta\.json$/.test(k));
    if (!metaName) throw new SplatFormatError(source.name, `no meta.json in the archive (entries: ${Object.keys(entries).slice(0, 8).join(', ') || 'none'})`);
    const dir = metaName.slice(0, metaName.lastIndexOf('/') + 1);
    const read: SogFileReader = async (file) => {
      const data = entries[dir + file];
      if (!data) throw new SplatFormatError(source.name, `meta.json names ${file}, which is not in the archive`);
      return data;
    };
    return loadSog(source.name, parseSogMeta(`${source.name}: meta.json`, new TextDecoder().decode(entries[metaName])), read, decode);
  }
  return loadSplatFile(source.name, bytes);
}
