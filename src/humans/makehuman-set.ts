/**
 * The shipped MakeHuman body set (CC0; `assets/humans/`, see its LICENSE.md): hm08 decimated into
 * three distance levels of detail (LODs) with skin weights on SMPL's 24 joints and five shape
 * directions (`gender`, `age`, `weight`, `muscle`, `height`; body-set-build.ts). The files are
 * JSON imported as modules, so the same code loads them in Node (tsx) and in the browser (Vite).
 *
 * Identity across LODs: every LOD vertex is an hm08 vertex (`sourceVertex`) carrying that
 * vertex's own skin weights and shape offsets, and the LODs share one shape space, so the same β
 * give the same body at every LOD (only with fewer vertices).
 */
import lod0 from '../../assets/humans/makehuman-lod0.json';
import lod1 from '../../assets/humans/makehuman-lod1.json';
import lod2 from '../../assets/humans/makehuman-lod2.json';
import type { BodyModel } from './body-model';
import { decodeBodyLod, type BodyLod, type BodyLodFile } from './body-set-format';
import { headFrame, materialVertexData } from './pedestrian-material';

/** Number of shipped LODs. */
export const MAKEHUMAN_LOD_COUNT = 3;

/**
 * Distances from the eye (metres) at which the set's next LOD takes over (PedestrianLodGroup's
 * `switchDistances`): LOD0 nearer than 7 m, LOD1 to 15 m, LOD2 beyond. At 640×480 and a 60° field of
 * view a walker 7 m away is about 140 px tall, where LOD1's 800 vertices show no facets.
 */
export const MAKEHUMAN_LOD_DISTANCES: readonly number[] = [7, 15];

const FILES: readonly BodyLodFile[] = [lod0, lod1, lod2] as BodyLodFile[];
const cache: (BodyLod | undefined)[] = [];

/**
 * One LOD of the shipped set (decoded once, then cached; callers must not modify it).
 *
 * @param level 0 (≈ 2,200 vertices, near), 1 (≈ 800), 2 (≈ 300, far).
 * @throws RangeError for a level outside 0 … MAKEHUMAN_LOD_COUNT − 1.
 */
export function makeHumanLod(level: number): BodyLod {
  if (!(Number.isInteger(level) && level >= 0 && level < MAKEHUMAN_LOD_COUNT)) {
    throw new RangeError(`makeHumanLod: level ${level} outside 0 … ${MAKEHUMAN_LOD_COUNT - 1}`);
  }
  cache[level] ??= decodeBodyLod(FILES[level]);
  return cache[level];
}

/** The body model of LOD `level` (default 0, the default pedestrian body). See {@link makeHumanLod}. */
export function makeHumanBody(level = 0): BodyModel {
  return makeHumanLod(level).model;
}

/** All LODs' body models, near to far. */
export function makeHumanBodies(): BodyModel[] {
  return Array.from({ length: MAKEHUMAN_LOD_COUNT }, (_, k) => makeHumanBody(k));
}

const materials: (ArrayBuffer | undefined)[] = [];

/**
 * The material vertex buffer of LOD `level` (pedestrian-material.ts) with LOD0's head frame, so
 * hair lines and garment cuts sit at the same place on the body at every LOD (pass it as
 * `PedestrianPassOptions.material`).
 *
 * @throws RangeError for a level outside 0 … MAKEHUMAN_LOD_COUNT − 1.
 */
export function makeHumanMaterial(level = 0): ArrayBuffer {
  materials[level] ??= materialVertexData(makeHumanBody(level), headFrame(makeHumanBody(0)));
  return materials[level];
}
