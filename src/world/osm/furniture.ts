/**
 * Street furniture mapped in OpenStreetMap, as world objects and obstacles: each tagged node below
 * stands where OSM puts it, or, where that spot is on a walkable zone, the carriageway or a
 * building (OSM positions are metres off the inferred kerbs; bus stops are often mapped on the
 * carriageway as `public_transport=stop_position`), on the nearest free ground.
 *
 * | OSM tag                | object     | footprint (m)            | height (m) |
 * |------------------------|------------|--------------------------|------------|
 * | `highway=bus_stop`     | busShelter (a signPost pole with `shelter=no`, or where no shelter fits) | 4 × 1.6 (pole r 0.05) | 2.6 (pole 2.8) |
 * | `highway=street_lamp`  | lampPost   | r 0.13                   | `height`, else 6–9 |
 * | `amenity=bench`        | bench      | 1.8 × 0.6                | 0.85       |
 * | `amenity=waste_basket` | bin        | r 0.3                    | 1.0        |
 * | `amenity=bicycle_parking` | bikeRack | 0.4 m per 2 of `capacity` (1.2–6, else 2) × 0.55 | 0.85 |
 * | `amenity=post_box`     | postBox    | r 0.25                   | 1.4        |
 * | `natural=tree`         | tree       | trunk `circumference`/2π (0.1–0.6, else 0.15–0.3); canopy `diameter_crown`/2 (else 2–4) | `height` (2–40), else 6–12 |
 * | `barrier=bollard`      | bollard    | r 0.11                   | 0.9        |
 *
 * Free ground: the clear ring (footprint + {@link OBJECT_MARGIN}) inside the selection, on no
 * carriageway, curb, sidewalk or crosswalk, and clear of every building piece and placed object. The
 * search: the mapped spot, then rings about it every 0.2 m out to {@link FURNITURE_REACH}; then
 * (bus stops, out to {@link BUS_STOP_REACH} from the street centreline) the verge and the back of the
 * sidewalk of the nearest street, up to 5 m along it. A bus stop mapped twice, as a platform or pole
 * and as the stop position on the carriageway, is kept once (the stop position within 40 m of a
 * platform of the same name is dropped). What finds no free ground is skipped and reported by OSM id.
 *
 * Generated furniture (`--furniture osm+generated`) fills around these objects: never on their
 * ground, and not the same kind on a street side OSM furnishes with it; a real place gets no
 * generated bus shelters (its bus stops are the mapped ones).
 */
import type { Rng } from '../../core/random';
import { boxOf, convexRingsOverlap, pointInRing, type Box, type Ring, type Vec2 } from '../geometry';
import { box, disc, type MappedFurniture, type ObjectKind, type ObjectSpot, type StaticObject } from '../objects';
import { arcLengths, projectOnPolyline, sampleAt } from '../polyline';
import type { StreetNetwork } from '../network';
import { zoneOffsets } from '../profile';
import { BoxGrid, MultiPolygonIndex } from '../spatial-index';
import type { ZonePolygons } from '../zones';
import type { NodeProjector } from './clip';
import type { OsmData, OsmTags } from './elements';
import { parseWidth } from './highway-tags';
import type { OsmFurnitureLabel } from './world-data';

/** Farthest a mapped object is moved from its spot to free ground, metres. */
export const FURNITURE_REACH = 3;
/** Farthest from a street centreline a bus stop is moved to that street's kerb, metres. */
export const BUS_STOP_REACH = 15;

/** The furniture tag a node carries (`amenity=bench`), or null. */
export function furnitureTagOf(tags: OsmTags): string | null {
  if (tags.highway === 'bus_stop' || tags.highway === 'street_lamp') return `highway=${tags.highway}`;
  if (['bench', 'waste_basket', 'bicycle_parking', 'post_box'].includes(tags.amenity ?? '')) return `amenity=${tags.amenity}`;
  if (tags.natural === 'tree') return 'natural=tree';
  if (tags.barrier === 'bollard') return 'barrier=bollard';
  return null;
}

/** A tag's number in [lo, hi] (metres: `height=7 m`), or null. */
function tagged(v: string | undefined, lo: number, hi: number): number | null {
  const x = parseWidth(v);
  return x !== null && x >= lo && x <= hi ? x : null;
}

