/**
 * Chunked baking and view selection for large worlds.
 *
 * The world's square is cut into square chunks of `chunkSize` metres (default 32 m), indexed
 * (ix, iy) from the world's min corner; chunk id = iy · nx + ix. A chunk owns the ground lattice
 * points, line samples (curb faces, markings, joints) whose position falls in its half-open square,
 * and every object whose footprint centre does; so chunks partition the city's splats and bake
 * independently (`bakeChunk` of one chunk does not depend on which others are baked). A baked
 * chunk's positions are relative to its origin (its min corner at z = 0), as the brief asks for
 * large worlds; {@link assembleChunks} adds the origins back in f64 and rounds once to f32.
 *
 * {@link selectChunks} returns the chunks whose conservative 3D bounds lie within the view distance
 * (horizontal distance from the eye to the chunk's square) and intersect the view frustum, so a
 * frame's splat count follows what is in view rather than the world's size.
 */
import type { BuildingLook } from '../osm/building-look';
import { boxOutsideFrustum, cameraModel, type PinholeCamera } from '../../gpu/camera';
import { allocateSplatCloud, type SplatCloud } from '../../splats/splat-cloud';
import type { Box } from '../geometry';
import { groundHeight } from '../queries';
import type { World } from '../world';
import { bakeBuilding } from './buildings';
import { signTexts } from './sign-text';
import { bakeFurniture } from './furniture';
import { bakeCurbFaces, bakeGroundZones, bakeLaneMarkings, bakeSlabJoints, bakeZebraStripes, inHalfOpenBox } from './ground';
import { deriveSeed } from '../../core/random';
import { SplatBuilder } from './splat-builder';
import { bakeFinePaving, DEFAULT_SURFACE_DETAIL, FINE_ZONES, type SurfaceDetail } from './fine-paving';
import { DEFAULT_SIGN_STYLE, type SignStyle } from './sign';
import type { SplatBackground } from '../../splats/splat-background';

/** Default chunk side length, metres. */
export const DEFAULT_CHUNK_SIZE = 32;
/** Default view distance for chunk selection, metres. */
export const DEFAULT_VIEW_DISTANCE = 60;

/** The chunk layout of a world (no splats): sizes and conservative bounds per chunk. */
export interface ChunkGrid {
  /** Chunk side length, metres. */
  chunkSize: number;
  /** World-frame min corner of chunk (0, 0), metres. */
  origin: [number, number];
  /** Chunks along x and y. */
  nx: number;
  ny: number;
  /** Per chunk id, `[minX, minY, minZ, maxX, maxY, maxZ]` world metres: its square grown by the objects it owns, z from 0 to the tallest. */
  bounds: Float64Array;
}

/** Choices of how a world is baked (defaults: the city as shipped). */
export interface BakeOptions {
  /** How storefront signs draw their text (sign.ts; default {@link DEFAULT_SIGN_STYLE}). */
  signStyle?: SignStyle;
  /** How finely the ground is baked (fine-paving.ts; default {@link DEFAULT_SURFACE_DETAIL}). */
  surfaceDetail?: SurfaceDetail;
}

/** A baked chunk: splats with positions relative to `origin` (world frame, metres). */
export interface BakedChunk {
  id: number;
  ix: number;
  iy: number;
  /** World position of the chunk's local origin (its min corner, z = 0), metres. */
  origin: [number, number, number];
  /** SH degree 0; positions relative to `origin`. */
  cloud: SplatCloud;
}

/**
 * Computes the chunk layout of a world.
 *
 * @param chunkSize chunk side, metres, in [8, 512].
 * @throws RangeError when `chunkSize` is out of range.
 */
export function chunkGrid(world: World, chunkSize = DEFAULT_CHUNK_SIZE): ChunkGrid {
  if (!(chunkSize >= 8 && chunkSize <= 512)) throw new RangeError(`chunkGrid: chunkSize must be in [8, 512] m, got ${chunkSize}`);
  const [x0, y0, x1, y1] = world.bounds;
  const nx = Math.ceil((x1 - x0) / chunkSize - 1e-9), ny = Math.ceil((y1 - y0) / chunkSize - 1e-9);
  const bounds = new Float64Array(nx * ny * 6);
  for (let iy = 0; iy < ny; iy++) for (let ix = 0; ix < nx; ix++) {
    const o = (iy * nx + ix) * 6;
    bounds.set([x0 + ix * chunkSize, y0 + iy * chunkSize, -0.1, x0 + (ix + 1) * chunkSize, y0 + (iy + 1) * chunkSize, world.curbHeight + 0.1], o);
  }
  for (const ob of world.obstacles) {
    const id = chunkOf({ chunkSize, origin: [x0, y0], nx, ny, bounds }, ob.centre[0], ob.centre[1]);
    if (id < 0) continue;
    const o = id * 6;
    const r = Math.max(ob.radius, ob.canopyRadius) + 1.5;
    bounds[o] = Math.min(bounds[o], ob.centre[0] - r);
    bounds[o + 1] = Math.min(bounds[o + 1], ob.centre[1] - r);
    bounds[o + 3] = Math.max(bounds[o + 3], ob.centre[0] + r);
    bounds[o + 4] = Math.max(bounds[o + 4], ob.centre[1] + r);
    bounds[o + 5] = Math.max(bounds[o + 5], world.curbHeight + ob.height + 1);
  }
  return { chunkSize, origin: [x0, y0], nx, ny, bounds };
}

