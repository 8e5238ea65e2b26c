/**
 * Where a renderer gets the background splats for a view: a procedural world baked chunk by chunk
 * ({@link ChunkedWorld} implements this), a scanned capture placed in the world frame, or either
 * with extra baked objects (e.g. the barriers of a long-horizon scenario).
 */
import type { PinholeCamera } from '../gpu/camera';
import type { SplatCloud } from './splat-cloud';

/** Options of {@link SplatBackground.view}. */
export interface SplatViewOptions {
  /** Horizontal distance from the eye beyond which splats may be dropped, metres. */
  viewDistance?: number;
}

/** A source of background splats (world frame: right-handed, Z up, metres). */
export interface SplatBackground {
  /**
   * The splats to draw from `camera`, and whether the cloud changed since the previous call (the
   * caller re-uploads to the GPU only then). The returned cloud may be reused between calls.
   */
  view(camera: PinholeCamera, options?: SplatViewOptions): { cloud: SplatCloud; changed: boolean };
}
