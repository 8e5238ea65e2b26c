/**
 * The SOG v2 reader on a real capture tile (`../shared/data/splats/semarang-sog/5_9`, 252,828
 * splats, SH degree 3), unbundled and bundled, with the browser's WebP decoder.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { withDevice } from '../../../test/gpu-fixture';
import { loadSplatSource } from '../load-source';
import { renderSplatsOffscreen } from '../offscreen';
import { psnr, renderSplatsReference } from '../reference-renderer';
import { splatBounds } from '.';
import { frameSplatBounds } from '../framing';
import { webpDecoder } from './webp-decode';

const TILE = 'splats/semarang-sog/5_9';

describe('SOG v2 reader', () => {
  it('decodes WebP to exact RGBA8: colour bytes of low-alpha texels are not premultiplied away', async () => {
    await withDevice(async (device) => {
      const url = await commands.sharedDataUrl(`${TILE}/sh0.webp`);
      const img = await webpDecoder(device)('sh0.webp', new Uint8Array(await (await fetch(url)).arrayBuffer()));
      const lowAlphaReds = new Set<number>();
      for (let i = 0; i < img.width * img.height; i++) if (img.data[4 * i + 3] < 8) lowAlphaReds.add(img.data[4 * i]);
      // Premultiplied storage would leave at most alpha + 1 ≤ 8 distinct red values there.
      expect(lowAlphaReds.size).toBeGreaterThan(32);
    });
  });

  it('loads a real tile: count, SH degree 3, unit quaternions, opacities in [0, 1], finite positions', async () => {
    await withDevice(async (device) => {
      const url = await commands.sharedDataUrl(`${TILE}/meta.json`);
      const cloud = await loadSplatSource({ url, name: '5_9/meta.json' }, device);
      expect(cloud.count).toBe(252_828);
      expect(cloud.shDegree).toBe(3);
      for (let i = 0; i < cloud.count; i += 97) {
        const q = cloud.rotations.subarray(4 * i, 4 * i + 4);
        expect(Math.hypot(...q)).toBeCloseTo(1, 5);
        expect(cloud.opacities[i]).toBeGreaterThanOrEqual(0);
        expect(cloud.opacities[i]).toBeLessThanOrEqual(1);
        for (let a = 0; a < 3; a++) expect(Number.isFinite(cloud.positions[3 * i + a])).toBe(true);
      }
      expect(cloud.shRest.some((v) => v !== 0)).toBe(true);
    });
  });

  it('reads a bundled .sog (the same files zipped) like the folder, and renders within 35 dB of the f64 reference', async () => {
    await withDevice(async (device) => {
      const meta = await commands.sharedDataUrl(`${TILE}/meta.json`);
      const folder = await loadSplatSource({ url: meta, name: '5_9/meta.json' }, device);
      const names = ['meta.json', 'means_l.webp', 'means_u.webp', 'quats.webp', 'scales.webp', 'sh0.webp', 'shN_centroids.webp', 'shN_labels.webp'];
      const base = meta.slice(0, -'meta.json'.length);
      const entries = Object.fromEntries(await Promise.all(names.map(async (n) => [n, new Uint8Array(await (await fetch(base + n)).arrayBuffer())] as const)));
      const blobUrl = URL.createObjectURL(new Blob([zipSync(entries, { level: 0 })]));
      const bundled = await loadSplatSource({ url: blobUrl, name: 'tile.sog' }, device);
      URL.revokeObjectURL(blobUrl);
      expect(bundled.count).toBe(folder.count);
      const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((v, i) => v === b[i]);
      expect(same(bundled.positions, folder.positions), 'positions').toBe(true);
      expect(same(bundled.shRest, folder.shRest), 'SH bands').toBe(true);
      const camera = frameSplatBounds(splatBounds(folder), 64, 48, 50);
      const gpu = await renderSplatsOffscreen(device, folder, camera, '5_9');
      const reference = renderSplatsReference(folder, camera);
      expect(reference.filter((v, i) => i % 4 === 3 && v > 0.5).length, 'covered pixels').toBeGreaterThan(64 * 48 * 0.05);
      expect(psnr(gpu, reference)).toBeGreaterThanOrEqual(35);
    });
  });

  it('names the file and the problem for a folder whose meta.json lists a missing image', async () => {
    await withDevice(async (device) => {
      const meta = JSON.parse(await (await fetch(await commands.sharedDataUrl(`${TILE}/meta.json`))).text());
      meta.quats.files = ['missing.webp'];
      const blobUrl = URL.createObjectURL(new Blob([zipSync({ 'meta.json': new TextEncoder().encode(JSON.stringify(meta)) })]));
      await expect(loadSplatSource({ url: blobUrl, name: 'broken.sog' }, device)).rejects.toThrow(/^broken\.sog: meta\.json names \w+\.webp, which is not in the archive$/);
      URL.revokeObjectURL(blobUrl);
    });
  });
});
