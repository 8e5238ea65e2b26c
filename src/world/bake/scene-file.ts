/**
 * Scanned-scene files (`scenes/*.json`): a real 3DGS capture plus what the simulator needs to use
 * it as a sidewalk world — the transform from the capture frame to the world frame (Z up, metres),
 * annotated walkable polygons (sidewalk, crosswalk), static obstacle polygons and the ground height.
 *
 * ```json
 * {
 *   "format": "curbside-scene", "version": 1,
 *   "name": "fruit-drops",
 *   "capture": "../../shared/data/splats/fruit_drops_minimal.ply",   // relative to this file
 *   "transform": { "scale": 4, "rotation": [0.7071, -0.7071, 0, 0], "translation": [0, 0, 0.6] },
 *   //   or { "matrix": [16 numbers, row-major 4×4, a similarity: uniform scale × rotation + translation] }
 *   "groundHeight": 0.15,
 *   "bounds": [-10, -6, 10, 6],                                      // optional; default: walkable ∪ obstacles + 2 m
 *   "walkable": { "sidewalk": [{ "outer": [[x, y], …], "holes": [] }], "crosswalk": [] },
 *   "obstacles": [{ "kind": "building", "label": "fruit stall", "polygon": [[x, y], …], "height": 1.2 }],
 *   "camera": { "eye": [x, y, z], "target": [x, y, z] },             // optional default view
 *   "road": [{ "outer": [[x, y], …], "holes": [] }],                 // version 2, optional: drawn roads (not walkable)
 *   "points": [{ "name": "north corner", "kind": "start", "position": [x, y] }],  // version 2: start | goal | landmark
 *   "georeference": { "offset": [E, N, U], "crs": "EPSG:32749" },    // version 2, optional
 *   "occupancy": { "cell": 0.25, "minHeight": 0.3, "maxHeight": 2, "minOpacity": 0.5, "minSplats": 3 },
 *                                  // version 2, optional: how the obstacles labelled "from the scan" were derived
 *   "source": { "bake": { "world": 1, "size": 150, "shDegree": 0, "crop": [minX, minY, maxX, maxY] } }
 *                                  // version 2, optional: the capture is `npm run bake` output; rebaked when missing
 * }
 * ```
 *
 * `georeference.offset` records where the local world origin sits in a projected frame (metres):
 * a world point p is at p + offset there. Every subsystem works in the local frame (float32 on the
 * GPU); the offset is carried for export and for users' own maps. The scene editor
 * (`editor.html`) writes version 2. Obstacles it proposes from the capture (`src/world/scan-occupancy.ts`:
 * an occupancy grid of opaque splats at body height above the ground) are ordinary obstacles
 * labelled "from the scan", with the grid's parameters in `occupancy`.
 *
 * The transform maps a capture point p to world `s · R p + t` (R from the unit quaternion
 * `rotation` = (w, x, y, z), or from the matrix). Splats transform as: positions by the full map,
 * rotations q → q_R ⊗ q, scales × s, and higher SH bands rotated by R (see `src/splats/sh-rotation.ts`;
 * degree 0 needs nothing). Reflections and non-uniform scales are refused (a Gaussian's covariance
 * would need a full 3×3 map, and SH a reflection).
 *
 * Polygons are in the world frame, metres, rings as `[x, y]` lists (any orientation; normalised to
 * outer CCW, holes CW). Obstacles are convex rings (the ORCA obstacle form) with a height above the
 * ground; `kind` is one of the generator's object kinds (default `building`: a solid obstacle).
 */
import { z } from 'zod';
import type { PinholeCamera } from '../../gpu/camera';
import { allocateSplatCloud, type SplatCloud } from '../../splats/splat-cloud';
import { boxOf, ringProblem, signedArea, type Box, type MultiPolygon, type Ring, type Vec2 } from '../geometry';
import type { ObjectKind, StaticObject } from '../objects';
import type { World } from '../world';
import { rotateShRest } from '../../splats/sh-rotation';
import { UserError } from '../../core/user-error';
import { isConvexRing } from '../../core/geometry2d';

/** Format tag and version of scene files (version 2 added `road`, `points` and `georeference`; version 1 files read unchanged). */
export const SCENE_FORMAT = 'curbside-scene';
export const SCENE_VERSION = 2;

/** Kinds of named points: start and goal candidates for scenarios, landmarks for tasks. */
export const SCENE_POINT_KINDS = ['start', 'goal', 'landmark'] as const;

