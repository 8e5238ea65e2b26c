/**
 * GPU-resident copy of a {@link SplatCloud}: the `Splat` records and the packed SH buffer
 * (layouts in gpu-layout.ts). Uploaded once; the renderer reads them every frame.
 */
import type { CameraModel } from '../gpu/camera';
import { buildSpatialCells, visibleRanges, type SpatialCells } from './spatial-cells';
import { buildSplatLod, visibleLodRanges, type SplatLodLevels } from './splat-lod';
import { packShRest, packSplats, shRestStride, SPLAT_LAYOUT, PROJECTED_SPLAT_LAYOUT, SPLAT_VERTEX_BYTES_PER_SPLAT } from './gpu-layout';
import type { SplatCloud } from './splat-cloud';
import { UserError } from '../core/user-error';

/** Thrown when a scene's buffers exceed the adapter's limits; the message names buffer and limit. */
export class SplatMemoryError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'SplatMemoryError';
  }
}

const MiB = 1024 * 1024;

/**
 * Per-splat bytes of every buffer the renderer allocates for a scene of this SH degree: splat
 * records, SH, projected splats, the triangle vertices, the sort's two key/value pairs and the depths (visibility bits and
 * block offsets, 1/8 + 1/64 byte per splat, are left out).
 */
export function splatBytesPerSplat(shDegree: number): Record<string, number> {
  return {
    splats: SPLAT_LAYOUT.size,
    shRest: shRestStride(shDegree) * 4,
    projected: PROJECTED_SPLAT_LAYOUT.size,
    vertices: SPLAT_VERTEX_BYTES_PER_SPLAT,
    sortKeysAndValues: 16,
    depths: 4,
  };
}

/**
 * Checks that `count` splats of `shDegree` fit the device's per-buffer limits
 * (`maxStorageBufferBindingSize`, `maxBufferSize`).
 *
 * @throws SplatMemoryError naming the file, the buffer, the bytes needed and the limit.
 */
export function checkSplatMemory(device: GPUDevice, file: string, count: number, shDegree: number): void {
  const limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  for (const [name, perSplat] of Object.entries(splatBytesPerSplat(shDegree))) {
    const bytes = name === 'sortKeysAndValues' ? count * 4 : count * perSplat;
    if (bytes > limit) {
      throw new SplatMemoryError(
        `${file}: ${count.toLocaleString('en')} splats need ${(bytes / MiB).toFixed(0)} MiB in the '${name}' buffer, ` +
          `but this adapter allows ${(limit / MiB).toFixed(0)} MiB per storage buffer ` +
          `(maxStorageBufferBindingSize); use a GPU with larger limits or split the scene into chunks.`,
      );
    }
  }
}

/** Splats packed and uploaded per `writeBuffer` (16 MiB of records, 12 MiB of SH-3). */
const UPLOAD_SLICE_SPLATS = 262_144;

/** Scenes at least this large are split into spatial cells and culled by frustum per frame. */
export const SPATIAL_CELLS_MIN_SPLATS = 65_536;

/**
 * The uploaded scene. Owns its buffers; `destroy` frees them. Scenes of SPATIAL_CELLS_MIN_SPLATS
 * splats or more are uploaded in spatial-cell order (`cells`), so each frame draws only the cells
 * in view; smaller ones keep the cloud's order and form one range.
 */
export class SplatSceneBuffers {
  /** Splats of the capture (the most one frame draws). */
  readonly count: number;
  /** Splats stored: the capture's, then its coarse levels' (`lod`). */
  readonly storedCount: number;
  /** Coarse levels of the cells (splat-lod.ts), or null (scenes without cells, or built without). */
  readonly lod: SplatLodLevels | null;
  /** Cells drawn at a coarse level in the last `visibleRanges` call. */
  lastCoarseCells = 0;
  readonly shDegree: number;
  readonly splats: GPUBuffer;
  readonly shRest: GPUBuffer;
  /** The cells of the upload order, or null when the scene is one range (the cloud's order). */
  readonly cells: SpatialCells | null;

