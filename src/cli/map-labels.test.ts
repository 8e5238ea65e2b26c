import { describe, expect, it } from 'vitest';
import { worldInventory } from '../world/inventory';
import { renderWorldMap, worldToPixel } from '../world/map-render';
import { generateWorld } from '../world/world';
import { drawMapLabels } from './map-labels';

describe('map labels', () => {
  const world = generateWorld({ seed: 1 });
  const inv = worldInventory(world);

  it('writes street names as dark text on a white halo, leaving the rest of the map untouched', () => {
    const plain = renderWorldMap(world, { widthPx: 400, heightPx: 400 });
    const img = renderWorldMap(world, { widthPx: 400, heightPx: 400 });
    const n = drawMapLabels(img, inv, 12);
    expect(n.streets).toBeGreaterThan(inv.streets.length / 2);
    expect(n.storefronts).toBe(0); // 1 m/px: too far out for shop names
    let changed = 0, dark = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      if (img.data[i] !== plain.data[i] || img.data[i + 1] !== plain.data[i + 1] || img.data[i + 2] !== plain.data[i + 2]) changed++;
      if (img.data[i] < 60 && img.data[i + 1] < 60 && img.data[i + 2] < 70 && !(plain.data[i] < 60 && plain.data[i + 1] < 60)) dark++;
    }
    expect(dark, 'text pixels').toBeGreaterThan(200);
    // Labels are small: well under a fifth of the map.
    expect(changed).toBeGreaterThan(dark);
    expect(changed).toBeLessThan((400 * 400) / 5);
  });

  it('names storefronts at their entrances when zoomed in', () => {
    const shop = inv.landmarks.find((l) => l.kind === 'storefront')!;
    const [x, y] = shop.entrance;
    const img = renderWorldMap(world, { widthPx: 300, heightPx: 300, bounds: [x - 20, y - 20, x + 20, y + 20] });
    const n = drawMapLabels(img, inv, 12);
    expect(n.storefronts).toBeGreaterThan(0);
    // The entrance marker (orange-red square) sits at the entrance's pixel.
    const [i, j] = worldToPixel(img, shop.entrance).map(Math.floor);
    const o = (j * img.width + i) * 4;
    expect([img.data[o], img.data[o + 1], img.data[o + 2]]).toEqual([190, 60, 20]);
  });
});