/** Id of the chunk whose half-open square contains (x, y), or −1 outside the grid. */
export function chunkOf(grid: ChunkGrid, x: number, y: number): number {
  const ix = Math.floor((x - grid.origin[0]) / grid.chunkSize), iy = Math.floor((y - grid.origin[1]) / grid.chunkSize);
  if (ix < 0 || iy < 0 || ix >= grid.nx || iy >= grid.ny) return -1;
  return iy * grid.nx + ix;
}

/** The half-open square `[minX, minY, maxX, maxY]` (metres) a chunk owns. */
export function chunkSquare(grid: ChunkGrid, id: number): Box {
  const ix = id % grid.nx, iy = Math.floor(id / grid.nx);
  const S = grid.chunkSize;
  return [grid.origin[0] + ix * S, grid.origin[1] + iy * S, grid.origin[0] + (ix + 1) * S, grid.origin[1] + (iy + 1) * S];
}

const looksOf = new WeakMap<World, ReadonlyMap<number, BuildingLook>>();

/** A real place's tagged building looks by obstacle id (every piece of a building), computed once per world; empty for a procedural world. */
function buildingLooks(world: World): ReadonlyMap<number, BuildingLook> {
  let m = looksOf.get(world);
  if (!m) {
    const looks = new Map<number, BuildingLook>();
    for (const b of world.osm?.buildings ?? []) if (b.look) for (const id of b.objectIds) looks.set(id, b.look);
    looksOf.set(world, (m = looks));
  }
  return m;
}

/**
 * Bakes one chunk of the world to splats (deterministic: a pure function of the world, the grid,
 * the id and the options).
 *
 * @throws RangeError when `id` is not a chunk of `grid`.
 */
export function bakeChunk(world: World, grid: ChunkGrid, id: number, options: BakeOptions = {}): BakedChunk {
  if (!Number.isInteger(id) || id < 0 || id >= grid.nx * grid.ny) throw new RangeError(`bakeChunk: no chunk ${id} in a ${grid.nx}×${grid.ny} grid`);
  const box = chunkSquare(grid, id);
  const seed = deriveSeed(world.seed, 'bake');
  const out = new SplatBuilder();
  const fine = (options.surfaceDetail ?? DEFAULT_SURFACE_DETAIL) === 'fine';
  bakeGroundZones(world, box, seed, out, fine ? FINE_ZONES : undefined);
  if (fine) bakeFinePaving(world, box, seed, out);
  bakeCurbFaces(world, box, seed, out, fine);
  bakeLaneMarkings(world, box, seed, out);
  bakeZebraStripes(world, box, seed, out);
  bakeSlabJoints(world, box, seed, out, fine);
  const signs = signTexts(world);
  const looks = buildingLooks(world);
  for (const ob of world.obstacles) {
    if (!inHalfOpenBox(box, ob.centre[0], ob.centre[1])) continue;
    if (ob.kind === 'building') bakeBuilding(ob, world.curbHeight, world.seed, out, signs.get(ob.id), options.signStyle ?? DEFAULT_SIGN_STYLE, fine ? 'fine' : 'coarse', looks.get(ob.id) ?? null);
    else bakeFurniture(world, ob, groundHeight(world, ob.centre[0], ob.centre[1]), seed, out);
  }
  const origin: [number, number, number] = [box[0], box[1], 0];
  return { id, ix: id % grid.nx, iy: Math.floor(id / grid.nx), origin, cloud: out.toCloud(origin) };
}

/** Options of {@link selectChunks}. */
export interface ChunkSelectOptions {
  /** Horizontal distance from the eye beyond which chunks are dropped, metres (default 60). */
  viewDistance?: number;
  /** Skip the frustum test (keep every chunk within the view distance). */
  noFrustum?: boolean;
}

/**
 * Chunks a camera can see: within `viewDistance` metres (horizontal distance from the eye to the
 * chunk's grown square) and not entirely outside one of the frustum's side, top, bottom or near
 * planes (conservative test of the chunk's 3D bounds). Sorted by distance, nearest first.
 *
 * @throws Error from `cameraModel` for an invalid camera.
 */
export function selectChunks(grid: ChunkGrid, camera: PinholeCamera, options: ChunkSelectOptions = {}): number[] {
  const vd = options.viewDistance ?? DEFAULT_VIEW_DISTANCE;
  const m = cameraModel(camera);
  const [ex, ey] = camera.eye;
  const picked: [number, number][] = [];
  const n = grid.nx * grid.ny;
  for (let id = 0; id < n; id++) {
    const b = grid.bounds.subarray(id * 6, id * 6 + 6);
    const dx = Math.max(b[0] - ex, 0, ex - b[3]), dy = Math.max(b[1] - ey, 0, ey - b[4]);
    const d = Math.hypot(dx, dy);
    if (d > vd) continue;
    if (!options.noFrustum && boxOutsideFrustum(m, b)) continue;
    picked.push([id, d]);
  }
  picked.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  return picked.map((p) => p[0]);
}

