/**
 * A real building's look from its OSM tags: `building:colour` (a CSS colour name or `#rgb` /
 * `#rrggbb`, as the OSM wiki "Key:building:colour" documents; its British spelling is the key, and
 * `building:color` is read too) and `building:material` (OSM wiki "Key:building:material"), mapped
 * onto the four wall materials the baker draws (src/world/bake/buildings.ts). Untagged, the baker
 * draws a seeded facade as on a procedural world. Colours are display sRGB in 0–1, as the baker's
 * palette.
 */
import type { OsmTags } from './elements';

/** The wall materials the baker draws. */
export type WallMaterial = 'brick' | 'stone' | 'render' | 'concrete';

/** A building's look as tagged: its wall colour and material, either possibly null. */
export interface BuildingLook {
  colour: [number, number, number] | null;
  material: WallMaterial | null;
}

/** `building:material` values, onto the baker's materials (unknown values and roofs-only materials: null). */
const MATERIALS: Readonly<Record<string, WallMaterial>> = {
  brick: 'brick', bricks: 'brick', clinker: 'brick',
  stone: 'stone', sandstone: 'stone', limestone: 'stone', granite: 'stone', marble: 'stone', masonry: 'stone',
  plaster: 'render', render: 'render', stucco: 'render', wood: 'render', timber_framing: 'render', adobe: 'render', loam: 'render',
  concrete: 'concrete', cement_block: 'concrete', glass: 'concrete', metal: 'concrete', steel: 'concrete', aluminium: 'concrete', metal_plates: 'concrete', mirror: 'concrete',
};

/** Common `building:colour` names (CSS level 4 values OSM mappers use most, plus `cream`, `sand` and `terracotta`), sRGB 0–255. */
const NAMED: Readonly<Record<string, [number, number, number]>> = {
  white: [255, 255, 255], whitesmoke: [245, 245, 245], ivory: [255, 255, 240], snow: [255, 250, 250], linen: [250, 240, 230],
  beige: [245, 245, 220], cream: [255, 253, 208], wheat: [245, 222, 179], tan: [210, 180, 140], sand: [194, 178, 128], khaki: [240, 230, 140],
  yellow: [255, 255, 0], gold: [255, 215, 0], orange: [255, 165, 0], salmon: [250, 128, 114], pink: [255, 192, 203],
  red: [255, 0, 0], darkred: [139, 0, 0], maroon: [128, 0, 0], brown: [165, 42, 42], sienna: [160, 82, 45], chocolate: [210, 105, 30], peru: [205, 133, 63], terracotta: [204, 78, 92],
  grey: [128, 128, 128], gray: [128, 128, 128], lightgrey: [211, 211, 211], lightgray: [211, 211, 211], silver: [192, 192, 192], darkgrey: [169, 169, 169], darkgray: [169, 169, 169], dimgray: [105, 105, 105], dimgrey: [105, 105, 105], gainsboro: [220, 220, 220], black: [0, 0, 0],
  blue: [0, 0, 255], lightblue: [173, 216, 230], navy: [0, 0, 128], steelblue: [70, 130, 180],
  green: [0, 128, 0], lightgreen: [144, 238, 144], darkgreen: [0, 100, 0], olive: [128, 128, 0], teal: [0, 128, 128],
  purple: [128, 0, 128], violet: [238, 130, 238],
};

/** Default colour of a material tagged without a colour (the baker's palette entries: red brick, sandstone, white render, grey concrete). */
export const MATERIAL_COLOURS: Readonly<Record<WallMaterial, [number, number, number]>> = {
  brick: [0.62, 0.32, 0.24], stone: [0.78, 0.72, 0.6], render: [0.86, 0.84, 0.8], concrete: [0.55, 0.55, 0.56],
};

/** A `building:colour` value as sRGB 0–1, or null when it is not a colour this reads (`#rgb`, `#rrggbb`, a name above; case and spaces ignored). */
export function parseBuildingColour(value: string | undefined): [number, number, number] | null {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase().replace(/[\s_-]/g, '');
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(v);
  if (hex && (v.startsWith('#') || /\d/.test(v))) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as [number, number, number];
  }
  const named = NAMED[v];
  return named ? (named.map((c) => c / 255) as [number, number, number]) : null;
}

/** The look a building's tags give, or null when they give neither a colour nor a material. */
export function buildingLook(tags: OsmTags): BuildingLook | null {
  const colour = parseBuildingColour(tags['building:colour'] ?? tags['building:color']);
  const material = MATERIALS[(tags['building:material'] ?? '').trim().toLowerCase()] ?? null;
  return colour || material ? { colour, material } : null;
}
