/**
 * The splat background of a procedural world for the demo: the chunks within a view distance of a
 * centre point (the robot), baked on first sight (src/world/bake/chunks.ts) and re-selected when
 * the centre moves half a chunk, optionally thinned to a splat budget so software rendering stays
 * interactive. CPU only; the app uploads the cloud when it changes.
 */
import type { Vec2 } from '../core/geometry2d';
import { allocateSplatCloud, type SplatCloud } from '../splats/splat-cloud';
import { groundHeight } from '../world/queries';
import { ChunkedWorld, DEFAULT_CHUNK_SIZE } from '../world/bake/chunks';
import type { World } from '../world/world';

/** Options of {@link CitySplats}. */
export interface CitySplatsOptions {
  /** Horizontal distance of the chunks kept, metres (default 45). */
  viewDistance?: number;
  /** Largest splat count uploaded; more are thinned by a stride (default: no limit). */
  maxSplats?: number;
}

/**
 * Every `stride`-th splat of `cloud` (SH degree 0 worlds), scales grown by √stride so the thinned
 * surface keeps roughly its coverage. Returns `cloud` itself for stride 1.
 */
export function thinSplats(cloud: SplatCloud, stride: number): SplatCloud {
  if (stride <= 1) return cloud;
  const n = Math.ceil(cloud.count / stride);
  const out = allocateSplatCloud(n, 0);
  const grow = Math.min(2.5, Math.sqrt(stride));
  if (cloud.emissive) out.emissive = new Float32Array(n);
  for (let j = 0; j < n; j++) {
    const i = j * stride;
    for (let k = 0; k < 3; k++) {
      out.positions[3 * j + k] = cloud.positions[3 * i + k];
      out.scales[3 * j + k] = cloud.scales[3 * i + k] * grow;
      out.shDc[3 * j + k] = cloud.shDc[3 * i + k];
    }
    for (let k = 0; k < 4; k++) out.rotations[4 * j + k] = cloud.rotations[4 * i + k];
    out.opacities[j] = cloud.opacities[i];
    if (out.emissive) out.emissive[j] = cloud.emissive![i];
  }
  return out;
}

/** The chunked splat background around a moving centre (see the module doc). */
export class CitySplats {
  readonly chunks: ChunkedWorld;
  private lastCentre: Vec2 | null = null;
  private readonly viewDistance: number;
  private readonly maxSplats: number;
  /** Splats in the current view before thinning. */
  fullCount = 0;

  constructor(readonly world: World, options: CitySplatsOptions = {}) {
    this.chunks = new ChunkedWorld(world, DEFAULT_CHUNK_SIZE);
    this.viewDistance = options.viewDistance ?? 45;
    this.maxSplats = options.maxSplats ?? Infinity;
  }

  /** The new cloud when the chunk set around `centre` changed since the last call, else null. */
  update(centre: Vec2): SplatCloud | null {
    const last = this.lastCentre;
    if (last && Math.hypot(centre[0] - last[0], centre[1] - last[1]) < DEFAULT_CHUNK_SIZE / 2) return null;
    this.lastCentre = [centre[0], centre[1]];
    const z = groundHeight(this.world, centre[0], centre[1]) + 1;
    const camera = { eye: [centre[0], centre[1], z] as [number, number, number], target: [centre[0] + 1, centre[1], z] as [number, number, number], up: [0, 0, 1] as [number, number, number], fovYDeg: 60, width: 64, height: 48, near: 0.05, far: 300 };
    const view = this.chunks.view(camera, { viewDistance: this.viewDistance, noFrustum: true });
    if (!view.changed) return null;
    this.fullCount = view.cloud.count;
    return thinSplats(view.cloud, Math.ceil(view.cloud.count / this.maxSplats));
  }
}
