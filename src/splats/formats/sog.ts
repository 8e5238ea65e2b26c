/**
 * Loader for PlayCanvas SOG v2 ("Spatially Ordered Gaussians", SuperSplat's default export and
 * the output of `splat-transform`): a `meta.json` plus lossless WebP images, either in a folder
 * (unbundled) or zipped into one `.sog` file (bundled).
 *
 * Layout (v2; one texel per splat, row-major, RGBA8; images may hold more texels than splats):
 * - `means_l`, `means_u`: the low and high bytes of a 16-bit value per axis (R, G, B = x, y, z);
 *   n = lerp(means.mins[a], means.maxs[a], v / 65535) is a log-encoded coordinate and the position
 *   is sign(n) · (e^|n| − 1).
 * - `quats`: the three smallest components of the unit quaternion, (byte / 255 − 0.5) · √2 in R, G,
 *   B, and in A 252 + the index (0 = w, 1 = x, 2 = y, 3 = z) of the largest one, which is dropped
 *   and recovered as √(1 − a² − b² − c²); the kept ones are in (w, x, y, z) order without it.
 * - `scales`: per axis an index into `scales.codebook` (log standard deviations).
 * - `sh0`: per channel an index into `sh0.codebook` (the SH DC coefficient); A = opacity · 255.
 * - `shN` (optional): `shN_labels` holds a 16-bit palette index (R + 256 · G); `shN_centroids`
 *   holds the palette, 64 entries per row, entry n at texels (n % 64) · K … + K − 1 of row
 *   ⌊n / 64⌋, coefficient k of channel c being an index (channel c of texel k) into `shN.codebook`;
 *   K = 3, 8, 15 for `shN.bands` 1–3.
 * Facts from PlayCanvas's reader (engine `GSplatSogIterator`) and `splat-transform`'s writer.
 *
 * The frame is the capture's own (as stored; no axis change). Image decoding is injected, so the
 * loader runs wherever a lossless RGBA8 WebP decoder exists (the page: `decodeImageRgba8`).
 */
