/**
 * OSM areas as world-frame polygons: closed ways and `type=multipolygon` relations (outer and inner
 * member ways joined end to end into rings), projected, made CCW and clipped to the selection. Used
 * for buildings (buildings.ts) and pedestrian areas (pedestrian-areas.ts).
 *
 * Faults a world can live with are reported by OSM id, not thrown: a relation with missing member
 * ways or members that do not close, a way whose ring is not closed (only when it reaches into the
 * selection), rings naming nodes the file lacks, self-intersecting rings.
 */
import { difference, intersection, union } from '../clipping';
import { ringProblem, signedArea, type Box, type MultiPolygon, type Ring } from '../geometry';
import type { NodeProjector } from './clip';
import type { OsmData, OsmTags } from './elements';

/** One area: its OSM id, tags and the part of it inside the selection (CCW outers, holes cut). */
export interface OsmArea {
  /** `way/123` or `relation/45`. */
  osmId: string;
  tags: OsmTags;
  polygon: MultiPolygon;
}

/** Closes rings from member ways by joining them end to end; null when they do not close. */
export function assembleRings(ways: number[][]): number[][] | null {
  const open = ways.filter((w) => w.length >= 2).map((w) => w.slice());
  const rings: number[][] = [];
  while (open.length > 0) {
    let cur = open.shift()!;
    for (let guard = 0; cur[0] !== cur[cur.length - 1] && guard < 10_000; guard++) {
      const end = cur[cur.length - 1];
      const k = open.findIndex((w) => w[0] === end || w[w.length - 1] === end);
      if (k < 0) return null;
      const w = open.splice(k, 1)[0];
      cur = cur.concat((w[0] === end ? w : w.slice().reverse()).slice(1));
    }
    if (cur[0] !== cur[cur.length - 1]) return null;
    rings.push(cur);
  }
  return rings;
}

/**
 * The areas whose tags satisfy `isKind` that reach into `box` (relations first, then ways, each in
 * ascending id), and what was skipped and why.
 */
export function osmAreas(data: OsmData, proj: NodeProjector, box: Box, isKind: (tags: OsmTags) => boolean): { areas: OsmArea[]; skipped: { id: string; why: string }[] } {
  const skipped: { id: string; why: string }[] = [];
  const sources: { osmId: string; tags: OsmTags; rings: { outer: number[][]; inner: number[][] } }[] = [];
  for (const r of [...data.relations.values()].sort((p, q) => p.id - q.id)) {
    if (r.tags.type !== 'multipolygon' || !isKind(r.tags)) continue;
    const members = r.members.filter((m) => m.type === 'way');
    const missing = members.filter((m) => !data.ways.has(m.ref));
    if (missing.length > 0) {
      skipped.push({ id: `relation/${r.id}`, why: `${missing.length} member way(s) missing from the file` });
      continue;
    }
    const outer = assembleRings(members.filter((m) => m.role !== 'inner').map((m) => data.ways.get(m.ref)!.nodes));
    const inner = assembleRings(members.filter((m) => m.role === 'inner').map((m) => data.ways.get(m.ref)!.nodes));
    if (!outer || !inner || outer.length === 0) {
      skipped.push({ id: `relation/${r.id}`, why: 'member ways do not close into rings' });
      continue;
    }
    sources.push({ osmId: `relation/${r.id}`, tags: r.tags, rings: { outer, inner } });
  }
  const inBox = (p: readonly number[]) => p[0] >= box[0] && p[0] <= box[2] && p[1] >= box[1] && p[1] <= box[3];
  for (const w of [...data.ways.values()].sort((p, q) => p.id - q.id)) {
    if (!isKind(w.tags)) continue;
    if (w.nodes.length < 4 || w.nodes[0] !== w.nodes[w.nodes.length - 1]) {
      // Only worth a note when the way is at least partly inside the world.
      if (w.nodes.some((n) => { const p = proj.at(n); return p !== null && inBox(p); })) skipped.push({ id: `way/${w.id}`, why: 'ring is not closed' });
      continue;
    }
    sources.push({ osmId: `way/${w.id}`, tags: w.tags, rings: { outer: [w.nodes], inner: [] } });
  }
  const boxPoly: MultiPolygon = [{ outer: [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], holes: [] }];
  const areas: OsmArea[] = [];
  for (const s of sources) {
    const toRing = (ids: number[]): Ring | 'missing' => {
      const ring: Ring = [];
      for (const id of ids.slice(0, -1)) {
        const p = proj.at(id);
        if (!p) return 'missing';
        if (ring.length === 0 || ring[ring.length - 1][0] !== p[0] || ring[ring.length - 1][1] !== p[1]) ring.push([p[0], p[1]]);
      }
      return ring;
    };
    const outers = s.rings.outer.map(toRing), inners = s.rings.inner.map(toRing);
    const all = [...outers, ...inners];
    // Quick reject: entirely outside the world.
    const pts = all.filter((r): r is Ring => r !== 'missing').flat();
    if (pts.length > 0 && !pts.some((p) => p[0] >= box[0] - 50 && p[0] <= box[2] + 50 && p[1] >= box[1] - 50 && p[1] <= box[3] + 50)) continue;
    if (all.some((r) => r === 'missing')) {
      if (pts.some(inBox)) skipped.push({ id: s.osmId, why: 'names nodes missing from the file' });
      continue;
    }
    const problem = (all as Ring[]).map(ringProblem).find((x) => x !== null);
    if (problem) {
      skipped.push({ id: s.osmId, why: `invalid ring (${problem})` });
      continue;
    }
    const ccw = (r: Ring): Ring => (signedArea(r) < 0 ? r.slice().reverse() : r);
    const outerMp: MultiPolygon = union(...(outers as Ring[]).map((r) => [{ outer: ccw(r), holes: [] }]));
    const innerMp: MultiPolygon = inners.length ? union(...(inners as Ring[]).map((r) => [{ outer: ccw(r), holes: [] }])) : [];
    areas.push({ osmId: s.osmId, tags: s.tags, polygon: intersection(difference(outerMp, innerMp), boxPoly) });
  }
  return { areas, skipped };
}
