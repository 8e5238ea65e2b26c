/**
 * What each storefront's sign says: the shop's name (names.ts: shopSigns) where the signs' font
 * (font-atlas.ts: ASCII and accented Latin) has every letter of it in capitals; else, in a world from
 * OpenStreetMap, its `name:en` / `name:latn` when tagged and settable; else nothing (the sign band
 * stays without text: no '?' boards). The inventory always keeps the real name.
 */
import { canSetText } from './font-atlas';
import { shopSigns } from '../names';
import type { World } from '../world';

const cache = new WeakMap<object, ReadonlyMap<number, string>>();

/** The sign text a name is drawn as, or null when neither it nor its Latin form can be set. */
export function settableSignText(name: string, nameLatin: string | null): string | null {
  if (canSetText(name.trim().toUpperCase())) return name;
  if (nameLatin && canSetText(nameLatin.trim().toUpperCase())) return nameLatin;
  return null;
}

/** Sign texts by building obstacle id (see the module comment); cached per world. */
export function signTexts(world: Pick<World, 'network' | 'obstacles' | 'seed' | 'osm'>): ReadonlyMap<number, string> {
  let out = cache.get(world);
  if (out) return out;
  const latin = new Map<number, string>();
  for (const b of world.osm?.buildings ?? []) if (b.place?.nameLatin) for (const id of b.objectIds) latin.set(id, b.place.nameLatin);
  const texts = new Map<number, string>();
  for (const [id, name] of shopSigns(world)) {
    const text = settableSignText(name, latin.get(id) ?? null);
    if (text !== null) texts.set(id, text);
  }
  out = texts;
  cache.set(world, out);
  return out;
}
