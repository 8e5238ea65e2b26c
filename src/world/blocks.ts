/**
 * Blocks: the parts of the network that route sampling draws from, one per mid-block street part
 * (straight, curve, narrowing, fork branch) and one per junction (T, four-way, roundabout, fork),
 * the seven primitive block types of SidewalkBench §3.1.
 */
import { union } from './clipping';
import { circleRing, signedArea, toCCW, type Ring, type Vec2 } from './geometry';
import type { CrosswalkLayout } from './crosswalks';
import type { StreetNetwork } from './network';
import { densify, polylineLength, stripRing, subPolyline } from './polyline';
import { zoneOffsets } from './profile';

/** The seven primitive block types. */
export type BlockType = 'straight' | 'curve' | 'tJunction' | 'intersection' | 'roundabout' | 'narrowing' | 'fork';

/** All block types, in a fixed order. */
export const BLOCK_TYPES: readonly BlockType[] = ['straight', 'curve', 'tJunction', 'intersection', 'roundabout', 'narrowing', 'fork'];

/** One block. */
export interface Block {
  id: number;
  type: BlockType;
  /** Area the block covers (street land up to the building line), CCW, metres. */
  region: Ring;
  /** Street centreline through the block (streets), or the junction centre alone (junctions), metres. */
  centreline: Vec2[];
  /** Centreline length (streets) or region radius (junctions), metres. */
  length: number;
  /** Street id (street blocks) or −1. */
  streetId: number;
  /** Junction id (junction blocks) or −1. */
  junctionId: number;
}

/** Minimum length of a mid-block part to count as a block, metres. */
export const MIN_BLOCK_LENGTH = 5;

/** Builds the blocks of a network, given the junction cuts of its crosswalk layout. */
export function buildBlocks(net: StreetNetwork, layout: CrosswalkLayout): Block[] {
  const blocks: Block[] = [];
  for (const st of net.streets) {
    if (st.closed) continue;
    const line = densify(st.centreline, 2);
    const L = polylineLength(line);
    const [c0, c1] = layout.junctionCuts.get(st.id) ?? [0, 0];
    const a = c0, b = L - c1;
    if (b - a < MIN_BLOCK_LENGTH) continue;
    const sub = subPolyline(line, a, b);
    // Cleaned through a union, so that a strip folding on a tight bend still gives a simple ring.
    const raw = toCCW(stripRing(sub, (s) => zoneOffsets(st.profile, 1, s + a)[4], (s) => -zoneOffsets(st.profile, -1, s + a)[4]));
    const pieces = union([{ outer: raw, holes: [] }]);
    if (pieces.length === 0) continue;
    const region = pieces.reduce((x, y) => (signedArea(y.outer) > signedArea(x.outer) ? y : x)).outer;
    const type: BlockType = st.kind === 'forkBranch' ? 'fork' : st.kind === 'ring' ? 'roundabout' : st.kind;
    blocks.push({ id: blocks.length, type, region, centreline: sub, length: b - a, streetId: st.id, junctionId: -1 });
  }
  for (const j of net.junctions) {
    if (j.kind === 'deadEnd' || j.kind === 'bend') continue;
    let r = 0;
    for (const arm of j.arms) {
      const cuts = layout.junctionCuts.get(arm.streetId) ?? [0, 0];
      r = Math.max(r, arm.atStart ? cuts[0] : cuts[1]);
    }
    r += j.ringRadius + 2;
    blocks.push({ id: blocks.length, type: j.kind as BlockType, region: circleRing(j.centre[0], j.centre[1], r, 32), centreline: [j.centre], length: r, streetId: -1, junctionId: j.id });
  }
  return blocks;
}
