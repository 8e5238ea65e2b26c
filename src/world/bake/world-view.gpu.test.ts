/**
 * The default city seen from its default sidewalk camera, rendered by the real GPU renderer
 * (SwiftShader here) at low resolution: not blank, with sky above, paving below and a building
 * facade in plausible colour ranges.
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../../test/gpu-fixture';
import { renderSplatsOffscreen } from '../../splats/offscreen';
import { generateWorld } from '../world';
import { ChunkedWorld } from './chunks';
import { defaultWorldCamera } from './default-camera';
import { compositeSky } from './sky';

/** Mean RGB of a pixel rectangle [x0, x1) × [y0, y1). */
function mean(px: Float32Array, w: number, x0: number, x1: number, y0: number, y1: number): number[] {
  const m = [0, 0, 0];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) for (let c = 0; c < 3; c++) m[c] += px[(y * w + x) * 4 + c];
  return m.map((v) => v / ((x1 - x0) * (y1 - y0)));
}

describe('default city view (seed 1, 80×60)', () => {
  it('shows sky, sidewalk and a building facade', async () => {
    const W = 80, H = 60;
    const world = generateWorld({ seed: 1 });
    const camera = defaultWorldCamera(world, { widthPx: W, heightPx: H });
    const view = new ChunkedWorld(world, 32).view(camera, { viewDistance: 40 });
    expect(view.cloud.count).toBeGreaterThan(20_000);
    const raw = await withDevice((device) => renderSplatsOffscreen(device, view.cloud, camera, 'city'));
    let covered = 0;
    for (let i = 3; i < raw.length; i += 4) if (raw[i] > 0.5) covered++;
    // Splats cover most of the frame (ground, buildings, trees); the rest is sky.
    expect(covered / (W * H)).toBeGreaterThan(0.5);
    expect(covered / (W * H)).toBeLessThan(0.98);
    const px = compositeSky(raw, camera);
    // Sky: top-left corner, blue dominant and bright (see SKY_COLORS).
    const sky = mean(px, W, 0, 20, 0, 8);
    expect(sky[2], `sky ${sky}`).toBeGreaterThan(sky[0] + 0.15);
    expect(sky[2]).toBeGreaterThan(0.6);
    // Paving: bottom rows, a light neutral grey (sidewalk concrete 0.64, 0.63, 0.60 ± noise).
    const ground = mean(px, W, 20, 60, 50, 60);
    expect(Math.max(...ground) - Math.min(...ground), `ground ${ground}`).toBeLessThan(0.08);
    expect(ground[1]).toBeGreaterThan(0.4);
    expect(ground[1]).toBeLessThan(0.85);
    // Building facade: the right edge at mid-height is not sky (wall palette, not blue-dominant).
    const facade = mean(px, W, 66, 80, 8, 30);
    expect(facade[2], `facade ${facade}`).toBeLessThan(facade[0] + 0.05);
    expect(Math.max(...facade)).toBeGreaterThan(0.25);
  });
});