const vec2 = z.tuple([z.number().finite(), z.number().finite()]);
const vec3 = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()]);
const ring = z.array(vec2).min(3, 'a ring needs at least 3 vertices');
const polygon = z.object({ outer: ring, holes: z.array(ring).default([]) }).strict();
const OBJECT_KINDS = ['lampPost', 'tree', 'hydrant', 'bench', 'bin', 'bollard', 'signPost', 'stopSign', 'busShelter', 'building', 'kiosk', 'statue', 'fountain', 'bikeRack', 'postBox'] as const;

const transform = z.union([
  z.object({ matrix: z.array(z.number().finite()).length(16, 'expected 16 numbers (row-major 4×4)') }).strict(),
  z.object({
    scale: z.number().positive().default(1),
    rotation: z.tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()]).default([1, 0, 0, 0]),
    translation: vec3.default([0, 0, 0]),
  }).strict(),
]);

/** zod schema of a scene file (see the module comment for the format). */
export const SceneFileSchema = z.object({
  format: z.literal(SCENE_FORMAT),
  version: z.union([z.literal(1), z.literal(SCENE_VERSION)]),
  name: z.string().min(1),
  capture: z.string().min(1).regex(/\.(ply|splat|spz|glb|gltf)$/i, 'expected a .ply, .splat, .spz, .glb or .gltf file'),
  transform,
  groundHeight: z.number().finite().default(0),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).refine((b) => b[2] > b[0] && b[3] > b[1], 'expected [minX, minY, maxX, maxY] with max > min').optional(),
  walkable: z.object({ sidewalk: z.array(polygon).default([]), crosswalk: z.array(polygon).default([]) }).strict(),
  obstacles: z.array(z.object({
    kind: z.enum(OBJECT_KINDS).default('building'),
    label: z.string().optional(),
    polygon: ring,
    height: z.number().positive(),
  }).strict()).default([]),
  camera: z.object({ eye: vec3, target: vec3, fovYDeg: z.number().gt(0).lt(180).optional() }).strict().optional(),
  road: z.array(polygon).default([]),
  points: z.array(z.object({ name: z.string().min(1), kind: z.enum(SCENE_POINT_KINDS), position: vec2 }).strict()).default([]),
  georeference: z.object({ offset: vec3, crs: z.string().min(1).optional() }).strict().optional(),
  source: z.object({
    bake: z.object({
      world: z.number().int().nonnegative(), size: z.number().min(150).max(2000), shDegree: z.number().int().min(0).max(3),
      crop: z.tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()]).optional(),
    }).strict(),
  }).strict().optional(),
  occupancy: z.object({
    cell: z.number().positive(), minHeight: z.number().finite(), maxHeight: z.number().finite(),
    minOpacity: z.number().min(0).max(1), minSplats: z.number().int().positive(),
  }).strict().optional(),
}).strict();

/** A parsed, validated scene file. */
export type SceneFile = z.infer<typeof SceneFileSchema>;

/** A scene-file error: `file: field.path: problem`. */
export class SceneFileError extends UserError {
  constructor(readonly file: string, readonly field: string, problem: string) {
    super(`${file}: ${field}: ${problem}`);
    this.name = 'SceneFileError';
  }
}

/** A similarity transform capture → world: `p_w = scale · R p_c + t`; R row-major 3×3. */
export interface SceneTransform {
  scale: number;
  rotation: Float64Array;
  /** The same rotation as a unit quaternion (w, x, y, z). */
  quaternion: [number, number, number, number];
  translation: [number, number, number];
}

function quatToMatrix(q: readonly number[]): Float64Array {
  const [w, x, y, z] = q;
  return Float64Array.from([
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ]);
}

function matrixToQuat(m: ArrayLike<number>): [number, number, number, number] {
  const tr = m[0] + m[4] + m[8];
  let w: number, x: number, y: number, z: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = 0.25 * s; x = (m[7] - m[5]) / s; y = (m[2] - m[6]) / s; z = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    w = (m[7] - m[5]) / s; x = 0.25 * s; y = (m[1] + m[3]) / s; z = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    w = (m[2] - m[6]) / s; x = (m[1] + m[3]) / s; y = 0.25 * s; z = (m[5] + m[7]) / s;
  } else {
    const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
    w = (m[3] - m[1]) / s; x = (m[2] + m[6]) / s; y = (m[5] + m[7]) / s; z = 0.25 * s;
  }
  const l = Math.hypot(w, x, y, z) * (w < 0 ? -1 : 1);
  return [w / l, x / l, y / l, z / l];
}

/**
 * The transform of a parsed scene file.
 *
 * @throws SceneFileError (field `transform.rotation` or `transform.matrix`) for a zero quaternion,
 *   a matrix whose last row is not (0, 0, 0, 1), a reflection, or a non-uniform scale / shear.
 */