/**
 * Concatenates baked chunks into one cloud in world coordinates (origin + local position, added in
 * f64 and rounded once to f32), SH degree 0. With `out` of sufficient capacity (`out.positions`
 * holds at least the total), writes into it and returns a cloud viewing its arrays (no allocation).
 */
export function assembleChunks(chunks: readonly BakedChunk[], out?: SplatCloud): SplatCloud {
  const total = chunks.reduce((s, c) => s + c.cloud.count, 0);
  const buf = out && out.opacities.length >= total && out.shDegree === 0 ? out : allocateSplatCloud(Math.max(total, 1), 0);
  const emissive = chunks.some((ch) => ch.cloud.emissive) ? (out?.emissive && out.emissive.length >= total ? out.emissive : new Float32Array(Math.max(total, 1))) : undefined;
  let o = 0;
  for (const ch of chunks) {
    const c = ch.cloud;
    if (emissive) {
      if (c.emissive) emissive.set(c.emissive.subarray(0, c.count), o);
      else emissive.fill(0, o, o + c.count);
    }
    for (let i = 0; i < c.count; i++) {
      buf.positions[3 * (o + i)] = c.positions[3 * i] + ch.origin[0];
      buf.positions[3 * (o + i) + 1] = c.positions[3 * i + 1] + ch.origin[1];
      buf.positions[3 * (o + i) + 2] = c.positions[3 * i + 2] + ch.origin[2];
    }
    buf.scales.set(c.scales.subarray(0, 3 * c.count), 3 * o);
    buf.rotations.set(c.rotations.subarray(0, 4 * c.count), 4 * o);
    buf.opacities.set(c.opacities.subarray(0, c.count), o);
    buf.shDc.set(c.shDc.subarray(0, 3 * c.count), 3 * o);
    o += c.count;
  }
  return {
    count: total,
    positions: buf.positions.subarray(0, 3 * total),
    scales: buf.scales.subarray(0, 3 * total),
    rotations: buf.rotations.subarray(0, 4 * total),
    opacities: buf.opacities.subarray(0, total),
    shDc: buf.shDc.subarray(0, 3 * total),
    shDegree: 0,
    shRest: new Float32Array(0),
    ...(emissive ? { emissive: emissive.subarray(0, total) } : {}),
  };
}

/**
 * A world baked lazily chunk by chunk, with the visible set assembled into one reusable cloud.
 *
 * Owns a cache of baked chunks (baked on first sight, kept) and a capacity-grown assembly buffer.
 * `view(camera)` re-packs only when the visible set changes; otherwise it returns the previous
 * cloud with `changed: false`, so the caller re-uploads to the GPU only then. CPU only (runs in
 * Node and in the page).
 */
export class ChunkedWorld implements SplatBackground {
  readonly grid: ChunkGrid;
  private readonly cache = new Map<number, BakedChunk>();
  private assembly: SplatCloud | null = null;
  private visibleKey = '';
  private current: SplatCloud | null = null;

  /**
   * @param options how chunks are baked ({@link bakeChunk}).
   * @throws RangeError when `chunkSize` is outside [8, 512] m.
   */
  constructor(readonly world: World, chunkSize = DEFAULT_CHUNK_SIZE, private readonly options: BakeOptions = {}) {
    this.grid = chunkGrid(world, chunkSize);
  }

  /** The baked chunk `id` (baked on first request, then cached). */
  chunk(id: number): BakedChunk {
    let c = this.cache.get(id);
    if (!c) {
      c = bakeChunk(this.world, this.grid, id, this.options);
      this.cache.set(id, c);
    }
    return c;
  }

  /** Number of chunks baked so far. */
  get bakedCount(): number {
    return this.cache.size;
  }

  /**
   * The splats visible from `camera`: chunk ids (nearest first), the assembled cloud (world
   * coordinates) and whether it changed since the previous call.
   */
  view(camera: PinholeCamera, options: ChunkSelectOptions = {}): { ids: number[]; cloud: SplatCloud; changed: boolean } {
    const ids = selectChunks(this.grid, camera, options);
    const key = [...ids].sort((a, b) => a - b).join(',');
    if (this.current && key === this.visibleKey) return { ids, cloud: this.current, changed: false };
    const chunks = ids.map((id) => this.chunk(id));
    const total = chunks.reduce((s, c) => s + c.cloud.count, 0);
    if (!this.assembly || this.assembly.opacities.length < total) this.assembly = allocateSplatCloud(Math.max(1, Math.ceil(total * 1.25)), 0);
    this.current = assembleChunks(chunks, this.assembly);
    this.visibleKey = key;
    return { ids, cloud: this.current, changed: true };
  }
}