import { z } from 'zod';
import { allocateSplatCloud, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { storeUnitQuat } from './common';

/** A decoded image: width × height RGBA8 texels, row-major, top row first, not premultiplied. */
export interface Rgba8Image {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Decodes one image file (lossless WebP) to exact RGBA8 bytes. */
export type ImageDecoder = (name: string, bytes: Uint8Array) => Promise<Rgba8Image>;

/** Reads one file of the dataset by its name in `meta.json` (relative to meta.json). */
export type SogFileReader = (name: string) => Promise<Uint8Array>;

const codebook = z.array(z.number()).length(256);
const files = (n: number) => z.array(z.string().min(1)).length(n);
const SogMeta = z.object({
  version: z.literal(2),
  count: z.number().int().positive(),
  means: z.object({ mins: z.array(z.number()).length(3), maxs: z.array(z.number()).length(3), files: files(2) }),
  scales: z.object({ codebook, files: files(1) }),
  quats: z.object({ files: files(1) }),
  sh0: z.object({ codebook, files: files(1) }),
  shN: z.object({ count: z.number().int().positive(), bands: z.number().int().min(1).max(3), codebook, files: files(2) }).optional(),
});
export type SogMeta = z.infer<typeof SogMeta>;

/**
 * Parses and validates a SOG `meta.json`.
 *
 * @throws SplatFormatError naming the file and the field (`meta.json: means.mins: …`), or the
 *   version when it is not 2.
 */
export function parseSogMeta(fileName: string, text: string): SogMeta {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SplatFormatError(fileName, `not JSON (${(e as Error).message})`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== 2) throw new SplatFormatError(fileName, `SOG version ${JSON.stringify(version)} is not supported (only version 2)`);
  const parsed = SogMeta.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SplatFormatError(fileName, `${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Loads one SOG v2 dataset.
 *
 * @param fileName name used in errors (e.g. `5_0/meta.json` or `scene.sog`).
 * @param meta the parsed `meta.json`.
 * @param read reads an image file named in `meta`.
 * @param decode decodes an image to RGBA8.
 * @returns an activated cloud: opacity = A / 255, scale = e^codebook, rotation normalised
 *   (w, x, y, z), shDc from the codebook, shRest coefficient-major/channel-minor.
 * @throws SplatFormatError naming the file when an image is smaller than `count` texels, a palette
 *   index is outside `shN.count`, or a quaternion mode byte is not 252–255.
 */
export async function loadSog(fileName: string, meta: SogMeta, read: SogFileReader, decode: ImageDecoder): Promise<SplatCloud> {
  const image = async (name: string, minTexels: number): Promise<Rgba8Image> => {
    const img = await decode(name, await read(name));
    if (img.width * img.height < minTexels) {
      throw new SplatFormatError(fileName, `${name} is ${img.width}×${img.height}, fewer texels than the ${minTexels} it must hold`);
    }
    return img;
  };
  const n = meta.count;
  const [meansL, meansU, quats, scales, sh0] = await Promise.all([
    image(meta.means.files[0], n), image(meta.means.files[1], n), image(meta.quats.files[0], n), image(meta.scales.files[0], n), image(meta.sh0.files[0], n),
  ]);
  const bands = meta.shN?.bands ?? 0;
  const cloud = allocateSplatCloud(n, bands);
  const { mins, maxs } = meta.means;
  const sc = meta.scales.codebook;
  const dc = meta.sh0.codebook;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    for (let a = 0; a < 3; a++) {
      const v = ((meansU.data[o + a] << 8) | meansL.data[o + a]) / 65535;
      const e = mins[a] + (maxs[a] - mins[a]) * v;
      cloud.positions[3 * i + a] = Math.sign(e) * (Math.exp(Math.abs(e)) - 1);
      cloud.scales[3 * i + a] = Math.exp(sc[scales.data[o + a]]);
      cloud.shDc[3 * i + a] = dc[sh0.data[o + a]];
    }
    cloud.opacities[i] = sh0.data[o + 3] / 255;
    const q = quats.data;
    const a = (q[o] / 255 - 0.5) * Math.SQRT2;
    const b = (q[o + 1] / 255 - 0.5) * Math.SQRT2;
    const c = (q[o + 2] / 255 - 0.5) * Math.SQRT2;
    const d = Math.sqrt(Math.max(0, 1 - (a * a + b * b + c * c)));
    switch (q[o + 3] - 252) {
      case 0: storeUnitQuat(cloud.rotations, i, d, a, b, c); break;
      case 1: storeUnitQuat(cloud.rotations, i, a, d, b, c); break;
      case 2: storeUnitQuat(cloud.rotations, i, a, b, d, c); break;
      case 3: storeUnitQuat(cloud.rotations, i, a, b, c, d); break;
      default: throw new SplatFormatError(fileName, `${meta.quats.files[0]}: splat ${i} has quaternion mode byte ${q[o + 3]} (expected 252–255)`);
    }
  }
  if (meta.shN) {
    const K = [0, 3, 8, 15][bands];
    const [centroids, labels] = await Promise.all([image(meta.shN.files[0], meta.shN.count * K), image(meta.shN.files[1], n)]);
    if (centroids.width < 64 * K) throw new SplatFormatError(fileName, `${meta.shN.files[0]} is ${centroids.width} texels wide, less than 64 palette entries of ${K}`);
    const cb = meta.shN.codebook;
    for (let i = 0; i < n; i++) {
      const label = labels.data[4 * i] | (labels.data[4 * i + 1] << 8);
      if (label >= meta.shN.count) throw new SplatFormatError(fileName, `${meta.shN.files[1]}: splat ${i} has palette index ${label}, shN.count is ${meta.shN.count}`);
      const row = Math.floor(label / 64);
      const col = (label % 64) * K;
      for (let k = 0; k < K; k++) {
        const t = 4 * (row * centroids.width + col + k);
        for (let ch = 0; ch < 3; ch++) cloud.shRest[(i * K + k) * 3 + ch] = cb[centroids.data[t + ch]];
      }
    }
  }
  return cloud;
}
