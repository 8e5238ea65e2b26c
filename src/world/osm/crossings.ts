/**
 * Crosswalks of a world from OSM: one at every mapped crossing of a road (a `highway=crossing` node,
 * or where a `footway=crossing` way meets it), and, at a junction of roads where OSM maps no crossing
 * on an arm within {@link MAPPED_CROSSING_REACH} of the junction, one placed as in a procedural
 * world (crosswalks.ts: just clear of the other arms). Walkways get none (they are walkable
 * already). Widths: 3.0 m (NACTO's minimum; OSM rarely tags `crossing:width`), or `crossing:width`.
 */
import type { StreetNetwork } from '../network';
import { polylineLength } from '../polyline';
import { armToStreetS, crosswalkDistance, makeCrosswalk, rampsOf, VERGE_GAP_MARGIN, type CrosswalkLayout } from '../crosswalks';
import type { OsmCrossing } from './streets';

/** A mapped crossing this close (metres) to a junction along an arm stands for that arm's crosswalk. */
export const MAPPED_CROSSING_REACH = 25;
/** Crosswalk width where OSM gives none, metres (NACTO "Crosswalks and Crossings": 10 ft minimum). */
export const CROSSWALK_WIDTH = 3.0;

/** Output of {@link placeOsmCrosswalks}: the layout, and which crosswalks are mapped in OSM (their node id) or placed (null). */
export interface OsmCrosswalkLayout extends CrosswalkLayout {
  mappedNode: (number | null)[];
}

/** Places the crosswalks of an OSM network (see the module comment). */
export function placeOsmCrosswalks(net: StreetNetwork, mapped: readonly OsmCrossing[], widthOf: (node: number) => number | null): OsmCrosswalkLayout {
  const layout: OsmCrosswalkLayout = { crosswalks: [], ramps: [], vergeGaps: new Map(), junctionCuts: new Map(), mappedNode: [] };
  const gap = (sid: number, a: number, b: number): void => {
    if (!layout.vergeGaps.has(sid)) layout.vergeGaps.set(sid, []);
    layout.vergeGaps.get(sid)!.push([a, b]);
  };
  const add = (sid: number, jid: number, s: number, w: number, node: number | null): void => {
    const st = net.streets[sid];
    const L = polylineLength(st.centreline);
    const at = Math.min(Math.max(s, w / 2), L - w / 2);
    if (!(L >= w)) return;
    const c = makeCrosswalk(layout.crosswalks.length, st, jid, at, w);
    layout.crosswalks.push(c);
    layout.ramps.push(...rampsOf(c, st));
    layout.mappedNode.push(node);
    gap(sid, at - w / 2 - VERGE_GAP_MARGIN, at + w / 2 + VERGE_GAP_MARGIN);
  };
  const isRoad = (sid: number) => net.streets[sid].profile.roadHalfWidth > 0;
  for (const st of net.streets) layout.junctionCuts.set(st.id, [0, 0]);
  for (const c of [...mapped].sort((p, q) => p.streetId - q.streetId || p.s - q.s)) add(c.streetId, -1, c.s, widthOf(c.node) ?? CROSSWALK_WIDTH, c.node);
  for (const j of net.junctions) {
    if (j.kind === 'deadEnd' || j.kind === 'bend') continue;
    const roadArms = j.arms.filter((a) => isRoad(a.streetId));
    j.arms.forEach((arm, i) => {
      if (!isRoad(arm.streetId)) return;
      const st = net.streets[arm.streetId];
      const L = polylineLength(st.centreline);
      const near = mapped.find((c) => c.streetId === arm.streetId && Math.abs(armToStreetS(st, arm.atStart, 0) - c.s) <= Math.min(MAPPED_CROSSING_REACH, L / 2));
      let cut = Math.min(L / 2, 15);
      if (near) cut = Math.min(L / 2, Math.abs(armToStreetS(st, arm.atStart, 0) - near.s) + CROSSWALK_WIDTH / 2 + VERGE_GAP_MARGIN);
      else if (roadArms.length >= 3 || (roadArms.length === 2 && j.arms.length === 2)) {
        const t = crosswalkDistance(net, j, i, CROSSWALK_WIDTH);
        if (t !== null) {
          add(st.id, j.id, armToStreetS(st, arm.atStart, t), CROSSWALK_WIDTH, null);
          cut = t + CROSSWALK_WIDTH / 2 + VERGE_GAP_MARGIN;
        }
      }
      const cuts = layout.junctionCuts.get(st.id)!;
      if (arm.atStart) {
        gap(st.id, 0, cut);
        cuts[0] = cut;
      } else {
        gap(st.id, L - cut, L);
        cuts[1] = cut;
      }
    });
  }
  return layout;
}