export function sceneTransform(scene: Pick<SceneFile, 'transform'>, file = 'scene'): SceneTransform {
  const t = scene.transform;
  if ('matrix' in t) {
    const m = t.matrix;
    if (Math.abs(m[12]) > 1e-9 || Math.abs(m[13]) > 1e-9 || Math.abs(m[14]) > 1e-9 || Math.abs(m[15] - 1) > 1e-9) throw new SceneFileError(file, 'transform.matrix', 'the last row must be 0, 0, 0, 1 (an affine map)');
    const M = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
    const det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6]);
    if (!(det > 0)) throw new SceneFileError(file, 'transform.matrix', `determinant ${det.toPrecision(3)} ≤ 0 (a reflection or a degenerate map)`);
    const s = Math.cbrt(det);
    const R = Float64Array.from(M.map((v) => v / s));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const dot = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
      if (Math.abs(dot - (i === j ? 1 : 0)) > 1e-4) throw new SceneFileError(file, 'transform.matrix', 'the 3×3 part is not a rotation times a uniform scale (shear or non-uniform scale)');
    }
    return { scale: s, rotation: R, quaternion: matrixToQuat(R), translation: [m[3], m[7], m[11]] };
  }
  const l = Math.hypot(...t.rotation);
  if (!(l > 1e-9)) throw new SceneFileError(file, 'transform.rotation', 'quaternion (w, x, y, z) must be non-zero');
  const q = t.rotation.map((v) => v / l) as [number, number, number, number];
  return { scale: t.scale, rotation: quatToMatrix(q), quaternion: q, translation: [...t.translation] };
}

/**
 * Parses and validates a scene file's text.
 *
 * @param file names the file in errors.
 * @throws SceneFileError `file: field.path: problem` on invalid JSON (field `(root)`), schema
 *   violations, self-intersecting or degenerate rings, non-convex obstacles, or a bad transform.
 */
export function parseSceneFile(text: string, file = 'scene'): SceneFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SceneFileError(file, '(root)', `invalid JSON: ${(e as Error).message}`);
  }
  const parsed = SceneFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SceneFileError(file, issue.path.join('.') || '(root)', issue.message);
  }
  const scene = parsed.data;
  const checkRing = (r: Ring, field: string): void => {
    const p = ringProblem(r);
    if (p) throw new SceneFileError(file, field, p);
  };
  const checkPolygons = (ps: SceneFile['road'], field: string): void => ps.forEach((p, i) => {
    checkRing(p.outer as Ring, `${field}.${i}.outer`);
    p.holes.forEach((h, j) => checkRing(h as Ring, `${field}.${i}.holes.${j}`));
  });
  for (const k of ['sidewalk', 'crosswalk'] as const) checkPolygons(scene.walkable[k], `walkable.${k}`);
  checkPolygons(scene.road, 'road');
  scene.obstacles.forEach((o, i) => {
    checkRing(o.polygon as Ring, `obstacles.${i}.polygon`);
    if (!isConvexRing(o.polygon as Ring)) throw new SceneFileError(file, `obstacles.${i}.polygon`, 'obstacle polygons must be convex');
  });
  sceneTransform(scene, file);
  return scene;
}


const ccw = (r: Ring): Ring => (signedArea(r) < 0 ? r.slice().reverse() : r.slice());
const cw = (r: Ring): Ring => (signedArea(r) > 0 ? r.slice().reverse() : r.slice());

/**
 * The scene's annotation as a {@link World} the world queries understand (`zoneAt`, `isWalkable`,
 * `groundHeight`, `obstaclesAt`, the map renderer): sidewalk, crosswalk and road zones from the
 * annotation, every other zone empty, obstacles as static objects (zone `lot`, street −1), no
 * street network, navigation graph or blocks. The ground is flat at `groundHeight`, stored as
 * `curbHeight`, so `groundHeight()` returns it on every point that is not road (road polygons are at z = 0).
 * `seed` is 0 and `size` the larger side of the bounds.
 */