/** The objects a furniture node may become at c, in order of preference (see the module table). */
function spotsOf(tag: string, tags: OsmTags, c: Vec2, yaw: number, streetId: number, r: Rng): ObjectSpot[] {
  switch (tag) {
    case 'highway=bus_stop': {
      const pole = disc('signPost', c, 0.05, 2.8, streetId);
      return tags.shelter === 'no' ? [pole] : [box('busShelter', c, 4, 1.6, yaw, 2.6, streetId), pole];
    }
    case 'highway=street_lamp': {
      const h = tagged(tags.height, 3, 15) ?? r.range(6, 9);
      return [disc('lampPost', c, 0.13, h, streetId)];
    }
    case 'amenity=bench': return [box('bench', c, 1.8, 0.6, yaw, 0.85, streetId)];
    case 'amenity=waste_basket': return [disc('bin', c, 0.3, 1.0, streetId)];
    case 'amenity=bicycle_parking': {
      const cap = Number.parseInt(tags.capacity ?? '', 10);
      const len = cap > 0 ? Math.min(6, Math.max(1.2, cap * 0.2)) : 2;
      return [box('bikeRack', c, len, 0.55, yaw, 0.85, streetId)];
    }
    case 'amenity=post_box': return [disc('postBox', c, 0.25, 1.4, streetId)];
    case 'natural=tree': {
      const circ = tagged(tags.circumference, 0.3, 12);
      const trunk = circ !== null ? Math.min(0.6, Math.max(0.1, circ / (2 * Math.PI))) : r.range(0.15, 0.3);
      const h = tagged(tags.height, 2, 40) ?? r.range(6, 12);
      const crown = tagged(tags.diameter_crown, 1, 30);
      return [disc('tree', c, trunk, h, streetId, 0, crown !== null ? crown / 2 : r.range(2, 4))];
    }
    default: return [disc('bollard', c, 0.11, 0.9, streetId)];
  }
}

/** What {@link placeOsmFurniture} made. */
export interface OsmFurniture extends MappedFurniture {
  labels: OsmFurnitureLabel[];
  skipped: { id: string; why: string }[];
}

/** Where furniture may not stand: the street zones people and cars use, and the building pieces. */
interface Ground {
  bounds: Box;
  banned: MultiPolygonIndex[];
  verge: MultiPolygonIndex;
  buildings: BoxGrid<Ring>;
  placed: BoxGrid<StaticObject>;
}

function isFree(g: Ground, ring: Ring): boolean {
  if (!ring.every(([x, y]) => x >= g.bounds[0] && x <= g.bounds[2] && y >= g.bounds[1] && y <= g.bounds[3])) return false;
  const bb = boxOf(ring);
  if (g.buildings.query(bb).some((p) => convexRingsOverlap(ring, p))) return false;
  if (g.placed.query(bb).some((o) => convexRingsOverlap(ring, o.footprint))) return false;
  return !g.banned.some((z) => z.overlapsRing(ring));
}

/** What the ground at p is, for a skipped object's report. */
function groundAt(g: Ground, p: Vec2): string {
  if (g.buildings.query([p[0], p[1], p[0], p[1]]).some((ring) => pointInRing(p[0], p[1], ring))) return 'a building';
  const k = g.banned.findIndex((z) => z.contains(p[0], p[1]));
  return k >= 0 ? ['the carriageway', 'a curb', 'a sidewalk', 'a crosswalk'][k] : 'ground taken by other objects';
}

/**
 * A spot at the kerb of one of `streets` (nearest first, with p's projection): the verge's middle,
 * else just behind the sidewalk, on p's side first, at most 5 m along the street from p; variants
 * in order of preference.
 */
function kerbSpot(g: Ground, net: StreetNetwork, lines: readonly Vec2[][], cums: readonly number[][], streets: { id: number; pr: { s: number; side: number } }[], alternatives: number, variants: (c: Vec2, yaw: number, streetId: number) => ObjectSpot[]): ObjectSpot | null {
  for (let alt = 0; alt < alternatives; alt++) {
    for (const { id, pr } of streets) {
      const st = net.streets[id];
      const L = cums[id][cums[id].length - 1];
      for (const side of pr.side > 0 ? [1, -1] as const : [-1, 1] as const) {
        for (let j = 0; j <= 20; j++) {
          const s = pr.s + (j % 2 === 0 ? j / 4 : -(j + 1) / 4);
          if (s < 0 || s > L) continue;
          const { p: q, t } = sampleAt(lines[id], s, cums[id]);
          const d = zoneOffsets(st.profile, side, s);
          const yaw = Math.atan2(t[1], t[0]);
          const probe = variants(q, yaw, id)[alt][0];
          const half = probe.kind === 'busShelter' ? 0.8 : probe.radius;
          for (const off of [(d[1] + d[2]) / 2, d[3] + half + 0.2]) {
            const spot = variants([q[0] - t[1] * side * off, q[1] + t[0] * side * off], yaw, id)[alt];
            if (isFree(g, spot[1])) return spot;
          }
        }
      }
    }
  }
  return null;
}

/**
 * Places the furniture mapped in `data` inside `bounds` (see the module comment). Objects get ids
 * 0 … n−1 in ascending OSM node id; `keepOff` names the street sides (and kinds) OSM furnishes, for
 * generated furniture to leave alone (a kerb with mapped lamps gets no generated ones).
 *
 * @param buildingPieces the convex pieces of every building, metres.
 * @param rng seeds what a node leaves open (a tree's height without `height`), per node id.
 */
