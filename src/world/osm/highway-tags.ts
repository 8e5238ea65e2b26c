/**
 * From OSM `highway=*` tags to a street cross-section (profile.ts: StreetProfile).
 *
 * Carriageway width: `width` (metres; "3.5 m", "12'"), else `lanes` × {@link LANE_WIDTH}, else the
 * class default below. Sidewalks: `sidewalk=both|left|right|no|none|separate` (and
 * `sidewalk:left|right|both=yes|no|separate`), else inferred from the class; `separate` means a
 * separate `footway=sidewalk` way carries it (that way becomes a walkway; the road gets none on that
 * side). Sidewalk width from `sidewalk:width` / `sidewalk:both:width` / `sidewalk:left:width`,
 * else {@link SIDEWALK_WIDTH}.
 *
 * | `highway=*`          | role    | default carriageway (m) | inferred sidewalks |
 * |----------------------|---------|-------------------------|--------------------|
 * | motorway, trunk      | road    | 2 × 3.5 per carriageway (7.0) | none |
 * | *_link               | road    | 1 lane + shoulder (4.0) | none (motorway/trunk links), both (others) |
 * | primary              | road    | 2 × 3.5 (7.0)           | both |
 * | secondary            | road    | 2 × 3.25 (6.5)          | both |
 * | tertiary             | road    | 2 × 3.0 (6.0)           | both |
 * | unclassified, residential, road | road | 2 × 2.75 (5.5) | both |
 * | service, track       | road    | 1 lane (3.5 / 3.0)      | none |
 * | living_street, pedestrian | walkway | 5.0 / 6.0 (the whole street is walkable) | (walkway) |
 * | footway, path, steps (and cycleway with foot=yes or designated) | walkway | 2.0 / 1.5 / 2.0 | (walkway) |
 *
 * Sources: lane widths 2.75–3.65 m (NACTO "Lane Width": 10–12 ft; UK DMRB CD 127 3.65 m lanes on
 * trunk roads; EU urban practice 3.0–3.25 m); assumed lane counts per class as osm2streets and the
 * OSM wiki "Key:lanes" ("assumed 2 lanes for two-way roads, 1 for oneway service/links");
 * sidewalk 2.0 m (NACTO "Sidewalks": 1.8–2.4 m residential; ADA/PROWAG ≥ 1.5 m); curb 0.3 m as
 * profile.ts; the verge (furniture zone) 0.8 m on primary–tertiary roads, 0.5 m on others (OSM maps
 * furniture zones almost never; these are narrow European-street values).
 */
import type { OsmTags } from './elements';
import type { SideProfile, StreetProfile } from '../profile';

/** What a highway is for Curbside: a road with a carriageway (sidewalks alongside), or a walkway (all walkable). */
export type HighwayRole = 'road' | 'walkway';

/** The class table (see the module comment): role, default total carriageway or walkway width (m), whether sidewalks are inferred. */
export const HIGHWAY_CLASSES: Record<string, { role: HighwayRole; width: number; sidewalks: boolean }> = {
  motorway: { role: 'road', width: 7.0, sidewalks: false },
  trunk: { role: 'road', width: 7.0, sidewalks: false },
  motorway_link: { role: 'road', width: 4.0, sidewalks: false },
  trunk_link: { role: 'road', width: 4.0, sidewalks: false },
  primary: { role: 'road', width: 7.0, sidewalks: true },
  primary_link: { role: 'road', width: 4.0, sidewalks: true },
  secondary: { role: 'road', width: 6.5, sidewalks: true },
  secondary_link: { role: 'road', width: 4.0, sidewalks: true },
  tertiary: { role: 'road', width: 6.0, sidewalks: true },
  tertiary_link: { role: 'road', width: 4.0, sidewalks: true },
  unclassified: { role: 'road', width: 5.5, sidewalks: true },
  residential: { role: 'road', width: 5.5, sidewalks: true },
  road: { role: 'road', width: 5.5, sidewalks: true },
  service: { role: 'road', width: 3.5, sidewalks: false },
  track: { role: 'road', width: 3.0, sidewalks: false },
  living_street: { role: 'walkway', width: 5.0, sidewalks: false },
  pedestrian: { role: 'walkway', width: 6.0, sidewalks: false },
  footway: { role: 'walkway', width: 2.0, sidewalks: false },
  path: { role: 'walkway', width: 1.5, sidewalks: false },
  steps: { role: 'walkway', width: 2.0, sidewalks: false },
};

/** Lane width used with `lanes=*`, metres (between NACTO's 3.0 m and DMRB's 3.65 m). */
export const LANE_WIDTH = 3.2;
/** Sidewalk (clear path) width where OSM gives none, metres. */
export const SIDEWALK_WIDTH = 2.0;
/** Curb-and-gutter width, metres. */
export const CURB_WIDTH = 0.3;
/** Frontage width kept between the sidewalk and the building line, metres. */
export const FRONTAGE_WIDTH = 0.4;
/** Widest carriageway or walkway accepted from a `width` tag, metres (wider values are taken as mistakes). */
export const MAX_TAGGED_WIDTH = 40;

/**
 * Parses an OSM width or length value, metres: `3.5`, `3.5 m`, `350 cm`, `12'`, `12'6"`, `12 ft`;
 * null when absent, not a number or not positive.
 */
