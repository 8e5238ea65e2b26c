/**
 * The closure notice as a model input (manifest `closures`; the remote protocol's `closures`
 * tensor): [B, K, 5] float32, row k of environment b = (1, x0, y0, x1, y1) for the notice's k-th
 * closed segment in the robot frame (x forward, y left, metres), zeros for unused rows, for
 * environments without a notice this step, and on every step but the one the notice arrives on.
 * Segments beyond K are dropped (the nearest K are kept: by distance from the robot to the segment).
 */
import { pointSegmentDistance } from '../core/geometry2d';
import type { ClosureNotice } from '../sim/episode-contracts';

/** Values per segment row: valid flag, x0, y0, x1, y1. */
export const CLOSURE_ROW = 5;

/**
 * Fills `out` (B·K·5 floats, see the module comment) from the step's notices.
 *
 * @param notices per environment, or undefined when no environment has a notice.
 * @throws RangeError when `out` is not B·K·5 long or there are not B notices.
 */
export function fillClosureInput(out: Float32Array, notices: readonly (ClosureNotice | null)[] | undefined, batch: number, segments: number): Float32Array {
  if (out.length !== batch * segments * CLOSURE_ROW) throw new RangeError(`fillClosureInput: ${out.length} floats for [${batch}, ${segments}, ${CLOSURE_ROW}]`);
  out.fill(0);
  if (!notices) return out;
  if (notices.length !== batch) throw new RangeError(`fillClosureInput: ${notices.length} notices for ${batch} environments`);
  notices.forEach((n, b) => {
    if (!n) return;
    const nearest = [...n.segments].sort((p, q) => pointSegmentDistance(0, 0, p[0], p[1]) - pointSegmentDistance(0, 0, q[0], q[1])).slice(0, segments);
    nearest.forEach(([a, c], k) => out.set([1, a[0], a[1], c[0], c[1]], (b * segments + k) * CLOSURE_ROW));
  });
  return out;
}