export function placeOsmFurniture(data: OsmData, proj: NodeProjector, bounds: Box, net: StreetNetwork, zones: ZonePolygons, streetGrid: BoxGrid<number>, buildingPieces: readonly Ring[], rng: Rng): OsmFurniture {
  const g: Ground = {
    bounds,
    banned: [zones.road, zones.curb, zones.sidewalk, zones.crosswalk].map((z) => new MultiPolygonIndex(z)),
    verge: new MultiPolygonIndex(zones.verge),
    buildings: new BoxGrid<Ring>(25),
    placed: new BoxGrid<StaticObject>(10),
  };
  for (const p of buildingPieces) g.buildings.insert(boxOf(p), p);
  const lines = net.streets.map((st) => (st.closed ? [...st.centreline, st.centreline[0]] : st.centreline));
  const cums = lines.map((l) => arcLengths(l));
  /** Streets within `reach` of p, nearest first, with the projection. */
  const streetsNear = (p: Vec2, reach: number) =>
    streetGrid.query([p[0] - reach, p[1] - reach, p[0] + reach, p[1] + reach])
      .map((id) => ({ id, pr: projectOnPolyline(lines[id], p[0], p[1], cums[id]) }))
      .filter((c) => c.pr.d <= reach)
      .sort((a, b) => a.pr.d - b.pr.d || a.id - b.id);

  const inside = [...data.nodes.values()].flatMap((n) => {
    const tag = furnitureTagOf(n.tags);
    const p = tag ? proj.at(n.id) : null;
    return tag && p && p[0] >= bounds[0] && p[0] <= bounds[2] && p[1] >= bounds[1] && p[1] <= bounds[3] ? [{ n, p, tag }] : [];
  }).sort((a, b) => a.n.id - b.n.id);
  const platform = inside.filter((x) => x.tag === 'highway=bus_stop' && x.n.tags.public_transport !== 'stop_position' && x.n.tags.name);

  const objects: StaticObject[] = [];
  const labels: OsmFurnitureLabel[] = [];
  const skipped: { id: string; why: string }[] = [];
  const kerbs = new Set<string>();
  for (const { n, p, tag } of inside) {
    const osmId = `node/${n.id}`;
    const name = n.tags.name?.trim() || null;
    if (tag === 'highway=bus_stop' && n.tags.public_transport === 'stop_position' && name) {
      const twin = platform.find((q) => q.n.tags.name?.trim() === name && Math.hypot(q.p[0] - p[0], q.p[1] - p[1]) <= 40);
      if (twin) {
        skipped.push({ id: osmId, why: `the stop position of node/${twin.n.id} (same stop)` });
        continue;
      }
    }
    const r = rng.fork(osmId);
    const near = streetsNear(p, 30)[0];
    const streetId = near?.id ?? -1;
    const tangent = near ? sampleAt(lines[near.id], near.pr.s, cums[near.id]).t : null;
    const yaw = tangent ? Math.atan2(tangent[1], tangent[0]) : 0;
    const variants = (c: Vec2, y: number, sid: number) => spotsOf(tag, n.tags, c, y, sid, r.fork('size'));
    const alternatives = variants(p, yaw, streetId).length;
    let found: ObjectSpot | null = null;
    // The mapped spot, then rings about it (a shelter anywhere there before a pole).
    for (let alt = 0; alt < alternatives && !found; alt++) {
      for (let k = 0; k <= Math.round(FURNITURE_REACH / 0.2) && !found; k++) {
        const rad = k * 0.2;
        const m = k === 0 ? 1 : Math.max(6, Math.ceil((2 * Math.PI * rad) / 0.2));
        for (let a = 0; a < m && !found; a++) {
          const th = (a / m) * 2 * Math.PI;
          const spot = variants([p[0] + rad * Math.cos(th), p[1] + rad * Math.sin(th)], yaw, streetId)[alt];
          if (isFree(g, spot[1])) found = spot;
        }
      }
    }
    // Bus stops: the kerb of the nearest street (its verge, else behind its sidewalk), up to 5 m along it.
    if (!found && tag === 'highway=bus_stop') found = kerbSpot(g, net, lines, cums, streetsNear(p, BUS_STOP_REACH), alternatives, variants);
    if (!found) {
      skipped.push({ id: osmId, why: `no free ground within ${tag === 'highway=bus_stop' ? `the kerb of a street ${BUS_STOP_REACH} m away` : `${FURNITURE_REACH} m`} (it stands on ${groundAt(g, p)})` });
      continue;
    }
    const [o] = found;
    const zone = g.verge.contains(o.centre[0], o.centre[1]) ? 'verge' : 'lot';
    const obj: StaticObject = { ...o, zone, id: objects.length };
    objects.push(obj);
    g.placed.insert(boxOf(obj.footprint), obj);
    labels.push({ objectId: obj.id, osmId, tag, name: tag === 'highway=bus_stop' ? name : null, moved: Math.round(Math.hypot(o.centre[0] - p[0], o.centre[1] - p[1]) * 1000) / 1000 });
    const home = streetsNear(o.centre, 30)[0];
    if (zone === 'verge' && home) kerbs.add(`${home.id}/${home.pr.side > 0 ? 1 : -1}/${o.kind}`);
  }
  return {
    objects,
    labels,
    skipped,
    keepOff: (streetId: number, side: 1 | -1, kind: ObjectKind) => kind === 'busShelter' || kerbs.has(`${streetId}/${side}/${kind}`),
  };
}