export function parseWidth(v: string | undefined): number | null {
  if (v === undefined) return null;
  const s = v.trim().replace(',', '.');
  const ftIn = /^(\d+(?:\.\d+)?)\s*'\s*(?:(\d+(?:\.\d+)?)\s*")?$/.exec(s);
  if (ftIn) return Number(ftIn[1]) * 0.3048 + Number(ftIn[2] ?? 0) * 0.0254;
  const m = /^(\d+(?:\.\d+)?)\s*(m|cm|mm|km|ft|mi)?$/.exec(s);
  if (!m) return null;
  const x = Number(m[1]) * ({ m: 1, cm: 0.01, mm: 0.001, km: 1000, ft: 0.3048, mi: 1609.344 } as Record<string, number>)[m[2] ?? 'm'];
  return x > 0 && Number.isFinite(x) ? x : null;
}

/** Whether a highway way is part of the world: a known class, not an area, tunnel, construction or indoor corridor, and not closed to pedestrians and cars both. */
export function highwayClass(tags: OsmTags): string | null {
  let h = tags.highway;
  if (h === 'cycleway' && (tags.foot === 'designated' || tags.foot === 'yes')) h = 'path';
  if (!h || !(h in HIGHWAY_CLASSES)) return null;
  if (tags.area === 'yes') return null;
  if (tags.tunnel && tags.tunnel !== 'no') return null;
  if (tags.indoor === 'yes' || tags.level?.startsWith('-')) return null;
  if (tags.access === 'no' && tags.foot !== 'yes' && tags.foot !== 'designated') return null;
  return h;
}

/** Sidewalk presence on each side from the tags: true, false, `separate`, or undefined (untagged: infer). */
export function sidewalkTags(tags: OsmTags): { left: boolean | 'separate' | undefined; right: boolean | 'separate' | undefined } {
  const val = (v: string | undefined): boolean | 'separate' | undefined => (v === undefined ? undefined : v === 'separate' ? 'separate' : v === 'no' || v === 'none' ? false : v === 'yes' ? true : undefined);
  let left: boolean | 'separate' | undefined;
  let right: boolean | 'separate' | undefined;
  const sw = tags.sidewalk;
  if (sw === 'both' || sw === 'yes') left = right = true;
  else if (sw === 'left') [left, right] = [true, false];
  else if (sw === 'right') [left, right] = [false, true];
  else if (sw === 'no' || sw === 'none') left = right = false;
  else if (sw === 'separate') left = right = 'separate';
  const both = val(tags['sidewalk:both']);
  if (both !== undefined) left = right = both;
  left = val(tags['sidewalk:left']) ?? left;
  right = val(tags['sidewalk:right']) ?? right;
  return { left, right };
}

/** Whether a way's node order is against its direction of travel (`oneway=-1`). */
export const reversedOneway = (tags: OsmTags): boolean => tags.oneway === '-1';

/** The cross-section of a walkway (a footway, path, steps, pedestrian or living street): no carriageway, all clear path. */
export function walkwayProfile(width: number): StreetProfile {
  const side: SideProfile = { curb: 0, verge: 0, sidewalk: width / 2, frontage: 0.2 };
  return { roadHalfWidth: 0, lanesPerDirection: 1, parking: 0, left: { ...side }, right: { ...side }, narrowing: null };
}

/**
 * What one side of a road carries: a sidewalk (true), nothing (false), or a separate sidewalk way
 * alongside: the width of the walkable strip that joins the curb to it (metres), or `separate`
 * when that way was not found next to the road (nothing then).
 */
export type SideSpec = boolean | number | 'separate';

/**
 * The cross-section of a highway way (see the module table).
 *
 * @param sides what each side carries (after `separate` and inference are settled).
 */
export function highwayProfile(cls: string, tags: OsmTags, sides: { left: SideSpec; right: SideSpec }): StreetProfile {
  const c = HIGHWAY_CLASSES[cls];
  const tagged = parseWidth(tags.width ?? tags.est_width);
  const width = tagged !== null && tagged <= MAX_TAGGED_WIDTH ? tagged : null;
  if (c.role === 'walkway') return walkwayProfile(Math.max(1, width ?? c.width));
  const lanes = Number.parseInt(tags.lanes ?? '', 10);
  const carriageway = width ?? (lanes >= 1 && lanes <= 12 ? lanes * LANE_WIDTH : c.width);
  const oneway = tags.oneway === 'yes' || tags.oneway === '-1' || tags.oneway === '1' || tags.junction === 'roundabout' || cls === 'motorway';
  const laneCount = lanes >= 1 && lanes <= 12 ? lanes : Math.max(1, Math.round(carriageway / 3.25));
  const swWidth = (side: 'left' | 'right') => {
    const w = parseWidth(tags[`sidewalk:${side}:width`] ?? tags['sidewalk:both:width'] ?? tags['sidewalk:width']);
    return w !== null && w >= 0.8 && w <= 12 ? w : SIDEWALK_WIDTH;
  };
  const verge = ['primary', 'secondary', 'tertiary'].includes(cls) ? 0.8 : 0.5;
  const sideProfile = (side: 'left' | 'right'): SideProfile => {
    const spec = sides[side];
    if (spec === true) return { curb: CURB_WIDTH, verge, sidewalk: swWidth(side), frontage: FRONTAGE_WIDTH };
    if (typeof spec === 'number') return { curb: CURB_WIDTH, verge: 0, sidewalk: spec, frontage: 0 };
    return { curb: CURB_WIDTH, verge: 0, sidewalk: 0, frontage: 0.2 };
  };
  return {
    roadHalfWidth: Math.max(1.5, carriageway / 2),
    lanesPerDirection: oneway ? laneCount : Math.max(1, Math.floor(laneCount / 2)),
    parking: 0,
    left: sideProfile('left'),
    right: sideProfile('right'),
    narrowing: null,
  };
}