  /**
   * @param file Names the scene in errors.
   * @param cells Split into spatial cells (default: when the scene has SPATIAL_CELLS_MIN_SPLATS or more).
   * @param lodPixelFraction Above 0 (and with cells): build coarse levels of the cells for drawing at this
   *   fraction of a pixel (`SplatRendererOptions.lodPixelFraction`, splat-lod.ts). Default 0: none.
   * @throws SplatMemoryError when the scene does not fit the device's limits.
   */
  constructor(device: GPUDevice, cloud: SplatCloud, file = 'scene', label = 'SplatSceneBuffers', cells = cloud.count >= SPATIAL_CELLS_MIN_SPLATS, lodPixelFraction = 0) {
    if (cloud.count === 0) throw new SplatMemoryError(`${file}: the scene has no splats`);
    checkSplatMemory(device, file, cloud.count, cloud.shDegree);
    this.count = cloud.count;
    this.shDegree = cloud.shDegree;
    this.cells = cells ? buildSpatialCells(cloud) : null;
    const built = this.cells && lodPixelFraction > 0 ? buildSplatLod(cloud, this.cells, { pixelFraction: lodPixelFraction }) : null;
    const coarse = built?.cloud.count ?? 0;
    this.storedCount = cloud.count + coarse;
    checkSplatMemory(device, file, this.storedCount, cloud.shDegree);
    const order = this.cells?.order;
    const shStride = shRestStride(cloud.shDegree) * 4;
    this.splats = device.createBuffer({ label: `${label}.splats`, size: this.storedCount * SPLAT_LAYOUT.size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.shRest = device.createBuffer({ label: `${label}.shRest`, size: Math.max(4, this.storedCount * shStride), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    // Packed and uploaded in slices, so the page never holds a second copy of the whole scene.
    const upload = (src: SplatCloud, srcOrder: Uint32Array | undefined, at: number) => {
      for (let from = 0; from < src.count; from += UPLOAD_SLICE_SPLATS) {
        const to = Math.min(src.count, from + UPLOAD_SLICE_SPLATS);
        device.queue.writeBuffer(this.splats, (at + from) * SPLAT_LAYOUT.size, packSplats(src, srcOrder, from, to));
        device.queue.writeBuffer(this.shRest, (at + from) * shStride, packShRest(src, srcOrder, from, to));
      }
    };
    upload(cloud, order, 0);
    // Only where the levels are is kept; their splats live on the GPU.
    this.lod = built ? { voxel: built.voxel, start: built.start, count: built.count } : null;
    if (built) upload(built.cloud, undefined, cloud.count);
  }

  /** Number of range-table entries `visibleRanges` may write (at most one per cell). */
  get maxRanges(): number {
    return this.cells ? this.cells.count.length : 1;
  }

  /**
   * The splat index ranges a camera can see, as (start, count, prefix, 0) quadruples in `out`;
   * returns the number of ranges and of splats in them. With coarse levels and `lodPixelFraction`
   * > 0, each cell is drawn at the coarsest level whose voxel is at most that fraction of a pixel
   * at the cell's distance (splat-lod.ts); 0 draws the capture's own splats everywhere.
   */
  visibleRanges(camera: CameraModel, out: Uint32Array, lodPixelFraction = 0): { ranges: number; splats: number } {
    this.lastCoarseCells = 0;
    if (!this.cells) {
      out.set([0, this.count, 0, 0]);
      return { ranges: 1, splats: this.count };
    }
    if (!this.lod || lodPixelFraction <= 0) return visibleRanges(this.cells, camera, out);
    const r = visibleLodRanges(this.cells, this.lod, this.count, camera, lodPixelFraction, out);
    this.lastCoarseCells = r.coarseCells;
    return r;
  }

  destroy(): void {
    this.splats.destroy();
    this.shRest.destroy();
  }
}
