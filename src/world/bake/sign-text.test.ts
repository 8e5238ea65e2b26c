/**
 * What storefront signs say in real places: accented Latin as named, a script the sign font lacks
 * from `name:en`/`name:latn`, else no text (never '?' boards); the inventory keeps the real name.
 */
import { describe, expect, it } from 'vitest';
import { crossroads } from '../../../test/osm-fixture';
import { worldInventory } from '../inventory';
import { buildOsmWorld } from '../osm/osm-world';
import { readOsm } from '../osm/read';
import { settableSignText, signTexts } from './sign-text';

describe('settableSignText', () => {
  it('keeps names the font sets, falls back to the Latin name, else none', () => {
    expect(settableSignText('Avenue des Spélugues', null)).toBe('Avenue des Spélugues');
    expect(settableSignText('Straße 5', 'Strasse 5')).toBe('Straße 5');
    expect(settableSignText('東京ラーメン', 'Tokyo Ramen')).toBe('Tokyo Ramen');
    expect(settableSignText('北京', null)).toBeNull();
    expect(settableSignText('北京', '北京')).toBeNull();
  });
});

describe('signTexts in a world from OSM', () => {
  const fx = crossroads();
  const f = fx.fixture;
  const ramen = f.ring([[60, -10], [90, -10], [90, -40], [60, -40]], { building: 'yes', amenity: 'restaurant', name: '東京ラーメン', 'name:en': 'Tokyo Ramen' });
  const beijing = f.ring([[100, -10], [130, -10], [130, -40], [100, -40]], { building: 'yes', shop: 'tea', name: '北京茶' });
  const world = buildOsmWorld(readOsm(f.xml(), 'signs.osm'), { file: 'signs.osm', md5: '-', selection: { kind: 'centre', lat: 48.85, lon: 2.35, size: 300 } });
  const pieces = (way: number) => world.osm!.buildings.find((b) => b.osmId === `way/${way}`)!.objectIds;
  const signs = signTexts(world);

  it('draws the Latin name where the font lacks the script, and leaves the board without text where none is tagged', () => {
    const ramenSign = pieces(ramen).map((id) => signs.get(id)).filter(Boolean);
    expect(ramenSign).toEqual(['Tokyo Ramen']);
    expect(pieces(beijing).some((id) => signs.has(id))).toBe(false);
    expect([...signs.values()]).toContain('Boulangerie Müller');
  });

  it('keeps the real names in the inventory', () => {
    const names = worldInventory(world).landmarks.map((l) => l.name);
    expect(names).toContain('東京ラーメン');
    expect(names).toContain('北京茶');
  });
});