export function sceneWorld(scene: SceneFile): World {
  const mp = (ps: SceneFile['walkable']['sidewalk']): MultiPolygon => ps.map((p) => ({ outer: ccw(p.outer as Ring), holes: p.holes.map((h) => cw(h as Ring)) }));
  const obstacles: StaticObject[] = scene.obstacles.map((o, id) => {
    const fp = ccw(o.polygon as Ring);
    const c: Vec2 = [fp.reduce((s, p) => s + p[0], 0) / fp.length, fp.reduce((s, p) => s + p[1], 0) / fp.length];
    return {
      id, kind: o.kind as ObjectKind, footprint: fp, centre: c, yaw: 0, height: o.height,
      radius: Math.max(...fp.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1]))), zone: 'lot', streetId: -1, canopyRadius: 0, front: [0, 0],
    };
  });
  let bounds: Box;
  if (scene.bounds) bounds = [...scene.bounds];
  else {
    const pts: Vec2[] = [...scene.walkable.sidewalk, ...scene.walkable.crosswalk].flatMap((p) => p.outer as Ring).concat(obstacles.flatMap((o) => o.footprint));
    const b = pts.length ? boxOf(pts) : ([-1, -1, 1, 1] as Box);
    bounds = [b[0] - 2, b[1] - 2, b[2] + 2, b[3] + 2];
  }
  return {
    format: 'curbside-world', version: 1, seed: 0, size: Math.max(bounds[2] - bounds[0], bounds[3] - bounds[1]), bounds,
    zones: { road: mp(scene.road), curb: [], verge: [], sidewalk: mp(scene.walkable.sidewalk), frontage: [], crosswalk: mp(scene.walkable.crosswalk) },
    crosswalks: [], curbRamps: [], obstacles, nav: { nodes: [], edges: [] }, blocks: [], network: { junctions: [], streets: [] },
    curbHeight: scene.groundHeight,
  };
}

/**
 * Applies a capture → world transform to a cloud (a new cloud; the input is not modified):
 * positions `s·R p + t` (computed in f64), rotations `q_R ⊗ q`, scales × s, opacities and SH dc
 * unchanged, higher SH bands rotated by R.
 */
export function transformSplatCloud(cloud: SplatCloud, t: SceneTransform): SplatCloud {
  const out = allocateSplatCloud(cloud.count, cloud.shDegree);
  const R = t.rotation, s = t.scale;
  const [qw, qx, qy, qz] = t.quaternion;
  for (let i = 0; i < cloud.count; i++) {
    const x = cloud.positions[3 * i], y = cloud.positions[3 * i + 1], zc = cloud.positions[3 * i + 2];
    for (let k = 0; k < 3; k++) out.positions[3 * i + k] = s * (R[3 * k] * x + R[3 * k + 1] * y + R[3 * k + 2] * zc) + t.translation[k];
    for (let k = 0; k < 3; k++) out.scales[3 * i + k] = cloud.scales[3 * i + k] * s;
    const bw = cloud.rotations[4 * i], bx = cloud.rotations[4 * i + 1], by = cloud.rotations[4 * i + 2], bz = cloud.rotations[4 * i + 3];
    out.rotations[4 * i] = qw * bw - qx * bx - qy * by - qz * bz;
    out.rotations[4 * i + 1] = qw * bx + qx * bw + qy * bz - qz * by;
    out.rotations[4 * i + 2] = qw * by - qx * bz + qy * bw + qz * bx;
    out.rotations[4 * i + 3] = qw * bz + qx * by - qy * bx + qz * bw;
  }
  out.opacities.set(cloud.opacities);
  out.shDc.set(cloud.shDc);
  out.shRest.set(cloud.shRest);
  rotateShRest(out.shRest, out.count, out.shDegree, R);
  return out;
}

/** A loaded scene: the parsed file, its world (annotation) and the capture in the world frame. */
export interface LoadedScene {
  scene: SceneFile;
  world: World;
  transform: SceneTransform;
  /** The capture's splats in the world frame (Z up, metres). */
  cloud: SplatCloud;
}

/**
 * Builds a loaded scene from a parsed file and its capture's splats (loaded by the caller with
 * `loadSplatFile`, since where bytes come from differs between Node and the page).
 */
export function loadScene(scene: SceneFile, capture: SplatCloud, file = 'scene'): LoadedScene {
  const transform = sceneTransform(scene, file);
  return { scene, world: sceneWorld(scene), transform, cloud: transformSplatCloud(capture, transform) };
}

/**
 * The scene's default camera: its `camera` when given, else 6 m from the bounds' centre along −y
 * at 0.8 m above the ground, looking at the centre. World frame, Z up.
 */
export function sceneCamera(scene: SceneFile, world: World, widthPx: number, heightPx: number): PinholeCamera {
  const b = world.bounds;
  const c: [number, number, number] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, scene.groundHeight + 0.5];
  const eye = scene.camera?.eye ?? [c[0], c[1] - 6, scene.groundHeight + 0.8];
  return { eye: [...eye], target: scene.camera?.target ?? c, up: [0, 0, 1], fovYDeg: scene.camera?.fovYDeg ?? 60, width: widthPx, height: heightPx, near: 0.02, far: 500 };
}
